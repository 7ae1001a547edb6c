"""The smaller pieces: the night held at its call, the store, and the host's lobby controls."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webhelpers import WS, make_room

from nightcall.engine.clock import default_move
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Room
from nightcall.server.store import SQLiteStore


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
    while not room.ruleset.waiting_for(room.state):
        room.end_call()  # the dusk, then the calls nobody chooses in
    seat = room.ruleset.waiting_for(room.state)[0]
    move = default_move(room.ruleset.legal_actions(room.state, seat), random.Random(seat))
    room.apply_move(seat, move or room.ruleset.legal_actions(room.state, seat)[0])
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
    """Lupus: the pack has chosen its victim while the clock is still on the first
    call; a room rebuilt from its document must not show the death early."""
    room = Room("LUPU", CreateRoom(ruleset="lupus", seats=7))
    room.start()
    room.clock.stage, room.clock.night, room.clock.slot = "night", 1, 0
    room.end_call()  # the dusk is over: the werewolves' call
    rng = random.Random(7)
    for seat in room.ruleset.waiting_for(room.state):
        move = default_move(room.ruleset.legal_actions(room.state, seat), rng)
        assert move is not None
        room.apply_move(seat, move)
    assert not room.ruleset.waiting_for(room.state)  # the victim is chosen...
    assert room.open_call() == "werewolf"  # ...and the call is still open
    again = Room.from_doc(json.loads(json.dumps(room.to_doc())))
    assert again.open_call() == "werewolf"
    for viewer in (None, 0, 3):
        view = again.seat_view(viewer)
        assert view["ghosts"] == [] and view["phase"] == "night"
        assert not any(e["kind"] == "dawn" for e in view["events"])
        assert view == room.seat_view(viewer)


def test_epic_bots_talk_in_the_discussion(client: TestClient) -> None:
    """Session 16: an Epic room's bots said nothing at dawn. Now each claims once,
    and a human's phone sees the claims as the room's public events."""
    code, token = make_room(client, ruleset="epic", seats=5, discussion_seconds=2,
                            call_seconds=0.05)
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as pw:
        host = _hello(hw, **{"as": "host", "token": token})
        ann = _hello(pw, name="Ann")
        ann.until(lambda m: m["type"] == "welcome")
        for _ in range(4):
            host.send(type="add_bot")
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 5)
        host.send(type="start")

        def claims(m: dict[str, Any]) -> list[dict[str, Any]]:
            events = m.get("view", {}).get("events", []) if m["type"] == "observation" else []
            return [e for e in events if e["kind"] == "claim"]

        seen = ann.until(lambda m: {e["seat"] for e in claims(m)} >= {1, 2, 3, 4})
        said = claims(seen)
        assert all(e["role"] in seen["view"]["roles_in_play"] for e in said)
        assert 0 not in {e["seat"] for e in said}  # (Ann, the human, said nothing)
