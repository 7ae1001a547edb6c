"""The Lupus reasoning bot: legal play, secrets kept, and better than random."""

from __future__ import annotations

from typing import Any

from nightcall.bots import make_bot
from nightcall.bots.lupus_bot import LupusBot, Table
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
