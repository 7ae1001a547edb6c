"""Properties of every One Night game, checked on random decks, deals and choices."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st_

from nightcall.narration.telling import explain
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.roles import ROLE_IDS
from nightcall.rulesets.onuw.state import OneNightState

SPECIALS = ["doppelganger", "minion", "seer", "robber", "troublemaker", "drunk",
            "insomniac", "hunter", "tanner"]


@st_.composite
def decks(draw: st_.DrawFn) -> tuple[int, list[str]]:
    players = draw(st_.integers(3, 10))
    size = players + 3
    wolves = draw(st_.integers(0, 2))
    masons = draw(st_.sampled_from([0, 2])) if size - wolves >= 2 else 0
    specials = draw(st_.lists(st_.sampled_from(SPECIALS), unique=True,
                              max_size=size - wolves - masons))
    deck = ["werewolf"] * wolves + ["mason"] * masons + specials
    deck += ["villager"] * (size - len(deck))
    return players, deck


class Table(NamedTuple):
    players: int
    roles: list[str]
    seed: int


@st_.composite
def tables(draw: st_.DrawFn) -> Table:
    """A deck for a number of players, and the seed of its deal and of the choices."""
    players, roles = draw(decks())
    return Table(players, roles, draw(st_.integers(0, 2**32)))


def play_random(players: int, deck: list[str], seed: int) -> tuple[OneNightState, list[Any]]:
    """Play with random legal choices (and random claims); return the game and each step's views."""
    names = [f"P{i}" for i in range(players)]
    st = ONUW.deal(names, deck, seed)
    rng = random.Random(seed)
    views = []
    while not ONUW.is_over(st):
        for seat in ONUW.waiting_for(st):
            if st.phase == 1 and rng.random() < 0.3:
                ONUW.apply(st, seat, rng.choice(ONUW.legal_claims(st, seat)))
            ONUW.apply(st, seat, rng.choice(ONUW.legal_actions(st, seat)))
            views.append([ONUW.view(st, s) for s in [None, *range(players)]])
    return st, views


@settings(max_examples=150, deadline=None)
@given(tables())
def test_random_legal_games_end_with_a_valid_outcome(t: Table) -> None:
    st, _ = play_random(*t)
    out = ONUW.outcome(st)
    assert out is not None and st.phase == 2
    assert set(out.teams) <= {"village", "werewolves", "tanner"}
    assert len(set(out.dead)) == len(out.dead) and all(0 <= s < t.players for s in out.dead)
    assert set(out.winners) <= set(range(t.players))
    # Every winner's final role is on a winning team (the Tanner only by dying).
    final = st.final_roles()
    for s in out.winners:
        assert final[s] in ROLE_IDS
    assert explain(out.reasons) and explain(out.reasons)[-1].startswith(("Winners:", "Nobody wins"))


@settings(max_examples=150, deadline=None)
@given(tables())
def test_cards_are_only_ever_permuted(t: Table) -> None:
    st, _ = play_random(*t)
    assert Counter(st.cards) == Counter(t.roles)


def legit_card_facts(st: OneNightState, seat: int) -> set[tuple[str, int, str]]:
    """What ``seat`` may know about cards, recomputed from the rules alone (not from the
    log's audiences): its own deal, the looks its own choices made (cards as they were at
    that moment), and the Insomniac's look at the end of the night."""
    n = st.n
    deal = next(e.data["cards"] for e in st.log if e.kind == "deal" and "cards" in e.data)
    cards = list(deal)
    facts = {("seat", seat, deal[seat])}
    for who, action, _call in st.history:
        kind, a, b = action
        mine = who == seat
        if kind in ("copy", "look") and mine:
            facts.add(("seat", a, cards[a]))
        elif kind == "look_center" and mine:
            facts |= {("center", i, cards[n + i]) for i in (a, b) if i >= 0}
        elif kind == "swap":
            cards[who], cards[a] = cards[a], cards[who]
            if mine:
                facts.add(("seat", who, cards[who]))
        elif kind == "swap_two":
            cards[a], cards[b] = cards[b], cards[a]
        elif kind == "take_center":
            cards[who], cards[n + a] = cards[n + a], cards[who]
    if deal[seat] == "insomniac" or (deal[seat] == "doppelganger" and st.copy == "insomniac"):
        facts.add(("seat", seat, cards[seat]))
    return facts


@settings(max_examples=100, deadline=None)
@given(tables())
def test_a_seat_never_sees_a_card_it_did_not_see(t: Table) -> None:
    st, all_views = play_random(*t)
    facts = [legit_card_facts(st, seat) for seat in range(t.players)]
    for views in all_views:
        if views[0]["phase"] == "over":
            continue  # every card is turned over at the end
        assert not [e for e in views[0]["events"] if "card" in e or "cards" in e]
        for seat in range(t.players):
            for e in views[seat + 1]["events"]:
                assert "cards" not in e
                if "card" in e:
                    where = ("seat", e["seat"]) if "seat" in e else ("center", e["center"])
                    assert (*where, e["card"]) in facts[seat], (seat, e)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_same_seed_and_actions_give_the_same_states_and_views(t: Table) -> None:
    a, views_a = play_random(*t)
    b, views_b = play_random(*t)
    assert a.cards == b.cards and a.log == b.log and views_a == views_b
    assert ONUW.outcome(a) == ONUW.outcome(b)
