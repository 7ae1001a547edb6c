"""The end of a game as a value: who died and why, who won, and the check as sentences."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Death:
    seat: int
    cause: str  # "votes", "hunter", "lovers", "night", "execution", ...


@dataclass(frozen=True, slots=True)
class Outcome:
    deaths: tuple[Death, ...]
    teams: tuple[str, ...]
    winners: tuple[int, ...]
    explanation: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def dead(self) -> tuple[int, ...]:
        return tuple(d.seat for d in self.deaths)

    def to_json(self, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
        return {
            "dead": [names[d.seat] for d in self.deaths],
            "causes": {names[d.seat]: d.cause for d in self.deaths},
            "winners": [names[s] for s in self.winners],
            "teams": list(self.teams),
            "explanation": list(self.explanation),
        }
