"""The Starlette application: pages, a small JSON API, and one websocket per client."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from functools import partial
from importlib import resources
from pathlib import Path
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
    Caller,
    Guards,
    SecurityHeaders,
    server_base,
)
from nightcall.server.hub import Elsewhere, Hub
from nightcall.server.limits import (
    Limits,
    SlowDown,
    address,
    install,
    lookup,
    rate_of,
    receive,
    refusal,
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
from nightcall.server.replay_routes import replay_routes
from nightcall.server.room import Room, RoomError, Sink, same_token
from nightcall.server.samples import Samples
from nightcall.server.store import Store
from nightcall.server.table_routes import table_routes

if TYPE_CHECKING:
    from nightcall.server.cluster import Node

log = logging.getLogger("nightcall.server")
HELLO_TIMEOUT = 30.0
MAX_MESSAGE = 4096
SEND_QUEUE = 256


def web_dir() -> Path:
    return Path(str(resources.files("nightcall").joinpath("web")))


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
        with contextlib.suppress(Exception):
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
        except Exception:  # the socket is gone: the reader sees it and cleans up
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


# The agent protocol's in-game codes, which a browser gets as ``error`` too; the ones
# about the connection itself a browser gets as a ``room_error`` (and an agent as an
# ``error``: _agent_error).
CONNECTION_CODES = frozenset({"too_long", "slow_down", "refused"})
PROTOCOL_CODES = frozenset(c.value for c in protocol.ErrorCode) - CONNECTION_CODES


def _error(code: str, message: str) -> bytes:
    """In-game refusals are the agent protocol's ``error``; lobby ones are ``room_error``."""
    if code in PROTOCOL_CODES:
        return m.encode(protocol.Error(protocol.ErrorCode(code), message))
    return m.encode(m.RoomErrorMessage(code=code, message=message))


def _decode_error(exc: Exception) -> bytes:
    if isinstance(exc, msgspec.ValidationError):  # (a subclass of DecodeError)
        if "`$.type`" in str(exc):
            return _error("unknown_type", f"unknown message type: {exc}")
        return _error("bad_message", str(exc))
    return _error("bad_json", f"not valid JSON: {exc}")


def error_bytes(code: str, message: str, agent: bool = False) -> bytes:
    """A refusal; for an agent, always an agent-protocol ``error``."""
    return _agent_error(code, message) if agent else _error(code, message)


def _agent_error(code: str, message: str) -> bytes:
    """An agent hears nothing but its protocol: a lobby or room refusal becomes an
    ``error`` (``too_long``, ``slow_down``, or ``refused`` with the reason said)."""
    if code not in PROTOCOL_CODES and code not in CONNECTION_CODES:
        code = "refused"
    return m.encode(protocol.Error(protocol.ErrorCode(code), message))


def sink_error(sink: Sink, code: str, message: str) -> bytes:
    return error_bytes(code, message, agent=sink.role == "agent")


async def _send_now(ws: WebSocket, data: bytes) -> None:
    await ws.send_text(data.decode())


PONG = m.encode(m.Pong())


def _hello(room: Room, hello: m.Hello, strict: bool = False
           ) -> tuple[str, int | None, m.Welcome]:
    """Who this connection is: a seat (new or rejoining), the host, or a spectator.
    ``strict``: this address sent too many wrong tokens; only the server's own are
    checked (limits.TokenGuard)."""
    if hello.as_ == "host":
        if hello.token is None or not same_token(room.host_token, hello.token):
            raise RoomError("bad_token", "only the host's screen can open this page as host")
        return "host", None, m.Welcome(room=room.code, role="host", token=room.host_token)
    if hello.as_ == "spectator":
        return "spectator", None, m.Welcome(room=room.code, role="spectator")
    if hello.token:
        seat = room.seat_of_token(hello.token, strict)
    elif hello.name is not None:
        seat, _ = room.join(hello.name)
    else:
        raise RoomError("bad_hello", "give a name to take a seat, or your seat's token")
    s = room.seats[seat]
    return "player", seat, m.Welcome(
        room=room.code, role="player", seat=seat, name=s.name, token=s.token
    )


