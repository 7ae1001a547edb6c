"""The smaller pieces: the night's hold-back, the store, and the host's lobby controls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webhelpers import WS, make_room

from nightcall.server import pacing
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Room
from nightcall.server.store import SQLiteStore

CALLS = ["werewolf", "minion", "seer", "robber"]
# What a werewolf seat sees when the engine has run to the robber's call (the minion
# and the seer being in the center); "p" marks the public events.
SEAT = [
    {"kind": "deal", "seat": 0, "card": "werewolf"},
    {"kind": "call", "role": "werewolf"},  # p
    {"kind": "wolves", "seats": [0, 3]},
    {"kind": "call", "role": "minion"},  # p
    {"kind": "call", "role": "seer"},  # p
    {"kind": "call", "role": "robber"},  # p
]
PUBLIC = [e for e in SEAT if e["kind"] == "call"]


def test_the_engine_slot_and_the_cut() -> None:
    assert pacing.engine_slot(PUBLIC, 0, CALLS) == 3
    assert pacing.engine_slot(PUBLIC[:1], 0, CALLS) == 0
    assert pacing.engine_slot([], 0, CALLS) == -1
    # While the clock is on the werewolves' call, the seat sees up to its own news.
    keep = pacing.cut_index(PUBLIC, 0, CALLS, 0)
    assert keep == 1
    assert pacing.cut(SEAT, PUBLIC, keep) == SEAT[:3]
    assert pacing.cut(SEAT, PUBLIC, pacing.cut_index(PUBLIC, 0, CALLS, 2)) == SEAT[:5]
    # The dawn (a public event that is not a call) is cut too.
    dawn = [*PUBLIC, {"kind": "dawn"}]
    assert pacing.cut_index(dawn, 0, CALLS, 3) == 4
    # Epic calls are {"call": ...}; calls the clock does not know are passed over.
    epic = [{"kind": "call", "call": "werewolf"}, {"kind": "call", "call": "seer"}]
    assert pacing.engine_slot(epic, 0, CALLS) == 2
    assert pacing.engine_slot([{"kind": "call", "role": "ghost"}], 0, CALLS) == -1


def test_sqlite_store_is_wal_and_lists_the_unfinished(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "d" / "rooms.sqlite3")
    assert store.journal_mode() == "wal"
    store.save("AAAA", {"code": "AAAA", "n": 1}, finished=False)
    store.save("BBBB", {"code": "BBBB"}, finished=True)
    store.save("AAAA", {"code": "AAAA", "n": 2}, finished=False)
    assert store.load("AAAA") == {"code": "AAAA", "n": 2}
    assert store.load("ZZZZ") is None
    store.close()
    again = SQLiteStore(tmp_path / "d" / "rooms.sqlite3")
    assert [d["code"] for d in again.unfinished()] == ["AAAA"]
    again.close()


def test_a_room_document_rebuilds_the_same_game() -> None:
    room = Room("ABCD", CreateRoom(seats=4))
    for name in ("Ann", "Bob"):
        room.join(name)
    room.start()
    assert [s.bot for s in room.seats] == [False, False, True, True]
    seat = room.ruleset.waiting_for(room.state)[0]
    room.apply_move(seat, room.default_move(seat) or room.ruleset.legal_actions(
        room.state, seat)[0])
    doc = json.loads(json.dumps(room.to_doc()))
    again = Room.from_doc(doc)
    for viewer in (None, 0, 1, 2, 3):
        assert again.ruleset.view(again.state, viewer) == room.ruleset.view(room.state, viewer)
    # The record is written once the game is over: until then the seed and the moves
    # above are the game.
    assert doc["record"] is None
    room.status = "over"
    assert room.to_doc()["record"] == room.ruleset.to_record(room.state)


def _hello(ws: Any, **msg: Any) -> WS:
    w = WS(ws)
    w.send(type="hello", **msg)
    return w


def test_host_controls_bots_kick_and_the_end_of_the_talk(client: TestClient) -> None:
    code, token = make_room(client, seats=3, discussion_seconds=600, call_seconds=0.05)
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as pw:
        host = _hello(hw, **{"as": "host", "token": token})
        ann = _hello(pw, name="Ann")
        ann.until(lambda m: m["type"] == "welcome")
        host.send(type="add_bot")
        host.send(type="add_bot")
        lobby = host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 3)
        assert [s["bot"] for s in lobby["seats"]] == [False, True, True]
        host.send(type="kick", seat=1)
        lobby = host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 2)
        assert lobby["seats"][0]["name"] == "Ann"
        host.send(type="advance")
        assert host.until(lambda m: m["type"] == "room_error")["code"] == "not_now"
        host.send(type="start")
        host.until(lambda m: m["type"] == "observation"
                   and m["clock"]["stage"] == "discussion")
        # A ten-minute discussion, ended by the host.
        host.send(type="advance")
        vote = host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "vote")
        assert vote["clock"]["seconds"] == pytest.approx(1.5)
        host.send(type="add_bot")
        assert host.until(lambda m: m["type"] == "room_error")["code"] == "started"


def test_after_a_restart_the_night_still_hides_the_dawn() -> None:
    """Lupus: the engine has reached the dawn (a death) while the clock is still on the
    first call; a room rebuilt from its document must not show the death early."""
    room = Room("LUPU", CreateRoom(ruleset="lupus", seats=7))
    room.start()
    room.clock.stage, room.clock.night, room.clock.slot = "night", 1, 0
    room.clock.calls = list(room.ruleset.night_calls(room.roles, 1))
    while room.engine_phase() == "night":
        for seat in room.ruleset.waiting_for(room.state):
            move = room.default_move(seat)
            assert move is not None
            room.apply_move(seat, move)
    assert room.public_view()["ghosts"]  # the werewolves killed somebody at dawn
    again = Room.from_doc(json.loads(json.dumps(room.to_doc())))
    for viewer in (None, 0, 3):
        view = again.seat_view(viewer)
        assert view["ghosts"] == [] and view["phase"] == "night"
        assert not any(e["kind"] == "dawn" for e in view["events"])
