"""``play``: the human sees their seat's view and nothing else."""

from __future__ import annotations

from typing import Any

import pytest

from nightcall.commands.play import Renderer, play_game
from nightcall.narration.locale import load
from nightcall.rulesets.onuw.deck import recommended
from nightcall.rulesets.onuw.game import ONUW


@pytest.mark.parametrize(("players", "seed", "me"), [(3, 1, 0), (5, 4, 2), (7, 9, 6)])
def test_the_human_is_shown_exactly_their_views_events(players: int, seed: int, me: int) -> None:
    names = [f"P{i}" for i in range(players)]
    deck = recommended(players, add=["doppelganger", "minion", "insomniac", "hunter"])
    state = ONUW.deal(names, deck, seed)
    locale = load("en")
    render = Renderer(names, me, lambda r: locale.role("onuw", r))
    shown: list[str] = []
    menus: list[list[dict[str, Any]]] = []

    def ask(legal: list[dict[str, Any]]) -> dict[str, Any]:
        assert legal == ONUW.view(state, me)["legal"]  # the menu is the view's legal list
        menus.append(legal)
        return legal[-1]

    outcome = play_game(ONUW, state, me, ask, shown.append, render, seed)
    assert ONUW.is_over(state)
    assert menus  # at least the vote
    mine = [render.event(e) for e in ONUW.view(state, me)["events"]]
    assert shown == [t for t in mine if t]
    # Facts only other seats (or the master) know were never shown.
    others = {render.event(e) for s in range(players) if s != me
              for e in ONUW.view(state, s)["events"]} - set(mine)
    assert not others & set(shown)
    assert outcome["winners"] == ONUW.view(state, None)["outcome"]["winners"]


def test_renderer_names_actions_for_the_menu() -> None:
    r = Renderer(["Ann", "Bob", "Cy"], 0, str.title)
    assert r.action({"kind": "vote", "a": 1}) == "Point at Bob"
    assert r.action({"kind": "swap_two", "a": 1, "b": 2}) == "Swap the cards of Bob and Cy"
    assert r.action({"kind": "look_center", "a": 0, "b": 2}) == "Look at center cards 1 and 3"
    assert r.action({"kind": "tap", "a": 2}) == "tap 2"  # unknown kinds stay readable
    assert r.event({"kind": "saw", "seat": 1, "card": "seer"}) == "You see Bob's card: the Seer."
