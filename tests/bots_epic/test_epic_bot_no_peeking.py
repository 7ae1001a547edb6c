"""The Epic Battle bot decides from its seat's view alone: a JSON copy of the view
gives the same choice, secrets the seat cannot know change nothing, and the bot's
modules never import the game state."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import nightcall.bots.epic as epic_bots
from nightcall.bots.epic.bot import EpicBot
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.scenarios import build_deck
from nightcall.rulesets.epic.state import EpicState

SCENARIOS = [("the_first_night", 5), ("nightfall", 5), ("epic_battle_blood_moon", 7),
             ("werewolf_night", 6), ("tokens_on_special_offer", 8)]


# Events that tell a seat where tokens lie.
TOKEN_EVENTS = {"token", "saw_token", "gave_token", "bitten", "vampires", "swapped_tokens",
                "lovers"}


def unseen_center(view: dict[str, object], n: int) -> list[int]:
    """Center cards the seat never saw nor moved."""
    touched = set()
    for e in view["events"]:  # type: ignore[attr-defined]
        if "center" in e:
            touched.add(int(e["center"]))
    return [i for i in range(3) if i not in touched]


def hide_differently(st: EpicState, seat: int) -> EpicState:
    """The same game with two center cards this seat never saw swapped, and the
    tokens of two other seats swapped when the seat saw neither."""
    other = copy.deepcopy(st)
    view = EPIC.view(st, seat)
    free = unseen_center(view, st.n)
    if len(free) >= 2:
        a, b = other.n + free[0], other.n + free[1]
        other.cards[a], other.cards[b] = other.cards[b], other.cards[a]
    seen = {seat}
    for e in view["events"]:
        if e["kind"] in TOKEN_EVENTS:
            seen.update(int(x) for x in e.get("seats", []) if x is not None)
            for key in ("seat", "bitten"):
                if e.get(key) is not None:
                    seen.add(int(e[key]))
    strangers = [s for s in range(st.n) if s != seat and s not in seen]
    if len(strangers) >= 2:
        x, y = strangers[:2]
        other.tokens[x], other.tokens[y] = other.tokens[y], other.tokens[x]
    return other


@pytest.mark.parametrize(("scenario", "players"), SCENARIOS)
def test_choices_depend_on_the_view_only(scenario: str, players: int) -> None:
    for seed in range(4):
        roles, extra = build_deck(scenario, players, seed)
        st: EpicState = EPIC.deal([f"P{i}" for i in range(players)],
                                  roles + ([extra] if extra else []), seed)
        bots = [EpicBot(seed + s, "hard") for s in range(players)]
        while not EPIC.is_over(st):
            for s in EPIC.waiting_for(st):
                view = EPIC.view(st, s)
                twin, json_twin = copy.deepcopy(bots[s]), copy.deepcopy(bots[s])
                action = bots[s].choose(view)
                # The view as a client would receive it: plain JSON.
                assert json_twin.choose(json.loads(json.dumps(view))) == action
                # A game that differs only in what this seat cannot know.
                masked = EPIC.view(hide_differently(st, s), s)
                assert twin.choose(masked) == action
                assert action is not None
                EPIC.apply(st, s, action)


def test_bot_modules_never_touch_the_state() -> None:
    folder = Path(epic_bots.__file__).parent
    for path in folder.glob("*.py"):
        if path.name == "measure.py":  # the simulation harness deals the games
            continue
        text = path.read_text()
        assert "EpicState" not in text and "epic.state" not in text, path.name
        assert "epic.game" not in text, path.name
