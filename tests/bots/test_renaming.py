"""Issue 21, session 6: without claims the solver adds integers, so its beliefs are the
exact fractions rounded once, and renaming the seats renames the beliefs bit for bit.
That is what lets the bots cache beliefs per canonical naming (bots/onuw/bot.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall.bots.onuw.bot import _own_beliefs
from nightcall.bots.onuw.knowledge import Knowledge, canonical, knowledge_from_view, rename
from nightcall.bots.onuw.solver import Beliefs, Inconsistent, solve
from nightcall.rulesets.onuw.game import ONUW

from .games import decks, random_night


def beliefs_or_none(k: Knowledge) -> Beliefs | None:
    try:
        return solve(k, use_claims=False)
    except Inconsistent:
        return None


def seat_knowledge(deck: tuple[int, list[str]], seed: int, seat: int) -> Knowledge:
    n, cards = deck
    state = random_night(cards, n, seed)
    return knowledge_from_view(ONUW.view(state, seat % n)).without_claims()


@settings(max_examples=120, deadline=None)
@given(decks(), st.integers(0, 2**16), st.integers(0, 9), st.data())
def test_renamed_seats_get_the_same_numbers_renamed(deck: tuple[int, list[str]], seed: int,
                                                    seat: int, data: st.DataObject) -> None:
    k = seat_knowledge(deck, seed, seat)
    n = k.n
    seats = data.draw(st.permutations(range(n)))
    center = data.draw(st.permutations(range(n, n + 3)))
    to = [*seats, *center]
    plain = beliefs_or_none(k)
    other = beliefs_or_none(rename(k, to))
    assert (plain is None) == (other is None)
    if plain is not None and other is not None:
        assert other.relabelled(to) == plain  # ==: every float, to the last bit


@settings(max_examples=80, deadline=None)
@given(decks(), st.integers(0, 2**16), st.integers(0, 9))
def test_the_bots_cached_beliefs_are_the_solvers(deck: tuple[int, list[str]], seed: int,
                                                 seat: int) -> None:
    k = seat_knowledge(deck, seed, seat)
    same, to = canonical(k)
    assert same.seat == 0 and sorted(to) == list(range(k.n + 3))
    assert rename(k, to) == same
    assert _own_beliefs(k) == beliefs_or_none(k)


def test_renaming_is_a_cache_hit() -> None:
    """Two seats whose knowledge differs only by the names of the others share one solve."""
    n, cards = 10, ONUW.recommended_deck(10)
    seen: dict[Knowledge, set[Knowledge]] = {}
    for seed in range(30):
        state = random_night(cards, n, seed)
        for seat in range(n):
            k = knowledge_from_view(ONUW.view(state, seat)).without_claims()
            seen.setdefault(canonical(k)[0], set()).add(k)
    knowledge_states = sum(len(ks) for ks in seen.values())
    assert len(seen) < knowledge_states / 2  # at least two names per canonical state
