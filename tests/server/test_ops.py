"""Operating the server: health and readiness, metrics only for the operator, nothing
public that moves with a secret, one log line per event (JSON on demand), no traceback
for a client that hangs up, and a graceful stop on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from liveserver import LiveServer, free_port
from prochelpers import closes_on_sigterm
from starlette.testclient import TestClient
from test_restart import is_obs, read_until, seat_and_deal, three_seat_room

from nightcall.server.app import create_app
from nightcall.server.store import SQLiteStore

pytestmark = pytest.mark.timeout(120)
TOKEN = "a-long-operator-token"


def _client(tmp_path: Path, token: str = TOKEN) -> TestClient:
    return TestClient(create_app(SQLiteStore(tmp_path / "rooms.sqlite3"), scale=0.05,
                                 metrics_token=token))


def test_healthz_and_readyz(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 200
        client.app.state.hub.store.ping = lambda: (_ for _ in ()).throw(  # type: ignore
            OSError("disk gone"))
        assert client.get("/readyz").status_code == 503  # the store no longer answers
        assert client.get("/healthz").status_code == 200  # the process still does


def test_metrics_need_the_operator_token(tmp_path: Path) -> None:
    with _client(tmp_path, token="") as client:
        assert client.get("/metrics").status_code == 404  # off unless configured
    with _client(tmp_path) as client:
        assert client.get("/metrics").status_code == 401
        bad = {"Authorization": "Bearer not-the-token"}
        assert client.get("/metrics", headers=bad).status_code == 401
        code = client.post("/api/rooms", json={"seats": 5}).json()["room"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(json.dumps({"type": "hello", "name": "Ann"}))
            assert ws.receive_json()["type"] == "welcome"
            ws.receive_json()
            got = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/plain")
        text = got.text
        for name in ("nightcall_rooms", "nightcall_connections", "nightcall_moves_total",
                     "nightcall_event_loop_lag_seconds", "nightcall_store_errors_total"):
            assert name in text, name
        assert 'nightcall_rooms{status="lobby"} 1.0' in text
        assert 'nightcall_connections{role="player"} 1.0' in text
        assert code not in text and "Ann" not in text  # nothing about the game itself


def test_nothing_public_moves_when_a_human_acts_at_night(tmp_path: Path) -> None:
    """/api/stats counted human answers to night calls; it is gone, and what stays
    public (the room's lobby, the rulesets) is the same before and after a move."""
    server = LiveServer(tmp_path / "rooms.sqlite3").start()
    try:
        # Every deal of this deck gives some seat a night choice (one Werewolf looks at a
        # center card when alone); two wolves and the Villager would give none.
        deck = ["werewolf", "seer", "robber", "troublemaker", "drunk", "villager"]
        ws_url, code, host_token = three_seat_room(server, 3.0, 60, 60, deck)

        def public() -> list[Any]:
            return [(r.status_code, r.content) for r in (httpx.get(server.url + path, timeout=5)
                    for path in ("/api/stats", f"/api/rooms/{code}", "/api/rulesets",
                                 "/healthz"))]

        async def go() -> tuple[list[Any], list[Any]]:
            _host, phones, _ = await seat_and_deal(ws_url, code, host_token)
            waits = {asyncio.create_task(read_until(
                ws, lambda m: is_obs("night")(m) and bool(m["view"]["legal"]), timeout=40)): ws
                for ws in phones}
            done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
            first = done.pop()  # the first human called acts, the moment they can
            obs, ws = first.result(), waits[first]
            before = await asyncio.to_thread(public)
            await ws.send(json.dumps({"type": "action", "action": obs["view"]["legal"][0],
                                      "state_id": obs["state_id"]}))
            await asyncio.sleep(0.3)
            return before, await asyncio.to_thread(public)

        before, after = asyncio.run(go())
    finally:
        server.stop()
    assert before == after
    assert before[0][0] == 404  # no /api/stats any more


def test_a_client_that_hangs_up_mid_send_logs_no_traceback(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "rooms.sqlite3").start()
    try:
        code = httpx.post(f"{server.url}/api/rooms", json={"seats": 5}).json()["room"]
        for _ in range(20):  # pings answered into a socket that is gone (RST)
            _hang_up_mid_send(server.port, code)
        time.sleep(0.5)
        assert httpx.get(f"{server.url}/api/rulesets").status_code == 200
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log


def _hang_up_mid_send(port: int, code: str) -> None:
    """A raw websocket client: handshake, hello, a burst of pings, then a reset."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    s.recv(4096)
    frames = [json.dumps({"type": "hello", "name": f"x{time.monotonic_ns() % 10**8}"})]
    frames += ['{"type": "ping"}'] * 120  # past the burst: slow_down, then the flood close
    s.sendall(b"".join(_masked(f.encode()) for f in frames))
    time.sleep(0.01)  # the server is reading and answering them
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()  # RST: the server's next write fails


def _masked(data: bytes) -> bytes:
    mask = b"\x01\x02\x03\x04"
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    return bytes((0x81, 0x80 | len(data))) + mask + body


def test_json_logs_one_line_per_event(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", str(tmp_path / "rooms.sqlite3"), "--log-format", "json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ,
                                                               "PYTHONUNBUFFERED": "1"})
    try:
        _wait(url, proc)
        code = httpx.post(f"{url}/api/rooms", json={"seats": 5}).json()["room"]

        async def refused() -> None:
            async with websockets.connect(url.replace("http", "ws") + "/ws/ZZZZ") as ws:
                with contextlib.suppress(websockets.ConnectionClosed):  # (refused at once)
                    await ws.send(json.dumps({"type": "hello", "name": "Ann"}))
                    await ws.recv()
                    await ws.recv()

        asyncio.run(refused())
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    lines = [json.loads(line) for line in err.decode().splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    messages = [line["message"] for line in lines]
    assert any(f"room {code} created" in m for m in messages), messages
    assert any("client refused: no_room" in m for m in messages), messages


def _wait(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server exited"
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise AssertionError("the server did not start")


def test_sigterm_saves_closes_with_1012_and_exits_within_5_s(tmp_path: Path) -> None:
    """Mid-vote, SIGTERM: every client is told to reconnect (1012), the process is gone
    within 5 s, and the votes it had shown are saved."""
    db = tmp_path / "rooms.sqlite3"
    server = LiveServer(db).start()
    ws_url, code, host_token = three_seat_room(server, 0.4, 0.3, 60)
    closes: list[int | None] = []
    took: list[float] = []

    async def go() -> None:
        host, phones, _ = await seat_and_deal(ws_url, code, host_token)
        for seat, target in ((0, 1), (1, 0)):
            obs = await read_until(phones[seat], lambda m: is_obs("vote")(m)
                                   and bool(m["view"]["legal"]), timeout=40)
            await phones[seat].send(json.dumps({
                "type": "action", "action": {"kind": "vote", "a": target},
                "state_id": obs["state_id"]}))
            name = ("Ann", "Bob")[seat]
            await read_until(phones[seat], lambda m, name=name: is_obs("vote")(m)
                             and name in m["view"]["voted"])
        assert server.proc is not None
        codes, seconds = await closes_on_sigterm(server.proc, [host, *phones])
        closes.extend(codes)
        took.append(seconds)

    try:
        asyncio.run(go())
    finally:
        server.kill()
    assert closes == [1012] * 4
    # (uvicorn ends by the signal it stopped for, as systemd expects of a SIGTERM)
    assert server.proc is not None and server.proc.returncode in (0, -signal.SIGTERM)
    assert took[0] < 5
    with sqlite3.connect(db) as con:
        doc = json.loads(con.execute("SELECT doc FROM rooms WHERE code=?",
                                     (code,)).fetchone()[0])
    votes = [(seat, a) for seat, a in doc["actions"] if a["kind"] == "vote"]
    assert votes == [(0, {"kind": "vote", "a": 1}), (1, {"kind": "vote", "a": 0})]
    assert "Traceback" not in server.log.read_text()


def test_room_burst_lets_one_address_open_a_room_at_every_table(tmp_path: Path) -> None:
    """A venue's tables all sit behind one router: ``--room-burst`` raises how many rooms
    that one address may open at once; past it the limit answers 429, as by default."""
    server = LiveServer(tmp_path / "rooms.sqlite3", extra=("--room-burst", "35")).start()
    # The bucket refills one room every 10 s (6 a minute): the 36 requests must come
    # well inside that, or the 36th is rightly let through. One client, one kept-alive
    # connection (a new httpx client per request builds its TLS context each time:
    # 36 of them took 2.6 s on a loaded machine, near enough 10 s under CI's load).
    with httpx.Client(base_url=server.url, timeout=60) as client:
        try:
            started = time.monotonic()
            made = [client.post("/api/rooms", json={"seats": 5}).status_code
                    for _ in range(36)]
            took = time.monotonic() - started
        finally:
            server.stop()
    assert made[:35] == [201] * 35, made  # the default (30) would refuse the 31st
    assert made[35] == 429, f"the 36th room was {made[35]} after {took:.1f} s"


def test_room_burst_below_one_is_refused_with_a_reason() -> None:
    done = subprocess.run([sys.executable, "-m", "nightcall.cli", "serve", "--room-burst", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--room-burst must be at least 1" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "said"), [
    (("--port", "99999"), "--port is a TCP port, 1 to 65535, not 99999"),
    (("--port", "0"), "--port is a TCP port, 1 to 65535, not 0"),
    (("--host", "nosuch.invalid"), "cannot listen on nosuch.invalid:8000: no such address"),
    (("--host", "198.51.100.77"), "cannot listen on 198.51.100.77:8000: "),  # not this machine's
])
def test_serve_refuses_an_address_it_cannot_listen_on_before_telling_the_table(
        args: tuple[str, ...], said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "nightcall.cli", "serve", *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert said in done.stderr
    assert "on the shared screen" not in done.stdout  # no address given out that fails
    assert "Traceback" not in done.stderr


def test_serve_on_a_port_in_use_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "nightcall.cli", "serve", "--host",
                               "127.0.0.1", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}: another program is using that port" \
        in done.stderr
