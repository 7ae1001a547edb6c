"""Game records (shared/spec/game-record.md): reading, checking and dispatching.

Ruleset-specific steps are replayed by each ruleset; this module holds what
all of them share: loading the JSON, finding the ruleset, reading the seating
and names, and turning seat numbers back into names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from nightcall.engine.errors import DeckError, IllegalAction, RecordError, Said
from nightcall.engine.ruleset import Rules, Ruleset, get_ruleset

COMMENT_KEYS = frozenset({"text", "rule"})
S = TypeVar("S")


def read_json(path: str | Path) -> object:
    """The value in the JSON file at ``path``, or ValueError with a :class:`Said` that
    says what is wrong with the file (none, unreadable, not text, not JSON): every
    command that reads a JSON file refuses one in the same words."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(Said(f"there is no file {where}", "file.missing",
                              path=where)) from None
    except IsADirectoryError:
        raise ValueError(Said(f"{where} is a folder, not a file", "file.folder",
                              path=where)) from None
    except PermissionError:
        raise ValueError(Said(f"{where} may not be read (permission denied)", "file.denied",
                              path=where)) from None
    except OSError as exc:
        raise ValueError(Said(f"{where} cannot be read ({exc.strerror})", "file.unreadable",
                              path=where, reason=str(exc.strerror))) from None
    except UnicodeDecodeError:  # a picture, a zip: Python's codec words would mean nothing
        raise ValueError(Said(f"{where} is not a text file: a JSON file was expected",
                              "file.not_text", path=where)) from None
    return parse_json(text, where)


def parse_json(text: str, where: str) -> object:
    """:func:`read_json` for text already read (``where``: the file, or "stdin")."""
    try:
        value: object = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(Said(f"{where} is not valid JSON (the mistake is on line "
                              f"{exc.lineno})", "file.not_json", path=where,
                              line=exc.lineno)) from None
    return value


def load(path: str | Path) -> dict[str, object]:
    """Read a record file: ValueError for the file itself (:func:`read_json`),
    RecordError for a JSON value that is not an object."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise RecordError(Said("a game record is a JSON object", "record.not_object"))
    return data


def ruleset_of(record: Mapping[str, object]) -> Ruleset[Any]:
    rid = record.get("ruleset")
    if not isinstance(rid, str):
        from nightcall.engine.ruleset import ruleset_ids

        known = ", ".join(f'"{r}"' for r in ruleset_ids())
        raise RecordError(Said(f"the record needs a 'ruleset': one of {known}",
                               "record.no_ruleset", known=known))
    try:
        return get_ruleset(rid)
    except DeckError as exc:
        raise RecordError(exc.args[0] if exc.args else str(exc)) from None


def replay(record: Mapping[str, object]) -> tuple[Ruleset[Any], Any]:
    """Replay any record; return its ruleset and final state."""
    ruleset = ruleset_of(record)
    return ruleset, ruleset.replay(record)


def players_of(record: Mapping[str, object]) -> tuple[str, ...]:
    players = record.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError(Said("'players' must be a non-empty list of names",
                               "record.players"))
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise RecordError(Said(f"player names must be non-empty strings, got {p!r}",
                                   "record.players"))
    if len(set(players)) != len(players):
        raise RecordError(Said("two players have the same name", "judge.same_name"))
    return tuple(players)


def seat_of(names: Sequence[str], name: object, step: int, field: str) -> int:
    if not isinstance(name, str):
        raise RecordError(Said(f"'{field}' must be a player name, got {name!r}",
                               "record.not_a_name", field=field, name=repr(name)), step)
    try:
        return names.index(name)
    except ValueError:
        raise RecordError(Said(f"'{field}': {name!r} is not seated at this table",
                               "record.not_seated", field=field, name=name), step) from None


def options_of(record: Mapping[str, object]) -> dict[str, object]:
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError(Said("'options' must be an object", "record.options"))
    return options


def new_game(deal: Callable[[], S]) -> S:
    """The game a record's header deals; a deck the rules refuse is the record's error."""
    try:
        return deal()
    except DeckError as exc:
        raise RecordError(exc.args[0] if exc.args else str(exc)) from None


def steps_of(record: Mapping[str, object]) -> list[dict[str, object]]:
    steps = record.get("steps", [])
    if not isinstance(steps, list):
        raise RecordError(Said("'steps' must be a list", "record.steps"))
    for i, step in enumerate(steps):
        if not isinstance(step, dict):
            raise RecordError(Said("a step must be an object", "record.step_object"), i)
    return steps


def dealt_cards(
    ruleset: Rules, record: Mapping[str, object], names: tuple[str, ...], *aliases: str
) -> list[str]:
    """Each seated player's card, as role ids, in seating order. ``cards`` maps names to
    cards (role ids or playing cards); ``aliases`` are other keys accepted for it."""
    keys = ("cards", *aliases)
    cards = next((record[k] for k in keys if k in record), None)
    if not isinstance(cards, dict):
        shown = " or ".join(f"'{k}'" for k in keys)
        raise RecordError(Said(f"{shown} must map every player to a card", "record.cards",
                               field=shown))
    missing = [p for p in names if p not in cards]
    if missing:
        raise RecordError(Said(f"no card dealt to {', '.join(missing)}", "record.no_card",
                               names=", ".join(missing)))
    extra = [str(p) for p in cards if p not in names]
    if extra:
        raise RecordError(Said(f"cards dealt to people not seated: {', '.join(extra)}",
                               "judge.strangers", names=", ".join(extra)))
    return [ruleset.card_to_role(cards[p], Said(f"card of {p}", "record.card_of", name=p))
            for p in names]


def center_cards(ruleset: Rules, record: Mapping[str, object]) -> list[str]:
    """The three center cards of a one-night game, left to right, as role ids."""
    center = record.get("center")
    if not isinstance(center, list) or len(center) != 3:
        raise RecordError(Said("'center' must list the 3 center cards", "record.center"))
    return [ruleset.card_to_role(c, Said(f"center card {i}", "record.center_card", n=i))
            for i, c in enumerate(center)]


def center_indices(i: int, value: object, count: int) -> list[int]:
    """A one-night step's ``center`` field: ``count`` center card indices (0, 1 or 2)."""
    if not isinstance(value, list) or len(value) != count:
        raise RecordError(Said(f"'center' must list {count} center card index(es)",
                               "record.center_count", n=count), i)
    for c in value:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 2:
            raise RecordError(Said(f"center indices are 0, 1 or 2, got {c!r}",
                                   "record.center_index", got=repr(c)), i)
    return list(value)


