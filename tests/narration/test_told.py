"""The pages' sentences (narration.render.Told): each event of a viewer's view told by
the one renderer, None for a bookkeeping one, the same however the views came in."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.render import Renderer, Told


def _game(rid: str, n: int, seed: int) -> tuple[list[str], list[list[dict[str, Any]]]]:
    """A random game's deck and, for seat 0, its view's events after every move."""
    rs = get_ruleset(rid)
    rng = random.Random(seed)
    roles = rs.default_deck(n)
    state = rs.deal([f"P{i}" for i in range(n)], roles, seed)
    views = [rs.view(state, 0)["events"]]
    while not rs.is_over(state):
        who = rng.choice(rs.waiting_for(state))
        rs.apply(state, who, rng.choice(rs.legal_actions(state, who)))
        views.append(rs.view(state, 0)["events"])
    return roles, views


@settings(max_examples=15, deadline=None)
@given(rid=st.sampled_from(["onuw", "epic", "lupus"]), seed=st.integers(0, 10_000),
       lang=st.sampled_from(["en", "it", "de"]), order=st.randoms(use_true_random=False))
def test_told_is_the_renderer_event_by_event_whatever_the_order(
        rid: str, seed: int, lang: str, order: random.Random) -> None:
    """Views that grow (a game move by move), and views out of order (a seat that
    reconnects to an older room, a rebuilt room): always each event's own sentence."""
    n = 8 if rid == "lupus" else 5
    roles, views = _game(rid, n, seed)
    names = [f"P{i}" for i in range(n)]
    told = Told(rid, names, 0, lang, roles)
    renderer = Renderer(rid, names, 0, lang, roles)
    shuffled = list(views)
    order.shuffle(shuffled)
    for events in views + shuffled:
        assert told(events) == [renderer.event(e) for e in events]


def test_a_seat_hears_its_own_events_in_the_second_person_and_the_public_does_not() -> None:
    told = Told("onuw", ["Ann", "Bob", "Cy"], 1, "en", ["seer", "werewolf", "robber"])
    public = Told("onuw", ["Ann", "Bob", "Cy"], None, "en", ["seer", "werewolf", "robber"])
    claim = {"kind": "claim", "seat": 1, "role": "seer"}
    assert told([claim]) == ["You say: “I am the Seer.”"]
    assert public([claim]) == ["Bob says: “I am the Seer.”"]
    assert Told("onuw", ["Ann", "Bob", "Cy"], 1, "de", [])([claim]) != told([claim])


def test_a_bookkeeping_event_has_no_sentence() -> None:
    told = Told("lupus", ["Ann", "Bob", "Cy"], None, "it", [])
    said = told([{"kind": "over"}, {"kind": "executed", "seat": 0}])
    assert said[0] is None and said[1] == "Ann va al rogo."
