"""`nightcall serve --redis URL` (issue #8): rooms live in Redis, and a second server
process on the same Redis sees them; an unreachable Redis is refused with a clear error."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any

import httpx
import redis
from clusterplay import serve

RedisServer = Any  # the fixture's class lives in tests/stores/conftest.py


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(redis_url: str) -> tuple[subprocess.Popen[bytes], str]:
    return serve(redis_url)


def test_rooms_created_on_one_server_live_in_redis_and_another_sees_them(
    redis_server: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    first, url = _serve(redis_server.url)
    servers.append(first)
    body = {"ruleset": "onuw", "seats": 5, "call_seconds": 0.4,
            "discussion_seconds": 0.3, "vote_seconds": 1.5}
    r = httpx.post(f"{url}/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["room"]
    keys = redis.Redis.from_url(redis_server.url).keys("nightcall:room:*")
    assert f"nightcall:room:{code}".encode() in keys
    first.kill()
    first.wait(10)
    second, url2 = _serve(redis_server.url)
    servers.append(second)
    info = httpx.get(f"{url2}/api/rooms/{code}", timeout=10)
    assert info.status_code == 200 and code in info.text


def test_an_unreachable_redis_is_refused_with_a_clear_error() -> None:
    port = _free_port()  # nothing listens there
    done = subprocess.run(
        [sys.executable, "-m", "nightcall.cli", "serve", "--port", str(_free_port()),
         "--redis", f"redis://127.0.0.1:{port}/0"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "cannot use Redis" in done.stderr
