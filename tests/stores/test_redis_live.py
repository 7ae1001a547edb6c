"""The web app on Redis (issue #8): rooms played over real websockets on a server whose
store is a real redis-server, and a hub that dies mid-game with Redis killed under it
resumes every acknowledged move from a second hub."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from nightcall.audit.wire import run_wire_audit
from nightcall.server.hub import Hub
from nightcall.server.messages import CreateRoom
from nightcall.server.store_redis import RedisStore

pytestmark = pytest.mark.timeout(180)


def test_websocket_rooms_on_redis_leak_nothing_and_persist(redis_server: Any) -> None:
    store = RedisStore.from_url(redis_server.url, prefix="live")
    plan = [("onuw", 5, None), ("lupus", 7, None)]
    result = run_wire_audit(store, plan, seed=7)
    assert result.games == 2 and result.messages > 40
    assert result.findings == [], "\n".join(str(f) for f in result.findings[:10])
    # The hub closed its store at shutdown; a fresh connection finds both games, over.
    again = RedisStore.from_url(redis_server.url, prefix="live")
    try:
        assert again.unfinished() == []
        import redis

        raw = redis.Redis.from_url(redis_server.url)
        codes = [k.decode().rsplit(":", 1)[1] for k in raw.scan_iter("live:room:*")]
        raw.close()
        docs = [again.load(c) for c in codes]
        assert len(docs) == 2
        assert all(d is not None and d["status"] == "over" and d["actions"] for d in docs)
    finally:
        again.close()


def test_hub_resumes_from_redis_after_both_die(durable_redis: Any) -> None:
    settings = CreateRoom(ruleset="lupus", seats=8, call_seconds=0.01,
                          discussion_seconds=0.01, vote_seconds=0.05, defense_seconds=0.01)

    async def first_life() -> tuple[str, int]:
        hub = Hub(RedisStore.from_url(durable_redis.url))
        room = hub.create(settings)
        hub.start(room)  # every seat a bot
        while len(room.actions) < 12:
            await asyncio.sleep(0.01)
        for clock in hub.clocks.values():  # the process dies: no flush, no goodbye
            clock.stop()
        await asyncio.sleep(0)
        return room.code, len(room.actions)

    code, moves = asyncio.run(first_life())
    durable_redis.kill()
    durable_redis.start()

    async def second_life() -> tuple[int, int, str]:
        store = RedisStore.from_url(durable_redis.url)
        hub = Hub(store)
        resumed = hub.resume_all()
        room = hub.rooms[code]
        restored = len(room.actions)
        while room.status != "over":
            await asyncio.sleep(0.02)
        hub.stop()
        return resumed, restored, room.status

    resumed, restored, status = asyncio.run(second_life())
    assert resumed == 1
    # Saves happen once per turn of the loop: at most the very last move can be unsaved.
    assert moves - 1 <= restored <= moves
    assert status == "over"
    after = RedisStore.from_url(durable_redis.url)
    try:
        doc = after.load(code)
        assert doc is not None and doc["status"] == "over" and after.unfinished() == []
    finally:
        after.close()
