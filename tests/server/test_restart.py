"""Killing the server mid-night and starting it again: every room resumes where it
stood, and the phones rejoin their seats with their tokens."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from liveserver import LiveServer

pytestmark = pytest.mark.timeout(120)


async def read_until(ws: Any, pred: Any, timeout: float = 20) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            if pred(msg):
                return msg


def is_obs(stage: str | None = None, call: str | None = None) -> Any:
    def pred(m: dict[str, Any]) -> bool:
        return m["type"] == "observation" and (stage is None or m["clock"]["stage"] == stage) \
            and (call is None or m["clock"]["call"] == call)
    return pred


TWO_WOLVES = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]


def three_seat_room(server: LiveServer, call: float, talk: float,
                    vote: float, deck: list[str] = TWO_WOLVES) -> tuple[str, str, str]:
    """A 3-seat One Night room (two wolves unless told): (websocket base, code, host
    token)."""
    r = httpx.post(f"{server.url}/api/rooms", json={
        "seats": 3, "roles": deck, "call_seconds": call, "discussion_seconds": talk,
        "vote_seconds": vote})
    return server.url.replace("http", "ws"), r.json()["room"], r.json()["host_token"]


async def seat_and_deal(ws_url: str, code: str, host_token: str) -> tuple[Any, list[Any],
                                                                         list[str]]:
    """The host screen, then Ann, Bob and Cy; the host deals. Sockets and seat tokens."""
    host = await websockets.connect(f"{ws_url}/ws/{code}")
    await host.send(json.dumps({"type": "hello", "as": "host", "token": host_token}))
    phones, tokens = [], []
    for name in ("Ann", "Bob", "Cy"):
        ws = await websockets.connect(f"{ws_url}/ws/{code}")
        await ws.send(json.dumps({"type": "hello", "name": name}))
        tokens.append((await read_until(ws, lambda m: m["type"] == "welcome"))["token"])
        phones.append(ws)
    await host.send(json.dumps({"type": "start"}))
    return host, phones, tokens


async def kill_and_drop(server: LiveServer, sockets: list[Any]) -> None:
    """SIGKILL, as when the machine loses power; then every client lets its socket go."""
    server.kill()
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()


def test_kill_mid_night_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    server = LiveServer(db).start()
    ws_url, code, host_token = three_seat_room(server, 1.5, 0.5, 3)

    async def first_half() -> tuple[list[str], list[dict[str, Any]]]:
        last: list[dict[str, Any]] = []
        host, phones, tokens = await seat_and_deal(ws_url, code, host_token)
        # Wait for the Seer's call: the night is under way (the wolves' call is over).
        await read_until(host, is_obs("night", "seer"))
        for ws in phones:
            last.append(await read_until(ws, is_obs("night", "seer")))
        await kill_and_drop(server, [host, *phones])
        return tokens, last

    with server:  # (already dead unless the first half failed)
        tokens, before = asyncio.run(first_half())
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        doc = json.loads(con.execute("SELECT doc FROM rooms WHERE code=?", (code,)).fetchone()[0])
    assert doc["status"] == "playing" and doc["clock"]["stage"] == "night"
    # The engine rebuilt from the saved moves and end_calls holds the same call open.
    from nightcall.server.room import Room

    assert Room.from_doc(doc).open_call() == "seer"

    server2 = LiveServer(db, port=server.port).start()

    async def second_half() -> list[dict[str, Any]]:
        ends = []
        phones = []
        for i, token in enumerate(tokens):
            ws = await websockets.connect(f"{ws_url}/ws/{code}")
            await ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = await read_until(ws, lambda m: m["type"] == "welcome")
            assert welcome["seat"] == i
            again = await read_until(ws, is_obs())
            # The same night, at the call it was killed in, with what the seat knew.
            assert again["clock"]["stage"] == "night" and again["clock"]["call"] == "seer"
            assert again["view"]["events"] == before[i]["view"]["events"]
            phones.append(ws)
        for ws in phones:
            ends.append(await read_until(ws, is_obs("over"), timeout=40))
            await ws.close()
        return ends

    with server2:
        ends = asyncio.run(second_half())
    outcomes = [e["view"]["outcome"] for e in ends]
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert ends[0]["timeline"]
    # The game went on from the moves saved before the kill.
    with sqlite3.connect(db) as con:
        done, text = con.execute("SELECT finished, doc FROM rooms WHERE code=?",
                                 (code,)).fetchone()
    final = json.loads(text)
    assert done == 1 and final["status"] == "over"
    assert final["actions"][: len(doc["actions"])] == doc["actions"]
    assert len(final["actions"]) > len(doc["actions"])  # at least the votes came after
    assert final["record"]["players"] == ["Ann", "Bob", "Cy"]


def test_kill_mid_vote_keeps_every_acknowledged_vote(tmp_path: Path) -> None:
    """kill -9 while the vote is open, two of three votes in: both survive the restart
    (a vote counts as acknowledged once its sender's screen shows it), the third comes
    after, and the game ends on all three."""
    db = tmp_path / "rooms.sqlite3"
    server = LiveServer(db).start()
    ws_url, code, host_token = three_seat_room(server, 0.4, 0.3, 60)
    voted_for = {0: 1, 1: 0}

    async def first_half() -> list[str]:
        host, phones, tokens = await seat_and_deal(ws_url, code, host_token)
        for seat, target in voted_for.items():
            obs = await read_until(phones[seat], lambda m: is_obs("vote")(m)
                                   and bool(m["view"]["legal"]), timeout=40)
            await phones[seat].send(json.dumps({
                "type": "action", "action": {"kind": "vote", "a": target},
                "state_id": obs["state_id"]}))
            name = ("Ann", "Bob", "Cy")[seat]
            await read_until(phones[seat], lambda m, name=name: is_obs("vote")(m)
                             and name in m["view"]["voted"])
        await kill_and_drop(server, [host, *phones])  # right after the second vote shows
        return tokens

    with server:
        tokens = asyncio.run(first_half())
    server2 = LiveServer(db, port=server.port).start()

    async def second_half() -> dict[str, Any]:
        ws = await websockets.connect(f"{ws_url}/ws/{code}")
        await ws.send(json.dumps({"type": "hello", "token": tokens[2]}))
        obs = await read_until(ws, lambda m: is_obs("vote")(m) and bool(m["view"]["legal"]))
        assert sorted(obs["view"]["voted"]) == ["Ann", "Bob"]  # both votes survived
        await ws.send(json.dumps({"type": "action", "action": {"kind": "vote", "a": 0},
                                  "state_id": obs["state_id"]}))
        end = await read_until(ws, is_obs("over"), timeout=30)
        await ws.close()
        return end

    with server2:
        end = asyncio.run(second_half())
    assert end["view"]["outcome"]["dead"] == ["Ann"]  # Bob and Cy both pointed at Ann
    with sqlite3.connect(db) as con:
        final = json.loads(con.execute("SELECT doc FROM rooms WHERE code=?",
                                       (code,)).fetchone()[0])
    votes = [(seat, a) for seat, a in final["actions"] if a["kind"] == "vote"]
    assert votes == [(0, {"kind": "vote", "a": 1}), (1, {"kind": "vote", "a": 0}),
                     (2, {"kind": "vote", "a": 0})]
