"""A relayed client's queue is bounded, like a local one's: 256 messages behind, it is
closed with 1013 (it rejoins) instead of holding the relaying process's memory."""

from __future__ import annotations

import asyncio
from typing import Any

from nightcall.server.cluster import BEHIND, RELAY_QUEUE, RESTART, Relayed


def _drain(relayed: Relayed) -> list[bytes | int]:
    out = []
    while not relayed.out.empty():
        out.append(relayed.out.get_nowait())
    return out


def test_a_relayed_client_far_behind_is_closed_with_1013() -> None:
    async def go() -> None:
        ws: Any = None
        relayed = Relayed(ws, "ABCD", "owner")
        for i in range(RELAY_QUEUE):
            relayed.put(b"m%d" % i)
        assert relayed.out.qsize() == RELAY_QUEUE and not relayed.closing
        relayed.put(b"one too many")
        relayed.put(b"and more")
        relayed.put(RESTART)
        assert _drain(relayed) == [BEHIND]  # everything dropped, one close

    asyncio.run(go())


def test_a_close_goes_after_what_is_queued_and_nothing_after_it() -> None:
    async def go() -> None:
        ws: Any = None
        relayed = Relayed(ws, "ABCD", "owner")
        relayed.put(b"first")
        relayed.put(RESTART)
        relayed.put(b"late")
        assert _drain(relayed) == [b"first", RESTART]

    asyncio.run(go())
