"""Events and their audiences.

Every fact the engine produces is an :class:`Event` with an audience:
``EVERYONE`` (public), a frozenset of seats, or ``MASTER`` (nobody but the game
master, e.g. the true deal). :func:`visible_to` is the only test used to decide
whether a seat may learn an event; views are built from it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

EVERYONE: Final = "everyone"
MASTER: Final = "master"

Audience = str | frozenset[int]
# Who is looking: a seat number, None for a spectator (public facts only), or MASTER.
Viewer = int | str | None


class Event(msgspec.Struct, frozen=True, gc=False):
    """One logged fact: ``Event(kind, audience, data)``, never changed once logged.

    A struct rather than a NamedTuple: it is built in C, about a quarter of the
    NamedTuple's cost (whose constructor is a Python function), and a game logs a dozen
    or more. ``gc=False``: an event holds only plain data (strings, numbers, lists and
    dicts of them), never anything that could lead back to it, so it can be in no cycle.
    """

    kind: str
    audience: Audience
    data: dict[str, Any]


def visible_to(event: Event, viewer: Viewer) -> bool:
    audience = event.audience
    if audience == EVERYONE:
        return True
    if viewer == MASTER:
        return True
    if audience == MASTER or viewer is None or isinstance(viewer, str):
        return False
    return viewer in audience


# Per viewer: the JSON form of the events it may see so far, and how much of the log
# has been read. Kept on a game state (``seen_by``) by the rulesets' views.
SeenCache = dict[Viewer, tuple[list[dict[str, Any]], list[int]]]


def visible_json(log: list[Event], seen_by: SeenCache, viewer: Viewer,
                 visible: Callable[[Event, Viewer], bool] = visible_to) -> list[dict[str, Any]]:
    """The events of ``log`` that ``viewer`` may see (``visible``), as plain dicts
    (``kind`` first), read incrementally: an event never changes once logged, and the
    server asks every seat's view after every move, so each event is turned into a dict
    once per viewer. The list is new; its dicts are shared with later calls and must
    not be changed."""
    cached = seen_by.get(viewer)
    if cached is None:
        cached = seen_by[viewer] = ([], [0])
    events, read = cached
    for e in log[read[0]:]:
        if visible(e, viewer):
            events.append({"kind": e.kind, **e.data})
    read[0] = len(log)
    return list(events)
