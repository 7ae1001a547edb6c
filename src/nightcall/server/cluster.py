"""Many nightcall processes serving the same rooms through Redis (issue #8).

A room lives in one process at a time, its *owner*: the process holding the room's
lease in Redis (``<prefix>:lease:<code>``, a value naming the process, with a short
expiry the owner keeps renewing). The owner runs the room's clock and bots, applies
every move and saves the room (fenced by the lease, :mod:`.store_redis`).

A phone may connect to any process. If that process is not the owner, it *relays*:
it keeps the websocket and passes each frame to the owner over Redis pub/sub, and
the owner sends that phone's messages back the same way. Every process listens on
one channel of its own (``<prefix>:w:<id>``); messages are batched per event-loop
turn and per destination, one PUBLISH each. Secrets never leave the server side:
a relay only carries the bytes the owner computed for that one connection.

When a process dies, its leases run out; any process then adopts the room (from its
saved document, the clock starting the stage again) the next time a phone connects
or at its periodic sweep of unfinished rooms. Phones that were connected to the dead
process, or relayed to it, are disconnected and reconnect by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec
import redis
import redis.asyncio as aredis

from nightcall import protocol
from nightcall.server.handoff import DISABLED as HANDOFF_OFF
from nightcall.server.handoff import Handoff
from nightcall.server.handoff import supported as handoff_supported
from nightcall.server.messages import encode
from nightcall.server.room import Room, RoomError, Sink
from nightcall.server.store_redis import FENCED_SAVE, FINISHED_TTL_MS, RedisStore

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from nightcall.server.hub import Hub

log = logging.getLogger("nightcall.cluster")

HELLO_TIMEOUT = 30.0
RESTART = 1012  # websocket close code "service restart": the page reconnects at once

# KEYS: leases; ARGV: owner, milliseconds. Returns the 1-based indexes of lost leases.
RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then redis.call('pexpire', key, ARGV[2])
  else table.insert(lost, i) end
end
return lost
"""
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Envelope(msgspec.Struct, array_like=True, omit_defaults=True):
    """One message between processes. To the owner: ``open`` (``data``: the hello
    frame, or for an agent its query as JSON), ``msg`` (a frame), ``gone``. To the
    process holding the socket: ``send`` (bytes for that client) and ``close``."""

    kind: str
    room: str
    conn: str
    src: str = ""
    data: bytes = b""
    code: int = 0
    agent: bool = False


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(list[Envelope]).decode


class RemoteSink(Sink):
    """A client whose websocket another process holds: sends go back over pub/sub."""

    def __init__(self, node: Node, worker: str, room: str, conn: str, role: str,
                 viewer: int | None) -> None:
        self.node, self.worker, self.room, self.conn = node, worker, room, conn
        self.role, self.viewer = role, viewer

    def send(self, data: bytes) -> None:
        self.node.post(self.worker, Envelope("send", self.room, self.conn, data=data))

    def close_with(self, code: int) -> None:
        self.node.post(self.worker, Envelope("close", self.room, self.conn, code=code))


@dataclass
class Remote:
    """The owner's side of a relayed connection; ``sink`` is None until seated."""

    room: Room
    worker: str
    conn: str
    token: str | None = None  # an agent's own seat token, from its address
    sink: RemoteSink | None = None


@dataclass
class Relayed:
    """A relaying process's side: the socket, and who owns its room."""

    ws: WebSocket
    room: str
    owner: str
    out: asyncio.Queue[bytes | int] = field(default_factory=asyncio.Queue)
    direct: Callable[[bytes], bool] | None = None  # direct.py, when the server allows
    writing: bool = False  # the writer task is sending: nothing may overtake it


@dataclass
class Batch:
    saves: dict[str, Room]
    outbox: dict[str, list[Envelope]]
    held: list[tuple[Any, bytes]]


