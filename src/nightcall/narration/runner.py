"""Running a script live: show each line, speak it, then count its pause down on screen.

The clock and the voice are passed in, so the loop itself is easy to test; the
``narrate`` command wires in ``time.sleep`` and espeak-ng.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.live import Live
from rich.text import Text

from nightcall.narration.script import DAY, Step

Speaker = Callable[[str], None]
Sleeper = Callable[[float], None]


def _label(step: Step, role_name: Callable[[str], str]) -> str:
    if step.role is not None:
        return role_name(step.role)
    return "day" if step.phase == DAY else "night"


def countdown(console: Console, seconds: float, label: str, sleep: Sleeper) -> None:
    """A one-line countdown that ticks once a second (the last tick may be shorter)."""
    remaining = seconds
    with Live(Text(""), console=console, transient=True, auto_refresh=False) as live:
        while remaining > 0:
            mins, secs = divmod(math.ceil(remaining), 60)
            clock = f"{mins}:{secs:02d}" if mins else f"{secs} s"
            live.update(Text(f"  ⏳ {label}: {clock}", style="dim"), refresh=True)
            tick = min(1.0, remaining)
            sleep(tick)
            remaining -= tick


def run(
    steps: Sequence[Step],
    console: Console,
    role_name: Callable[[str], str],
    pause_label: str | Callable[[Step], str],
    speak: Speaker | None = None,
    sleep: Sleeper = time.sleep,
    wait: bool = True,
) -> int:
    """Narrate ``steps`` in order; return how many lines were shown."""
    shown = 0
    for step in steps:
        who = _label(step, role_name)
        console.print(Text.assemble((f"[{who}] ", "bold cyan"), step.text))
        shown += 1
        if speak is not None:
            speak(step.text)
        if wait and step.wait > 0:
            label = pause_label if isinstance(pause_label, str) else pause_label(step)
            countdown(console, step.wait, label, sleep)
    return shown
