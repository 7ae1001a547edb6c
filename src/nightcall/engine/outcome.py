"""The end of a game as a value: who died and why, who won, and the check as reasons.

The outcome holds facts and no language: each step of the check is a :class:`Reason`,
a locale key and its values (player names, numbers, role ids). The sentences are the
narrator's (``nightcall.narration.telling``: ``explain`` for reasons, ``explained``
for an outcome's JSON), written from the ``why.*`` lines in the reader's language.

In JSON (``Outcome.to_json``, the records' ``outcome_json``, the views) the reasons are
``"reasons": [[key, args], ...]``: ``key`` is the reason's key without ``why.``, ``args``
an object from placeholder to value, and a value is
- a string (a player's name) or an integer, as it is;
- a list of strings (names, "A, B and C" in the language);
- ``{"term": kind, "id": id, "n": n}`` for a :class:`Term`;
- ``{"why": key, "args": {...}}`` for a clause (a Reason inside a Reason).
:func:`reasons_from_json` reads that back.
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


def reason_json(reason: Reason) -> list[Any]:
    """A reason as ``[key, args]`` (the module docstring gives the form)."""
    return [reason.key, _args_json(reason.args)]


def _args_json(args: Mapping[str, Arg]) -> dict[str, Any]:
    return {k: _arg_json(v) for k, v in args.items()}


def _arg_json(value: Arg) -> Any:
    # Reason and Term are tuples too: test them before plain tuples of names.
    if isinstance(value, Reason):
        return {"why": value.key, "args": _args_json(value.args)}
    if isinstance(value, Term):
        return {"term": value.kind, "id": value.id, "n": value.n}
    if isinstance(value, tuple):
        return list(value)
    return value


def reasons_from_json(data: object) -> tuple[Reason, ...]:
    """The reasons of an outcome's JSON ``reasons`` list; ValueError saying what is wrong."""
    if not isinstance(data, list):
        raise ValueError(f"the reasons must be a list, not {type(data).__name__}")
    out = []
    for item in data:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise ValueError(f"a reason must be [key, args], not {item!r}")
        out.append(Reason(item[0], _args_from_json(item[1])))
    return tuple(out)


def _args_from_json(data: object) -> dict[str, Arg]:
    if not isinstance(data, dict):
        raise ValueError(f"a reason's args must be an object, not {data!r}")
    return {str(k): _arg_from_json(v) for k, v in data.items()}


def _arg_from_json(value: object) -> Arg:
    if isinstance(value, bool):
        raise ValueError(f"a reason's value cannot be {value!r}")
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    if isinstance(value, dict) and set(value) == {"why", "args"} and isinstance(value["why"], str):
        return Reason(value["why"], _args_from_json(value["args"]))
    if isinstance(value, dict) and set(value) == {"term", "id", "n"}:
        kind, id_, n = value["term"], value["id"], value["n"]
        if isinstance(kind, str) and isinstance(id_, str) and isinstance(n, int):
            return Term(kind, id_, n)
    raise ValueError(f"a reason's value must be a name, a number, a list of names, "
                     f"a term or a clause, not {value!r}")


class Outcome:
    """Deaths (in the order the rules kill), winning teams, winning seats, and the reasons.

    The reasons may be given as a sequence, or as a function that works them out:
    simulations decide millions of games and read few explanations, so rulesets
    may defer them until someone asks.
    """

    __slots__ = ("_explain", "_reasons", "deaths", "extra", "teams", "winners")

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
                f"winners={self.winners!r}, reasons={self.reasons!r})")

    def to_json(self, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
        """The outcome with names for seats, and its reasons as the module docstring says
        (facts only: ``narration.telling.explained`` adds the sentences)."""
        return {
            "dead": [names[d.seat] for d in self.deaths],
            "causes": {names[d.seat]: d.cause for d in self.deaths},
            "winners": [names[s] for s in self.winners],
            "teams": list(self.teams),
            "reasons": [reason_json(r) for r in self.reasons],
        }
