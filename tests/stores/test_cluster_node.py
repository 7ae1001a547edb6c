"""The cluster node in process, on a real Redis: what it holds back until Redis has
acknowledged the turn's saves, and what it does when another process took a room."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import redis

from nightcall.server.cluster import Node
from nightcall.server.hub import Hub
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Sink
from nightcall.server.store_redis import RedisStore

RedisServer = Any


class Phone(Sink):
    """A local socket as the node sees it: what reached it, and the room's saved status
    at that moment (read straight from Redis)."""

    def __init__(self, r: redis.Redis, key: str, viewer: int | None) -> None:
        self.r, self.key, self.viewer, self.role = r, key, viewer, "player"
        self.room_code = key.rsplit(":", 1)[1]
        self.got: list[tuple[bytes, int]] = []
        self.closed: int | None = None

    def send(self, data: bytes) -> None:
        raise AssertionError("a cluster's local sends go through the node")

    def deliver(self, data: bytes) -> None:
        doc = json.loads(self.r.get(self.key) or b"{}")
        self.got.append((data, len(doc.get("seats", []))))

    def close_with(self, code: int) -> None:
        self.closed = code


def _node(url: str, prefix: str) -> Node:
    return Node(RedisStore.from_url(url, prefix=prefix), url, lease_seconds=2.0)


def test_updates_wait_for_their_save_and_a_lost_lease_drops_the_room(
    redis_server: RedisServer,
) -> None:
    prefix = f"node{time.monotonic_ns()}"
    r = redis.Redis.from_url(redis_server.url)

    async def go() -> None:
        node = _node(redis_server.url, prefix)
        hub = Hub(node.store, node=node)
        await node.start(hub)
        try:
            room = hub.create(CreateRoom(seats=5))
            key = f"{prefix}:room:{room.code}"
            phone = Phone(r, key, None)
            phone.send = lambda data: node.hold(phone, data)  # type: ignore[method-assign]
            room.sinks.add(phone)
            for name in ("Ann", "Bob", "Cy"):
                room.join(name)  # each join: a broadcast and a save, batched per turn
            assert phone.got == []  # nothing leaves before Redis has the save
            for _ in range(100):
                await asyncio.sleep(0.01)
                if phone.got:
                    break
            # Delivered only after the save: Redis already had all three seats.
            assert phone.got and all(seats == 3 for _, seats in phone.got)
            # Another process takes the room (this one stalled past its lease).
            r.set(f"{prefix}:lease:{room.code}", "someone-else")
            before = r.get(key)
            delivered = len(phone.got)
            room.join("Dee")
            for _ in range(100):
                await asyncio.sleep(0.01)
                if room.code not in hub.rooms:
                    break
            assert room.code not in hub.rooms  # dropped: its clients go to the new owner
            assert phone.closed == 1012
            assert r.get(key) == before  # the fenced save wrote nothing
            assert len(phone.got) == delivered  # and the unsaved update never went out
        finally:
            await node.stop()
            hub.stop()

    asyncio.run(go())


def test_a_cluster_grows_its_codes_too_and_never_hangs(
    redis_server: RedisServer, monkeypatch: Any,
) -> None:
    """Issue 15 in a cluster: Node.create takes its codes from the same schedule as one
    process (hub.candidate_codes): longer codes once the short ones are taken, then a
    clear 'busy' instead of an endless loop."""
    from nightcall.server import hub as hub_mod
    from nightcall.server.room import RoomError

    monkeypatch.setattr(hub_mod, "CODE_ALPHABET", "AB")
    monkeypatch.setattr(hub_mod, "CODE_LENGTH", 1)
    monkeypatch.setattr(hub_mod, "MAX_CODE_LENGTH", 2)
    monkeypatch.setattr(hub_mod, "TRIES_PER_LENGTH", 64)
    prefix = f"codes{time.monotonic_ns()}"

    async def go() -> None:
        node = _node(redis_server.url, prefix)
        hub = Hub(node.store, node=node)
        await node.start(hub)
        try:
            codes = [(await node.create(CreateRoom(seats=5))).code for _ in range(6)]
            assert sorted(codes) == ["A", "AA", "AB", "B", "BA", "BB"]
            started = time.monotonic()
            try:
                await node.create(CreateRoom(seats=5))
            except RoomError as exc:
                assert exc.code == "busy"
            else:
                raise AssertionError("a seventh room in a space of six")
            assert time.monotonic() - started < 5
        finally:
            await node.stop()

    asyncio.run(go())
