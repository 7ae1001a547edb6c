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
or, for a game in play, at its periodic sweep (lobbies and finished rooms come back
only when someone asks for them, so a room unloaded for idleness stays unloaded).
Phones that were connected to the dead process, or relayed to it, are disconnected
and reconnect by themselves.

In front of several processes, a reverse proxy sends each room's connections to one
of them by hashing the room code (deploy/nginx.conf, docs/deploy.md): the relay is
then only for the time after a failover, when a room's owner is not the process the
proxy picks.

Every Redis call made while serving goes through the asyncio client with a timeout
(:data:`REDIS_TIMEOUT`): a frozen Redis delays what needs Redis (saves, new rooms),
never the event loop, so pings are answered and the rooms already here keep time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
import redis
import redis.asyncio as aredis

from nightcall import protocol
from nightcall.server import pipeline
from nightcall.server.guard import SOCKET_GONE
from nightcall.server.hub import Elsewhere, Found, candidate_codes, check_settings
from nightcall.server.messages import CreateRoom, encode
from nightcall.server.pipeline import Caller
from nightcall.server.room import Room, RoomError, Sink, same_token
from nightcall.server.store_redis import FENCED_SAVE, RedisStore, save_args

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

    from nightcall.server.hub import Hub
    from nightcall.server.limits import TokenGuard
    from nightcall.server.saving import Held

log = logging.getLogger("nightcall.cluster")

HELLO_TIMEOUT = 30.0
RESTART = 1012  # websocket close code "service restart": the page reconnects at once
BEHIND = 1013  # "try again later": a relayed client this far behind is closed
RELAY_QUEUE = 256  # messages waiting for one relayed client (as for a local one)
# A ping from a relayed client is answered where its socket is: no Redis on the way.
PING, PONG = '{"type":"ping"}', b'{"type":"pong"}'
# Seconds a Redis reply may take while serving before the call counts as failed.
REDIS_TIMEOUT = 2.0

# The owner's answers to a table link asked by another process (Node.link_table).
LINK_DONE, LINK_REFUSED, LINK_NOT_HERE = 1, 2, 3

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

T = TypeVar("T")


class Envelope(msgspec.Struct, array_like=True, omit_defaults=True):
    """One message between processes. To the owner: ``open`` (``data``: the hello
    frame, or for an agent its query as JSON), ``msg`` (a frame), ``gone``, and
    ``table`` (a table link, JSON). To the process holding the socket: ``send`` (bytes
    for that client) and ``close``; to the one that asked for a link: ``linked``."""

    kind: str
    room: str
    conn: str
    src: str = ""
    data: bytes = b""
    code: int = 0
    agent: bool = False
    address: str = ""  # with ``open``: the client's address, for the wrong-token limit


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
    out: asyncio.Queue[bytes | int] = field(
        default_factory=lambda: asyncio.Queue(RELAY_QUEUE + 1))
    closing: bool = False  # a close is queued: nothing more goes out

    def put(self, item: bytes | int) -> None:
        """Queue a message (bytes) or a close (its code); a client that fell
        ``RELAY_QUEUE`` messages behind is closed with 1013 and rejoins."""
        if self.closing:
            return
        if isinstance(item, int):  # after what is queued (there is always room for it)
            self.closing = True
            self.out.put_nowait(item)
            return
        if self.out.qsize() >= RELAY_QUEUE:
            while not self.out.empty():
                self.out.get_nowait()
            self.closing = True
            self.out.put_nowait(BEHIND)
            return
        self.out.put_nowait(item)


@dataclass
class Batch:
    saves: dict[str, Room]
    outbox: dict[str, list[Envelope]]
    held: list[tuple[Held, bytes]]


