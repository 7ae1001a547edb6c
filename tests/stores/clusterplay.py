"""Server processes on one Redis, and phones that play through them (for the cluster tests).

A :class:`Phone` speaks the browser protocol over a real websocket, answers each of its
choices with a random legal one, and, like the page, reconnects with its seat's token
when its connection drops, to the next server in its list (as a load balancer would).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import websockets


@contextlib.asynccontextmanager
async def node_serving(url: str, prefix: str, lease_seconds: float = 2.0,
                       ) -> AsyncIterator[Any]:
    """A cluster node on the Redis at ``url`` (its keys under ``prefix``) with a hub of
    its own (``node.hub``), started, and stopped with its hub at the end."""
    from nightcall.server.cluster import Node
    from nightcall.server.hub import Hub
    from nightcall.server.store_redis import RedisStore

    node = Node(RedisStore.from_url(url, prefix=prefix), url, lease_seconds=lease_seconds)
    hub = Hub(node.store, node=node)
    await node.start(hub)
    try:
        yield node
    finally:
        await node.stop()
        hub.stop()


async def served_here(node: Any, settings: Any) -> Any:
    """A new room in a cluster (``Hub.acreate``, no blocking Redis call), then served by
    this node: the first lookup of a free lease adopts it."""
    from nightcall.server.room import Room

    created = await node.hub.acreate(settings)
    found = (await node.getter(created.code))(created.code)
    assert isinstance(found, Room), found
    return found


def saw_the_recorded_outcome(url: str, code: str, clients: list[Any]) -> dict[str, Any]:
    """Every client (phones, host) was last shown the end of the game, with the winners
    the room's record (fetched from ``url``, and returned) replays to."""
    from nightcall.engine import records

    record = httpx.get(f"{url}/api/rooms/{code}/record", timeout=10).json()
    ruleset, state = records.replay(record)
    outcome = ruleset.outcome(state)
    assert outcome is not None
    names = records.players_of(record)
    for p in clients:
        assert p.last is not None and p.last["clock"]["stage"] == "over", p.name
        shown = p.last["view"]["outcome"]
        assert sorted(shown["winners"]) == sorted(names[w] for w in outcome.winners), p.name
    return dict(record)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(redis_url: str, *extra: str, env: dict[str, str] | None = None
          ) -> tuple[subprocess.Popen[bytes], str]:
    """``nightcall serve --redis`` on a free port, once it answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--public-url", url, "--redis", redis_url, *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}, start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"server exited: {err}")
        try:
            if httpx.get(f"{url}/api/rulesets", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    kill(proc)  # (its whole group: nothing it started outlives the failed start)
    raise AssertionError("server did not start")


def kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server and every worker it started (its own process group)."""
    import signal

    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def ws_url(url: str, code: str) -> str:
    return url.replace("http://", "ws://") + f"/ws/{code}"


class Phone:
    def __init__(self, urls: list[str], code: str, name: str, seed: int,
                 host_token: str | None = None) -> None:
        self.urls = urls
        self.code = code
        self.name = name
        self.rng = random.Random(seed)
        self.host_token = host_token
        self.token: str | None = None
        self.seat: int | None = None
        self.last: dict[str, Any] | None = None  # the latest observation
        self.errors: list[dict[str, Any]] = []
        self.connections = 0
        self.closes: list[int] = []
        self.over = asyncio.Event()
        self.seated = asyncio.Event()
        self.ws: Any = None
        self.moves = 0

    def hello(self) -> dict[str, Any]:
        if self.host_token is not None:
            return {"type": "hello", "as": "host", "token": self.host_token}
        if self.token is not None:
            return {"type": "hello", "token": self.token}
        return {"type": "hello", "name": self.name}

    async def run(self, first: int = 0, deadline: float = 120.0) -> None:
        """Play until the game is over, reconnecting (to the next server) after a drop."""
        end = time.monotonic() + deadline
        i = first
        while not self.over.is_set() and time.monotonic() < end:
            url = self.urls[i % len(self.urls)]
            try:
                async with websockets.connect(ws_url(url, self.code), open_timeout=10,
                                              compression=None) as ws:
                    self.ws = ws
                    self.connections += 1
                    await ws.send(json.dumps(self.hello()))
                    async for raw in ws:
                        await self.on_message(json.loads(raw))
                        if self.over.is_set():
                            return
                    self.closes.append(ws.close_code or 0)
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            i += 1  # the next server, as a load balancer would send a reconnect elsewhere
            await asyncio.sleep(0.2)

    async def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "welcome":
            if msg.get("token") and self.host_token is None:
                self.token = msg["token"]
                self.seat = msg.get("seat")
            self.seated.set()
        elif kind in ("error", "room_error"):
            self.errors.append(msg)
        elif kind == "observation":
            self.last = msg
            if msg["clock"]["stage"] == "over":
                self.over.set()
                return
            legal = msg["view"].get("legal") or []
            if legal and self.host_token is None:
                await asyncio.sleep(self.rng.uniform(0.01, 0.05))
                with contextlib.suppress(websockets.ConnectionClosed):
                    await self.ws.send(json.dumps({"type": "action",
                                                   "action": self.rng.choice(legal),
                                                   "state_id": msg["state_id"]}))
                    self.moves += 1

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))


def create_room(url: str, **settings: Any) -> tuple[str, str]:
    body = {"ruleset": "onuw", "seats": 5, "call_seconds": 0.6, "discussion_seconds": 0.3,
            "vote_seconds": 2.0, **settings}
    r = httpx.post(f"{url}/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["room"], r.json()["host_token"]
