"""Rooms nobody uses leave memory (Hub.unload_idle) and come back from the store on the
next request, as they were."""

from __future__ import annotations

import time
from pathlib import Path

from nightcall.server.hub import IDLE_LOBBY, IDLE_OVER, Hub
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Sink
from nightcall.server.store import SQLiteStore


class Screen(Sink):
    def __init__(self) -> None:
        self.viewer, self.role = None, "spectator"

    def send(self, data: bytes) -> None:
        pass


def test_idle_rooms_leave_memory_and_come_back(tmp_path: Path) -> None:
    hub = Hub(SQLiteStore(tmp_path / "rooms.sqlite3"))
    lobby, watched, playing, over = (hub.create(CreateRoom(seats=3)) for _ in range(4))
    lobby.join("Ann")
    watched.sinks.add(Screen())
    playing.status = "playing"  # (its clock would need an event loop: the status is enough)
    over.status = "over"
    now = time.monotonic()
    assert hub.unload_idle(now) == []  # nobody has been idle long enough
    # A finished game goes after IDLE_OVER; a lobby waits for IDLE_LOBBY.
    assert hub.unload_idle(now + IDLE_OVER + 1) == [over.code]
    assert set(hub.unload_idle(now + IDLE_LOBBY + 1)) == {lobby.code}
    # Someone watching, or a game in play, keeps a room in memory however long.
    assert set(hub.rooms) == {watched.code, playing.code}
    again = hub.get(lobby.code)  # the next request brings it back, seats and all
    assert again is not lobby and [s.name for s in again.seats] == ["Ann"]
    assert again.host_token == lobby.host_token and lobby.code in hub.rooms
    hub.stop()
