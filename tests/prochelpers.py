"""Stopping the real processes the tests start (nightcall serve, nginx), for the server,
end-to-end and store tests."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import time
from typing import Any


def stop(proc: subprocess.Popen[Any] | None) -> None:
    """SIGTERM, ten seconds to end, then SIGKILL."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


async def closes_on_sigterm(proc: subprocess.Popen[Any], sockets: list[Any],
                            ) -> tuple[list[int | None], float]:
    """SIGTERM to ``proc``, then each websocket read (5 s at most) until it is closed:
    the close codes, and the seconds from the signal until the process had ended."""
    import websockets

    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    closes = []
    for ws in sockets:
        with contextlib.suppress(websockets.ConnectionClosed):
            async with asyncio.timeout(5):
                while True:
                    await ws.recv()
        closes.append(ws.close_code)
    await asyncio.to_thread(proc.wait, 10)
    return closes, time.monotonic() - started
