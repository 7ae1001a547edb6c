"""In a cluster, a room unloaded for idleness stays unloaded: the sweep adopts only
games in play whose owner is gone, never a lobby or a finished room nobody asked for.
And an abandoned lobby's document expires in Redis."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import redis
from clusterplay import node_serving, served_here

from nightcall.server.messages import CreateRoom
from nightcall.server.store_redis import LOBBY_TTL_MS, RedisStore

RedisServer = Any


def test_an_unloaded_lobby_is_not_adopted_again_by_the_sweep(
    redis_server: RedisServer, prefix: str,
) -> None:
    r = redis.Redis.from_url(redis_server.url)

    async def go() -> None:
        async with node_serving(redis_server.url, prefix, lease_seconds=1.0) as node:
            hub = node.hub
            lobby = await served_here(node, CreateRoom(seats=5))
            lobby.join("Ann")
            await asyncio.sleep(0.1)  # saved with the turn
            assert hub.unload_idle(now=time.monotonic() + 10 * 3600) == [lobby.code]
            for _ in range(50):  # the lease is released in the background
                if r.get(f"{prefix}:lease:{lobby.code}") is None:
                    break
                await asyncio.sleep(0.02)
            assert r.get(f"{prefix}:lease:{lobby.code}") is None
            await node.sweep()
            await node.keep()
            await node.sweep()
            assert lobby.code not in hub.rooms  # unloading stuck
            # It comes back when someone asks for it, seats and all.
            again = (await node.getter(lobby.code))(lobby.code)
            assert [s.name for s in again.seats] == ["Ann"]

    asyncio.run(go())


def test_a_lobby_expires_in_redis_and_a_game_in_play_does_not(
    redis_server: RedisServer, prefix: str,
) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    r = redis.Redis.from_url(redis_server.url)
    try:
        store.save("LOBB", {"code": "LOBB", "status": "lobby"}, finished=False)
        store.save("PLAY", {"code": "PLAY", "status": "playing"}, finished=False)
        assert 0 < r.pttl(f"{prefix}:room:LOBB") <= LOBBY_TTL_MS
        assert r.pttl(f"{prefix}:room:PLAY") == -1
        store.owner = "me"  # the cluster's fenced save does the same
        r.set(store.lease_key("FENC"), "me")
        store.save("FENC", {"code": "FENC", "status": "lobby"}, finished=False)
        assert 0 < r.pttl(f"{prefix}:room:FENC") <= LOBBY_TTL_MS
        assert r.zrange(store.playing_key, 0, -1) == [b"PLAY"]
        r.delete(f"{prefix}:room:LOBB")  # as its expiry would
        assert sorted(d["code"] for d in store.unfinished()) == ["FENC", "PLAY"]
        assert b"LOBB" not in r.zrange(store.index_key, 0, -1)  # its index entry went too
    finally:
        r.close()
        store.close()
