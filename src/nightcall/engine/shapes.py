"""The typed shapes of what a game sends out: one struct per event kind, and the view.

Typing, not a wire change: the rulesets still build plain dicts on their hot paths
(``Event.data``, ``Ruleset.view``); the structs here and in each ruleset's
``shapes.py`` say exactly which fields those dicts carry. They are what the renderer
(``nightcall.narration.render``) reads an event as, they are exported as JSON Schema
(``docs/schema/events.json`` and ``views.json``, :func:`schemas`), and
tests/engine/test_shapes.py checks every event and view of random games against them.

An event's JSON is ``{"kind": ..., **data}``: the struct's tag is its kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import UNSET, UnsetType

from nightcall.engine.jsontype import JSONObject

Seat = Annotated[int, msgspec.Meta(ge=0)]
CenterIndex = Annotated[int, msgspec.Meta(ge=0)]
# A death as the events carry it: [seat, cause] ("votes", "hunter", "night", ...).
DeathPair = tuple[Seat, str]


class EventBody(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True, kw_only=True):
    """The base of every event struct; a subclass's tag is the event's kind."""

    # A bookkeeping kind (the master's notes, the end marker): the renderer
    # (nightcall.narration.render) tells it with no sentence.
    quiet: ClassVar[bool] = False


class LegalAction(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An action as ``Action.to_json`` writes it: ``a`` and ``b`` only when used."""

    kind: str
    a: int | UnsetType = UNSET
    b: int | UnsetType = UNSET


class Final(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every card at the end: as it lies, and what each player counts as."""

    cards: dict[str, str]
    center: list[str]
    tokens: dict[str, str]
    roles: dict[str, str]
    artifacts: dict[str, str] | UnsetType = UNSET  # Epic
    extra: str | UnsetType = UNSET  # Epic: the Alpha Wolf's extra card


# A reason's value in JSON: a name, a number, a list of names, or a term or a clause
# (an object: {"term", "id", "n"} or {"why", "args"}).
ReasonValue = str | int | list[str] | dict[str, Any]


class OutcomeView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``Outcome.to_json`` plus the final cards: what the end screen shows. The rules
    give the check as ``reasons`` (``[key, args]``, nightcall.engine.outcome); the
    server adds ``explanation``, those reasons as sentences in the room's language."""

    dead: list[str]
    causes: dict[str, str]
    winners: list[str]
    teams: list[str]
    reasons: list[tuple[str, dict[str, ReasonValue]]]
    explanation: list[str] | UnsetType = UNSET
    final: Final


class BaseView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The fields every ruleset's view has; each ruleset's ``View`` adds its own and
    types ``events`` with its event union. ``seat`` and ``legal`` are there for a
    seat's view, ``outcome`` once the game is over."""

    ruleset: str
    phase: str
    players: list[str]
    roles_in_play: list[str]
    call: str | None
    voted: list[str]
    seat: int | UnsetType = UNSET
    legal: list[LegalAction] | UnsetType = UNSET
    outcome: OutcomeView | UnsetType = UNSET


def event_kinds(event_types: Iterable[type[EventBody]]) -> dict[str, type[EventBody]]:
    """Each event struct by its kind (its tag)."""
    out: dict[str, type[EventBody]] = {}
    for cls in event_types:
        tag = cls.__struct_config__.tag
        assert isinstance(tag, str), cls
        out[tag] = cls
    return out


def shapes_of(ruleset: object) -> tuple[tuple[type[EventBody], ...], type[BaseView]]:
    """A ruleset's event structs and view struct: ``EVENTS`` and ``View`` in the
    ``shapes`` module of the ruleset's own package (a ruleset is one folder)."""
    import importlib

    package = type(ruleset).__module__.rpartition(".")[0]
    module = importlib.import_module(f"{package}.shapes")
    return tuple(module.EVENTS), module.View


def event_union(ruleset: object) -> Any:
    """The type "any event of this ruleset", for ``msgspec.convert``."""
    from typing import Union

    return Union[shapes_of(ruleset)[0]]  # noqa: UP007 - built from a tuple


def _components(prefix: str, types: Sequence[object]) -> tuple[tuple[JSONObject, ...],
                                                               JSONObject]:
    refs, components = msgspec.json.schema_components(
        types, ref_template=f"#/$defs/{prefix}.{{name}}")
    return refs, {f"{prefix}.{name}": schema for name, schema in components.items()}


def schemas(rulesets: Iterable[tuple[str, object]]) -> tuple[JSONObject, JSONObject]:
    """The JSON Schemas of the events and of the views of ``rulesets`` (id, ruleset):
    ``$defs`` holds ``<ruleset>`` (any event, or the view) and ``<ruleset>.<Struct>``
    for each struct."""
    events: JSONObject = {}
    views: JSONObject = {}
    ids = []
    for rid, ruleset in sorted(rulesets, key=lambda pair: pair[0]):
        ids.append(rid)
        event_types, view_type = shapes_of(ruleset)
        refs, components = _components(rid, list(event_types))
        events[rid] = {"title": f"{rid} event", "anyOf": list(refs)}
        events.update(components)
        (view_ref,), components = _components(rid, [view_type])
        views[rid] = {"title": f"{rid} view", **view_ref}
        views.update(components)
    head = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    return (
        {**head, "title": "nightcall events",
         "description": "One event as a view or a record lists it: {\"kind\": ..., "
                        "...fields}. $defs/<ruleset> is any event of that ruleset.",
         "anyOf": [{"$ref": f"#/$defs/{rid}"} for rid in ids],
         "$defs": events},
        {**head, "title": "nightcall views",
         "description": "What one viewer (a seat, a spectator, the master) may know now, as "
                        "Ruleset.view returns it. $defs/<ruleset> is that ruleset's view.",
         "anyOf": [{"$ref": f"#/$defs/{rid}"} for rid in ids],
         "$defs": views},
    )


def write_schemas(folder: str) -> None:
    """Write events.json and views.json for every installed ruleset into ``folder``."""
    import json
    from pathlib import Path

    from nightcall.engine.ruleset import all_rulesets

    for name, schema in zip(("events.json", "views.json"),
                            schemas(all_rulesets().items()), strict=True):
        text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
        (Path(folder) / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":  # python -m nightcall.engine.shapes docs/schema
    import sys

    write_schemas(sys.argv[1] if len(sys.argv) > 1 else "docs/schema")
