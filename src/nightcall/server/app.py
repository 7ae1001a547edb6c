"""The Starlette application: pages, a small JSON API, and one websocket per client."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
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
from nightcall.server.direct import KeepRawSend, writer_for
from nightcall.server.hub import Elsewhere, Hub
from nightcall.server.limits import Limits, install, lookup, rate_of, receive, refusal
from nightcall.server.room import Room, RoomError, Sink, same_token
from nightcall.server.samples import Samples
from nightcall.server.store import Store

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
        self.direct = writer_for(ws.scope)  # uvicorn's connection itself, when known

    def send(self, data: bytes) -> None:
        if self.hold is not None:  # out once the turn's saves are written (Hub.hold)
            self.hold(self, data)
        else:
            self.deliver(data)

    def deliver(self, data: bytes) -> None:
        if not self.busy and not QUEUE_ALWAYS:
            if self.direct is not None and self.direct(data):
                return  # (no timing: it waited for nothing, and a call per send costs)
            self._send_now(data)
            return
        try:
            self.queue.put_nowait((data, time.perf_counter()))
        except asyncio.QueueFull:  # a client this far behind is gone: close; it will rejoin
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def _send_now(self, data: bytes) -> None:
        """Run the send right here. Through Starlette and uvicorn it completes without
        ever suspending while the socket is writable, so most messages cost no task
        switch; one that has to wait (flow control) is finished by the writer task,
        and everything after it queues behind, in order."""
        sending = self.ws.send_text(data.decode())
        try:
            waiting = sending.send(None)
        except StopIteration:
            return
        except Exception:  # the socket is gone: the reader sees it and cleans up
            return
        self.busy = True
        self.queue.put_nowait((sending, waiting))

    def close_with(self, code: int) -> None:
        """Close after what is queued (the room moved: 1012, and the page reconnects)."""
        self.close_code = code
        self.busy = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def writer(self) -> None:
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


def _hello(room: Room, hello: m.Hello) -> tuple[str, int | None, m.Welcome]:
    """Who this connection is: a seat (new or rejoining), the host, or a spectator."""
    if hello.as_ == "host":
        if hello.token is None or not same_token(room.host_token, hello.token):
            raise RoomError("bad_token", "only the host's screen can open this page as host")
        return "host", None, m.Welcome(room=room.code, role="host", token=room.host_token)
    if hello.as_ == "spectator":
        return "spectator", None, m.Welcome(room=room.code, role="spectator")
    if hello.token:
        seat = room.seat_of_token(hello.token)
    elif hello.name is not None:
        seat, _ = room.join(hello.name)
    else:
        raise RoomError("bad_hello", "give a name to take a seat, or your seat's token")
    s = room.seats[seat]
    return "player", seat, m.Welcome(
        room=room.code, role="player", seat=seat, name=s.name, token=s.token
    )


def web_hello(room: Room, raw: str) -> tuple[str, int | None, bytes] | bytes:
    """A browser's first frame, wherever its socket is: (role, seat, the welcome to
    send), or the refusal to send before closing."""
    try:
        if len(raw) > MAX_MESSAGE:
            raise RoomError("too_long", "that message is too long")
        hello = m.decode(raw)
        if not isinstance(hello, m.Hello):
            raise RoomError("bad_hello", "the first message must be a hello")
        role, viewer, welcome = _hello(room, hello)
    except RoomError as exc:
        return _error(exc.code, exc.message)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _decode_error(exc)
    return role, viewer, m.encode(welcome)


def agent_seat(room: Room, token: str | None, name: str | None) -> int | None:
    """An agent's seat from its address: its own token, or a new seat by name; None
    when it must say hello first."""
    if token:
        with contextlib.suppress(RoomError):
            return room.seat_of_token(token)
    if name:
        return room.join(name, token)[0]
    return None


def agent_hello_seat(room: Room, raw: str, token: str | None) -> int:
    hello = protocol.decode_agent(raw)
    if not isinstance(hello, protocol.Hello) or not hello.name:
        raise RoomError("bad_hello", "say hello with a name to take a seat")
    return room.join(hello.name, token)[0]


def _handle(hub: Hub, room: Room, sink: Sink, msg: m.ClientMessage) -> None:
    """One client message through the pipeline; raises RoomError to refuse it."""
    if isinstance(msg, m.Ping):
        sink.send(m.encode(m.Pong()))
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


async def _refuse(ws: WebSocket, data: bytes) -> None:
    with contextlib.suppress(Exception):
        await _send_now(ws, data)
        await ws.close(code=4000)


async def websocket_endpoint(ws: WebSocket) -> None:
    """A browser: host screen, spectator or player (``hello`` first)."""
    hub: Hub = ws.app.state.hub
    if hub.node is not None and await hub.node.hand_off(ws):
        return  # the room's owner, on this machine, has the connection now
    await ws.accept()
    try:
        room = lookup(ws, hub.get)
        answer = web_hello(room, await asyncio.wait_for(receive(ws), HELLO_TIMEOUT))
    except Elsewhere as exc:  # another process runs the room: pass frames both ways
        assert hub.node is not None
        await hub.node.relay(ws, exc.code, exc.owner)
        return
    except RoomError as exc:
        await _refuse(ws, _error(exc.code, exc.message))
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
    if hub.node is not None and await hub.node.hand_off(ws):
        return
    await ws.accept()
    token = ws.query_params.get("token")
    try:
        room = lookup(ws, hub.get)
        seat = agent_seat(room, token, ws.query_params.get("name"))
        if seat is None:
            raw = await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)
            seat = agent_hello_seat(room, raw, token)
    except Elsewhere as exc:
        assert hub.node is not None
        query = {k: ws.query_params[k] for k in ("token", "name") if k in ws.query_params}
        await hub.node.relay(ws, exc.code, exc.owner, agent=True, query=query)
        return
    except RoomError as exc:
        await _refuse(ws, _agent_error(exc.code, exc.message))
        return
    except protocol.ProtocolError as exc:
        await _refuse(ws, m.encode(exc.error))
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    await _serve(ws, hub, room, WsSink(ws, "agent", seat, hub.send_timings), None)


async def _serve(ws: WebSocket, hub: Hub, room: Room, sink: WsSink, first: bytes | None) -> None:
    sink.hold, sink.room_code = hub.hold, room.code  # out after the save (saving.py)
    writer = asyncio.create_task(sink.writer())
    if first is not None:
        sink.send(first)
    room.sinks.add(sink)
    room.broadcast()  # the newcomer gets the lobby and its view; others see it connected
    try:
        rate = rate_of(ws)
        while True:
            raw = await receive(ws)
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
    try:
        settings = msgspec.json.decode(await request.body(), type=m.CreateRoom)
        room = hub.create(settings, str(request.base_url))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _json({"code": "bad_message", "message": str(exc)}, 400)
    except RoomError as exc:
        return _json({"code": exc.code, "message": exc.message}, 400)
    return _json({"room": room.code, "host_token": room.host_token,
                  "join_url": room.join_url}, 201)


async def room_info(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    try:
        room = lookup(request, hub.peek)
    except RoomError as exc:
        return refusal(exc)
    return _json(room.lobby())


async def room_qr(request: Request) -> Response:
    import segno

    hub: Hub = request.app.state.hub
    try:
        room = lookup(request, hub.peek)
    except RoomError as exc:
        return refusal(exc)
    url = room.join_url or hub.join_url(room.code, str(request.base_url))
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, dark="#111",
                                    light="#fff", xmldecl=False)
    return Response(out.getvalue(), media_type="image/svg+xml")


async def room_record(request: Request) -> Response:
    """The game record, once the game is over (before that it holds every secret)."""
    hub: Hub = request.app.state.hub
    try:
        room = lookup(request, hub.peek)
    except RoomError as exc:
        return refusal(exc)
    if room.status != "over":
        return _json({"code": "not_over", "message": "the record opens at the end"}, 403)
    return _json(room.ruleset.to_record(room.state))


async def stats(request: Request) -> Response:
    """Counts only (no room codes): rooms, connections, and how long the server took
    over its last moves (decode, check, apply, build and queue every update, save)."""
    hub: Hub = request.app.state.hub
    rooms = list(hub.rooms.values())
    counts_only = request.query_params.get("timings") == "0"  # cheap: for polling

    def ms(samples: Samples, *qs: float) -> list[float | None]:
        return [None] * len(qs) if counts_only else samples.quantiles_ms(*qs)

    took = ms(hub.timings, 0.5, 0.99)
    sent = ms(hub.send_timings, 0.5, 0.99)  # the updates that had to wait, alone
    lag = ms(hub.loop_lag, 0.5, 0.99, 1.0)
    node = hub.node
    return _json({
        # This process only (with several, each answers for itself).
        "relayed_now": len(node.relayed) if node is not None else 0,
        "handed_off": node.handoff.sent if node is not None and node.handoff else 0,
        "adopted": node.handoff.adopted if node is not None and node.handoff else 0,
        "actions_timed": len(hub.timings),
        "action_ms_p50": took[0],
        "action_ms_p99": took[1],
        "updates_waited": hub.send_timings.count,
        "send_wait_ms_p50": sent[0],
        "send_wait_ms_p99": sent[1],
        "loop_lag_ms_p50": lag[0],
        "loop_lag_ms_p99": lag[1],
        "loop_lag_ms_max": lag[2],
        "rooms": len(rooms),
        "playing": sum(1 for r in rooms if r.status == "playing"),
        "players_connected": sum(1 for r in rooms for s in r.sinks
                                 if s.role in ("player", "agent")),
        "connections": sum(len(r.sinks) for r in rooms),
    })


async def rulesets(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    return JSONResponse(hub.public_rulesets())


async def _watch_loop(hub: Hub, every: float = 0.01) -> None:
    """Measure how late the event loop runs (for /api/stats): a busy loop delays every
    client's messages, both ways, and no per-message timing shows it."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(every)
        hub.loop_lag.append(max(0.0, time.perf_counter() - started - every))


