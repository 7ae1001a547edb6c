"""Sentences for language models: every action and every view of every ruleset renders."""

from __future__ import annotations

import random

import pytest

from nightcall.agents.action_space import action_space
from nightcall.agents.render import Names, describe_action, describe_event, describe_view
from nightcall.agents.table import Table
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import all_rulesets

RULESETS = sorted(all_rulesets())


def test_one_night_actions_read_as_sentences() -> None:
    names = Names(["ann", "bob", "cid"], ["doppelganger", "werewolf", "seer"], me=0,
                  ruleset="onuw")
    assert describe_action(Action("vote", 1), names) == "vote for bob"
    assert describe_action(Action("swap_two", 1, 2), names) == "swap the cards of bob and cid"
    assert describe_action(Action("look_center", 0, 2), names) == (
        "look at center cards 1 and 3"
    )
    assert describe_action(Action("claim", 2), names) == 'say "I am the seer"'
    assert describe_action(Action("claim_saw", 4, 1), names) == (
        'say "I saw that center card 2 is the werewolf"'
    )
    assert describe_action(Action("claim_swap", 0, 1), names) == 'say "I swapped my card and bob"'
    # In someone's words the speaker's own card is "my card" (the one renderer's
    # sentences since issue #13: the reader's own card is "your card").
    assert describe_event({"kind": "claim", "seat": 1, "swapped": [0, 1]}, names) == (
        "bob says: “I swapped your card and my card.”"
    )
    assert describe_event({"kind": "claim", "seat": 2, "saw": 3, "role": "seer"}, names) == (
        "cid says: “I saw center card 1: the Seer.”"
    )
    assert describe_action(Action("tap", 2), names) == "tap: cid"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_action_of_the_space_renders(ruleset: str) -> None:
    rs = all_rulesets()[ruleset]
    players = max(5, rs.min_players)
    names = Names([f"p{i}" for i in range(players)], rs.role_ids, me=0, ruleset=ruleset)
    for action in action_space(rs, players, talk=True):
        text = describe_action(action, names)
        assert text and "{" not in text, action


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_view_of_a_game_renders(ruleset: str) -> None:
    rs = all_rulesets()[ruleset]
    players = max(5, rs.min_players)
    table = Table.deal(ruleset, players, seed=3)
    bot = RandomBot(3)
    rng = random.Random(3)
    while True:
        seat = rng.randrange(players)
        view = table.observe(seat).view
        lines = describe_view(view, Names(table.names, rs.role_ids, seat, ruleset))
        assert lines[0].startswith(f"You are {table.names[seat]} (seat {seat})")
        assert len(lines) >= 3 + len(view["events"]) - 1
        if table.is_over():
            break
        acting = min(table.to_act())
        choice = bot.choose(table.ruleset.view(table.state, acting))
        assert choice is not None
        table.play(acting, choice)