def web_hello(room: Room, raw: str, caller: Caller | None = None
              ) -> tuple[str, int | None, bytes] | bytes:
    """A browser's first frame, wherever its socket is: (role, seat, the welcome to
    send), or the refusal to send before closing. ``caller``: the client's address
    and the wrong-token limit (a connection relayed from another process has none)."""
    strict = False
    try:
        if len(raw) > MAX_MESSAGE:
            raise RoomError("too_long", "that message is too long")
        hello = m.decode(raw)
        if not isinstance(hello, m.Hello):
            raise RoomError("bad_hello", "the first message must be a hello")
        strict = caller is not None and caller.strict()
        role, viewer, welcome = _hello(room, hello, strict)
    except RoomError as exc:
        if exc.code == "bad_token" and caller is not None:
            if strict:
                exc = caller.slow_down()
            caller.wrong_token()
        return _error(exc.code, exc.message)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _decode_error(exc)
    return role, viewer, m.encode(welcome)


def agent_seat(room: Room, token: str | None, name: str | None,
               caller: Caller | None = None) -> int | None:
    """An agent's seat from its address: its own token, or a new seat by name; None
    when it must say hello first."""
    strict = caller is not None and caller.strict()
    if token:
        with contextlib.suppress(RoomError):
            return room.seat_of_token(token, strict)
    if name:
        try:
            return room.join(name, token)[0]
        except RoomError:
            if token and caller is not None:  # a token that opened nothing
                caller.wrong_token()
                if strict:
                    raise caller.slow_down() from None
            raise
    if token and strict:  # (no name: its own token it must be, and it is not tried now)
        assert caller is not None
        raise caller.slow_down()
    return None


def agent_hello_seat(room: Room, raw: str, token: str | None) -> int:
    if len(raw) > MAX_MESSAGE:
        raise RoomError("too_long", "that message is too long")
    hello = protocol.decode_agent(raw)
    if not isinstance(hello, protocol.Hello) or not hello.name:
        raise RoomError("bad_hello", "say hello with a name to take a seat")
    return room.join(hello.name, token)[0]


def _handle(hub: Hub, room: Room, sink: Sink, msg: m.ClientMessage) -> None:
    """One client message through the pipeline; raises RoomError to refuse it."""
    if isinstance(msg, m.Ping):  # at once: a pong tells nothing, so waits for no save
        getattr(sink, "deliver", sink.send)(PONG)
        return
    if isinstance(msg, protocol.ActionMessage):
        if sink.role not in ("player", "agent") or sink.viewer is None or sink.viewer < 0:
            raise RoomError("not_a_player", "only a seated player can act")
        room.submit(sink.viewer, msg.action.to_action(), msg.state_id)
        return
    if isinstance(msg, m.Hello):
        raise RoomError("already_seated", "this connection already said hello")
    if sink.role != "host":
        raise RoomError("not_host", "only the host's screen can do that")
    if isinstance(msg, m.Start):
        hub.start(room, msg.seats)
    elif isinstance(msg, m.AddBot):
        room.add_bot()
    elif isinstance(msg, m.Kick):
        room.kick(msg.seat)
    elif isinstance(msg, m.Arrange):
        room.arrange(msg.order)
    elif isinstance(msg, m.Advance):
        hub.clock(room).advance()
    elif isinstance(msg, m.Extend):
        hub.clock(room).extend()
    elif isinstance(msg, m.Pause):
        hub.clock(room).pause()
    elif isinstance(msg, m.LastToDie):
        room.choose_last(msg.seat)
    elif isinstance(msg, m.PlayAgain):
        hub.play_again(room)


# Refusals that are not final: the client may try again (the page reconnects after a
# while); every other refusal closes with 4000 and the page stops.
RETRY_CODES = frozenset({"slow_down", "busy", "unavailable"})
RETRY_CLOSE = 1013  # "try again later"
REFUSED_CLOSE = 4000