async def _unload_loop(hub: Hub, every: float = 60.0) -> None:
    """Rooms nobody uses leave memory (Hub.unload_idle): a public server's memory is
    bounded by its rooms in use, not by every room it ever ran."""
    while True:
        await asyncio.sleep(every)
        try:
            gone = hub.unload_idle()
        except Exception:  # (Redis unreachable while releasing: the next round retries)
            log.warning("cannot unload idle rooms", exc_info=True)
            continue
        if gone:
            log.info("unloaded %d idle room(s)", len(gone))


def page(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return FileResponse(web_dir() / name, headers={"Cache-Control": "no-cache"})

    return endpoint


async def favicon(request: Request) -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the app's moon icon."""
    return FileResponse(web_dir() / "icons" / "favicon.svg", media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})


def create_app(store: Store, scale: float = 1.0, public_url: str = "",
               node: Node | None = None, *, limits: Limits | None = None) -> Starlette:
    """The app. ``scale`` multiplies every timer (tests run the clock fast). With a
    ``node`` (Redis), rooms are shared with every other process on the same Redis."""
    hub = Hub(store, scale, public_url, node)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if node is not None:
            await node.start(hub, app)
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
        Route("/favicon.ico", favicon),
        Route("/api/rulesets", rulesets),
        Route("/api/stats", stats),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/qr.svg", room_qr),
        Route("/api/rooms/{code}/record", room_record),
        WebSocketRoute("/ws/{code}", websocket_endpoint),
        WebSocketRoute("/ws/{code}/agent", agent_endpoint),
        Mount("/static", StaticFiles(directory=web_dir()), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(KeepRawSend)  # the direct send path (direct.py)
    app.state.hub = hub
    install(app, limits or Limits())  # rate limits (limits.py); tests pass tight ones
    return app
