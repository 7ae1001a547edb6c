"""A real ``nightcall serve`` process on a free loopback port, for restart and
end-to-end tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from prochelpers import stop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, db: Path, port: int | None = None, time_scale: float = 1.0,
                 extra: tuple[str, ...] = (), dusk_scale: float = 0.05) -> None:
        self.db = db
        # The dusk's reading time, which nobody listens to here (about 10 s a game
        # at full length); its look at the card still lasts one call.
        self.dusk_scale = dusk_scale
        self.extra = extra
        self.port = port or free_port()
        self.time_scale = time_scale
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(f".{self.port}.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        cmd = [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", str(self.db), "--public-url", self.url,
               "--time-scale", str(self.time_scale), "--dusk-scale", str(self.dusk_scale),
               *self.extra]
        out = self.log.open("ab")
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        # (generous: a loaded CI machine takes many seconds to import the server; a
        # server that cannot start still fails, a minute later, and is not left running)
        deadline = time.monotonic() + 60
        with httpx.Client(timeout=5) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited: {self.log.read_text()}")
                try:
                    if client.get(f"{self.url}/api/rulesets").status_code == 200:
                        return self
                except httpx.HTTPError:
                    time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, as when the machine loses power."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        stop(self.proc)

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()  # (nothing to do when the test killed it already)