async def _refuse(ws: WebSocket, data: bytes, code: str = "") -> None:
    retry = code in RETRY_CODES
    with contextlib.suppress(Exception):
        why = msgspec.json.decode(data)
        log.info("client refused: %s (%s)", why.get("code"), why.get("message"))
        retry = retry or why.get("code") in RETRY_CODES
    with contextlib.suppress(Exception):
        await _send_now(ws, data)
        await ws.close(code=RETRY_CLOSE if retry else REFUSED_CLOSE)


def _caller(ws: WebSocket) -> Caller:
    return Caller(address(ws), ws.app.state.tokens)


def _origin_refused(ws: WebSocket) -> bool:
    guards: Guards = ws.app.state.guards
    return not guards.origin_ok(ws)


def _hello_token(raw: str) -> str | None:
    """The token a browser's hello brings (None when it brings none, or is no hello)."""
    try:
        hello = m.decode(raw) if len(raw) <= MAX_MESSAGE else None
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    return hello.token if isinstance(hello, m.Hello) and hello.token else None


def _past_the_guard(hub: Hub, code: str, token: str | None, refused: SlowDown) -> Room:
    """An address over the code-guessing limit may still come back with a token of
    the room (its own seat's, the host's): the room, or the same refusal as any other
    lookup from there (which tells nothing of whether the room exists)."""
    if not token:
        raise refused
    try:
        room = hub.get(code)
    except Elsewhere:
        doc = hub.store.load(code.upper())
        if doc is not None and _doc_opens(doc, token):
            raise
        raise refused from None
    except RoomError:
        raise refused from None
    if not room.opens(token):
        raise refused
    return room


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
        await _refuse(ws, _error("bad_origin", ORIGIN_REFUSED))
        return
    code = str(ws.path_params["code"])
    try:
        refused = ws.app.state.guard.blocked(address(ws))
        if refused is None:
            room = lookup(ws, await finder(hub, ws))
            raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
        else:
            raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
            unread(ws, raw)  # (read again by whoever serves the hello: here, or the relay)
            room = _past_the_guard(hub, code, _hello_token(raw), refused)
            raw = await receive(ws)
        answer = web_hello(room, raw, _caller(ws))
    except Elsewhere as exc:  # another process runs the room: pass frames both ways
        assert hub.node is not None
        await hub.node.relay(ws, exc.code, exc.owner)
        return
    except RoomError as exc:
        await _refuse(ws, _error(exc.code, exc.message), exc.code)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    if isinstance(answer, bytes):
        await _refuse(ws, answer)
        return
    role, viewer, welcome = answer
    await _serve(ws, hub, room, WsSink(ws, role, viewer, hub.send_timings), welcome)


