"""The server's layers (issue 13): the message pipeline is plain Python, the hub and the
cluster do not import the web app, and a room lookup says what it found."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nightcall.server.hub import Elsewhere, Hub, readable
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Room, RoomError
from nightcall.server.store import SQLiteStore


def _imported_after(module: str) -> set[str]:
    code = (f"import sys, {module}\n"
            "print('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('starlette', 'uvicorn', 'nightcall'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    return set(out.split())


def test_the_message_pipeline_imports_no_web_framework() -> None:
    loaded = _imported_after("nightcall.server.pipeline")
    assert not [m for m in loaded if m.startswith(("starlette", "uvicorn"))], loaded
    assert "nightcall.server.app" not in loaded


@pytest.mark.parametrize("module", ["nightcall.server.hub", "nightcall.server.cluster"])
def test_the_hub_and_the_cluster_do_not_import_the_web_app(module: str) -> None:
    assert "nightcall.server.app" not in _imported_after(module)


def test_a_lookup_returns_what_it_found(tmp_path: Path) -> None:
    """One process: the room (loaded from the store if need be), or a refusal; a room
    served elsewhere is a value saying where, read from its saved copy."""
    store = SQLiteStore(tmp_path / "rooms.sqlite3")
    hub = Hub(store)
    room = hub.create(CreateRoom(seats=5))
    assert hub.get(room.code) is room
    assert hub.get(room.code.lower()) is room
    with pytest.raises(RoomError) as missing:
        hub.get("ZZZZ")
    assert missing.value.code == "no_room"
    del hub.rooms[room.code]  # (as after an unload) the store brings it back
    again = hub.get(room.code)
    assert isinstance(again, Room) and again.host_token == room.host_token

    where = Elsewhere(room.code, "other-process", room.to_doc())
    copy = readable(where)
    assert copy is not room and copy.code == room.code and copy.host_token == room.host_token
    with pytest.raises(RoomError) as unreadable:
        readable(Elsewhere(room.code, "other-process"))
    assert unreadable.value.code == "unavailable"
    hub.stop()
