"""The fast night gives the sequential night's game (issue 18; docs/rulings.md, "The
fast night"): "The outcome of a fast night is identical to the sequential night with
the same choices", with the engine's own sequential steps as the oracle.

For every round of every night the fast side asks each seat for its stages at once
(``fast.choices``, before anything is resolved) and resolves the buffered picks; the
sequential side plays the same deal call by call and, each time a seat is asked,
checks that its legal choices and its view are exactly what the fast phone was given
("the set of legal choices does not depend on anything an earlier call did", "would
not have seen anything before choosing that an earlier call could have changed").
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from nightcall.engine import fast
from nightcall.engine.actions import Action
from nightcall.engine.clock import CLOCK_SEAT, END_CALL
from nightcall.engine.fast import FastNight, split_rounds
from nightcall.engine.ruleset import get_ruleset

from .games import random_deck

MAX_STEPS = 3000
MAX_STAGES = 6


def _both(rs: Any, a: Any, b: Any, seat: int, action: Action) -> None:
    rs.apply(a, seat, action)
    rs.apply(b, seat, action)


def _plan(rs: Any, state: Any, rng: random.Random) -> tuple[dict[int, list[Action]],
                                                          dict[int, list[Any]], set[int]]:
    """Each seat's picks for the round open now, chosen from the fast tasks alone.
    Returns the picks, what each stage offered (its choices, and what the pick before
    it showed the seat), and the
    seats that stopped choosing while they still had a choice (a silent phone)."""
    picks: dict[int, list[Action]] = {}
    offered: dict[int, list[Any]] = {}
    silent: set[int] = set()
    for seat in range(len(rs.view(state, None)["players"])):
        made: list[Action] = []
        stages: list[Any] = []
        for _ in range(MAX_STAGES):
            options = fast.choices(rs, state, seat, made)
            if not options:
                break
            stages.append((options, fast.sight(rs, state, seat, made) if made else []))
            if rng.random() < 0.1:  # this phone never answers: the default is made
                silent.add(seat)
                break
            made.append(rng.choice(options))
        picks[seat], offered[seat] = made, stages
    return picks, offered, silent


def _sequential_round(rs: Any, seq: Any, calls: tuple[str, ...], picks: dict[int, list[Action]],
                      offered: dict[int, list[Any]], silent: set[int]) -> None:
    """Play the round call by call on ``seq``, each seat making its planned picks when
    the sequential night asks it, and check each ask against the fast task."""
    asked = {seat: 0 for seat in picks}
    sight: dict[int, list[Any]] = {seat: [] for seat in picks}  # what its last pick showed
    for _ in range(MAX_STEPS):
        if rs.open_call(seq) not in calls or rs.is_over(seq):
            break
        chooser = None
        for seat in rs.waiting_for(seq):
            k = asked[seat]
            if seat in silent and k == len(picks[seat]):
                continue  # a silent phone: the clock makes its moves, on both sides
            assert k < len(offered[seat]), (
                f"seat {seat} is asked a {k + 1}th time at {rs.open_call(seq)}, but the "
                "fast night offered it fewer stages")
            options, seen = offered[seat][k]
            assert tuple(rs.legal_actions(seq, seat)) == options, (
                f"seat {seat}'s choices at {rs.open_call(seq)} differ from its fast task")
            assert sight[seat] == seen, f"seat {seat}'s first pick showed it something else"
            chooser = seat
            break
        if chooser is None:
            rs.apply(seq, CLOCK_SEAT, END_CALL)
        else:
            before = rs.view(seq, chooser)["events"]
            rs.apply(seq, chooser, picks[chooser][asked[chooser]])
            sight[chooser] = rs.view(seq, chooser)["events"][len(before):]
            asked[chooser] += 1
    for seat, made in picks.items():
        assert asked[seat] == len(made), f"seat {seat} was asked fewer times than planned"
        if seat not in silent:
            assert len(offered[seat]) == len(made)


def _play(ruleset_id: str, seed: int) -> None:
    rs = get_ruleset(ruleset_id)
    assert isinstance(rs, FastNight)
    rng = random.Random(seed)
    n, roles = random_deck(rs, rng)
    names = [f"p{i}" for i in range(n)]
    deal = rng.randrange(2**31)
    seq = rs.deal(names, roles, deal, clock=seed)
    fst = rs.deal(names, roles, deal, clock=seed)
    _both(rs, seq, fst, CLOCK_SEAT, END_CALL)  # dusk ends: the first call opens
    rounds_played = 0
    for _ in range(MAX_STEPS):
        if rs.is_over(fst):
            break
        calls = fast.current_round(rs, fst)
        if calls:
            assert calls == fast.current_round(rs, seq)
            picks, offered, silent = _plan(rs, fst, rng)
            fast.resolve_round(rs, fst, picks)
            _sequential_round(rs, seq, calls, picks, offered, silent)
            assert rs.open_call(fst) not in calls
            rounds_played += 1
        else:  # the day: the same random moves on both sides
            waiting = rs.waiting_for(fst)
            if waiting and rng.random() < 0.9:
                seat = waiting[0]
                _both(rs, seq, fst, seat, rng.choice(list(rs.legal_actions(fst, seat))))
            else:
                _both(rs, seq, fst, CLOCK_SEAT, END_CALL)
        assert rs.to_record(fst) == rs.to_record(seq)
        for viewer in (None, *range(n)):
            assert rs.view(fst, viewer) == rs.view(seq, viewer)
    assert rs.is_over(fst) and rs.is_over(seq)
    assert rounds_played >= 1
    record = rs.to_record(fst)
    assert record == rs.to_record(seq)
    assert rs.outcome_json(rs.replay(record)) == rs.outcome_json(seq)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(0, 2**31 - 1))
def test_fast_one_night_is_the_sequential_night(seed: int) -> None:
    _play("onuw", seed)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(0, 2**31 - 1))
def test_fast_epic_night_is_the_sequential_night(seed: int) -> None:
    _play("epic", seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(0, 2**31 - 1))
def test_fast_lupus_nights_are_the_sequential_nights(seed: int) -> None:
    _play("lupus", seed)


def test_rounds_are_runs_of_the_nights_calls() -> None:
    assert split_rounds(["a", "b", "c", "d"], ["c"]) == [("a", "b"), ("c", "d")]
    assert split_rounds(["a", "b"], ["a"]) == [("a", "b")]  # no empty first round
    assert split_rounds([], ["a"]) == []


@pytest.mark.parametrize(("roles", "rounds"), [
    # rule 4: without the Doppelgänger a One Night night is one round
    (["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"], 1),
    # rule 2: the werewolves wait for the Doppelgänger's copy
    (["doppelganger", "werewolf", "seer", "robber", "troublemaker", "villager"], 2),
])
def test_one_night_rounds(roles: list[str], rounds: int) -> None:
    rs = get_ruleset("onuw")
    state = rs.new_game(["a", "b", "c"], roles, clock=1)
    rs.apply(state, CLOCK_SEAT, END_CALL)
    got = rs.fast_rounds(state)  # type: ignore[attr-defined]
    assert len(got) == rounds
    assert [c for r in got for c in r] == rs.night_calls(roles)
