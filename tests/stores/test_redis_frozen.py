"""A frozen Redis (a real redis-server stopped with SIGSTOP) must not freeze the server:
every Redis call made while serving is asynchronous with a timeout, so pings are
answered, /healthz answers, /readyz says the store is gone, new rooms are refused with
503, and once Redis is back the game goes on with nothing shown lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from typing import Any

import httpx
import redis
import websockets
from clusterplay import Phone, create_room, saw_the_recorded_outcome, serve, ws_url

RedisServer = Any


def _doc(redis_url: str, code: str) -> dict[str, Any]:
    raw = redis.Redis.from_url(redis_url).get(f"nightcall:room:{code}")
    assert raw is not None
    return dict(json.loads(raw))


def test_a_frozen_redis_leaves_the_server_answering(
    durable_redis: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    proc, url = serve(durable_redis.url, "--lease-seconds", "30")
    servers.append(proc)
    code, token = create_room(url, call_seconds=0.8, vote_seconds=2.0)
    phones = [Phone([url], code, f"p{i}", seed=50 + i) for i in range(5)]
    host = Phone([url], code, "host", seed=59, host_token=token)
    seen: dict[str, Any] = {}

    async def go() -> None:
        players = [asyncio.create_task(p.run()) for p in phones]
        for p in phones:
            await asyncio.wait_for(p.seated.wait(), 20)
        host_task = asyncio.create_task(host.run())
        await asyncio.wait_for(host.seated.wait(), 20)
        async with websockets.connect(ws_url(url, code)) as watcher:
            await watcher.send(json.dumps({"type": "hello", "as": "spectator"}))
            assert json.loads(await watcher.recv())["type"] == "welcome"
            await host.send({"type": "start"})
            await asyncio.sleep(1.0)
            os.kill(durable_redis.proc.pid, signal.SIGSTOP)
            try:
                frozen_at = time.monotonic()
                pongs = []
                async with httpx.AsyncClient(timeout=10) as http:
                    for _ in range(6):  # 3 s of pings, each answered at once
                        await watcher.send('{"type": "ping"}')
                        sent = time.monotonic()
                        while json.loads(await asyncio.wait_for(watcher.recv(), 5))[
                                "type"] != "pong":
                            pass
                        pongs.append(time.monotonic() - sent)
                        t = time.monotonic()
                        assert (await http.get(f"{url}/healthz")).status_code == 200
                        pongs.append(time.monotonic() - t)
                        await asyncio.sleep(0.5)
                    t = time.monotonic()
                    seen["ready"] = (await http.get(f"{url}/readyz")).status_code
                    seen["create"] = (await http.post(f"{url}/api/rooms", json={
                        "ruleset": "onuw", "seats": 5})).status_code
                    seen["refusals_took"] = time.monotonic() - t
                seen["pongs"] = pongs
                seen["frozen_for"] = time.monotonic() - frozen_at
            finally:
                os.kill(durable_redis.proc.pid, signal.SIGCONT)
        await asyncio.wait_for(asyncio.gather(*players), 150)
        await asyncio.wait_for(host.over.wait(), 30)
        host_task.cancel()

    asyncio.run(go())
    assert seen["frozen_for"] > 3
    assert max(seen["pongs"]) < 0.5, seen["pongs"]  # never a Redis timeout's wait
    assert seen["ready"] == 503 and seen["create"] == 503
    assert seen["refusals_took"] < 6  # each gave up after its timeout (2 s)
    # Back: the game went on to its end, and Redis has what the phones were shown.
    after = _doc(durable_redis.url, code)
    assert after["status"] == "over"
    saw_the_recorded_outcome(url, code, [*phones, host])  # the outcome saved
    assert httpx.get(f"{url}/readyz", timeout=5).status_code == 200
