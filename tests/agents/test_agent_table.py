"""The message pipeline of a table: refusals change nothing, observations hold only views."""

from __future__ import annotations

import json

import pytest

from nightcall import protocol as p
from nightcall.agents.table import Table
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.actions import Action
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import all_rulesets


def master(table: Table) -> str:
    """Everything about the game, to check that a refusal changed nothing."""
    return json.dumps(table.ruleset.view(table.state, MASTER), sort_keys=True)


def act(table: Table, seat: int, action: Action, state_id: int | None = None) -> p.Error | None:
    return table.submit(seat, p.ActionMessage(p.ActionJSON.of(action), state_id))


def to_day(table: Table, seed: int = 0) -> None:
    bot = RandomBot(seed)
    while table.ruleset.view(table.state, None)["phase"] == "night":
        seat = min(table.to_act())
        action = bot.choose(table.ruleset.view(table.state, seat))
        assert action is not None
        table.play(seat, action)


def test_observation_is_the_rulesets_view_of_that_seat_only() -> None:
    table = Table.deal("onuw", 5, seed=11)
    for seat in range(5):
        obs = table.observe(seat)
        assert obs.view == table.ruleset.view(table.state, seat)
        assert obs.seat == seat and obs.state_id == 1
        deals = [e for e in obs.view["events"] if e["kind"] == "deal"]
        assert deals == [{"kind": "deal", "seat": seat, "card": table.state.cards[seat]}]


def test_welcome_names_the_table_and_never_the_deal() -> None:
    table = Table.deal("onuw", 5, seed=11, masks=True)
    welcome = table.welcome(2)
    assert welcome.players == [f"player_{i}" for i in range(5)]
    assert welcome.role_ids == list(table.ruleset.role_ids)
    assert welcome.action_space is not None and len(welcome.action_space) > 0
    text = p.encode(welcome).decode()
    assert "seed" not in text and "cards" not in text


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    table = Table.deal("onuw", 5, seed=3)
    to_day(table)
    before, moves = master(table), table.moves
    error = act(table, 1, Action("vote", 1))  # a player may not vote for themselves
    assert error is not None and error.code == p.ErrorCode.ILLEGAL_ACTION
    assert "(vote 1)" in error.message and "not at themselves" in error.message
    assert master(table) == before and table.moves == moves


def test_stale_state_id_is_refused() -> None:
    table = Table.deal("onuw", 5, seed=3)
    to_day(table)
    now = table.observe(0).state_id
    before = master(table)
    error = act(table, 0, Action("abstain"), state_id=now - 1)
    assert error is not None and error.code == p.ErrorCode.STALE_STATE
    assert f"at state {now}" in error.message and error.state_id == now
    assert master(table) == before
    # Another seat's vote changes nobody else's choices (as on the websocket): seat 0's
    # answer to the observation it has stands.
    assert act(table, 1, Action("abstain")) is None
    assert table.observe(0).state_id == now
    assert act(table, 0, Action("abstain"), state_id=now) is None


def test_talk_keeps_the_state_id_and_a_claim_said_twice_in_a_row_is_refused() -> None:
    """The websocket's two rules of talk (docs/protocol.md), over stdio too: a claim
    changes nobody's choices, so it keeps every state id; then a repeat of the seat's
    previous move is refused, and the same claim after another one is heard again."""
    table = Table.deal("onuw", 5, seed=3)
    to_day(table)
    obs = table.observe(0)
    first, second = (t.to_action() for t in obs.talk[:2])
    assert act(table, 1, table.observe(1).talk[0].to_action()) is None  # another's claim
    assert table.observe(0).state_id == obs.state_id
    assert act(table, 0, first, obs.state_id) is None
    assert table.observe(0).state_id == obs.state_id
    before, moves = master(table), table.moves
    again = act(table, 0, first, obs.state_id)
    assert again is not None and again.code == p.ErrorCode.ILLEGAL_ACTION
    assert again.message == p.SAID_AGAIN and again.state_id == obs.state_id
    assert master(table) == before and table.moves == moves
    assert act(table, 0, second, obs.state_id) is None
    assert act(table, 0, first, obs.state_id) is None  # after another claim: heard again
    said = [e for e in table.observe(4).view["events"] if e["kind"] == "claim"]
    assert [e["seat"] for e in said] == [1, 0, 0, 0]
    assert act(table, 0, Action("abstain"), state_id=obs.state_id) is None  # the vote


