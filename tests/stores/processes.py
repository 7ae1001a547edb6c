"""The processes a test starts, each in a process group of its own, all killed at
teardown even when the test (or the start itself) failed.

``nightcall serve --workers N`` is a supervisor with N children; nginx is a master with
its workers. Killing the first process alone leaves the others running (a supervisor
killed by the test, or one that died, leaves its workers behind): so each is started
with ``start_new_session`` and the whole group is killed, then waited for until no
process of it is left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def wait_ready(proc: subprocess.Popen[bytes], what: str, ready: Callable[[], bool],
               pause: float = 0.02,
               not_yet: tuple[type[Exception], ...] = (OSError,)) -> None:
    """Poll ``ready()`` for up to 10 s (raising one of ``not_yet`` counts as not ready);
    if ``proc`` exits first, raise with what it wrote on stderr."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"{what} exited at start: {err}")
        with contextlib.suppress(*not_yet):
            if ready():
                return
        time.sleep(pause)
    raise RuntimeError(f"{what} did not answer within 10 s")


def members(group: int) -> list[int]:
    """The live processes of a process group (zombies count as gone), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry.name))
    return found


class ProcessGroups:
    """Every process group a test started; :meth:`stop_all` is the fixture's finalizer."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []

    def popen(self, args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        """Start ``args`` as the leader of a new process group, registered at once."""
        proc: subprocess.Popen[bytes] = subprocess.Popen(args, start_new_session=True,
                                                         **kwargs)
        self.procs.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill a group, its leader alive or not, and wait until none of it is left."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        deadline = time.monotonic() + 10
        while members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # (orphans are reaped by init)

    def stop_all(self) -> None:
        while self.procs:
            self.stop(self.procs.pop())
