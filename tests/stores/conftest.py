"""A real redis-server for the store tests: free loopback port, temp dir, stopped at the end.

Skips only when the binary is missing and NIGHTCALL_REQUIRE_REDIS is unset (CI sets it,
so there a missing redis-server fails the run instead of hiding the Redis tests).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from processes import ProcessGroups, wait_ready

REDIS_BIN = os.environ.get("NIGHTCALL_REDIS_SERVER") or shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One redis-server process we own; ``kill`` and ``start`` again keep dir and port."""

    def __init__(self, workdir: Path, *, appendonly: bool) -> None:
        if REDIS_BIN is None:
            raise RuntimeError("redis-server not found")
        self.bin = REDIS_BIN
        self.dir = workdir
        self.port = _free_port()
        self.appendonly = appendonly
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [
            self.bin, "--port", str(self.port), "--bind", "127.0.0.1",
            "--dir", str(self.dir), "--save", "", "--daemonize", "no",
            "--logfile", str(self.dir / "redis.log"), "--protected-mode", "yes",
        ]
        if self.appendonly:
            args += ["--appendonly", "yes", "--appendfsync", "always"]
        else:
            args += ["--appendonly", "no"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_ready(self.proc, "redis-server", self._pong)
        except RuntimeError:
            self.stop()
            raise

    def _pong(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")

    def kill(self) -> None:
        """SIGKILL: no shutdown hook, no final save; only what reached the AOF survives."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None


def _need_redis() -> None:
    if REDIS_BIN is None:
        if os.environ.get("NIGHTCALL_REQUIRE_REDIS"):
            pytest.fail("NIGHTCALL_REQUIRE_REDIS is set but redis-server is not installed")
        pytest.skip("redis-server binary not found (apt install redis-server)")


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One plain server for the contract suite; each test gets its own key prefix."""
    _need_redis()
    server = RedisServer(tmp_path_factory.mktemp("redis"), appendonly=False)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def prefix(request: pytest.FixtureRequest) -> str:
    """A Redis key prefix of this test's own: the session's server is shared."""
    return f"{request.node.name}{time.monotonic_ns()}"


@pytest.fixture
def durable_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A server of its own with appendonly + fsync always, for kill-and-restart tests."""
    _need_redis()
    server = RedisServer(tmp_path, appendonly=True)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[bytes]]]:
    """``nightcall serve`` processes a test started: killed with all their workers."""
    from clusterplay import kill

    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for p in procs:
        kill(p)


@pytest.fixture
def groups(request: pytest.FixtureRequest) -> ProcessGroups:
    """Processes the test starts (servers and their workers, nginx), each in a group of
    its own: all killed by a finalizer, whether the test passed, failed, or failed
    while starting them."""
    started = ProcessGroups()
    request.addfinalizer(started.stop_all)
    return started
