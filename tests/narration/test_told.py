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


def test_a_seat_killed_in_the_night_hears_it_with_you_as_the_object() -> None:
    """Italian puts "you" in the object case here ("si è portata via te", never "via
    tu"); the others keep their subject forms, and the table hears the name."""
    dawn = {"kind": "dawn", "night": 1, "dead": [0, 2], "last": 2}
    names = ["Ann", "Bob", "Cy"]
    said = {lang: Told("lupus", names, 0, lang, [])([dawn])[0] for lang in ("en", "it", "de")}
    assert said == {"en": "Dawn: you and Cy died in the night.",
                    "it": "Alba: la notte si è portata via te e Cy.",
                    "de": "Morgengrauen: Die Nacht hat dich und Cy geholt."}
    alone = Told("lupus", names, 0, "it", [])([{**dawn, "dead": [0], "last": 0}])[0]
    assert alone == "Alba: la notte si è portata via te."
    assert Told("lupus", names, None, "it", [])([dawn])[0] == \
        "Alba: la notte si è portata via Ann e Cy."


def test_the_accusations_that_start_with_you_say_so_in_the_right_case() -> None:
    """"partono da te", "beginnen bei dir": never the subject form after the preposition."""
    order = {"kind": "accusation", "day": 1, "order": [0, 1, 2], "owl": None}
    said = {lang: Told("lupus", ["Ann", "Bob", "Cy"], 0, lang, [])([order])[0]
            for lang in ("en", "it", "de")}
    assert said == {
        "en": "Day 1: accusations start with you. The ghosts accuse too.",
        "it": "Giorno 1: le accuse partono da te. Accusano anche i fantasmi.",
        "de": "1. Tag: Die Anklagen beginnen bei dir. Auch die Geister klagen an."}
