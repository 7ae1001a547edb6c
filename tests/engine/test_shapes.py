"""Every event and view a game sends out fits its typed shape (nightcall.engine.shapes),
and docs/schema/events.json and views.json are the generated schemas."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nightcall.engine.errors import DeckError
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import Ruleset, all_rulesets, get_ruleset
from nightcall.engine.shapes import event_kinds, event_union, schemas, shapes_of
from nightcall.rulesets.lupus.state import ACCUSE

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("onuw", "epic", "lupus")
GAMES = {"onuw": 150, "epic": 150, "lupus": 60}  # Lupus games are long


def random_deck(rs: Ruleset, rng: random.Random) -> tuple[int, list[str]]:
    """A deck drawn from every role the ruleset has (Epic: a scenario; Lupus: the
    table, with or without its extra roles), so rare roles and their events come up."""
    if rs.id == "epic":
        from nightcall.rulesets.epic import scenarios

        sc = rng.choice([*scenarios.SCENARIOS, scenarios.ANARCHY])
        n = rng.randint(max(sc.min_players, rs.min_players), min(sc.max_players, rs.max_players))
        return n, rs.scenario_deck(sc.id, n, rng.randrange(1000))  # type: ignore[attr-defined]
    if rs.id == "lupus":  # the table's deck, or with every extra role the count allows
        n = rng.randint(rs.min_players, rs.max_players)
        return n, rs.default_deck(n, rng.choice([None, "extra"]))
    ids = importlib.import_module(f"nightcall.rulesets.{rs.id}.roles").ROLE_IDS
    while True:
        n = rng.randint(rs.min_players, rs.max_players)
        deck = [rng.choice(ids) for _ in range(n + (3 if rs.id == "onuw" else 0))]
        try:
            rs.validate_deck(n, deck)
        except DeckError:
            continue
        return n, deck


def views_of_games(rs: Ruleset, games: int, seed: int) -> Iterator[dict[str, Any]]:
    """The views of the master, a spectator and one seat (in turn), after every round of
    moves of ``games`` random games, and every seat's at the end."""
    rng = random.Random(seed)
    for _ in range(games):
        n, deck = random_deck(rs, rng)
        state = rs.deal(tuple(f"P{i}" for i in range(n)), deck, rng)
        while True:
            yield rs.view(state, MASTER)
            yield rs.view(state, None)
            yield rs.view(state, rng.randrange(n))
            if rs.is_over(state):
                for seat in range(n):
                    yield rs.view(state, seat)
                break
            if rs.id == "lupus" and len(state.dawn_dead) == 2 and state.stage == ACCUSE \
                    and state.accuse_i == 0 and state.last != state.dawn_dead[0]:
                rs.choose_last(state, state.dawn_dead[0])  # type: ignore[attr-defined]
            if hasattr(rs, "legal_claims") and rng.random() < 0.3:  # One Night's talk
                seat = rng.randrange(n)
                claims = rs.legal_claims(state, seat)
                if claims:
                    rs.apply(state, seat, rng.choice(claims))
            for seat in rs.waiting_for(state):
                options = rs.legal_actions(state, seat)
                if options:
                    rs.apply(state, seat, rng.choice(options))


def views_of_records(rs: Ruleset) -> Iterator[dict[str, Any]]:
    """The master's view at the end of every recorded game of ``rs`` in tests/records
    (Epic's claims come only from records)."""
    for path in sorted((ROOT / "tests" / "records").rglob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(record, dict) and record.get("ruleset") == rs.id:
            yield rs.view(rs.replay(record), MASTER)


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
