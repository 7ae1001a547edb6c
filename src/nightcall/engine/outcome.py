"""The end of a game as a value: who died and why, who won, and the check as reasons.

The check is kept language-free: each step is a :class:`Reason`, a locale key and
its values (player names, numbers, role ids), and the sentences are written from
the narrator's ``why.*`` lines in whatever language the reader wants. English is
the default, so ``explanation`` reads the same as it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeAlias


class Death(NamedTuple):
    seat: int
    cause: str  # "votes", "hunter", "lovers", "night", "execution", ...


class Term(NamedTuple):
    """A word that depends on the language: a role id, an artifact id, or a count of
    something (``Term("count", "werewolves", 2)``: "2 werewolves")."""

    kind: str  # "role", "artifact", "count"
    id: str
    n: int = 0


# A value for a reason's placeholder: a player's name or a number as they are, a tuple
# of names ("A, B and C" in the language), a Term, or a Reason (a clause of a sentence).
Arg: TypeAlias = "str | int | tuple[str, ...] | Term | Reason"


class Reason(NamedTuple):
    """One step of the who-has-won check: the locale line ``why.<key>`` and its values.
    The key's first part is the ruleset ("onuw.tie"), whose role names a Term uses;
    keys shared by every ruleset have none ("winners")."""

    key: str
    args: Mapping[str, Arg]


def why(key: str, **args: Arg) -> Reason:
    return Reason(key, args)


Reasons: TypeAlias = Iterable[Reason]


class Outcome:
    """Deaths (in the order the rules kill), winning teams, winning seats, and the reasons.

    The reasons may be given as a sequence, or as a function that works them out:
    simulations decide millions of games and read few explanations, so rulesets
    may defer them until someone asks.
    """

    __slots__ = ("_english", "_explain", "_reasons", "deaths", "extra", "teams", "winners")

    def __init__(
        self,
        deaths: Iterable[Death],
        teams: Iterable[str],
        winners: Iterable[int],
        reasons: Reasons | Callable[[], Reasons] = (),
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.deaths = tuple(deaths)
        self.teams = tuple(teams)
        self.winners = tuple(winners)
        self.extra = extra if extra is not None else {}
        self._english: tuple[str, ...] | None = None
        if callable(reasons):
            self._explain: Callable[[], Reasons] | None = reasons
            self._reasons: tuple[Reason, ...] | None = None
        else:
            self._explain = None
            self._reasons = tuple(reasons)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        if self._reasons is None:
            assert self._explain is not None
            self._reasons = tuple(self._explain())
            self._explain = None
        return self._reasons

    def explain(self, lang: str = "en") -> tuple[str, ...]:
        """The check as sentences in ``lang`` (one per reason)."""
        # Imported here: the narrator's package imports the rulesets, which import this.
        from nightcall.narration.telling import explain

        if lang == "en":
            return self.explanation
        return tuple(explain(self.reasons, lang))

    @property
    def explanation(self) -> tuple[str, ...]:
        """The check as English sentences."""
        if self._english is None:
            from nightcall.narration.telling import explain

            self._english = tuple(explain(self.reasons, "en"))
        return self._english

    @property
    def dead(self) -> tuple[int, ...]:
        return tuple(d.seat for d in self.deaths)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.deaths, self.teams, self.winners, self.reasons, self.extra) == (
            other.deaths, other.teams, other.winners, other.reasons, other.extra
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
