"""What an operator and a proxy need from a running server: health and readiness, the
metrics, structured logs, and quiet hang-ups.

- ``GET /healthz``: the process answers (200). ``GET /readyz``: its store answers too
  (200, else 503): a proxy or an orchestrator sends players only where rooms can be
  saved.
- ``GET /metrics``: the Prometheus text format (:mod:`.metrics`), only with the
  operator's token (``Authorization: Bearer TOKEN``, ``--metrics-token``); without a
  configured token it does not exist (404).
- ``--log-format json``: one JSON object per line (:class:`JsonFormatter`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import PlainTextResponse, Response
from starlette.websockets import WebSocketDisconnect

from nightcall.server.guard import ASGIApp, Receive, Scope, Send
from nightcall.server.hub import Found, readable
from nightcall.server.room import Room

if TYPE_CHECKING:
    from nightcall.server.hub import Hub

log = logging.getLogger("nightcall.server")
READY_TIMEOUT = 2.0



async def finder(hub: Hub, conn: HTTPConnection) -> Callable[[str], Found]:
    """The function a room lookup calls (``limits.lookup``): ``hub.get`` in one
    process; in a cluster, what ``Node.getter`` made of its Redis round trips, made
    without blocking the event loop. Either says what it found (the room, or where it
    lives) or refuses."""
    if hub.node is None:
        return hub.get
    return await hub.node.getter(str(conn.path_params.get("code", "")))


async def reader(hub: Hub, conn: HTTPConnection) -> Callable[[str], Room]:
    """The same, for a request that only reads the room: a room another process
    serves is read from its saved copy."""
    get = await finder(hub, conn)
    return lambda code: readable(get(code))


async def healthz(request: Request) -> Response:
    return PlainTextResponse("ok\n", headers={"Cache-Control": "no-store"})


async def readyz(request: Request) -> Response:
    """Ready when the store answers within :data:`READY_TIMEOUT` seconds."""
    hub: Hub = request.app.state.hub
    if hub.node is not None:
        ok = await hub.node.ready()
    else:
        store = hub.store
        # (off the event loop: SQLite's ping is a read of a local file, Redis' a round trip)
        ping = store.ping
        failed: tuple[type[Exception], ...] = (TimeoutError, *store.errors)
        try:
            ok = bool(await asyncio.wait_for(asyncio.to_thread(ping), READY_TIMEOUT))
        except failed:
            ok = False
    if not ok:
        return PlainTextResponse("store unavailable\n", 503,
                                 headers={"Cache-Control": "no-store"})
    return PlainTextResponse("ready\n", headers={"Cache-Control": "no-store"})


async def metrics(request: Request) -> Response:
    """The metrics, for whoever holds the operator's token."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    token: str = request.app.state.metrics_token
    if not token:
        return PlainTextResponse("metrics are off: start the server with --metrics-token\n",
                                 404)
    given = request.headers.get("authorization", "")
    if not secrets.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return PlainTextResponse("the metrics need the operator's token\n", 401,
                                 headers={"WWW-Authenticate": "Bearer"})
    body = generate_latest(request.app.state.metrics_registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST,
                    headers={"Cache-Control": "no-store"})


SERVER_SEND = "nightcall.server_send"


class KeepServerSend:
    """ASGI middleware: keep the server's own ``send`` of a websocket in its scope.
    Updates go out through it as plain ASGI messages (``websocket.send``), a public
    interface, skipping the layers Starlette wraps around it for each message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await self.app(scope, receive, send)


class QuietHangups:
    """ASGI middleware: a websocket client that hangs up while the server writes to it
    is an ordinary event, logged in one line, not an "Exception in ASGI application"
    with a traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except (WebSocketDisconnect, OSError) as exc:  # (uvicorn's ClientDisconnected)
            log.debug("a client hung up mid-send (%s)", type(exc).__name__)
        except RuntimeError as exc:  # Starlette: a send after the close
            if "close" not in str(exc) and "disconnect" not in str(exc):
                raise
            log.debug("a client hung up mid-send (%s)", exc)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, and the
    exception, if any, as one string."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(fmt: str) -> None:
    """``text`` (the default) or ``json``; uvicorn's own loggers go the same way."""
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    # uvicorn's info lines are one per connection ("connection open", "[accepted]"):
    # not events that matter, and thousands of them. Its warnings and errors stay.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
        logger.setLevel(logging.WARNING)
