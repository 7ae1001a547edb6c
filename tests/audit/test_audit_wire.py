"""The leak audit over real websocket messages: a live uvicorn server on loopback, every
seat and a spectator a websocket client playing random legal moves, every message checked
against the knowledge model as it stood when the server sent it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import nightcall.rulesets.onuw.game as onuw_game
from nightcall.audit.wire import run_wire_audit
from nightcall.engine.events import Event, Viewer, visible_to
from nightcall.server.store import SQLiteStore

pytestmark = pytest.mark.timeout(240)


def test_rooms_played_over_websockets_leak_nothing(tmp_path: Path) -> None:
    plan = [("onuw", 6, None), ("epic", 6, None), ("lupus", 7, None)]
    result = run_wire_audit(SQLiteStore(tmp_path / "rooms.sqlite3"), plan, seed=1)
    assert result.games == 3
    assert dict(result.per_ruleset) == {"onuw": 1, "epic": 1, "lupus": 1}
    # Every seat and the spectator got observations all game long, and each was checked.
    assert result.messages > 3 * 20 and result.actions > 3 * 3
    report = "\n".join(str(f) for f in result.findings[:20])
    assert result.findings == [], report


def test_a_leak_on_the_wire_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant the worst leak (the master's deal shown to the spectator) in the engine the
    live server runs: the wire audit must name it, and only for the spectator."""

    def deal_to_spectator(event: Event, viewer: Viewer) -> bool:
        return (event.kind == "deal" and viewer is None) or visible_to(event, viewer)

    monkeypatch.setattr(onuw_game, "visible_to", deal_to_spectator)
    result = run_wire_audit(SQLiteStore(tmp_path / "rooms.sqlite3"), [("onuw", 5, None)],
                            seed=2)
    assert result.leaks, "the wire audit missed the deal sent to the spectator"
    assert all(f.viewer is None for f in result.leaks)
    assert any("'deal' carries unexpected fields ['cards']" in f.what for f in result.leaks)


def test_agents_socket_is_audited_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat an agent (the agent protocol's websocket): the master's deal planted in
    the seats' views is caught on that socket as well."""

    def deal_to_seats(event: Event, viewer: Viewer) -> bool:
        return (event.kind == "deal" and isinstance(viewer, int)) or visible_to(event, viewer)

    monkeypatch.setattr(onuw_game, "visible_to", deal_to_seats)
    result = run_wire_audit(SQLiteStore(tmp_path / "rooms.sqlite3"), [("onuw", 4, None)],
                            seed=3, agents=1.0)
    assert result.messages > 0
    assert result.leaks and all(isinstance(f.viewer, int) for f in result.leaks)


def test_fast_rooms_played_over_websockets_leak_nothing(tmp_path: Path) -> None:
    """The fast night (issue 18): the same audit, every message checked against the
    knowledge model, plus the fast night's rhythm and one frame width per round."""
    plan = [("onuw", 6, None), ("epic", 6, None), ("lupus", 7, None)]
    result = run_wire_audit(SQLiteStore(tmp_path / "rooms.sqlite3"), plan, seed=3,
                            fast=True)
    assert result.games == 3
    assert result.messages > 3 * 20 and result.actions > 3 * 3
    report = "\n".join(str(f) for f in result.findings[:20])
    assert result.findings == [], report


def test_a_sentence_that_tells_more_than_its_events_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages show the server's sentences: plant one that no event of the view
    carries (a card named to everyone) and the wire audit must name it, on every page's
    socket, while the events themselves stay clean."""
    from nightcall.narration.render import Told
    from nightcall.server import room as room_module

    class Blabbing(Told):
        def __call__(self, events: Sequence[Mapping[str, Any]]) -> list[str | None]:
            return [*super().__call__(events), "The first center card is the Seer."]

    monkeypatch.setattr(room_module, "Told", Blabbing)
    result = run_wire_audit(SQLiteStore(tmp_path / "rooms.sqlite3"), [("onuw", 4, None)],
                            seed=4, agents=0.0)
    said = [f for f in result.leaks if "are not the view's events told" in f.what]
    assert said and len(said) == len(result.leaks)
    assert {f.viewer for f in said} >= {None, 0, 1, 2, 3}