def claims_of(step: Mapping[str, object], i: int) -> dict[str, object]:
    """A day step's ``claims``: player names to the role ids they claim."""
    claims = step.get("claims", {})
    if not isinstance(claims, dict):
        raise RecordError(Said("'claims' must map player names to role ids", "record.claims"), i)
    return claims


def is_comment(step: Mapping[str, object]) -> bool:
    """A step with nothing but comments (``text``, ``rule``) changes nothing."""
    return all(key in COMMENT_KEYS for key in step)


class CallSteps(Protocol):
    """What reads a one-night record's steps (One Night, Epic Battle, a variant)."""

    def night_step(self, i: int, step: dict[str, Any]) -> None: ...
    def finish_night(self, i: int) -> None: ...
    def begin_day(self, i: int) -> None: ...
    def claims(self, i: int, step: Mapping[str, Any]) -> None: ...
    def votes(self, i: int, step: Mapping[str, Any]) -> None: ...


def read_call_steps(run: CallSteps, record: Mapping[str, Any]) -> None:
    """A one-night game's steps in order (shared/spec/game-record.md): ``call`` steps in
    wake order, then the day's ``claims`` and ``votes``; an illegal step is named. Steps
    of another kind are kept and passed over (the spec: "The record is data")."""
    steps = steps_of(record)
    for i, step in enumerate(steps):
        try:
            if "call" in step:
                run.night_step(i, step)
            elif "claims" in step or "claims_detail" in step:
                run.begin_day(i)
                run.claims(i, step)
            elif "votes" in step:
                run.begin_day(i)
                run.votes(i, step)
        except IllegalAction as exc:
            raise RecordError(str(exc), i) from None
    try:
        run.finish_night(len(steps))  # (a record that stops in the night: the skips)
    except IllegalAction as exc:  # pragma: no cover - skips are checked first
        raise RecordError(str(exc), len(steps)) from None
