"""The exact belief solver against brute-force enumeration through the engine."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nightcall.bots.onuw import solver
from nightcall.bots.onuw.enumeration import enumerate_beliefs, night_events
from nightcall.bots.onuw.knowledge import Knowledge, Observation, knowledge_from_view
from nightcall.bots.onuw.solver import Beliefs, Inconsistent, solve
from nightcall.rulesets.onuw import deck as onuw_deck
from nightcall.rulesets.onuw.game import ONUW

from .games import decks, random_night

SINGLES = ("doppelganger", "minion", "seer", "robber", "troublemaker", "drunk", "insomniac",
           "hunter", "tanner")


@st.composite
def small_decks(draw: st.DrawFn) -> tuple[int, list[str]]:
    """A legal deck small enough to enumerate: 3 players, or 4 with repeated cards."""
    n = draw(st.sampled_from((3, 3, 3, 4)))
    size = n + 3
    cards = ["werewolf"] * draw(st.integers(1, 2))
    if draw(st.booleans()) and size - len(cards) >= 2:
        cards += ["mason", "mason"]
    distinct_left = 3 if n == 4 else size
    extras = draw(st.lists(st.sampled_from(SINGLES), unique=True, max_size=distinct_left))
    cards += extras[: size - len(cards)]
    cards += ["villager"] * (size - len(cards))
    onuw_deck.validate(n, cards)
    return n, cards


def assert_same(a: Beliefs, b: Beliefs) -> None:
    assert a.roles == b.roles
    for table_a, table_b in ((a.start, b.start), (a.end, b.end), (a.end_roles, b.end_roles)):
        for row_a, row_b in zip(table_a, table_b, strict=True):
            assert row_a == pytest.approx(row_b, abs=1e-9)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_decks(), st.integers(0, 10**6), st.data())
def test_solver_equals_enumeration(deck: tuple[int, list[str]], seed: int, data: st.DataObject
                                   ) -> None:
    n, cards = deck
    claims = data.draw(st.sampled_from((0.0, 0.6)))
    trust = data.draw(st.sampled_from((0.5, 0.9)))
    state = random_night(cards, n, seed, claims)
    seat = data.draw(st.integers(0, n - 1))
    k = knowledge_from_view(ONUW.view(state, seat))
    mine = [a for s, a, _ in state.history if s == seat]
    expected = enumerate_beliefs(cards, n, seat, mine, night_events(state, seat), k.claims, trust)
    assert_same(solve(k, trust=trust), expected)


@pytest.mark.parametrize("players", [5, 8, 10])
def test_marginals_are_distributions(players: int) -> None:
    """Too big to enumerate: every position holds one card, every card is somewhere."""
    cards = ONUW.recommended_deck(players)
    for seed in range(3):
        state = random_night(cards, players, seed)
        for seat in range(players):
            b = solve(knowledge_from_view(ONUW.view(state, seat)))
            for table in (b.start, b.end):
                for row in table:
                    assert sum(row) == pytest.approx(1.0)
                for i, role in enumerate(b.roles):
                    assert sum(row[i] for row in table) == pytest.approx(cards.count(role))
            # What the seat was dealt is certain; the truth is never ruled out.
            assert b.p_start(seat, state.start[seat]) == 1.0
            for pos in range(players + 3):
                assert b.p_end(pos, state.cards[pos]) > 0.0


def test_what_a_seer_saw_is_certain_and_a_robber_knows_its_new_card() -> None:
    deal = ["seer", "werewolf", "robber", "villager", "villager", "werewolf", "troublemaker",
            "villager"]
    state = ONUW.new_game([f"P{i}" for i in range(5)], deal)
    from nightcall.engine.actions import Action

    ONUW.apply(state, 1, Action("look_center", 0))  # the lone wolf
    ONUW.apply(state, 0, Action("look", 1))  # the Seer sees the Werewolf
    ONUW.apply(state, 2, Action("swap", 1))  # the Robber takes it
    seer = solve(knowledge_from_view(ONUW.view(state, 0)))
    assert seer.p_start(1, "werewolf") == 1.0
    # The Robber acts after the Seer: the Werewolf may have moved, but stays likely.
    assert 0.5 < seer.p_end(1, "werewolf") < 1.0
    robber = solve(knowledge_from_view(ONUW.view(state, 2)))
    assert robber.p_start(1, "werewolf") == 1.0
    # Only a Troublemaker, acting later, could have taken it away again.
    # Unknown to the Robber: seats 0, 3, 4 and the center, holding seer, werewolf,
    # troublemaker and 3 villagers. The Troublemaker is at a seat with odds 3/6, and
    # then picks one of 7 choices (6 pairs of the other 4 seats, or none), 3 with seat 2:
    # with seat 1 (the Robber card) the Werewolf is lost; with one of the two other
    # unknown seats it is lost unless that seat holds the other Werewolf (odds 1/5).
    lost = 3 / 6 * (1 / 7 + 2 / 7 * 4 / 5)
    assert robber.p_end(2, "werewolf") == pytest.approx(1 - lost)


def test_impossible_knowledge_is_refused() -> None:
    cards = tuple(sorted(ONUW.recommended_deck(5)))
    schedule = tuple(ONUW.night_calls(cards))
    seer_call = schedule.index("seer")
    # A Seer that saw a Tanner in a deck without one cannot be explained.
    k = Knowledge(5, cards, schedule, 0, "seer",
                  (Observation(seer_call, "saw", 1, role="tanner"),))
    with pytest.raises(Inconsistent):
        solve(k)
    # A lone Werewolf cannot have seen a second Werewolf among the players.
    k = Knowledge(5, cards, schedule, 0, "werewolf",
                  (Observation(schedule.index("werewolf"), "wolves", seats=(0,)),
                   Observation(seer_call, "saw", 1, role="werewolf")))
    with pytest.raises(Inconsistent):
        solve(k)


def test_sampling_fallback_agrees_with_exact_within_its_error_bar() -> None:
    cards = ONUW.recommended_deck(5)
    state = random_night(cards, 5, seed=3, claims=1.0)
    for seat in (0, 2):
        k = knowledge_from_view(ONUW.view(state, seat))
        assert k.claims
        exact = solve(k, method="exact")
        sampled = solve(k, method="sample", samples=3000, seed=seat)
        assert 0 < sampled.error < 0.02
        for ta, tb in ((exact.start, sampled.start), (exact.end, sampled.end)):
            for ra, rb in zip(ta, tb, strict=True):
                for x, y in zip(ra, rb, strict=True):
                    assert abs(x - y) <= 5 * sampled.error
        # Seeded: the same knowledge gives the same sample.
        assert solve(k, method="sample", samples=3000, seed=seat) == sampled


def test_hints_are_json_and_name_players() -> None:
    import json

    from nightcall.bots.onuw.hints import hints_from_view

    state = random_night(ONUW.recommended_deck(5), 5, seed=8)
    view = ONUW.view(state, 2)
    hints = hints_from_view(view)
    json.dumps(hints)
    me = view["players"][2]
    assert hints["start"][me] == {state.start[2]: 1.0}
    assert set(hints["end"]) == {*view["players"], "center 1", "center 2", "center 3"}
    assert hints["exact"] and hints["error"] == 0.0


def test_a_solve_keeps_few_objects_alive_so_collections_stay_rare() -> None:
    """Issue 21: a full collection costs more than a solve, so a solve must not fill the
    young generation. Walking the scenarios depth first keeps one path alive; listing
    every leaf first (the old way) triggered about one young collection per 4 solves."""
    import gc

    cards = ONUW.recommended_deck(10)
    ks = [knowledge_from_view(ONUW.view(random_night(cards, 10, seed), seat))
          for seed in range(20) for seat in range(10)]
    young = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            young.append(info["generation"])

    old_threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(700, 10, 10)  # Python's defaults, whatever the test run set
    gc.callbacks.append(count)
    try:
        for k in ks:
            solver._fill.cache_clear()
            solver.solve(k)
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*old_threshold)
    assert len(young) <= 5, f"{len(young)} collections during {len(ks)} solves"


def _one_by_one(k: Knowledge, claims: object) -> list[tuple[int, ...]]:
    """No class of seats named alike: every listed seat walked on its own (the walk of
    the sessions before 7, the reference for the pooled one)."""
    return []


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks(5, 10), st.integers(0, 10**6), st.data())
def test_seats_named_alike_walked_once_give_the_very_same_beliefs(
    deck: tuple[int, list[str]], seed: int, data: st.DataObject
) -> None:
    """Session 7: the seats of a Werewolf, Mason or thumbs list that nothing else names
    are one pool, walked once and counted. The beliefs are the same floats, to the
    last bit, as walking every seat (the sums are integers)."""
    n, cards = deck
    state = random_night(cards, n, seed)
    seat = data.draw(st.integers(0, n - 1))
    k = knowledge_from_view(ONUW.view(state, seat))
    pooled = solve(k)
    with patch.object(solver, "_alike", _one_by_one):
        reference = solve(k)
    assert pooled == reference


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from((3, 4)), st.data())
def test_a_minion_with_two_werewolves_equals_enumeration(seed: int, n: int,
                                                         data: st.DataObject) -> None:
    """The pooled walk where it matters most (a Minion seeing two Werewolves), against
    every deal and every choice played through the engine."""
    extras = data.draw(st.lists(st.sampled_from(("robber", "troublemaker", "drunk",
                                                  "doppelganger", "seer", "insomniac")),
                                unique=True, min_size=1, max_size=n))
    cards = ["minion", "werewolf", "werewolf", *extras]
    cards += ["villager"] * (n + 3 - len(cards))
    state = random_night(cards, n, seed)
    seats = [s for s in range(n) if state.start[s] == "minion"]
    if not seats:
        return  # the Minion is in the center: nothing pooled to check
    seat = seats[0]
    k = knowledge_from_view(ONUW.view(state, seat))
    mine = [a for s, a, _ in state.history if s == seat]
    expected = enumerate_beliefs(cards, n, seat, mine, night_events(state, seat))
    assert_same(solve(k), expected)


def test_a_minion_walks_fewer_scenarios_that_count_the_same() -> None:
    """Issue 21's worst solve: the Minion's two Werewolves are one pool, so fewer
    scenarios are walked, and their counts add up to the same total weight."""
    cards = ONUW.recommended_deck(10)
    minions = [knowledge_from_view(ONUW.view(state, s))
               for state in (random_night(cards, 10, seed) for seed in range(40))
               for s in range(10) if state.start[s] == "minion"]
    k = next(k for k in minions
             if any(o.kind == "thumbs" and len(o.seats) == 2 for o in k.night))
    wolves = next(o.seats for o in k.night if o.kind == "thumbs")
    assert solver._alike(k, ()) == [wolves]
    plain = solver.scenarios(k)
    pooled = list(solver.iter_scenarios(k, alike=True))
    assert len(pooled) <= 0.75 * len(plain)

    def weight(branches: list[solver._Branch]) -> int:
        roles = tuple(sorted(set(k.deck)))
        return sum(w for w, *_ in solver._plain_leaves(branches, 10, roles))

    assert weight(pooled) == weight(plain) > 0


def test_knowledge_is_read_from_one_night_views_only() -> None:
    """The reader asks the One Night ruleset for its id: a view of any other ruleset
    is refused with a message, not misread."""
    from nightcall.engine.ruleset import all_rulesets

    view = ONUW.view(random_night(ONUW.recommended_deck(5), 5, seed=1), 0)
    assert knowledge_from_view(view).seat == 0
    others = [rid for rid in all_rulesets() if rid != ONUW.id]
    assert others
    for rid in others:
        with pytest.raises(ValueError, match="not a One Night view"):
            knowledge_from_view({**view, "ruleset": rid})
