"""The Starlette application: pages, a small JSON API, and one websocket per client."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from nightcall import protocol
from nightcall.server import messages as m
from nightcall.server.guard import (
    ORIGIN_REFUSED,
    SOCKET_GONE,
    Guards,
    SecurityHeaders,
    server_base,
)
from nightcall.server.hub import Found, Hub
from nightcall.server.limits import (
    Limits,
    address,
    install,
    lookup,
    rate_of,
    receive,
    refusal,
    too_many,
    unread,
)
from nightcall.server.narrator_routes import narrator_routes
from nightcall.server.ops import (
    SERVER_SEND,
    KeepServerSend,
    QuietHangups,
    finder,
    healthz,
    metrics,
    readyz,
)
from nightcall.server.pages import page, web_dir
from nightcall.server.pipeline import (
    Admitted,
    Caller,
    SlowDown,
    agent_error,
    agent_hello_seat,
    agent_seat,
    error,
    hello_token,
    on_frame,
    sink_error,
    web_hello,
)
from nightcall.server.replay_routes import ended_room, replay_routes, room_of
from nightcall.server.room import MAX_TOKEN, MIN_TOKEN, Room, RoomError, Sink, same_token
from nightcall.server.samples import Samples
from nightcall.server.store import Store
from nightcall.server.table_routes import table_routes

if TYPE_CHECKING:
    from nightcall.server.cluster import Node

log = logging.getLogger("nightcall.server")
HELLO_TIMEOUT = 30.0
SEND_QUEUE = 256


# Every message through the writer task, as before the direct path (for the load
# benchmark's same-run baseline only).
QUEUE_ALWAYS = os.environ.get("NIGHTCALL_SEND") == "queue"
# Every update through Starlette's WebSocket.send (the benchmark's same-run baseline).
STARLETTE_SEND = os.environ.get("NIGHTCALL_SEND") == "starlette"


class WsSink(Sink):
    """A websocket client. A message goes out at once when the socket can take it;
    otherwise it waits in a queue for a writer task, so a slow phone never holds up
    the room's pipeline."""

    def __init__(self, ws: WebSocket, role: str, viewer: int | None,
                 timings: Samples | None = None) -> None:
        self.ws = ws
        self.role = role
        self.viewer = viewer
        self.queue: asyncio.Queue[_Queued] = asyncio.Queue(SEND_QUEUE)
        self.busy = False  # the writer has work: new messages queue up behind it
        self.timings = timings
        self.close_code = 1013  # "try again later": the page reconnects
        self.hold: Callable[[WsSink, bytes], None] | None = None
        self.room_code = ""
        # The server's ASGI send (ops.KeepServerSend): updates as plain ASGI messages.
        send = None if STARLETTE_SEND else ws.scope.get(SERVER_SEND)
        self.server_send = send if inspect.iscoroutinefunction(send) else None
        self.gone = False  # fell behind (or closed): nothing more goes to it
        self.on_gone: Callable[[WsSink], None] = lambda sink: None
        self.writer_task: asyncio.Task[None] | None = None
        self.closing: asyncio.Task[None] | None = None

    def send(self, data: bytes) -> None:
        if self.hold is not None:  # out once the turn's saves are written (Hub.hold)
            self.hold(self, data)
        else:
            self.deliver(data)

    def deliver(self, data: bytes) -> None:
        if self.gone:
            return
        if data is CLOSE:  # (close_with: in order, after what was sent before it)
            self.busy = True
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                self.behind()
            return
        if not self.busy and not QUEUE_ALWAYS:
            self._send_now(data)  # (no timing: it waited for nothing, and a call costs)
            return
        try:
            self.queue.put_nowait((data, time.perf_counter()))
        except asyncio.QueueFull:
            self.behind()

    def behind(self) -> None:
        """SEND_QUEUE messages behind: this client is gone. It leaves the room now (no
        more work for it, its seat shows disconnected) and is closed with 1013, which
        goes out as soon as its socket takes anything (the writer is stuck in a send
        the client does not read, so it is cancelled); the page reconnects."""
        self.gone = True
        self.close_code = 1013
        while not self.queue.empty():
            self.queue.get_nowait()
        if self.writer_task is not None:
            self.writer_task.cancel()
        self.on_gone(self)
        self.closing = asyncio.ensure_future(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(*SOCKET_GONE):
            await self.ws.close(code=self.close_code)

    def _send_now(self, data: bytes) -> None:
        """Run the send right here. Through Starlette and uvicorn it completes without
        ever suspending while the socket is writable, so most messages cost no task
        switch; one that has to wait (flow control) is finished by the writer task,
        and everything after it queues behind, in order."""
        text = data.decode()
        if self.server_send is not None:
            sending = self.server_send({"type": "websocket.send", "text": text})
        else:
            sending = self.ws.send_text(text)
        try:
            waiting = sending.send(None)
        except StopIteration:
            return
        except SOCKET_GONE:  # the socket is gone: the reader sees it and cleans up
            return
        self.busy = True
        self.queue.put_nowait((sending, waiting))

    def close_with(self, code: int) -> None:
        """Close after what is sent before. The seat was kicked (4000): held like a
        message, so that the refusal sent just before goes out first. The room moved
        (1012): at once, since what is held for a room this process lost is never
        sent (cluster.py), and the page must reconnect to the new owner."""
        self.close_code = code
        if code == MOVED:
            self.deliver(CLOSE)
        else:
            self.send(CLOSE)

    async def writer(self) -> None:
        try:
            await self._write_all()
        except (WebSocketDisconnect, OSError, RuntimeError):  # hung up: the reader cleans up
            return

    async def _write_all(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                await self.ws.close(code=self.close_code)
                return
            first, second = item
            if isinstance(first, bytes):
                await self.ws.send_text(first.decode())
                if self.timings is not None:  # how long updates wait to go out (load test)
                    self.timings.append(time.perf_counter() - float(second))
            else:
                await _finish(first, second)
            if self.queue.empty():
                self.busy = False


# A queued message (bytes, when queued), a send to finish (coroutine, what it waits on),
# or None: close.
_Queued = tuple[bytes, float] | tuple[Coroutine[Any, Any, None], Any] | None
CLOSE = b"close"  # this very object through send(): close here (WsSink.close_with)
MOVED = 1012  # "service restart": the room is served elsewhere now


async def _finish(sending: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Drive a send that suspended in :meth:`WsSink._send_now` to its end, as a task
    would: wait for what it waits on, then resume it."""
    while True:
        if waiting is None:
            await asyncio.sleep(0)
        else:
            # Not ``await waiting``: the send already yielded that future once, which
            # marked it as awaited, and a C future awaited twice raises RuntimeError
            # (this used to kill the writer, and the phone got nothing more).
            resumed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            waiting.add_done_callback(partial(_resume, resumed))
            await resumed
        try:
            waiting = sending.send(None)
        except StopIteration:
            return


def _resume(resumed: asyncio.Future[None], _: object) -> None:
    if not resumed.done():
        resumed.set_result(None)


async def _send_now(ws: WebSocket, data: bytes) -> None:
    await ws.send_text(data.decode())


# Refusals that are not final: the client may try again (the page reconnects after a
# while); every other refusal closes with 4000 and the page stops.
RETRY_CODES = frozenset({"slow_down", "busy", "unavailable"})
RETRY_CLOSE = 1013  # "try again later"
REFUSED_CLOSE = 4000


async def _refuse(ws: WebSocket, data: bytes, code: str = "") -> None:
    retry = code in RETRY_CODES
    with contextlib.suppress(msgspec.DecodeError, AttributeError):  # (not our refusal)
        why = msgspec.json.decode(data)
        log.info("client refused: %s (%s)", why.get("code"), why.get("message"))
        retry = retry or why.get("code") in RETRY_CODES
    with contextlib.suppress(*SOCKET_GONE):
        await _send_now(ws, data)
        await ws.close(code=RETRY_CLOSE if retry else REFUSED_CLOSE)


def _caller(ws: WebSocket) -> Caller:
    return Caller(address(ws), ws.app.state.tokens)


def _origin_refused(ws: WebSocket) -> bool:
    guards: Guards = ws.app.state.guards
    return not guards.origin_ok(ws)


async def _past_the_guard(hub: Hub, conn: WebSocket, token: str | None,
                          refused: SlowDown) -> Found:
    """An address over the code-guessing limit may still come back with a token of
    the room (its own seat's, the host's): what the lookup found, or the same refusal
    as any other lookup from there (which tells nothing of whether the room exists)."""
    if not token:
        raise refused
    try:
        found = (await finder(hub, conn))(str(conn.path_params["code"]))
    except RoomError:
        raise refused from None
    if isinstance(found, Room):
        opens = found.opens(token)
    else:
        opens = found.doc is not None and _doc_opens(found.doc, token)
    if not opens:
        raise refused
    return found


def _doc_opens(doc: dict[str, Any], token: str) -> bool:
    """:meth:`Room.opens` on a saved room (one another process runs), without
    rebuilding its game."""
    tokens = [str(doc.get("host_token", ""))] + [
        str(s.get("token", "")) for s in doc.get("seats", []) if not s.get("bot")]
    return any(same_token(known, token) for known in tokens if known)


async def websocket_endpoint(ws: WebSocket) -> None:
    """A browser: host screen, spectator or player (``hello`` first)."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    if _origin_refused(ws):
        await _refuse(ws, error("bad_origin", ORIGIN_REFUSED))
        return
    try:
        refused = ws.app.state.guard.blocked(address(ws))
        if refused is None:
            found = lookup(ws, await finder(hub, ws))
        else:
            raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
            unread(ws, raw)  # (read again by whoever serves the hello: here, or the relay)
            found = await _past_the_guard(hub, ws, hello_token(raw), refused)
        if isinstance(found, Room):
            raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
            answer = web_hello(found, raw, _caller(ws))
    except RoomError as exc:
        await _refuse(ws, error(exc.code, exc.message), exc.code)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(*SOCKET_GONE):
            await ws.close()
        return
    if not isinstance(found, Room):  # another process runs the room: frames both ways
        assert hub.node is not None
        await hub.node.relay(ws, found.code, found.owner)
        return
    if isinstance(answer, bytes):
        await _refuse(ws, answer)
        return
    await _serve(ws, hub, found, answer)


async def agent_endpoint(ws: WebSocket) -> None:
    """An agent (nightcall.protocol) speaks nothing but protocol messages. It takes a
    seat with ``?name=`` (or a protocol ``hello`` carrying its name) and may bring
    its own secret ``?token=`` (16+ characters) to rejoin the same seat later."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    if _origin_refused(ws):
        await _refuse(ws, agent_error("refused", ORIGIN_REFUSED))
        return
    token = ws.query_params.get("token")
    caller = _caller(ws)
    try:
        refused = ws.app.state.guard.blocked(address(ws))
        if refused is None:
            found = lookup(ws, await finder(hub, ws))
        else:
            found = await _past_the_guard(hub, ws, token, refused)
        if isinstance(found, Room):
            seat = agent_seat(found, token, ws.query_params.get("name"), caller)
            if seat is None:
                raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
                seat = agent_hello_seat(found, raw, token)
    except RoomError as exc:
        await _refuse(ws, agent_error(exc.code, exc.message), exc.code)
        return
    except protocol.ProtocolError as exc:
        await _refuse(ws, m.encode(exc.error))
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(*SOCKET_GONE):
            await ws.close()
        return
    if not isinstance(found, Room):
        assert hub.node is not None
        query = {k: ws.query_params[k] for k in ("token", "name") if k in ws.query_params}
        await hub.node.relay(ws, found.code, found.owner, agent=True, query=query)
        return
    await _serve(ws, hub, found, Admitted("agent", seat, None))


def _left(room: Room, sink: WsSink) -> None:
    """A client that fell too far behind leaves the room at once (WsSink.behind)."""
    room.forget(sink)
    asyncio.get_running_loop().call_soon(room.broadcast)  # (maybe inside a broadcast now)


async def _serve(ws: WebSocket, hub: Hub, room: Room, who: Admitted) -> None:
    sink = WsSink(ws, who.role, who.viewer, hub.send_timings)
    sink.hold, sink.room_code = hub.hold, room.code  # out after the save (saving.py)
    sink.on_gone = partial(_left, room)
    writer = sink.writer_task = asyncio.create_task(sink.writer())
    if who.welcome is not None:
        sink.send(who.welcome)
    room.attach(sink, who.asks)
    try:
        rate = rate_of(ws)
        while True:
            raw = await receive(ws)
            if sink.gone:  # fell behind and is being closed: it is no longer heard
                continue
            verdict = rate.take()
            if verdict == "close":  # flooding: stop reading it at all
                writer.cancel()
                await ws.close(code=1008, reason="too many messages")
                break
            if verdict == "slow_down":
                sink.send(sink_error(sink, "slow_down", rate.advice()))
                continue
            on_frame(hub, room, sink, raw)
    except WebSocketDisconnect:
        pass
    finally:
        room.forget(sink)
        writer.cancel()
        if sink.closing is not None:
            sink.closing.cancel()
        room.broadcast()


# --- HTTP ----------------------------------------------------------------------------


def _json(data: object, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status,
                    media_type="application/json")


async def create_room(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    guards: Guards = request.app.state.guards
    if not guards.origin_ok(request):
        return _json({"code": "bad_origin", "message": ORIGIN_REFUSED}, 403)
    try:
        settings = m.decode_create(await request.body())
        request.app.state.creations.take(address(request))
        hub.check_table(settings)
        room = await hub.acreate(settings, server_base(request))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _json({"code": "bad_message", "message": str(exc)}, 400)
    except SlowDown as exc:
        return refusal(exc)
    except RoomError as exc:
        status = 503 if exc.code in RETRY_CODES else 400
        return _json({"code": exc.code, "message": exc.message}, status)
    except (OSError, sqlite3.Error):  # the store refused the room (a full disk): nothing kept
        log.exception("cannot save a new room")
        return _json({"code": "unavailable", "message": "the server cannot save a new room "
                      "now (its disk may be full): try again later"}, 503)
    return _json({"room": room.code, "host_token": room.host_token,
                  "join_url": room.join_url}, 201)


async def room_info(request: Request) -> Response:
    room = await room_of(request)
    if not isinstance(room, Room):
        return room
    return _json(room.lobby())


def qr_svg(text: str) -> bytes:
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=8, border=2, dark="#111",
                                     light="#fff", xmldecl=False)
    return out.getvalue()


def room_url(request: Request, room: Room) -> str:
    hub: Hub = request.app.state.hub
    return room.join_url or hub.join_url(room.code, server_base(request))


async def room_qr(request: Request) -> Response:
    room = await room_of(request)
    if not isinstance(room, Room):
        return room
    return Response(qr_svg(room_url(request, room)), media_type="image/svg+xml")


SEAT_TOKEN = re.compile(rf"[A-Za-z0-9_-]{{{MIN_TOKEN},{MAX_TOKEN}}}")


async def seat_link(request: Request) -> Response:
    """A player's way to move to another phone: the link that opens their seat there
    (the token in the fragment, which no server or proxy log sees), and its QR code for
    the other phone to scan. Posted by the seat's own page, which holds the token; the
    answer is the same whether the token opens a seat or not, so it tells nothing."""
    guards: Guards = request.app.state.guards
    if not guards.origin_ok(request):
        return _json({"code": "bad_origin", "message": ORIGIN_REFUSED}, 403)
    room = await room_of(request)
    if not isinstance(room, Room):
        return room
    try:
        token = msgspec.json.decode(await request.body(), type=SeatLinkAsk).token
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _json({"code": "bad_message", "message": str(exc)}, 400)
    if not SEAT_TOKEN.fullmatch(token):
        return _json({"code": "bad_token", "message": "that is not a seat's token"}, 400)
    refused = too_many(request)
    if refused is not None:
        return refused
    link = f"{room_url(request, room)}#seat={token}"
    return _json({"link": link, "qr": qr_svg(link).decode()})


class SeatLinkAsk(msgspec.Struct):
    token: str


async def room_record(request: Request) -> Response:
    """The game record, once the game is over (before that it holds every secret)."""
    room = await ended_room(request, "record")
    if not isinstance(room, Room):
        return room
    return _json(room.ruleset.to_record(room.state))


async def rulesets(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    return JSONResponse(hub.public_rulesets())


async def _watch_loop(hub: Hub, every: float = 0.01) -> None:
    """Measure how late the event loop runs (for the metrics): a busy loop delays every
    client's messages, both ways, and no per-message timing shows it."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(every)
        hub.loop_lag.append(max(0.0, time.perf_counter() - started - every))


async def _unload_loop(hub: Hub, every: float = 60.0) -> None:
    """Rooms nobody uses leave memory (Hub.unload_idle): a public server's memory is
    bounded by its rooms in use, not by every room it ever ran. The store forgets
    abandoned lobbies and finished games past their time (Hub.expire)."""
    rounds = 0
    while True:
        await asyncio.sleep(every)
        rounds += 1
        try:
            gone = hub.unload_idle()
            if rounds % EXPIRE_EVERY == 0:
                hub.expire()
        except Exception:  # (Redis unreachable while releasing: the next round retries)
            # A boundary: if this loop stopped, rooms nobody uses would stay in memory
            # for good. Whatever failed is logged with its traceback, every round.
            log.warning("cannot unload idle rooms", exc_info=True)
            continue
        if gone:
            log.info("unloaded %d idle room(s)", len(gone))


EXPIRE_EVERY = 10  # unload rounds (of a minute) between two expiries of the store


async def page_words(request: Request) -> Response:
    """The pages' words in a language: web/locales plus each ruleset's own (its role
    help, from its locales folder: a ruleset is one folder)."""
    from nightcall.server.narration import page_words as words

    table = words(request.path_params["lang"])
    if table is None:
        return Response("no such language", status_code=404)
    return Response(table, media_type="application/json", headers={"Cache-Control": "no-cache"})


async def favicon(request: Request) -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the app's moon icon."""
    return FileResponse(web_dir() / "icons" / "favicon.svg", media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})


def create_app(store: Store, scale: float = 1.0, public_url: str = "",
               node: Node | None = None, *, limits: Limits | None = None,
               metrics_token: str = "", dusk_scale: float = 1.0,
               allow_origins: tuple[str, ...] | list[str] = ()) -> Starlette:
    """The app. ``scale`` multiplies every timer (tests run the clock fast). With a
    ``node`` (Redis), rooms are shared with every other process on the same Redis.
    ``public_url`` is what join links and QR codes say; ``allow_origins``, the sites
    besides it whose pages may use the API (guard.py). ``/metrics`` answers only with
    ``metrics_token`` configured and given (ops.py)."""
    from nightcall.server.metrics import registry_for

    hub = Hub(store, scale, public_url, node, dusk_scale=dusk_scale)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if node is not None:
            await node.start(hub, app)
        try:
            hub.expire()  # before resuming: an abandoned lobby is not worth loading
        except hub.store.errors:
            log.warning("cannot expire old rooms", exc_info=True)
        resumed = hub.resume_all()
        if resumed:
            log.info("resumed %d room(s)", resumed)
        watch = asyncio.create_task(_watch_loop(hub))
        unload = asyncio.create_task(_unload_loop(hub))
        yield
        watch.cancel()
        unload.cancel()
        if node is not None:
            await node.stop()
        hub.stop()

    routes = [
        Route("/", page("index.html")),
        Route("/join", page("index.html")),
        Route("/host/{code}", page("host.html")),
        Route("/play/{code}", page("play.html")),
        Route("/watch/{code}", page("watch.html")),
        Route("/t/{token}", page("table.html")),
        Route("/table", page("narrator.html")),
        Route("/favicon.ico", favicon),
        Route("/api/rulesets", rulesets),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/qr.svg", room_qr),
        Route("/api/rooms/{code}/seat-link", seat_link, methods=["POST"]),
        Route("/api/rooms/{code}/record", room_record),
        *table_routes(),
        *narrator_routes(),
        *replay_routes(page),
        WebSocketRoute("/ws/{code}", websocket_endpoint),
        WebSocketRoute("/ws/{code}/agent", agent_endpoint),
        Route("/static/locales/{lang}.json", page_words),  # before the files: merged words
        Mount("/static", StaticFiles(directory=web_dir()), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(QuietHangups)
    app.add_middleware(KeepServerSend)
    app.add_middleware(SecurityHeaders)  # body size, headers on every page (guard.py)
    app.state.hub = hub
    app.state.guards = Guards.of(public_url, allow_origins)
    app.state.metrics_token = metrics_token
    app.state.metrics_registry = registry_for(hub)
    install(app, limits or Limits())  # rate limits (limits.py); tests pass tight ones
    return app