def test_state_id_does_not_count_secret_actions_of_others() -> None:
    # A global action count would tell the Seer whether a lone Werewolf looked at
    # the center before it; the version of the Seer's own view does not.
    first_ids = set()
    for seed in range(40):
        table = Table.deal("onuw", 5, seed=seed)
        bot = RandomBot(seed)
        shown: set[int] = set()
        while not table.is_over():
            seat = min(table.to_act())
            if seat not in shown:
                shown.add(seat)
                first_ids.add(table.observe(seat).state_id)
            choice = bot.choose(table.ruleset.view(table.state, seat))
            assert choice is not None
            table.play(seat, choice)
    assert first_ids == {1}


def test_seat_with_nothing_to_do_is_told_so() -> None:
    table = Table.deal("onuw", 5, seed=3)
    acting = table.to_act()
    idle = next(s for s in range(5) if s not in acting)
    before = master(table)
    error = act(table, idle, Action("skip"))
    assert error is not None and error.code == p.ErrorCode.NOT_YOUR_TURN
    assert master(table) == before


def test_talk_is_listed_in_the_day_and_applied_as_an_action() -> None:
    table = Table.deal("onuw", 5, seed=3)
    assert table.observe(0).talk == []  # nothing to say at night
    to_day(table)
    obs = table.observe(0)
    assert obs.talk, "claims are open during the day"
    claim = obs.talk[0].to_action()
    assert act(table, 0, claim, obs.state_id) is None
    events = table.observe(4).view["events"]
    assert events[-1]["kind"] == "claim" and events[-1]["seat"] == 0


def test_game_over_refuses_more_actions_and_says_who_won() -> None:
    table = Table.deal("onuw", 5, seed=5)
    bot = RandomBot(1)
    while not table.is_over():
        seat = min(table.to_act())
        choice = bot.choose(table.ruleset.view(table.state, seat))
        assert choice is not None
        assert act(table, seat, choice) is None
    outcome = table.ruleset.outcome(table.state)
    assert outcome is not None
    for seat in range(5):
        over = table.game_over(seat)
        assert over.won == (seat in outcome.winners)
        assert "outcome" in over.view
    error = act(table, 0, Action("abstain"))
    assert error is not None and error.code == p.ErrorCode.GAME_OVER


def test_hello_records_the_agents_name() -> None:
    table = Table.deal("onuw", 4, seed=1)
    assert table.submit(2, p.Hello(name="my-bot")) is None
    assert table.agent_names == {2: "my-bot"}
    assert table.moves == 0


@pytest.mark.parametrize("players", [3, 10])
def test_mask_marks_exactly_the_legal_moves(players: int) -> None:
    table = Table.deal("onuw", players, seed=2, masks=True)
    assert table.space is not None
    bot = RandomBot(4)
    while not table.is_over():
        for seat in table.to_act():
            obs = table.observe(seat)
            assert obs.mask is not None
            marked = [table.space[i] for i, bit in enumerate(obs.mask) if bit]
            assert sorted(marked) == sorted(obs.legal)
        seat = min(table.to_act())
        choice = bot.choose(table.ruleset.view(table.state, seat))
        assert choice is not None
        table.play(seat, choice)


@pytest.mark.parametrize("ruleset", sorted(all_rulesets()))
def test_random_submissions_either_apply_or_change_nothing(ruleset: str) -> None:
    """Any seat sends any action of the game (mostly illegal) with any state id."""
    import random

    rs = all_rulesets()[ruleset]
    players = max(5, rs.min_players)
    table = Table.deal(ruleset, players, seed=4, masks=True)
    assert table.space is not None
    rng = random.Random(4)
    bot = RandomBot(4)
    refused = applied = 0
    for _ in range(3000):
        if table.is_over():
            break
        seat = rng.randrange(players)
        own = [*table.ruleset.legal_actions(table.state, seat), *table.talk(seat)]
        action = rng.choice(own if own and rng.random() < 0.3 else table.space.actions)
        state_id = rng.choice([None, table.state_id(seat), table.state_id(seat) + 1])
        before = master(table)
        error = act(table, seat, action, state_id)
        if error is None:
            applied += 1
            assert master(table) != before
        else:
            refused += 1
            assert master(table) == before, error
            assert error.message
        if rng.random() < 0.05:  # keep the game moving
            mover = min(table.to_act())
            choice = bot.choose(table.ruleset.view(table.state, mover))
            assert choice is not None
            table.play(mover, choice)
    assert refused > 0 and applied > 0
