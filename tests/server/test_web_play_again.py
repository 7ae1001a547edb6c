"""Play again: after the end, one host message opens a new room with the same settings
and as many bots; every connected player and spectator of the old room is told where
(the host alone gets the new host token), and the players sit down there by name."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from webhelpers import WS, make_room


def hello(ws: Any, **msg: Any) -> WS:
    w = WS(ws)
    w.send(type="hello", **msg)
    return w


def refused(ws: WS, code: str) -> None:
    msg = ws.until(lambda m: m["type"] in ("error", "room_error"))
    assert msg["code"] == code, msg


def test_play_again_moves_the_whole_table(client: TestClient) -> None:
    code, host_token = make_room(client, seats=5, language="it", vote_seconds=0.5)
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as p0, \
            client.websocket_connect(f"/ws/{code}") as p1, \
            client.websocket_connect(f"/ws/{code}") as sw:
        host = hello(hw, **{"as": "host", "token": host_token})
        players = [hello(p0, name="Ann"), hello(p1, name="Bob")]
        for p in players:
            p.until(lambda m: m["type"] == "welcome")
        watcher = hello(sw, **{"as": "spectator"})
        watcher.until(lambda m: m["type"] == "welcome")
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 2)
        host.send(type="play_again")  # not before the end
        refused(host, "not_over")
        host.send(type="start")
        host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over")

        players[0].send(type="play_again")  # only the host's screen
        refused(players[0], "not_host")
        host.send(type="play_again")
        told = host.until(lambda m: m["type"] == "next_room")
        new, new_token = told["room"], told["host_token"]
        assert new != code and new_token and new_token != host_token
        for ws in (*players, watcher):
            msg = ws.until(lambda m: m["type"] == "next_room")
            assert msg == {"type": "next_room", "room": new, "host_token": None}
        host.send(type="play_again")  # a second tap: the same next room, told once
        host.send(type="ping")
        host.until(lambda m: m["type"] == "pong")
        assert [m for m in host.seen if m["type"] == "next_room"] == [told]

    old = client.get(f"/api/rooms/{code}").json()
    lobby = client.get(f"/api/rooms/{new}").json()
    assert lobby["status"] == "lobby"
    for key in ("language", "seats", "options", "scenario", "vote_seconds", "bots"):
        assert lobby["settings"][key] == old["settings"][key], key
    # The bots are seated again; the people sit down by name, keeping their names.
    assert len([s for s in lobby["seats"] if s["bot"]]) == 3
    with client.websocket_connect(f"/ws/{new}") as hw, \
            client.websocket_connect(f"/ws/{new}") as p0:
        host = hello(hw, **{"as": "host", "token": new_token})
        host.until(lambda m: m["type"] == "welcome" and m["role"] == "host")
        ann = hello(p0, name="Ann")
        assert ann.until(lambda m: m["type"] == "welcome")["name"] == "Ann"

    # A phone that connects to the old room later is told too.
    with client.websocket_connect(f"/ws/{code}") as sw:
        late = hello(sw, **{"as": "spectator"})
        assert late.until(lambda m: m["type"] == "next_room")["room"] == new
