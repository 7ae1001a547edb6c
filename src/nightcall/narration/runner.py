"""Running a script live: show each line, speak it, then count its pause down on screen.

The clock and the voice are passed in, so the loop itself is easy to test; the
``narrate`` command wires in ``time.sleep`` and espeak-ng.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.live import Live
from rich.text import Text

from nightcall.narration.script import DAY, Step

Speaker = Callable[[str], None]
Sleeper = Callable[[float], None]


def _label(step: Step, role_name: Callable[[str], str],
           phases: tuple[str, str] = ("night", "day")) -> str:
    if step.role is not None:
        return role_name(step.role)
    return phases[1] if step.phase == DAY else phases[0]


PAUSE_KEYS = (b" ", b"p", b"P")


class PauseKey:
    """Space (or p) pauses a countdown and a second press resumes it. Only on a real
    terminal: the keys are read one at a time (cbreak mode) while a countdown runs, and
    the terminal is put back as it was before anything is asked."""

    def __init__(self, stream: TextIO | None = None) -> None:
        stream = stream if stream is not None else sys.stdin
        try:
            self.fd: int | None = stream.fileno() if stream.isatty() else None
        except (AttributeError, OSError, ValueError):
            self.fd = None

    @contextmanager
    def listening(self) -> Iterator[None]:
        if self.fd is None:
            yield
            return
        import termios
        import tty

        old = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        try:
            yield
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, old)

    def pressed(self, timeout: float | None) -> bool:
        """Wait up to ``timeout`` seconds (None: for ever) for the pause key."""
        import select

        assert self.fd is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return False
            if os.read(self.fd, 1) in PAUSE_KEYS:
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False


def countdown(console: Console, seconds: float, label: str, sleep: Sleeper,
              keys: PauseKey | None = None, paused_text: str = "paused",
              hint: str = "") -> None:
    """A one-line countdown that ticks once a second (the last tick may be shorter).
    With ``keys`` on a terminal, the pause key stops the clock until it is pressed again."""
    remaining = seconds
    listen = keys is not None and keys.fd is not None
    with Live(Text(""), console=console, transient=True, auto_refresh=False) as live:
        if not listen:
            while remaining > 0:
                live.update(Text(f"  ⏳ {label}: {_clock(remaining)}", style="dim"),
                            refresh=True)
                tick = min(1.0, remaining)
                sleep(tick)
                remaining -= tick
            return
        assert keys is not None
        with keys.listening():
            while remaining > 0:
                live.update(Text(f"  ⏳ {label}: {_clock(remaining)}{hint}", style="dim"),
                            refresh=True)
                tick = min(1.0, remaining)
                start = time.monotonic()
                if keys.pressed(tick):
                    remaining -= time.monotonic() - start
                    live.update(Text(f"  ⏸ {paused_text} ({label}: {_clock(remaining)})",
                                     style="bold yellow"), refresh=True)
                    keys.pressed(None)
                    continue
                remaining -= tick


def _clock(remaining: float) -> str:
    mins, secs = divmod(math.ceil(max(0.0, remaining)), 60)
    return f"{mins}:{secs:02d}" if mins else f"{secs} s"


def run(
    steps: Sequence[Step],
    console: Console,
    role_name: Callable[[str], str],
    pause_label: str | Callable[[Step], str],
    speak: Speaker | None = None,
    sleep: Sleeper = time.sleep,
    wait: bool = True,
    keys: PauseKey | None = None,
    paused_text: str = "paused",
    hint: str = "",
    phases: tuple[str, str] = ("night", "day"),
) -> int:
    """Narrate ``steps`` in order; return how many lines were shown."""
    shown = 0
    for step in steps:
        who = _label(step, role_name, phases)
        console.print(Text.assemble((f"[{who}] ", "bold cyan"), step.text))
        shown += 1
        if speak is not None:
            speak(step.text)
        if wait and step.wait > 0:
            label = pause_label if isinstance(pause_label, str) else pause_label(step)
            countdown(console, step.wait, label, sleep, keys, paused_text, hint)
    return shown
