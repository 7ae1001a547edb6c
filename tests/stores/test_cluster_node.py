"""The cluster node in process, on a real Redis: what it holds back until Redis has
acknowledged the turn's saves, and what it does when another process took a room."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import redis
from clusterplay import node_serving, served_here

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
    redis_server: RedisServer, prefix: str,
) -> None:
    r = redis.Redis.from_url(redis_server.url)

    async def go() -> None:
        async with node_serving(redis_server.url, prefix) as node:
            hub = node.hub
            room = await served_here(node, CreateRoom(seats=5))
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

    asyncio.run(go())


def test_a_cluster_grows_its_codes_too_and_never_hangs(
    redis_server: RedisServer, monkeypatch: Any, prefix: str,
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

    async def go() -> None:
        async with node_serving(redis_server.url, prefix) as node:
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

    asyncio.run(go())


class NoBlocking:
    """In place of the blocking Redis client: any use of it fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a blocking Redis call ({name}) while serving")


def test_play_again_in_a_cluster_makes_no_blocking_redis_call(
    redis_server: RedisServer, prefix: str,
) -> None:
    """Play again (Hub.play_again) in a cluster: the next room is made in the background
    through the asyncio client only, set up (seat order, bots) before its first save,
    told to the old room once; when Redis is gone, the host hears why and may retry."""
    from nightcall.server.room import Room, RoomError

    r = redis.Redis.from_url(redis_server.url)

    class Screen(Sink):
        def __init__(self) -> None:
            self.role, self.viewer, self.got = "host", None, []

        def send(self, data: bytes) -> None:
            self.got.append(json.loads(data))

        def deliver(self, data: bytes) -> None:
            self.send(data)

    async def go() -> None:
        node = _node(redis_server.url, prefix)
        hub = Hub(node.store, scale=0.01, node=node)  # (every timer 100 times faster)
        await node.start(hub)
        blocking, store_client = node.r, node.store._r  # (our own store's client)
        try:
            room = await served_here(node, CreateRoom(
                seats=5, call_seconds=0.01, discussion_seconds=0.01, vote_seconds=0.05))
            for name in ("Ann", "Bob"):
                room.join(name)
            for _ in range(3):
                room.add_bot()
            screen = Screen()
            room.sinks.add(screen)
            hub.start(room)  # played to the end by the clock (the people never act)
            for _ in range(1000):
                await asyncio.sleep(0.01)
                if room.status == "over":
                    break
            assert room.status == "over"
            await asyncio.sleep(0.1)
            node.r = node.store._r = NoBlocking()  # type: ignore[assignment]
            failed: list[RoomError] = []
            hub.play_again(room, failed.append)
            hub.play_again(room, failed.append)  # a second tap while it is being made
            assert room.next_code is None  # nothing waited for Redis here
            for _ in range(200):
                await asyncio.sleep(0.01)
                if room.next_code is not None and any(
                        m["type"] == "next_room" for m in screen.got):
                    break
            assert failed == []
            new = room.next_code
            assert new is not None and new != room.code
            told = [m for m in screen.got if m["type"] == "next_room"]
            assert told == [{"type": "next_room", "room": new,
                             "host_token": room.next_host_token}]
            doc = json.loads(r.get(f"{prefix}:room:{new}") or b"{}")
            assert doc["status"] == "lobby" and doc["order"][:2] == ["ann", "bob"]
            assert [s["bot"] for s in doc["seats"]] == [True] * 3  # the bots sit again
            assert doc["host_token"] == room.next_host_token
            assert len(r.keys(f"{prefix}:room:*")) == 2  # one new room for two taps
            assert r.get(f"{prefix}:lease:{new}") is None  # served where it is asked for
            # The old room's save says where the next game is.
            for _ in range(100):
                saved = json.loads(r.get(f"{prefix}:room:{room.code}") or b"{}")
                if saved.get("next"):
                    break
                await asyncio.sleep(0.01)
            assert saved["next"] == [new, room.next_host_token]

            # Redis gone: the host is told, nothing is half made, and a tap retries.
            lonely = Room("QQQQ", CreateRoom(seats=5))
            lonely.status = "over"
            redis_server.kill()
            hub.play_again(lonely, failed.append)
            for _ in range(500):
                await asyncio.sleep(0.01)
                if failed:
                    break
            assert [e.code for e in failed] == ["unavailable"]
            assert lonely.next_code is None and "QQQQ" not in hub.making_next
        finally:
            node.r, node.store._r = blocking, store_client
            if redis_server.proc is None or redis_server.proc.poll() is not None:
                redis_server.start()
            await node.stop()
            hub.stop()

    asyncio.run(go())


def test_a_cluster_lookup_says_where_a_room_lives(redis_server: RedisServer, prefix: str) -> None:
    """Node.getter returns what it found: the room served here (a free lease taken), or,
    when another process holds the lease, an Elsewhere naming it, with the saved room;
    an unknown code is refused."""
    from nightcall.server.hub import Elsewhere
    from nightcall.server.room import Room, RoomError

    r = redis.Redis.from_url(redis_server.url)

    async def go() -> None:
        async with node_serving(redis_server.url, prefix) as node:
            hub = node.hub
            theirs = await hub.acreate(CreateRoom(seats=5))
            r.set(f"{prefix}:lease:{theirs.code}", "other-process", px=60_000)
            found = (await node.getter(theirs.code))(theirs.code)
            assert isinstance(found, Elsewhere) and found.owner == "other-process"
            assert found.doc is not None and found.doc["host_token"] == theirs.host_token
            assert theirs.code not in hub.rooms
            ours = await served_here(node, CreateRoom(seats=5))
            assert isinstance(ours, Room) and hub.rooms[ours.code] is ours
            assert (await node.getter(ours.code))(ours.code) is ours
            try:
                (await node.getter("ZZZZ"))("ZZZZ")
            except RoomError as exc:
                assert exc.code == "no_room"
            else:
                raise AssertionError("an unknown room was found")

    asyncio.run(go())
