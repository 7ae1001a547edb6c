"""The night clock's view of the engine: which call the engine is at, and what a
seat may see while the clock is still on an earlier call.

The engine runs ahead: calls with nobody to choose (a role in the center, the
Minion's look at the thumbs) pass the instant the previous call ends. Showing
that would tell the table which roles are in the center, so while the clock is
on call ``slot``, every client sees the events only up to that call: the view
is cut before the first public event that belongs to a later call (or to the
dawn). Calls are public ``call`` events, so the cut falls at the same place in
every seat's list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Event = dict[str, Any]


def _role(e: Event) -> Any:
    """The role a ``call`` event calls (One Night, Lupus: ``role``; Epic: ``call``)."""
    return e.get("role", e.get("call"))


def _align(calls: Sequence[str], pos: int, role: Any) -> int:
    """The slot of ``role``'s call after slot ``pos``, or ``pos`` if the clock has none."""
    for k in range(pos + 1, len(calls)):
        if calls[k] == role:
            return k
    return pos


def engine_slot(public: Sequence[Event], start: int, calls: Sequence[str]) -> int:
    """The slot of the latest call the engine has begun this night (-1: none yet)."""
    pos = -1
    for e in public[start:]:
        if e.get("kind") == "call":
            pos = _align(calls, pos, _role(e))
    return pos


def cut_index(public: Sequence[Event], start: int, calls: Sequence[str], slot: int) -> int:
    """How many public events a client may see while the clock is on ``slot``."""
    pos = -1
    seen_call = False
    for i in range(start, len(public)):
        e = public[i]
        if e.get("kind") == "call":
            pos = _align(calls, pos, _role(e))
            if pos > slot:
                return i
            seen_call = True
        elif seen_call:
            return i  # the night's first public non-call event: dawn
    return len(public)


def cut(seat_events: Sequence[Event], public: Sequence[Event], keep: int) -> list[Event]:
    """``seat_events`` up to (not including) the ``keep``-th public event.

    Public events appear in every seat's list in the same order, so walking both
    lists together finds the place in the seat's list."""
    out: list[Event] = []
    j = 0
    for e in seat_events:
        if j < len(public) and e == public[j]:
            if j >= keep:
                break
            j += 1
        out.append(e)
    return out
