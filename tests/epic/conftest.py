"""Helpers for the Epic Battle tests: tables for the judge, games from a fixed deal."""

from __future__ import annotations

from typing import Any

import pytest

from nightcall.engine.outcome import Outcome
from nightcall.rulesets.epic.judge import judge

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Hugo", "Ines", "Luca")


def table(cards: list[str], votes: dict[str, str], tokens: dict[str, str] | None = None,
          artifacts: dict[str, str] | None = None) -> dict[str, Any]:
    names = list(NAMES[: len(cards)])
    return {"players": names, "cards": dict(zip(names, cards, strict=True)),
            "center": ["villager", "villager", "seer"], "tokens": tokens or {},
            "artifacts": artifacts or {}, "votes": votes}


def verdict(cards: list[str], votes: dict[str, str], **kw: Any) -> Outcome:
    return judge(table(cards, votes, **kw))


def names_of(outcome: Outcome, seats: tuple[int, ...]) -> set[str]:
    return {NAMES[s] for s in seats}


@pytest.fixture
def dead() -> Any:
    return lambda o: names_of(o, o.dead)


@pytest.fixture
def winners() -> Any:
    return lambda o: names_of(o, o.winners)


# --- games from a fixed deal --------------------------------------------------------------

from nightcall.engine.actions import Action  # noqa: E402
from nightcall.rulesets.epic.game import EPIC  # noqa: E402
from nightcall.rulesets.epic.state import EpicState  # noqa: E402

SKIP = Action("skip")


def game(seats: list[str], center: list[str], extra: str | None = None,
         tokens: list[str] | None = None, seed: int = 0) -> EpicState:
    deal = [*seats, *center, *([extra] if extra else [])]
    return EPIC.new_game(NAMES[: len(seats)], deal, {"seed": seed}, tokens)


def to_call(st: EpicState, call: str) -> None:
    """Skip every optional choice until ``call`` is being made (with a chooser)."""
    while st.call != call:
        assert st.call is not None, f"the night ended before the {call} call"
        EPIC.apply(st, st.actor, SKIP)


def act(st: EpicState, kind: str, a: int = -1, b: int = -1) -> None:
    EPIC.apply(st, st.actor, Action(kind, a, b))


def finish_night(st: EpicState) -> None:
    while st.phase == 0:
        EPIC.apply(st, st.actor, SKIP)


def told(st: EpicState, seat: int | None, kind: str) -> list[dict[str, Any]]:
    return [e for e in EPIC.view(st, seat)["events"] if e["kind"] == kind]


def vote_all(st: EpicState, votes: list[int]) -> None:
    for s, v in enumerate(votes):
        EPIC.apply(st, s, Action("vote", v) if v >= 0 else Action("abstain"))
