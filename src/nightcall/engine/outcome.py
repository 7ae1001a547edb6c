"""The end of a game as a value: who died and why, who won, and the check as sentences."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


class Death(NamedTuple):
    seat: int
    cause: str  # "votes", "hunter", "lovers", "night", "execution", ...


class Outcome:
    """Deaths (in the order the rules kill), winning teams, winning seats, explanation.

    The explanation may be given as sentences, or as a function that writes them:
    simulations decide millions of games and read few explanations, so rulesets
    may defer the prose until someone asks for it.
    """

    __slots__ = ("_explain", "_explanation", "deaths", "extra", "teams", "winners")

    def __init__(
        self,
        deaths: Iterable[Death],
        teams: Iterable[str],
        winners: Iterable[int],
        explanation: Iterable[str] | Callable[[], Iterable[str]] = (),
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.deaths = tuple(deaths)
        self.teams = tuple(teams)
        self.winners = tuple(winners)
        self.extra = extra if extra is not None else {}
        if callable(explanation):
            self._explain: Callable[[], Iterable[str]] | None = explanation
            self._explanation: tuple[str, ...] | None = None
        else:
            self._explain = None
            self._explanation = tuple(explanation)

    @property
    def explanation(self) -> tuple[str, ...]:
        if self._explanation is None:
            assert self._explain is not None
            self._explanation = tuple(self._explain())
            self._explain = None
        return self._explanation

    @property
    def dead(self) -> tuple[int, ...]:
        return tuple(d.seat for d in self.deaths)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.deaths, self.teams, self.winners, self.explanation, self.extra) == (
            other.deaths, other.teams, other.winners, other.explanation, other.extra
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Outcome(deaths={self.deaths!r}, teams={self.teams!r}, "
                f"winners={self.winners!r}, explanation={self.explanation!r})")

    def to_json(self, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
        return {
            "dead": [names[d.seat] for d in self.deaths],
            "causes": {names[d.seat]: d.cause for d in self.deaths},
            "winners": [names[s] for s in self.winners],
            "teams": list(self.teams),
            "explanation": list(self.explanation),
        }
