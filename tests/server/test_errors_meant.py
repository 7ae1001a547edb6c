"""Issue #13: a handler catches the errors it means, never ``Exception``. A full or gone
disk is retried; a damaged room document is skipped with its reason; a bug is a bug
and surfaces instead of being taken for either."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from nightcall.server.hub import Hub, room_from_doc
from nightcall.server.messages import CreateRoom
from nightcall.server.room import RoomError
from nightcall.server.store import MemoryStore, SQLiteStore
from nightcall.server.store_redis import RedisStore


class BuggyStore(SQLiteStore):
    """A real SQLite store whose save has a bug (not a disk failure)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.bug = False

    def save_many(self, items: list[tuple[str, dict[str, Any], bool]]) -> None:
        if self.bug:
            raise ZeroDivisionError("a bug in the save")
        super().save_many(items)


def test_each_store_names_the_errors_of_its_disk_or_server() -> None:
    assert issubclass(sqlite3.OperationalError, SQLiteStore.errors)
    assert OSError in SQLiteStore.errors and OSError in RedisStore.errors
    assert MemoryStore.errors == ()
    for errors in (SQLiteStore.errors, RedisStore.errors):
        assert not issubclass(ZeroDivisionError, errors)
        assert not issubclass(KeyError, errors)


def test_a_bug_in_a_save_is_not_retried_as_a_full_disk(tmp_path: Path) -> None:
    store = BuggyStore(tmp_path / "rooms.sqlite3")
    hub = Hub(store)
    room = hub.create(CreateRoom(seats=5))
    store.bug = True
    with pytest.raises(ZeroDivisionError):
        room.join("Ann")  # (no event loop: the save runs at once)
    store.close()


@pytest.mark.parametrize("damage", [
    lambda doc: doc.pop("settings"),
    lambda doc: doc.update(seats="not a list"),
    lambda doc: doc.update(actions=[[0, {"kind": "no_such_move"}]], status="playing"),
    lambda doc: doc["settings"].update(seats="five"),
])
def test_a_damaged_room_document_is_refused_with_its_reason(
        tmp_path: Path, damage: Any) -> None:
    store = SQLiteStore(tmp_path / "rooms.sqlite3")
    hub = Hub(store)
    room = hub.create(CreateRoom(seats=5))
    doc = json.loads(json.dumps(room.to_doc()))
    damage(doc)
    with pytest.raises(RoomError) as caught:
        room_from_doc(doc)
    assert caught.value.code == "damaged"
    assert room.code in caught.value.message
    store.close()


def test_a_restart_skips_a_damaged_room_and_resumes_the_others(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "rooms.sqlite3"

    async def play() -> tuple[str, str]:
        hub = Hub(SQLiteStore(db))
        good, bad = hub.create(CreateRoom(seats=3)), hub.create(CreateRoom(seats=3))
        for room in (good, bad):
            for name in ("Ann", "Bob", "Cy"):
                room.join(name)
            hub.start(room)
        hub.stop()  # (saves what is pending, closes the store)
        return good.code, bad.code

    good, bad = asyncio.run(play())
    with sqlite3.connect(db) as con:  # the disk kept a half-written document
        (raw,) = con.execute("SELECT doc FROM rooms WHERE code=?", (bad,)).fetchone()
        doc = json.loads(raw)
        del doc["clock"]
        con.execute("UPDATE rooms SET doc=? WHERE code=?", (json.dumps(doc), bad))

    async def restart() -> Hub:
        again = Hub(SQLiteStore(db))
        with caplog.at_level(logging.ERROR, logger="nightcall.server"):
            assert again.resume_all() == 1
        again.stop()
        return again

    again = asyncio.run(restart())
    assert good in again.rooms and bad not in again.rooms
    assert f"cannot resume room {bad}" in caplog.text
    assert "damaged" in caplog.text or "KeyError" in caplog.text


def test_every_store_has_the_ping_and_expiry_the_server_calls(tmp_path: Path) -> None:
    """The server asks a store what it has on the contract (Store.ping, Store.expire),
    never with getattr: each store answers both."""
    memory, sqlite = MemoryStore(), SQLiteStore(tmp_path / "rooms.sqlite3")
    assert memory.ping() and sqlite.ping()
    assert memory.expire(1e12) == 0
    sqlite.save("OLD", {"code": "OLD", "status": "lobby"}, False)
    assert sqlite.expire(1e12) == 1 and sqlite.load("OLD") is None  # an abandoned lobby
    sqlite.close()
    with pytest.raises(SQLiteStore.errors):
        sqlite.ping()  # (a closed store fails with its declared errors: /readyz says 503)
