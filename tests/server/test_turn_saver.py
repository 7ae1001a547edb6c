"""Group commit (server/saving.py): the rooms changed in one turn of the event loop are
written together, once each, and no update reaches a socket before its save."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from nightcall.server.hub import Hub
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Sink
from nightcall.server.store import SQLiteStore


class CountingStore(SQLiteStore):
    """The real SQLite store, counting its transactions; it can be made to fail."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.batches: list[list[str]] = []
        self.fail = 0

    def save_many(self, items: list[tuple[str, dict[str, Any], bool]]) -> None:
        if self.fail:
            self.fail -= 1
            raise sqlite3.OperationalError("disk I/O error")
        self.batches.append([code for code, _, _ in items])
        super().save_many(items)


class Screen(Sink):
    """A local socket: what reached it, with the number of seats saved at that moment."""

    def __init__(self, db: Path, code: str) -> None:
        self.db, self.code, self.viewer, self.role = db, code, None, "host"
        self.got: list[tuple[int, int]] = []

    def send(self, data: bytes) -> None:
        raise AssertionError("local sends go through the hub's hold")

    def deliver(self, data: bytes) -> None:
        with sqlite3.connect(self.db) as con:
            (doc,) = con.execute("SELECT doc FROM rooms WHERE code=?", (self.code,)).fetchone()
        self.got.append((len(json.loads(data)["seats"]), len(json.loads(doc)["seats"])))


def _setup(tmp_path: Path) -> tuple[CountingStore, Hub, Any, Any, Screen]:
    db = tmp_path / "rooms.sqlite3"
    store = CountingStore(db)
    hub = Hub(store)
    first, second = hub.create(CreateRoom(seats=5)), hub.create(CreateRoom(seats=5))
    screen = Screen(db, first.code)
    screen.send = lambda data: hub.hold(screen, data)  # type: ignore[method-assign]
    first.sinks.add(screen)
    store.batches.clear()  # (creating a room writes it at once)
    return store, hub, first, second, screen


def test_one_transaction_per_turn_and_updates_after_it(tmp_path: Path) -> None:
    store, _, first, second, screen = _setup(tmp_path)

    async def go() -> None:
        for name in ("Ann", "Bob", "Cy"):  # three changes of one room in one turn
            first.join(name)
        second.join("Dee")
        assert store.batches == [] and screen.got == []  # nothing yet: the turn goes on
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert store.batches == [[first.code, second.code]]  # each room once, together
        # Every lobby update came after the save, which already had all three seats.
        assert screen.got == [(1, 3), (2, 3), (3, 3)]

    asyncio.run(go())
    store.close()


def test_a_failed_save_shows_nothing_until_a_retry_succeeds(tmp_path: Path) -> None:
    store, _, first, _, screen = _setup(tmp_path)

    async def go() -> None:
        store.fail = 1
        first.join("Ann")
        await asyncio.sleep(0.05)
        assert screen.got == []  # the save failed: the phone sees nothing unsaved
        await asyncio.sleep(0.3)  # the retry
        assert store.batches == [[first.code]]
        assert screen.got == [(1, 1)]

    asyncio.run(go())
    store.close()


def test_without_an_event_loop_saves_and_sends_at_once(tmp_path: Path) -> None:
    store, _, first, _, screen = _setup(tmp_path)
    first.join("Ann")
    assert store.batches == [[first.code]]
    assert screen.got == [(1, 1)]
    store.close()