class Node:
    """This process in the cluster: its leases, its channel, its relayed sockets."""

    def __init__(self, store: RedisStore, url: str, lease_seconds: float = 5.0,
                 worker_id: str | None = None) -> None:
        self.store = store
        self.url = url
        self.r: redis.Redis = store.client
        self.id = worker_id or secrets.token_hex(6)
        store.owner = self.id
        self.lease_ms = max(200, int(lease_seconds * 1000))
        self.channel = self.channel_of(self.id)
        self._renew = self.r.register_script(RENEW)
        self._release = self.r.register_script(RELEASE)
        self.hub: Hub | None = None
        self.outbox: dict[str, list[Envelope]] = {}
        self.saves: dict[str, Room] = {}
        self.held: list[tuple[Any, bytes]] = []
        self.flushing = False  # a flush is scheduled for this turn of the loop
        self.in_flight = False  # a batch is on its way to Redis
        self.flush_task: asyncio.Task[None] | None = None
        self.aclient: aredis.Redis | None = None
        self.remotes: dict[tuple[str, str], Remote] = {}
        self.relayed: dict[str, Relayed] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.sub_client: aredis.Redis | None = None
        self.subscribed = asyncio.Event()
        self.on_error: Callable[[Exception], None] = lambda exc: log.exception(
            "cluster message failed", exc_info=exc)
        # Same-machine owners take a connection itself rather than a relay (handoff.py).
        self.handoff: Handoff | None = None
        if not HANDOFF_OFF and handoff_supported():
            try:
                self.handoff = Handoff(self.id)
            except OSError:  # no private directory for the sockets: relays only
                log.warning("connections will be relayed, not handed over", exc_info=True)

    def channel_of(self, worker: str) -> str:
        return f"{self.store.prefix}:w:{worker}"

    # --- leases ---------------------------------------------------------------------
    def try_own(self, code: str) -> str:
        """Take the room's lease if nobody holds it; the holder's id either way."""
        key = self.store.lease_key(code)
        for _ in range(3):  # the lease may expire between SET NX and GET
            if self.r.set(key, self.id, nx=True, px=self.lease_ms):
                return self.id
            holder = self.r.get(key)
            if holder is not None:
                return _text(holder)
        raise RoomError("busy", "the room is changing hands: try again in a moment")

    def owner_of(self, code: str) -> str | None:
        holder = self.r.get(self.store.lease_key(code))
        return None if holder is None else _text(holder)

    def release(self, code: str) -> None:
        with contextlib.suppress(redis.RedisError):
            self._release(keys=[self.store.lease_key(code)], args=[self.id])

    def renew(self, codes: list[str]) -> list[str]:
        """Extend every lease we hold; the codes whose lease is no longer ours."""
        if not codes:
            return []
        keys = [self.store.lease_key(c) for c in codes]
        lost = self._renew(keys=keys, args=[self.id, self.lease_ms])
        return [codes[int(i) - 1] for i in lost]

    # --- running ----------------------------------------------------------------------
    @classmethod
    def from_url(cls, url: str, lease_seconds: float = 5.0) -> Node:
        return cls(RedisStore.from_url(url), url, lease_seconds)

    async def start(self, hub: Hub, app: Any = None) -> None:
        """Join the cluster; with the ``app``, also adopt connections handed over by the
        other processes of this machine."""
        self.hub = hub
        if self.handoff is not None and app is not None:
            try:
                self.handoff.listen(app)
                self.announce()
            except OSError:  # no Unix sockets here: relays only
                log.warning("cannot take handed-off connections", exc_info=True)
                self.handoff.close()
                self.handoff = None
        self.sub_client = aredis.Redis.from_url(self.url, decode_responses=False)
        self.aclient = aredis.Redis.from_url(self.url, decode_responses=False)
        pubsub = self.sub_client.pubsub()
        await pubsub.subscribe(self.channel)
        self.tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._keep_leases()),
        ]
        self.sweep()

    async def stop(self) -> None:
        if self.handoff is not None:
            self.handoff.close()
            with contextlib.suppress(redis.RedisError):
                self.r.delete(self.handoff_key(self.id))
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.flush_task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.flush_task, 5)
        self.flush()
        if self.hub is not None:  # hand our rooms over at once rather than at expiry
            for code in list(self.hub.rooms):
                self.release(code)
        for client in (self.sub_client, self.aclient):
            if client is not None:
                await client.aclose()

    async def _listen(self, pubsub: Any) -> None:
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is None or message.get("type") != "message":
                continue
            try:
                for env in _decode(message["data"]):
                    self.dispatch(env)
            except Exception as exc:  # one bad batch must not stop the listener
                self.on_error(exc)

    async def _keep_leases(self) -> None:
        """Renew our leases, notice relayed rooms that changed hands, adopt orphans."""
        period = self.lease_ms / 3000
        ticks = 0
        while True:
            await asyncio.sleep(period)
            ticks += 1
            try:
                self.keep()
                if ticks % 3 == 0:
                    self.sweep()
            except redis.RedisError:
                log.warning("Redis unreachable; leases not renewed this time", exc_info=True)

    def keep(self) -> None:
        hub = self.hub
        assert hub is not None
        self.announce()
        for code in self.renew(list(hub.rooms)):
            log.warning("lost the lease of room %s: dropping it", code)
            hub.drop(code)
        rooms = sorted({r.room for r in self.relayed.values()})
        if rooms:
            holders = self.r.mget([self.store.lease_key(c) for c in rooms])
            now = {c: None if h is None else _text(h) for c, h in zip(rooms, holders, strict=True)}
            for relayed in list(self.relayed.values()):
                if now[relayed.room] != relayed.owner:
                    relayed.out.put_nowait(RESTART)

    def sweep(self) -> None:
        """Adopt every unfinished room whose owner is gone (its lease ran out)."""
        hub = self.hub
        assert hub is not None
        codes = [_text(c) for c in self.r.zrange(f"{self.store.prefix}:unfinished", 0, -1)]
        codes = [c for c in codes if c not in hub.rooms]
        if not codes:
            return
        holders = self.r.mget([self.store.lease_key(c) for c in codes])
        for code, holder in zip(codes, holders, strict=True):
            if holder is None and self.try_own(code) == self.id:
                try:
                    hub.adopt(code)
                except Exception:
                    log.exception("cannot adopt room %s", code)
                    self.release(code)

    # --- one round trip per turn of the event loop ---------------------------------------
    def save(self, room: Room) -> None:
        """Save a room with the next batch (its document is written once, as it stands
        when the batch goes out)."""
        self.saves[room.code] = room
        self._schedule()

    def hold(self, sink: Any, data: bytes) -> None:
        """A message for a local socket, held until the batch's saves are acknowledged:
        no client ever sees a move that Redis does not have."""
        self.held.append((sink, data))
        self._schedule()

    def post(self, worker: str, env: Envelope) -> None:
        """A message for another process, published with the next batch."""
        self.outbox.setdefault(worker, []).append(env)
        self._schedule()

    def _schedule(self) -> None:
        if not self.flushing and not self.in_flight:
            self.flushing = True
            asyncio.get_running_loop().call_soon(self._start_flush)

    def _take(self) -> Batch:
        batch = Batch(self.saves, self.outbox, self.held)
        self.saves, self.outbox, self.held = {}, {}, []
        return batch

    def _start_flush(self) -> None:
        self.flushing = False
        if self.in_flight or not (self.saves or self.outbox or self.held):
            return
        self.in_flight = True
        self.flush_task = asyncio.create_task(self._flush(self._take()))

    async def _flush(self, batch: Batch) -> None:
        """Every save, then every publish, in one pipeline (Redis runs them in order);
        the event loop goes on meanwhile, collecting the next batch."""
        try:
            assert self.aclient is not None
            pipe = self.aclient.pipeline(transaction=False)
            self._queue(batch, pipe)
            replies = await pipe.execute()
        except Exception:  # Redis unreachable: nothing was acknowledged, keep it all
            log.warning("cannot reach Redis: retrying", exc_info=True)
            self._put_back(batch)
            await asyncio.sleep(0.2)
            self.in_flight = False
            self._schedule()
            return
        self.in_flight = False
        self._done(batch, replies)
        if self.saves or self.outbox or self.held:
            self._schedule()

    def flush(self) -> None:
        """The same, blocking (at shutdown)."""
        batch = self._take()
        if not (batch.saves or batch.outbox or batch.held):
            return
        pipe = self.r.pipeline(transaction=False)
        self._queue(batch, pipe)
        with contextlib.suppress(redis.RedisError):
            self._done(batch, pipe.execute())

    def _queue(self, batch: Batch, pipe: Any) -> None:
        store, now = self.store, time.time()
        for code, room in batch.saves.items():
            text = msgspec.json.encode(room.to_doc())
            finished = "1" if room.status == "over" else "0"
            # EVAL, not EVALSHA: a restarted Redis has no script cache, and the text is
            # small next to the document it carries.
            pipe.eval(FENCED_SAVE, 3, store.room_key(code), store.index_key,
                      store.lease_key(code), text, finished, now, self.id, code,
                      FINISHED_TTL_MS)
        for worker, envs in batch.outbox.items():
            pipe.publish(self.channel_of(worker), _encode(envs))

    def _done(self, batch: Batch, replies: list[Any]) -> None:
        lost = {code for code, ok in zip(batch.saves, replies, strict=False) if not ok}
        heard = replies[len(batch.saves):]
        for code in lost:  # another process owns it now: its clients go there
            log.warning("room %s was taken over by another process", code)
            if self.hub is not None:
                self.hub.drop(code)
        for sink, data in batch.held:
            if getattr(sink, "room_code", None) not in lost:
                sink.deliver(data)
        for worker, listeners in zip(batch.outbox, heard, strict=True):
            if not listeners:  # nobody listens on that channel: the process is gone
                self.worker_gone(worker)

    def _put_back(self, batch: Batch) -> None:
        self.saves = {**batch.saves, **self.saves}
        for worker, envs in batch.outbox.items():
            self.outbox[worker] = envs + self.outbox.get(worker, [])
        self.held = batch.held + self.held

    def worker_gone(self, worker: str) -> None:
        for key, remote in list(self.remotes.items()):
            if remote.worker == worker:
                self._forget(key, remote)
        for relayed in self.relayed.values():
            if relayed.owner == worker:
                relayed.out.put_nowait(RESTART)

    def dispatch(self, env: Envelope) -> None:
        if env.kind in ("send", "close"):
            relayed = self.relayed.get(env.conn)
            if relayed is None:
                return
            if (env.kind == "send" and relayed.direct is not None and relayed.out.empty()
                    and not relayed.writing and relayed.direct(env.data)):
                return  # written at once (nothing queued ahead of it)
            relayed.out.put_nowait(env.data if env.kind == "send" else env.code)
            return
        key = (env.src, env.conn)
        hub = self.hub
        assert hub is not None
        if env.kind == "gone":
            remote = self.remotes.get(key)
            if remote is not None:
                self._forget(key, remote)
            return
        room = hub.rooms.get(env.room)
        if room is None:  # not ours (any more): the client must find the new owner
            self.post(env.src, Envelope("close", env.room, env.conn, code=RESTART))
            return
        if env.kind == "open":
            self._open(hub, room, env)
        elif env.kind == "msg":
            remote = self.remotes.get(key)
            if remote is not None:
                self._frame(hub, remote, env.data.decode(errors="replace"))

    # --- the owner's side of relayed clients ------------------------------------------------
    def _open(self, hub: Hub, room: Room, env: Envelope) -> None:
        from nightcall.server import app

        remote = Remote(room, env.src, env.conn)
        self.remotes[(env.src, env.conn)] = remote
        if env.agent:
            query = json.loads(env.data or b"{}")
            remote.token = query.get("token")
            try:
                seat = app.agent_seat(room, query.get("token"), query.get("name"))
            except RoomError as exc:
                self._refuse(remote, app.error_bytes(exc.code, exc.message, agent=True))
                return
            if seat is not None:
                self._seat(room, remote, "agent", seat, None)
            return
        outcome = app.web_hello(room, env.data.decode(errors="replace"))
        if isinstance(outcome, bytes):
            self._refuse(remote, outcome)
            return
        role, viewer, welcome = outcome
        self._seat(room, remote, role, viewer, welcome)

    def _seat(self, room: Room, remote: Remote, role: str, viewer: int | None,
              first: bytes | None) -> None:
        sink = RemoteSink(self, remote.worker, room.code, remote.conn, role, viewer)
        remote.sink = sink
        if first is not None:
            sink.send(first)
        room.sinks.add(sink)
        room.broadcast()

    def _refuse(self, remote: Remote, data: bytes) -> None:
        self.remotes.pop((remote.worker, remote.conn), None)
        self.post(remote.worker, Envelope("send", remote.room.code, remote.conn, data=data))
        self.post(remote.worker, Envelope("close", remote.room.code, remote.conn, code=4000))

    def _frame(self, hub: Hub, remote: Remote, raw: str) -> None:
        from nightcall.server import app

        if remote.sink is None:  # an agent without a name in its address says hello first
            try:
                seat = app.agent_hello_seat(remote.room, raw, remote.token)
            except RoomError as exc:
                self._refuse(remote, app.error_bytes(exc.code, exc.message, agent=True))
                return
            except protocol.ProtocolError as exc:
                self._refuse(remote, encode(exc.error))
                return
            self._seat(remote.room, remote, "agent", seat, None)
            return
        app.on_frame(hub, remote.room, remote.sink, raw)

    def _forget(self, key: tuple[str, str], remote: Remote) -> None:
        del self.remotes[key]
        if remote.sink is not None:
            remote.room.forget(remote.sink)
            remote.room.broadcast()

    # --- handing connections over (same machine) -----------------------------------------
    def handoff_key(self, worker: str) -> str:
        return f"{self.store.prefix}:handoff:{worker}"

    def announce(self) -> None:
        """Say where this process takes connections (renewed with the leases)."""
        if self.handoff is not None and self.handoff.inbox is not None:
            self.r.set(self.handoff_key(self.id), self.handoff.announcement(),
                       px=self.lease_ms * 3)

    async def hand_off(self, ws: WebSocket) -> bool:
        """Before accepting a websocket: if another process of this machine owns its
        room, pass the connection itself there (True: nothing more to do here)."""
        handoff, hub = self.handoff, self.hub
        if handoff is None or handoff.inbox is None or hub is None:
            return False
        code = str(ws.path_params.get("code", "")).upper()
        if not code or code in hub.rooms:
            return False
        try:
            # Asynchronously: every connection asks, and a blocking read would stall the
            # loop.
            assert self.aclient is not None
            holder = await self.aclient.get(self.store.lease_key(code))
            owner = None if holder is None else _text(holder)
            if owner is None or owner == self.id:
                return False
            path = handoff.path_of(owner, lambda worker: self.r.get(self.handoff_key(worker)))
            return path is not None and await handoff.send(ws, path)
        except (redis.RedisError, OSError, AttributeError):  # the usual path decides
            log.debug("no handoff for room %s", code, exc_info=True)
            return False

    # --- the relaying side ---------------------------------------------------------------
    async def relay(self, ws: WebSocket, code: str, owner: str, agent: bool = False,
                    query: dict[str, str] | None = None) -> None:
        """Serve a client whose room another process owns: frames in both directions.
        The message rate is held here, where the socket is, as for a local client."""
        from starlette.websockets import WebSocketDisconnect

        from nightcall.server.app import error_bytes
        from nightcall.server.limits import rate_of, receive

        conn = secrets.token_hex(8)
        from nightcall.server.direct import writer_for

        relayed = Relayed(ws, code, owner, direct=writer_for(ws.scope))
        self.relayed[conn] = relayed
        writer = asyncio.create_task(self._write(relayed))
        try:
            if agent:
                data = json.dumps(query or {}).encode()
            else:
                data = (await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)).encode()
            self.post(owner, Envelope("open", code, conn, self.id, data, agent=agent))
            rate = rate_of(ws)
            while True:
                raw = await receive(ws)
                verdict = rate.take()
                if verdict == "close":  # flooding: stop reading it at all
                    relayed.out.put_nowait(1008)
                    break
                if verdict == "slow_down":
                    relayed.out.put_nowait(error_bytes("slow_down", rate.advice(), agent))
                    continue
                self.post(owner, Envelope("msg", code, conn, self.id, raw.encode()))
        except (WebSocketDisconnect, TimeoutError, RuntimeError):
            pass
        finally:
            del self.relayed[conn]
            self.post(owner, Envelope("gone", code, conn, self.id))
            if not writer.done():
                relayed.out.put_nowait(RESTART)
                with contextlib.suppress(asyncio.TimeoutError, Exception):
                    await asyncio.wait_for(writer, 1.0)

    async def _write(self, relayed: Relayed) -> None:
        while True:
            item = await relayed.out.get()
            relayed.writing = True
            try:
                if isinstance(item, int):
                    await relayed.ws.close(code=item)
                    return
                await relayed.ws.send_text(item.decode())
            except Exception:  # the socket is gone; the reader notices and cleans up
                return
            finally:
                relayed.writing = False


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
