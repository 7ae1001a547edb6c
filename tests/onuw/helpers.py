"""Small helpers to write One Night tests the way the rulebook tells its examples."""

from __future__ import annotations

from typing import Any

from nightcall.engine.actions import Action
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.state import OneNightState

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Hugo", "Ines", "Luca")


def record(seats: list[str], center: list[str], steps: list[dict[str, Any]],
           options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A record where NAMES[i] was dealt ``seats[i]``."""
    names = list(NAMES[: len(seats)])
    rec: dict[str, Any] = {
        "ruleset": "onuw",
        "players": names,
        "cards": dict(zip(names, seats, strict=True)),
        "center": center,
        "steps": steps,
    }
    if options is not None:
        rec["options"] = options
    return rec


def play(seats: list[str], center: list[str], steps: list[dict[str, Any]],
         options: dict[str, Any] | None = None) -> OneNightState:
    return ONUW.replay(record(seats, center, steps, options))


def outcome(seats: list[str], center: list[str], steps: list[dict[str, Any]],
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    return ONUW.outcome_json(play(seats, center, steps, options))


def new(seats: list[str], center: list[str], options: dict[str, Any] | None = None
        ) -> OneNightState:
    """A game at its first choice. The lone wolf option is off unless asked for, so that
    tests about other roles do not stop at a lone Werewolf's choice first."""
    return ONUW.new_game(NAMES[: len(seats)], [*seats, *center], options or {"lone_wolf": False})


def seat(name: str) -> int:
    return NAMES.index(name)


def do(st: OneNightState, name: str, kind: str, a: int = -1, b: int = -1) -> None:
    ONUW.apply(st, seat(name), Action(kind, a, b))


def seen(st: OneNightState, name: str) -> list[dict[str, Any]]:
    """The 'saw' events in ``name``'s own view."""
    return [e for e in ONUW.view(st, seat(name))["events"] if e["kind"] == "saw"]


def vote_all(st: OneNightState, votes: dict[str, str | None]) -> None:
    for voter in NAMES[: st.n]:
        target = votes.get(voter)
        if target is None:
            do(st, voter, "abstain")
        else:
            do(st, voter, "vote", seat(target))
