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
