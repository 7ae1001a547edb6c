"""The same agent program plays over the web app's websocket as over stdio.

examples/agent.py speaks JSON lines on stdin/stdout; here each websocket frame
from the web app's agent endpoint is handed to it as a line, and each line it
writes goes back as a frame. Nothing in the program knows which transport it is on.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("nightcall.server.app")

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from nightcall import protocol  # noqa: E402
from nightcall.server.app import create_app  # noqa: E402
from nightcall.server.store import SQLiteStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Short timers, yet long enough for a child process to answer.
FAST = {"call_seconds": 0.3, "discussion_seconds": 0.3, "vote_seconds": 1.5}


@pytest.mark.timeout(90)
def test_the_example_agent_plays_through_the_websocket(tmp_path: Path) -> None:
    app = create_app(SQLiteStore(tmp_path / "rooms.sqlite3"))
    agent = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "agent.py")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, bufsize=1,
    )
    assert agent.stdin is not None and agent.stdout is not None
    # The agent's lines, read by a thread so that a silent agent blocks nobody.
    lines: queue.Queue[str] = queue.Queue()
    stdout = agent.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    received: list[protocol.ServerMessage] = []
    try:
        with TestClient(app) as client:
            r = client.post("/api/rooms", json={**FAST, "seats": 4})
            assert r.status_code == 201, r.text
            room, host_token = r.json()["room"], r.json()["host_token"]
            with client.websocket_connect(f"/ws/{room}/agent?name=example") as ws, \
                    client.websocket_connect(f"/ws/{room}") as host:
                host.send_text(json.dumps({"type": "hello", "as": "host", "token": host_token}))
                host.send_text(json.dumps({"type": "start"}))
                while True:
                    raw = ws.receive_text()
                    message = protocol.decode_server(raw)  # only protocol messages
                    received.append(message)
                    agent.stdin.write(raw + "\n")
                    agent.stdin.flush()
                    if isinstance(message, protocol.GameOver):
                        break
                    if isinstance(message, protocol.Observation):
                        # An answer is due when there are moves; with talk only, maybe.
                        wait = 20.0 if message.view["legal"] else 0.3
                        with contextlib.suppress(queue.Empty):
                            ws.send_text(lines.get(timeout=wait))
        agent.stdin.close()
        assert agent.wait(timeout=10) == 0
    finally:
        if agent.poll() is None:
            agent.kill()
    assert agent.stderr is not None
    said = agent.stderr.read()
    assert "agent: won=" in said, said
    assert isinstance(received[0], protocol.Welcome)
    seat = received[0].seat
    over = received[-1]
    assert isinstance(over, protocol.GameOver)
    claims = [e for e in over.view["events"] if e["kind"] == "claim" and e["seat"] == seat]
    dealt = next(e["card"] for e in over.view["events"] if e["kind"] == "deal")
    claimed: list[Any] = [c.get("role") for c in claims]
    assert claimed == [dealt], "the agent said what it was dealt, over the websocket too"