class Node:
    """This process in the cluster: its leases, its channel, its relayed sockets."""

    def __init__(self, store: RedisStore, url: str, lease_seconds: float = 5.0,
                 worker_id: str | None = None) -> None:
        self.store = store
        self.url = url
        # The blocking client: for start-up, shutdown and tests, never while serving.
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
        self.held: list[tuple[Held, bytes]] = []
        # This process's wrong-token limit (limits.TokenGuard), for relayed clients too.
        self.tokens: TokenGuard | None = None
        self.flushing = False  # a flush is scheduled for this turn of the loop
        self.in_flight = False  # a batch is on its way to Redis
        self.flush_task: asyncio.Task[None] | None = None
        self.aclient: aredis.Redis | None = None
        self.remotes: dict[tuple[str, str], Remote] = {}
        self.relayed: dict[str, Relayed] = {}
        self.asked: dict[str, asyncio.Future[int]] = {}  # link_table answers awaited
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[object]] = set()
        self.sub_client: aredis.Redis | None = None
        self.on_error: Callable[[Exception], None] = lambda exc: log.exception(
            "cluster message failed", exc_info=exc)
        # For the metrics (metrics.py): counts only.
        self.round_trips = 0  # replies from Redis while serving
        self.round_trip_seconds = 0.0
        self.errors = 0  # Redis calls that failed or timed out
        self.relayed_total = 0

    def channel_of(self, worker: str) -> str:
        return f"{self.store.prefix}:w:{worker}"

    # --- leases (blocking: tests, and the rare paths outside serving) ------------------
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

    def release(self, code: str) -> None:
        """Give a room's lease up (in the background when the event loop runs)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            with contextlib.suppress(redis.RedisError):
                self._release(keys=[self.store.lease_key(code)], args=[self.id])
            return
        task = loop.create_task(self._call(self._a().eval(
            RELEASE, 1, self.store.lease_key(code), self.id)))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def renew(self, codes: list[str]) -> list[str]:
        """Extend every lease we hold; the codes whose lease is no longer ours."""
        if not codes:
            return []
        keys = [self.store.lease_key(c) for c in codes]
        lost = self._renew(keys=keys, args=[self.id, self.lease_ms])
        return [codes[int(i) - 1] for i in lost]

    # --- the same, asynchronous: what serving uses -------------------------------------
    def _a(self) -> aredis.Redis:
        assert self.aclient is not None, "the node has not started"
        return self.aclient

    async def _call(self, pending: Awaitable[T]) -> T:
        """One Redis command, counted; a failure or a timeout is counted and raised."""
        started = time.perf_counter()
        try:
            reply = await pending
        except (redis.RedisError, OSError, TimeoutError):
            self.errors += 1
            raise
        self.round_trips += 1
        self.round_trip_seconds += time.perf_counter() - started
        return reply

    async def atry_own(self, code: str) -> str:
        key = self.store.lease_key(code)
        for _ in range(3):
            if await self._call(self._a().set(key, self.id, nx=True, px=self.lease_ms)):
                return self.id
            holder = await self._call(self._a().get(key))
            if holder is not None:
                return _text(holder)
        raise RoomError("busy", "the room is changing hands: try again in a moment")

    async def arenew(self, codes: list[str]) -> list[str]:
        if not codes:
            return []
        keys = [self.store.lease_key(c) for c in codes]
        lost = await self._call(self._a().eval(RENEW, len(keys), *keys, self.id,
                                               self.lease_ms))
        return [codes[int(i) - 1] for i in lost]

    async def getter(self, code: str) -> Callable[[str], Found]:
        """A cluster's room lookup: its Redis round trips, made here without blocking;
        the returned function then says what they found (the room, adopted here at once
        if its lease was free, or where it lives), or refuses (``no_room``)."""
        hub = self.hub
        assert hub is not None
        code = code.upper()
        if code in hub.rooms:
            return _here(hub)
        try:
            raw = await self._call(self._a().get(self.store.room_key(code)))
            owner = None if raw is None else await self.atry_own(code)
        except (redis.RedisError, OSError, TimeoutError):
            log.warning("store error: cannot reach Redis to find room %s", code)
            return _unavailable
        try:
            doc = None if raw is None else _doc(raw)
            if doc is not None and owner == self.id and code not in hub.rooms:
                hub.adopt(code, doc)
        except RoomError:
            log.exception("cannot adopt room %s", code)
            if owner == self.id:
                self.release(code)
            return _unavailable

        def get(asked: str) -> Found:
            asked = asked.upper()
            room = hub.rooms.get(asked)
            if room is not None:
                return room
            if doc is None or asked != code:
                raise RoomError("no_room", f"there is no room {asked}")
            return Elsewhere(code, owner or "", doc)

        return get

    async def create(self, settings: CreateRoom, base_url: str = "",
                     prepare: Callable[[Room], None] | None = None) -> Room:
        """A new room (``Hub.acreate``), saved before the answer (the next request for
        it may reach any process) and not run here: its code is taken with its lease
        (SET NX), which goes once the room is saved. ``prepare`` sets it up first."""
        hub = self.hub
        assert hub is not None
        check_settings(settings)
        try:
            for code in candidate_codes():
                if code in hub.rooms or await self.atry_own(code) != self.id:
                    continue
                if await self._call(self._a().exists(self.store.room_key(code))):
                    self.release(code)  # an old room of that code, nobody serving it
                    continue
                room = Room(code, settings)
                room.join_url = hub.join_url(code, base_url)
                if prepare is not None:
                    prepare(room)
                keys, args = save_args(self.store, room.code, room.to_doc(), room.status,
                                       time.time(), self.id)
                if not await self._call(self._a().eval(FENCED_SAVE, len(keys), *keys, *args)):
                    continue  # (our lease ran out meanwhile: Redis was stalled)
                # Let it go at once: the first process asked for it takes it. Behind a
                # proxy that hashes room codes, that is where its phones will be.
                await self._call(self._a().eval(RELEASE, 1, self.store.lease_key(code),
                                                self.id))
                log.info("room %s created (%s, %d seats)", code, settings.ruleset,
                         settings.seats)
                return room
        except (redis.RedisError, OSError, TimeoutError):
            log.warning("store error: cannot reach Redis to create a room")
            raise RoomError("unavailable", "the server cannot save rooms right now: "
                                           "try again in a moment") from None
        raise RoomError("busy", "no room code is free now: try again later")

    async def ready(self) -> bool:
        """Redis answers (``/readyz``)."""
        try:
            return bool(await self._call(self._a().ping()))
        except (redis.RedisError, OSError, TimeoutError):
            return False

    # --- running ----------------------------------------------------------------------
    @classmethod
    def from_url(cls, url: str, lease_seconds: float = 5.0) -> Node:
        return cls(RedisStore.from_url(url, socket_timeout=REDIS_TIMEOUT,
                                       socket_connect_timeout=REDIS_TIMEOUT),
                   url, lease_seconds)

    async def start(self, hub: Hub, app: Starlette | None = None) -> None:
        """Join the cluster: listen on this process's channel, keep the leases."""
        self.hub = hub
        if app is not None:
            self.tokens = app.state.tokens
        # The listener waits for messages as long as it likes; every other call times out.
        self.sub_client = aredis.Redis.from_url(self.url, decode_responses=False)
        self.aclient = aredis.Redis.from_url(
            self.url, decode_responses=False, socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT)
        pubsub = self.sub_client.pubsub()
        await pubsub.subscribe(self.channel)
        self.tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._keep_leases()),
        ]
        with contextlib.suppress(redis.RedisError, OSError, TimeoutError):
            await self.sweep()

    async def stop(self) -> None:
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
            codes = list(self.hub.rooms)
            with contextlib.suppress(redis.RedisError, OSError, TimeoutError):
                for code in codes:
                    await self._call(self._a().eval(RELEASE, 1, self.store.lease_key(code),
                                                    self.id))
        for client in (self.sub_client, self.aclient):
            if client is not None:
                await client.aclose()

    async def _listen(self, pubsub: aredis.client.PubSub) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=1.0)
            except (redis.RedisError, OSError) as exc:  # Redis restarted: resubscribe
                self.errors += 1
                log.warning("store error: the cluster channel dropped (%s)", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                for env in _decode(message["data"]):
                    self.dispatch(env)
            except Exception as exc:  # one bad batch must not stop the listener
                # (A boundary: this task hears every other process; if it stopped, this
                # one would go deaf to the cluster. on_error logs and counts it.)
                self.on_error(exc)

    async def _keep_leases(self) -> None:
        """Renew our leases, notice relayed rooms that changed hands, adopt orphans."""
        period = self.lease_ms / 3000
        ticks = 0
        while True:
            await asyncio.sleep(period)
            ticks += 1
            try:
                await self.keep()
                if ticks % 3 == 0:
                    await self.sweep()
            except (redis.RedisError, OSError, TimeoutError) as exc:
                log.warning("store error: Redis unreachable, leases not renewed (%s)", exc)

    async def keep(self) -> None:
        hub = self.hub
        assert hub is not None
        for code in await self.arenew(list(hub.rooms)):
            log.warning("lost the lease of room %s: dropping it", code)
            hub.drop(code)
        rooms = sorted({r.room for r in self.relayed.values()})
        if rooms:
            holders = await self._call(self._a().mget(
                [self.store.lease_key(c) for c in rooms]))
            now = {c: None if h is None else _text(h) for c, h in zip(rooms, holders, strict=True)}
            for relayed in list(self.relayed.values()):
                if now[relayed.room] != relayed.owner:
                    relayed.put(RESTART)

    async def sweep(self) -> None:
        """Adopt every game in play whose owner is gone (its lease ran out). Lobbies and
        finished rooms wait for someone to ask for them (:meth:`getter`): a room
        unloaded for idleness stays unloaded, and a restart loads no abandoned lobby."""
        hub = self.hub
        assert hub is not None
        codes = [_text(c) for c in await self._call(
            self._a().zrange(self.store.playing_key, 0, -1))]
        codes = [c for c in codes if c not in hub.rooms]
        if not codes:
            return
        holders = await self._call(self._a().mget([self.store.lease_key(c) for c in codes]))
        for code, holder in zip(codes, holders, strict=True):
            if holder is not None or await self.atry_own(code) != self.id:
                continue
            raw = await self._call(self._a().get(self.store.room_key(code)))
            if code in hub.rooms:
                continue
            try:
                if raw is None:
                    raise RoomError("no_room", f"room {code} has no document")
                hub.adopt(code, _doc(raw))
                log.info("room %s taken over from a process that is gone", code)
            except RoomError:
                log.exception("cannot adopt room %s", code)
                self.release(code)

    # --- one round trip per turn of the event loop ---------------------------------------
    def save(self, room: Room) -> None:
        """Save a room with the next batch (its document is written once, as it stands
        when the batch goes out)."""
        self.saves[room.code] = room
        self._schedule()

    def hold(self, sink: Held, data: bytes) -> None:
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
            replies = await self._call(pipe.execute())
        except Exception as exc:  # Redis unreachable: nothing was acknowledged, keep it all
            # (A boundary: the batch holds every room's moves since the last round trip;
            # whatever failed, they are put back and sent again, and anything but Redis
            # failing is counted as an error and logged.)
            if not isinstance(exc, (redis.RedisError, OSError, TimeoutError)):
                self.errors += 1
            log.warning("store error: cannot save %d room(s) to Redis, retrying (%s)",
                        len(batch.saves), str(exc) or type(exc).__name__)
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

    def _queue(self, batch: Batch,
               pipe: redis.client.Pipeline | aredis.client.Pipeline) -> None:
        store, now = self.store, time.time()
        for code, room in batch.saves.items():
            # EVAL, not EVALSHA: a restarted Redis has no script cache, and the text is
            # small next to the document it carries.
            keys, args = save_args(store, code, room.to_doc(), room.status, now, self.id)
            pipe.eval(FENCED_SAVE, len(keys), *keys, *args)
        for worker, envs in batch.outbox.items():
            pipe.publish(self.channel_of(worker), _encode(envs))

    def _done(self, batch: Batch, replies: list[object]) -> None:
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
                relayed.put(RESTART)

    async def link_table(self, where: Elsewhere, host_token: str, table: str | None) -> bool:
        """Link a room another process serves to a table (POST /api/rooms/CODE/table):
        asked of its owner, which checks the host's token again, changes the room and
        answers once the change is saved. False when no owner answered in time."""
        conn = secrets.token_hex(8)
        answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.asked[conn] = answer
        data = json.dumps({"host_token": host_token, "table": table}).encode()
        self.post(where.owner, Envelope("table", where.code, conn, self.id, data))
        try:
            code = await asyncio.wait_for(answer, 2 * REDIS_TIMEOUT)
        except TimeoutError:
            return False
        finally:
            self.asked.pop(conn, None)
        if code == LINK_REFUSED:
            raise RoomError("bad_token", "only the host's screen can do that")
        return code == LINK_DONE

    def _link_table(self, hub: Hub, env: Envelope) -> None:
        """The owner's side of :meth:`link_table`: the answer goes with the batch that
        saves the change (saves before publishes), so it is never ahead of it."""
        room = hub.rooms.get(env.room)
        answer = LINK_NOT_HERE
        if room is not None:
            asked = json.loads(env.data)
            table = asked.get("table")
            if not same_token(room.host_token, str(asked.get("host_token", ""))):
                answer = LINK_REFUSED
            else:
                hub.link_table(room, None if table is None else str(table))
                answer = LINK_DONE
        self.post(env.src, Envelope("linked", env.room, env.conn, code=answer))

    def dispatch(self, env: Envelope) -> None:
        if env.kind == "linked":
            waiting = self.asked.get(env.conn)
            if waiting is not None and not waiting.done():
                waiting.set_result(env.code)
            return
        if env.kind in ("send", "close"):
            relayed = self.relayed.get(env.conn)
            if relayed is not None:
                relayed.put(env.data if env.kind == "send" else env.code)
            return
        key = (env.src, env.conn)
        hub = self.hub
        assert hub is not None
        if env.kind == "gone":
            remote = self.remotes.get(key)
            if remote is not None:
                self._forget(key, remote)
            return
        if env.kind == "table":
            self._link_table(hub, env)
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
        remote = Remote(room, env.src, env.conn)
        self.remotes[(env.src, env.conn)] = remote
        # The address the relaying process saw: its wrong tokens count here, as a local
        # client's do (issue 15).
        caller = (Caller(env.address, self.tokens)
                  if env.address and self.tokens is not None else None)
        if env.agent:
            query = json.loads(env.data or b"{}")
            remote.token = query.get("token")
            try:
                seat = pipeline.agent_seat(room, query.get("token"), query.get("name"), caller)
            except RoomError as exc:
                self._refuse(remote, pipeline.error_bytes(exc.code, exc.message, agent=True))
                return
            if seat is not None:
                self._seat(room, remote, pipeline.Admitted("agent", seat, None))
            return
        outcome = pipeline.web_hello(room, env.data.decode(errors="replace"), caller)
        if isinstance(outcome, bytes):
            self._refuse(remote, outcome)
            return
        self._seat(room, remote, outcome)

    def _seat(self, room: Room, remote: Remote, who: pipeline.Admitted) -> None:
        sink = RemoteSink(self, remote.worker, room.code, remote.conn, who.role, who.viewer)
        remote.sink = sink
        if who.welcome is not None:
            sink.send(who.welcome)
        room.attach(sink, who.asks)

    def _refuse(self, remote: Remote, data: bytes) -> None:
        self.remotes.pop((remote.worker, remote.conn), None)
        self.post(remote.worker, Envelope("send", remote.room.code, remote.conn, data=data))
        self.post(remote.worker, Envelope("close", remote.room.code, remote.conn, code=4000))

    def _frame(self, hub: Hub, remote: Remote, raw: str) -> None:
        if remote.sink is None:  # an agent without a name in its address says hello first
            try:
                seat = pipeline.agent_hello_seat(remote.room, raw, remote.token)
            except RoomError as exc:
                self._refuse(remote, pipeline.error_bytes(exc.code, exc.message, agent=True))
                return
            except protocol.ProtocolError as exc:
                self._refuse(remote, encode(exc.error))
                return
            self._seat(remote.room, remote, pipeline.Admitted("agent", seat, None))
            return
        pipeline.on_frame(hub, remote.room, remote.sink, raw)

    def _forget(self, key: tuple[str, str], remote: Remote) -> None:
        del self.remotes[key]
        if remote.sink is not None:
            remote.room.forget(remote.sink)
            remote.room.broadcast()

    # --- the relaying side ---------------------------------------------------------------
    async def relay(self, ws: WebSocket, code: str, owner: str, agent: bool = False,
                    query: dict[str, str] | None = None) -> None:
        """Serve a client whose room another process owns: frames in both directions.
        The message rate is held here, where the socket is, as for a local client."""
        from starlette.websockets import WebSocketDisconnect

        from nightcall.server.limits import address, rate_of, receive

        conn = secrets.token_hex(8)
        relayed = Relayed(ws, code, owner)
        self.relayed[conn] = relayed
        self.relayed_total += 1
        writer = asyncio.create_task(self._write(relayed))
        try:
            if agent:
                data = json.dumps(query or {}).encode()
            else:
                data = (await asyncio.wait_for(receive(ws), HELLO_TIMEOUT)).encode()
            self.post(owner, Envelope("open", code, conn, self.id, data, agent=agent,
                                      address=address(ws) or ""))
            rate = rate_of(ws)
            while True:
                raw = await receive(ws)
                verdict = rate.take()
                if verdict == "close":  # flooding: stop reading it at all
                    relayed.put(1008)
                    break
                if verdict == "slow_down":
                    relayed.put(pipeline.error_bytes("slow_down", rate.advice(), agent))
                    continue
                if PING in raw and raw.replace(" ", "") == PING:
                    relayed.put(PONG)
                    continue
                self.post(owner, Envelope("msg", code, conn, self.id, raw.encode()))
        except (WebSocketDisconnect, TimeoutError, RuntimeError):
            pass
        finally:
            del self.relayed[conn]
            self.post(owner, Envelope("gone", code, conn, self.id))
            if not writer.done():
                relayed.put(RESTART)
                with contextlib.suppress(asyncio.TimeoutError, Exception):
                    await asyncio.wait_for(writer, 1.0)

    async def _write(self, relayed: Relayed) -> None:
        while True:
            item = await relayed.out.get()
            try:
                if isinstance(item, int):
                    await relayed.ws.close(code=item)
                    return
                await relayed.ws.send_text(item.decode())
            except SOCKET_GONE:  # the socket is gone; the reader notices and cleans up
                return


def _doc(raw: bytes | str) -> dict[str, Any]:
    """A room's document as Redis holds it; RoomError("damaged") if it is not JSON."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RoomError("damaged", f"a room's saved document is not JSON ({exc})") from exc
    if not isinstance(doc, dict):
        raise RoomError("damaged", "a room's saved document is not a JSON object")
    return doc


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _here(hub: Hub) -> Callable[[str], Found]:
    """The lookup of a room served here (no Redis needed)."""

    def get(asked: str) -> Found:
        room = hub.rooms.get(asked.upper())
        if room is None:
            raise RoomError("no_room", f"there is no room {asked.upper()}")
        return room

    return get


def _unavailable(code: str) -> Found:
    raise RoomError("unavailable", "the server cannot reach its store right now: "
                                   "try again in a moment")
