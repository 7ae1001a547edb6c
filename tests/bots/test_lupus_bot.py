"""The Lupus reasoning bot: legal play, secrets kept, and better than random."""

from __future__ import annotations

import random
from typing import Any

from nightcall.bots import make_bot
from nightcall.bots.lupus_bot import LupusBot, Table
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import get_ruleset
from nightcall.sim.parallel import simulate
from nightcall.sim.runner import Setup, play

RS = get_ruleset("lupus")


def test_lupus_bots_play_whole_games() -> None:
    for g in range(12):
        players = 8 + g % 8
        deck = RS.default_deck(players, "extra" if g % 2 else None)
        st = RS.deal([f"P{i}" for i in range(players)], deck, g)
        play(RS, st, [make_bot("reasoning", "lupus", g * 50 + s) for s in range(players)])
        assert RS.is_over(st)


def _decisions(deal: list[str], seat: int) -> list[tuple[Any, Any]]:
    """Every (view, action) of ``seat`` in a game of seeded reasoning bots."""
    st = RS.new_game([f"P{i}" for i in range(len(deal))], deal)
    bots = [LupusBot(7 + s) for s in range(len(deal))]
    out = []
    for _ in range(5000):
        if RS.is_over(st):
            break
        for s in RS.waiting_for(st):
            view = RS.view(st, s)
            action = bots[s].choose(view)
            if s == seat:
                out.append((view, action))
            if action is not None:
                RS.apply(st, s, action)
    return out


def test_lupus_bot_cannot_read_what_its_seat_may_not_know() -> None:
    """Swap two hidden human roles between other players: while the seat's view is
    the same in both games, so is every decision."""
    same_views = 0
    deck = RS.default_deck(10)
    for g in range(6):
        import random

        deal = list(deck)
        random.Random(g).shuffle(deal)
        seat = 0
        others = [s for s in range(1, 10) if deal[s] != "werewolf"]
        roles = {deal[s] for s in others}
        x = next(s for s in others if deal[s] != "villager") if roles - {"villager"} else None
        y = next((s for s in others if deal[s] == "villager"), None)
        if x is None or y is None or deal[seat] == "seer":
            continue
        swapped = list(deal)
        swapped[x], swapped[y] = swapped[y], swapped[x]
        for (va, aa), (vb, ab) in zip(_decisions(deal, seat), _decisions(swapped, seat),
                                      strict=False):
            if va != vb:
                break
            same_views += 1
            assert aa == ab
    assert same_views >= 5


def test_table_reads_the_seers_answers() -> None:
    view = {"seat": 2, "role": "seer", "players": ["a", "b", "c", "d"],
            "alive": ["a", "b", "c", "d"], "roles_in_play": ["werewolf", "seer", "villager",
                                                              "villager"],
            "events": [{"kind": "seen", "seat": 1, "werewolf": True},
                       {"kind": "seen", "seat": 3, "werewolf": False}]}
    t = Table(view)
    assert t.wolf == {1} and t.human == {2, 3}
    assert t.beliefs(2, read_table=True) == {0: 0.0, 1: 1.0, 3: 0.0}


def test_reasoning_village_wins_more_often_than_random_village() -> None:
    deck = tuple(RS.default_deck(9))
    rand, _ = simulate(Setup("lupus", 9, deck, "random", "random"), 150, seed=2, workers=1)
    smart, _ = simulate(Setup("lupus", 9, deck, "reasoning", "random"), 150, seed=2, workers=1)
    assert smart.team_wins["village"] > rand.team_wins["village"] + 10


def _wolf_view(events: list[dict[str, Any]]) -> dict[str, Any]:
    players = ["a", "b", "c", "d", "e", "f"]
    return {"seat": 0, "role": "werewolf", "players": players, "alive": players,
            "roles_in_play": ["werewolf", "werewolf", "seer", "werehamster", "villager",
                              "villager"],
            "events": [{"kind": "wolves", "seats": [0, 1]}, *events]}


def test_a_wolf_remembers_a_victim_who_lived_through_the_dawn() -> None:
    """Picked by the pack, alive at dawn: the Werehamster or a guarded player
    (rulebook, "Variants": the Werehamster does not die of the werewolves)."""
    view = _wolf_view([
        {"kind": "victim", "seat": 3}, {"kind": "dawn", "night": 1, "dead": [], "last": None},
        {"kind": "victim", "seat": 4}, {"kind": "dawn", "night": 2, "dead": [4], "last": 4},
        {"kind": "victim", "seat": 5},  # tonight's, no dawn yet: nothing learnt
    ])
    assert Table(view).spared == {3}
    others = {**view, "role": "villager", "seat": 2}  # only the pack sees "victim"
    assert Table({**others, "events": []}).spared == set()
    for seed in range(30):
        bot = LupusBot(seed)
        kill = bot.decide(view, [Action("kill", s) for s in (2, 3, 5)])
        assert kill.a != 3, seed  # not again: the pick would be wasted
        accuse = bot.decide(view, [Action("accuse", s) for s in (2, 3, 5)])
        assert accuse.a == 3, seed  # it must die for the pack to win
    # Only spared players left to pick: the pack still picks one of them.
    assert LupusBot(0).decide(view, [Action("kill", 3)]).a == 3


def test_in_whole_games_the_pack_does_not_pick_a_spared_victim_again() -> None:
    deal = ["werewolf", "werewolf", "seer", "medium", "possessed", "bodyguard", "harlot",
            "werehamster"] + ["villager"] * 7
    kills_after_a_spared_victim = 0
    for g in range(40):
        order = list(deal)
        random.Random(g).shuffle(order)
        st = RS.new_game([f"P{i}" for i in range(15)], order)
        bots = [LupusBot(g * 100 + s) for s in range(15)]
        while not RS.is_over(st):
            for s in RS.waiting_for(st):
                view = RS.view(st, s)
                action = bots[s].choose(view)
                assert action is not None
                spared = Table(view).spared
                if action.kind == "kill" and spared:
                    kills_after_a_spared_victim += 1
                    fresh = [a for a in view["legal"] if a["a"] not in spared]
                    assert action.a not in spared or not fresh, (g, s, action, spared)
                RS.apply(st, s, action)
    assert kills_after_a_spared_victim >= 10  # the games did test something
