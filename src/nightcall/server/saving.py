"""Group commit for one server process: the rooms changed during a turn of the event
loop are saved together at its end, and the turn's updates wait for that save.

A move used to be written in a transaction of its own, right away; a stage change
that moved several seats, or many rooms acting in the same instant, paid one commit
each and built the same document again for every move. Here a room changed three
times in a turn is written once, every room of the turn goes into one transaction,
and no local socket gets an update before the transaction holding it is written
(the rule a restart relies on: nothing a phone has seen is ever forgotten).
The cluster's node (:mod:`.cluster`) does the same with one Redis round trip, behind
the same three calls (``save``, ``hold``, ``flush``), so the hub uses either alike.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from nightcall.server.store import Store

if TYPE_CHECKING:
    from nightcall.server.room import Room

log = logging.getLogger("nightcall.server")
RETRY_SECONDS = 0.2


class Held(Protocol):
    """A local socket whose messages wait for the turn's saves (app.WsSink)."""

    room_code: str  # its room ("" before the hello)

    def deliver(self, data: bytes) -> None: ...


class TurnSaver:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.saves: dict[str, Room] = {}
        self.held: list[tuple[Held, bytes]] = []
        self.scheduled = False
        self.errors = 0  # failed saves (each retried), for the metrics

    def save(self, room: Room) -> None:
        """Save this room at the end of the turn (its latest state)."""
        self.saves[room.code] = room
        self._schedule()

    def hold(self, sink: Held, data: bytes) -> None:
        """A message for a local socket, delivered once the turn's saves are written."""
        self.held.append((sink, data))
        self._schedule()

    def _schedule(self) -> None:
        if self.scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): save and send now
            self.flush()
            return
        self.scheduled = True
        loop.call_soon(self.flush)

    def flush(self) -> None:
        self.scheduled = False
        rooms, held = self.saves, self.held
        self.saves, self.held = {}, []
        if rooms:
            try:
                self.store.save_many([(code, room.to_doc(), room.status == "over")
                                      for code, room in rooms.items()])
            except self.store.errors:  # the disk is full or gone: show nothing unsaved, retry
                self.errors += 1
                self.saves = {**rooms, **self.saves}
                self.held = held + self.held
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:
                    raise  # no loop to retry on: the caller sees it
                log.exception("store error: cannot save %d room(s), retrying", len(rooms))
                self.scheduled = True
                loop.call_later(RETRY_SECONDS, self.flush)
                return
        for sink, data in held:
            sink.deliver(data)
