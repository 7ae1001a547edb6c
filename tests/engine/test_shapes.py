"""Every event and view a game sends out fits its typed shape (nightcall.engine.shapes),
and docs/schema/events.json and views.json are the generated schemas."""

from __future__ import annotations

import json

import msgspec
import pytest

from nightcall.engine.ruleset import all_rulesets, get_ruleset
from nightcall.engine.shapes import event_kinds, event_union, schemas, shapes_of

from .games import GAMES, ROOT, views_of_games, views_of_records

RULESETS = ("onuw", "epic", "lupus")


@pytest.mark.parametrize("rid", RULESETS)
def test_every_view_and_event_of_random_games_fits_its_shape(rid: str) -> None:
    rs = get_ruleset(rid)
    event_types, view_type = shapes_of(rs)
    seen: set[str] = set()
    for view in (*views_of_games(rs, GAMES[rid], seed=13), *views_of_records(rs)):
        typed = msgspec.convert(view, view_type)  # raises with the path of a misfit
        # nothing dropped, nothing added: the same JSON as the dict's
        assert msgspec.json.decode(msgspec.json.encode(typed)) == json.loads(json.dumps(view))
        seen.update(e["kind"] for e in view["events"])
    # The shapes name no kind the games never send (the rare ones come up in these
    # games or a recorded one).
    assert seen == set(event_kinds(event_types))


@pytest.mark.parametrize("rid", RULESETS)
def test_a_misfit_event_is_refused(rid: str) -> None:
    union = event_union(get_ruleset(rid))
    with pytest.raises(msgspec.ValidationError, match="Invalid value 'no_such_kind'"):
        msgspec.convert({"kind": "no_such_kind"}, union)
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.convert({"kind": "dawn", "surprise": 1}, union)


def test_every_event_kind_has_one_struct() -> None:
    for rid in RULESETS:
        event_types, _ = shapes_of(get_ruleset(rid))
        assert len(event_kinds(event_types)) == len(event_types), rid


def test_schema_files_are_the_generated_schemas() -> None:
    events, views = schemas(all_rulesets().items())
    for name, schema in (("events.json", events), ("views.json", views)):
        generated = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
        assert (ROOT / "docs" / "schema" / name).read_text(encoding="utf-8") == generated, (
            f"regenerate it: python -m nightcall.engine.shapes docs/schema ({name})")
    assert set(events["$defs"]) >= {"onuw", "epic", "lupus", "onuw.Saw", "lupus.Votes"}
