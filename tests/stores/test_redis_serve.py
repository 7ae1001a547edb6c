"""`nightcall serve --redis URL` (issue #8): rooms live in Redis, and a second server
process on the same Redis sees them; an unreachable Redis is refused with a clear error."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis

RedisServer = Any  # the fixture's class lives in tests/stores/conftest.py


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(redis_url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--public-url", url, "--redis", redis_url],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise AssertionError(f"server exited: {out}")
        try:
            if httpx.get(f"{url}/api/rulesets", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for p in procs:
        p.kill()
        p.wait(10)


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
