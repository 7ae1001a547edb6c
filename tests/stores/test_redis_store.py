"""RedisStore beyond the shared contract: key layout, namespaces, and a SIGKILL restart."""

from __future__ import annotations

import threading
from typing import Any

import redis

from nightcall.server.store_redis import RedisStore


def test_keys_are_namespaced(redis_server: Any) -> None:
    store = RedisStore.from_url(redis_server.url, prefix="layout")
    other = RedisStore.from_url(redis_server.url, prefix="elsewhere")
    try:
        store.save("ROOM", {"code": "ROOM"}, finished=False)
        raw = redis.Redis.from_url(redis_server.url)
        assert raw.get("layout:room:ROOM") == b'{"code":"ROOM"}'
        assert raw.zrange("layout:unfinished", 0, -1) == [b"ROOM"]
        # Another prefix on the same server sees nothing of ours.
        assert other.load("ROOM") is None and other.unfinished() == []
        raw.close()
    finally:
        store.close()
        other.close()


def test_unfinished_survives_a_missing_document(redis_server: Any) -> None:
    store = RedisStore.from_url(redis_server.url, prefix="orphan")
    try:
        store.save("GONE", {"code": "GONE"}, finished=False)
        store.save("HERE", {"code": "HERE"}, finished=False)
        raw = redis.Redis.from_url(redis_server.url)
        raw.delete("orphan:room:GONE")  # an operator's hand, not something save() does
        raw.close()
        assert store.unfinished() == [{"code": "HERE"}]
    finally:
        store.close()


def test_sigkill_and_restart_loses_nothing_acknowledged(durable_redis: Any) -> None:
    """appendonly yes + appendfsync always: every save that returned is on disk."""
    store = RedisStore.from_url(durable_redis.url)
    acked: dict[str, dict[str, Any]] = {}
    finished: set[str] = set()
    lock = threading.Lock()

    def writer(t: int) -> None:
        for i in range(60):
            code = f"W{t}X{i % 15}"
            doc = {"code": code, "step": i, "name": "Zoë", "pad": "x" * (i * 37)}
            done = i >= 45 and i % 2 == 0
            store.save(code, doc, finished=done)
            with lock:  # recorded only after save() returned: acknowledged
                acked[code] = doc
                if done:
                    finished.add(code)
                else:
                    finished.discard(code)

    workers = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    store.close()

    durable_redis.kill()
    durable_redis.start()

    after = RedisStore.from_url(durable_redis.url)
    try:
        for code, doc in acked.items():
            assert after.load(code) == doc, code
        assert {d["code"] for d in after.unfinished()} == set(acked) - finished
        assert finished  # the scenario really finished some rooms
    finally:
        after.close()


def test_flush_then_a_new_connection_sees_the_save(redis_server: Any) -> None:
    store = RedisStore.from_url(redis_server.url, prefix="flush")
    try:
        store.save("FLSH", {"code": "FLSH", "n": 1}, finished=False)
        store.flush()  # the hub calls it before it stops: must not fail or lose anything
        other = RedisStore.from_url(redis_server.url, prefix="flush")
        assert other.load("FLSH") == {"code": "FLSH", "n": 1}
        other.close()
    finally:
        store.close()


def test_a_finished_room_expires_and_a_room_in_play_does_not(redis_server: Any) -> None:
    """Redis keeps the games in play for good and a finished one for 30 days, on both
    paths: a plain save, and a cluster owner's save fenced by its lease."""
    from nightcall.server.store_redis import FINISHED_TTL_MS

    store = RedisStore.from_url(redis_server.url, prefix="ttl")
    raw = redis.Redis.from_url(redis_server.url)
    try:
        store.save("PLAY", {"code": "PLAY"}, finished=False)
        store.save("DONE", {"code": "DONE"}, finished=True)
        assert raw.pttl("ttl:room:PLAY") == -1  # no expiry
        assert 0 < raw.pttl("ttl:room:DONE") <= FINISHED_TTL_MS
        store.owner = "me"
        raw.set(store.lease_key("LEASED"), "me")
        store.save("LEASED", {"code": "LEASED"}, finished=False)
        assert raw.pttl("ttl:room:LEASED") == -1
        store.save("LEASED", {"code": "LEASED", "over": True}, finished=True)
        assert 0 < raw.pttl("ttl:room:LEASED") <= FINISHED_TTL_MS
        assert store.unfinished() == [{"code": "PLAY"}]
    finally:
        raw.close()
        store.close()
