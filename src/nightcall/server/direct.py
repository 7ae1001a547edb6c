"""Websocket frames written straight to uvicorn's connection, skipping the ASGI round.

Through ASGI an update passes Starlette's ``WebSocket``, the exception handler's
send wrapper and uvicorn's ``send`` coroutine: the bytes are decoded to a ``str``
for the ASGI message and encoded back to bytes, and three coroutines run per
message. With 1,000 phones that path was about a sixth of the server's CPU.

When the server is uvicorn with its ``websockets-sansio`` protocol (as ``nightcall
serve`` runs it), :func:`writer_for` finds that connection from the ASGI ``send``
callable and returns a function that frames the bytes (:func:`text_frame`) and
writes them to the connection's transport. It writes only
while the connection is open and writable; otherwise it returns False and the
caller takes the ordinary ASGI path, which handles flow control and closing. With
any other server (Starlette's test client, another ASGI server, another uvicorn
protocol) :func:`writer_for` returns None and nothing changes.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

RAW_SEND = "nightcall.raw_send"

# The same-run baseline of the load benchmark: every update through ASGI, as before.
DISABLED = os.environ.get("NIGHTCALL_SEND") in ("asgi", "queue")

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


class KeepRawSend:
    """ASGI middleware: remember the server's own ``send`` in a websocket's scope
    (Starlette's exception handler wraps it before the endpoint sees it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


def writer_for(scope: Scope) -> Callable[[bytes], bool] | None:
    """A direct writer of text frames for this websocket, or None when the server is
    not one this module knows (then every send goes through ASGI)."""
    if DISABLED:
        return None
    send = scope.get(RAW_SEND)
    proto = getattr(send, "__self__", None)
    conn = getattr(proto, "conn", None)
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from websockets.server import ServerProtocol
    except ImportError:  # another uvicorn or websockets: the ASGI path
        return None
    if not isinstance(proto, WebSocketsSansIOProtocol) or not isinstance(conn, ServerProtocol):
        return None
    from websockets.protocol import State

    transport = proto.transport
    writable = proto.writable
    opened = State.OPEN

    def write(data: bytes) -> bool:
        if (proto.close_sent or proto.disconnected or conn.state is not opened
                or not writable.is_set() or transport.is_closing()):
            return False  # closing, or full: the ASGI path reports or waits
        transport.write(text_frame(data))
        return True

    return write


def text_frame(data: bytes) -> bytes:
    """One unfragmented, unmasked text frame (RFC 6455 section 5.2), as a server sends
    it: what ``websockets`` builds, without its Frame object (a few microseconds each,
    six times per move)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return _SHORT.pack(0x81, 126, n) + data
    return _LONG.pack(0x81, 127, n) + data


_SHORT = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")
