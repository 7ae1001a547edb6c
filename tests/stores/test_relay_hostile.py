"""Issue 15 on the relay path, on a real Redis: a batch of relayed frames in which one
client's frame is nested too deeply. It used to raise RecursionError in the owner's
listener and throw away the other clients' frames of the same batch; now that client
alone gets one clear error, and every other frame of the batch is handled."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec
import redis.asyncio as aredis
from clusterplay import served_here

from nightcall.server.cluster import Envelope, Node, _encode
from nightcall.server.hub import Hub
from nightcall.server.messages import CreateRoom
from nightcall.server.store_redis import RedisStore

RedisServer = Any
NESTED = "[" * 1500 + "]" * 1500


def test_a_deeply_nested_relayed_frame_spoils_nothing_for_the_others(
        redis_server: RedisServer, prefix: str) -> None:

    async def go() -> None:
        node = Node(RedisStore.from_url(redis_server.url, prefix=prefix), redis_server.url,
                    lease_seconds=2.0, worker_id="owner")
        hub = Hub(node.store, node=node)
        await node.start(hub)
        listen = aredis.Redis.from_url(redis_server.url)
        pubsub = listen.pubsub()
        await pubsub.subscribe(node.channel_of("edge"))  # the relaying process's channel
        try:
            room = await served_here(node, CreateRoom(seats=5))
            code = room.code
            opens = [Envelope("open", code, conn, "edge", b'{"type":"hello","name":"%s"}'
                              % name.encode()) for conn, name in (("a", "Ann"), ("b", "Bob"))]
            agent = Envelope("open", code, "c", "edge", b'{"name":"robo"}', agent=True)
            await listen.publish(node.channel, _encode([*opens, agent]))
            batch = [
                Envelope("msg", code, "a", "edge", ('{"x":' + NESTED + ',"type":"ping"}').encode()),
                Envelope("msg", code, "b", "edge", b'{"type":"ping"}'),
                Envelope("msg", code, "c", "edge", NESTED.encode()),
                Envelope("msg", code, "c", "edge", b'{"type":"ping"}'),
                Envelope("msg", code, "a", "edge", b'{"type":"ping"}'),
            ]
            await asyncio.sleep(0.3)  # (seated first: a batch of their own)
            await listen.publish(node.channel, _encode(batch))
            heard: dict[str, list[dict[str, Any]]] = {"a": [], "b": [], "c": []}
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not all(
                    any(m.get("type") == "pong" for m in got) for got in heard.values()):
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
                if message is None:
                    continue
                for env in msgspec.msgpack.decode(message["data"], type=list[Envelope]):
                    if env.kind == "send":
                        heard[env.conn].append(msgspec.json.decode(env.data))
            for conn in "abc":
                answers = [m for m in heard[conn] if m["type"] not in ("lobby", "welcome")]
                assert answers and answers[-1] == {"type": "pong"}, (conn, heard[conn][-4:])
            errors = {conn: [m for m in heard[conn] if m["type"] == "error"] for conn in "abc"}
            assert [e["code"] for e in errors["a"]] == ["bad_message"]
            assert "nested too deeply" in errors["a"][0]["message"]
            assert [e["code"] for e in errors["c"]] == ["bad_message"]
            assert errors["b"] == []
        finally:
            await pubsub.aclose()
            await listen.aclose()
            await node.stop()

    asyncio.run(go())