async def agent_endpoint(ws: WebSocket) -> None:
    """An agent (nightcall.protocol) speaks nothing but protocol messages. It takes a
    seat with ``?name=`` (or a protocol ``hello`` carrying its name) and may bring
    its own secret ``?token=`` (16+ characters) to rejoin the same seat later."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    if _origin_refused(ws):
        await _refuse(ws, _agent_error("refused", ORIGIN_REFUSED))
        return
    token = ws.query_params.get("token")
    caller = _caller(ws)
    try:
        refused = ws.app.state.guard.blocked(address(ws))
        if refused is None:
            room = lookup(ws, await finder(hub, ws))
        else:
            room = _past_the_guard(hub, str(ws.path_params["code"]), token, refused)
        seat = agent_seat(room, token, ws.query_params.get("name"), caller)
        if seat is None:
            raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
            seat = agent_hello_seat(room, raw, token)
    except Elsewhere as exc:
        assert hub.node is not None
        query = {k: ws.query_params[k] for k in ("token", "name") if k in ws.query_params}
        await hub.node.relay(ws, exc.code, exc.owner, agent=True, query=query)
        return
    except RoomError as exc:
        await _refuse(ws, _agent_error(exc.code, exc.message), exc.code)
        return
    except protocol.ProtocolError as exc:
        await _refuse(ws, m.encode(exc.error))
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    await _serve(ws, hub, room, WsSink(ws, "agent", seat, hub.send_timings), None)


def _left(room: Room, sink: WsSink) -> None:
    """A client that fell too far behind leaves the room at once (WsSink.behind)."""
    room.forget(sink)
    asyncio.get_running_loop().call_soon(room.broadcast)  # (maybe inside a broadcast now)


async def _serve(ws: WebSocket, hub: Hub, room: Room, sink: WsSink, first: bytes | None) -> None:
    sink.hold, sink.room_code = hub.hold, room.code  # out after the save (saving.py)
    sink.on_gone = partial(_left, room)
    writer = sink.writer_task = asyncio.create_task(sink.writer())
    if first is not None:
        sink.send(first)
    room.sinks.add(sink)
    room.broadcast()  # the newcomer gets the lobby and its view; others see it connected
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


def on_frame(hub: Hub, room: Room, sink: Sink, raw: str) -> None:
    """One frame from a seated client (here or relayed): a refusal goes to it alone."""
    try:
        if len(raw) > MAX_MESSAGE:
            raise RoomError("too_long", "that message is too long")
        started = time.perf_counter()
        msg = m.decode(raw)
        _handle(hub, room, sink, msg)
        if isinstance(msg, protocol.ActionMessage):
            hub.timings.append(time.perf_counter() - started)
    except RoomError as exc:
        sink.send(sink_error(sink, exc.code, exc.message))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        sink.send(_decode_error(exc))


# --- HTTP ----------------------------------------------------------------------------


def _json(data: Any, status: int = 200) -> Response:
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
        if hub.node is not None:  # (its Redis round trips without blocking the loop)
            room = await hub.node.create(settings, server_base(request))
        else:
            room = hub.create(settings, server_base(request))
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
    hub: Hub = request.app.state.hub
    try:
        room = lookup(request, await finder(hub, request, peek=True))
    except RoomError as exc:
        return refusal(exc)
    return _json(room.lobby())


async def room_qr(request: Request) -> Response:
    import segno

    hub: Hub = request.app.state.hub
    try:
        room = lookup(request, await finder(hub, request, peek=True))
    except RoomError as exc:
        return refusal(exc)
    url = room.join_url or hub.join_url(room.code, server_base(request))
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, dark="#111",
                                    light="#fff", xmldecl=False)
    return Response(out.getvalue(), media_type="image/svg+xml")


async def room_record(request: Request) -> Response:
    """The game record, once the game is over (before that it holds every secret)."""
    hub: Hub = request.app.state.hub
    try:
        room = lookup(request, await finder(hub, request, peek=True))
    except RoomError as exc:
        return refusal(exc)
    if room.status != "over":
        return _json({"code": "not_over", "message": "the record opens at the end"}, 403)
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
            log.warning("cannot unload idle rooms", exc_info=True)
            continue
        if gone:
            log.info("unloaded %d idle room(s)", len(gone))


EXPIRE_EVERY = 10  # unload rounds (of a minute) between two expiries of the store


def page(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return FileResponse(web_dir() / name, headers={"Cache-Control": "no-cache"})

    return endpoint


async def favicon(request: Request) -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the app's moon icon."""
    return FileResponse(web_dir() / "icons" / "favicon.svg", media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})


def create_app(store: Store, scale: float = 1.0, public_url: str = "",
               node: Node | None = None, *, limits: Limits | None = None,
               metrics_token: str = "",
               allow_origins: tuple[str, ...] | list[str] = ()) -> Starlette:
    """The app. ``scale`` multiplies every timer (tests run the clock fast). With a
    ``node`` (Redis), rooms are shared with every other process on the same Redis.
    ``public_url`` is what join links and QR codes say; ``allow_origins``, the sites
    besides it whose pages may use the API (guard.py). ``/metrics`` answers only with
    ``metrics_token`` configured and given (ops.py)."""
    from nightcall.server.metrics import registry_for

    hub = Hub(store, scale, public_url, node)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if node is not None:
            await node.start(hub, app)
        try:
            hub.expire()  # before resuming: an abandoned lobby is not worth loading
        except Exception:
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
        Route("/api/rooms/{code}/record", room_record),
        *table_routes(),
        *narrator_routes(),
        *replay_routes(page),
        WebSocketRoute("/ws/{code}", websocket_endpoint),
        WebSocketRoute("/ws/{code}/agent", agent_endpoint),
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
