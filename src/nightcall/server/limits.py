"""Rate limits: per client address, room-code guessing, wrong tokens and new rooms;
per connection, messages.

Both are token buckets on an injectable clock, so tests move time by hand. A room
code is 4 letters of 24 (331,776 codes): what keeps a stranger from walking into
a lobby is how slowly one address may guess. What keeps a buggy or hostile client
from flooding a room is the per-connection message rate.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

import msgspec
from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from nightcall.server.pipeline import SlowDown
from nightcall.server.room import RoomError

Now = Callable[[], float]
T = TypeVar("T")

# Addresses remembered at most; past this, the ones that are back to a full bucket
# are forgotten first (they are no different from new ones), then the oldest.
MAX_ADDRESSES = 50_000


@dataclass(frozen=True)
class Limits:
    """The numbers, one place. ``create_app(limits=...)`` takes tight ones in tests.

    Room lookups: a typo or two per minute is normal, a scan is not. Ten misses at
    once, then one every six seconds: a household sharing one address can mistype
    a code many times, while a scan of every code from one address takes weeks.

    Messages: a phone sends a tap now and then and a ping; a fast agent answers each
    observation and may claim a few times in the day. A burst of 30 then 10 a second
    is several times what either needs, and still far below what a room can absorb.
    Beyond that each message is dropped with ``slow_down``; a connection whose
    dropped messages exceed ``flood_burst`` (refilled at the same 10 a second, so only
    one sending well over twice the limit gets there) is closed with code 1008.
    """

    misses_per_minute: float = 10.0
    miss_burst: int = 10
    messages_per_second: float = 10.0
    message_burst: int = 30
    flood_burst: int = 60
    # Wrong seat or host tokens per address: a phone sends its own token, always right;
    # only a guesser (of an agent's own, maybe weak, token) sends wrong ones.
    wrong_tokens_per_minute: float = 10.0
    wrong_token_burst: int = 10
    # New rooms per address: a café or a school behind one address may open a room at
    # every table at once, then a room a minute each; a script may not open 190 a second.
    rooms_per_minute: float = 6.0
    room_burst: int = 30
    # Work that stores nothing but costs CPU (a record replayed, the table mode's
    # answers): a page asks once per replay or answer; a script asking in a loop may not.
    work_per_minute: float = 60.0
    work_burst: int = 60
    clock: Now = time.monotonic


class Bucket:
    """``burst`` tokens, refilled at ``rate`` a second; a taken token is one event."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)

    def take(self, now: float) -> bool:
        """Take one token if there is one."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0 when there is one now)."""
        self._refill(now)
        if self.tokens >= 1.0:
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else math.inf

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


class PerAddress:
    """One bucket per client address, of events that count against it (misses,
    wrong tokens, new rooms); an address never seen has a full bucket."""

    def __init__(self, per_minute: float, burst: int, clock: Now) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}

    def wait(self, address: str | None) -> int:
        """Whole seconds this address must wait (0: not over the limit)."""
        bucket = self.buckets.get(address or "")
        wait = 0.0 if bucket is None else bucket.wait(self.clock())
        return 0 if wait <= 0 else max(1, math.ceil(wait))

    def spend(self, address: str | None) -> None:
        now = self.clock()
        key = address or ""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget(now)
            bucket = self.buckets[key] = Bucket(self.rate, self.burst, now)
        bucket.take(now)

    def _forget(self, now: float) -> None:
        for key in [k for k, b in self.buckets.items() if b.full(now)]:
            del self.buckets[key]
        while len(self.buckets) >= MAX_ADDRESSES:
            del self.buckets[next(iter(self.buckets))]


def _code_slow_down(seconds: int) -> SlowDown:
    return SlowDown(f"too many unknown room codes from your address: try again in {seconds} s",
                    seconds)


class RoomGuard:
    """Failed room lookups per client address. An address over the limit is refused
    every lookup, of rooms that exist too (else a scan would still learn which do),
    except a connection that brings a valid token of the room (:meth:`blocked`): the
    limit is on guessing codes, and a token is no guess."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.addresses = PerAddress(limits.misses_per_minute, limits.miss_burst, limits.clock)
        self.misses = self.addresses.buckets

    def blocked(self, address: str | None) -> SlowDown | None:
        """The refusal this address gets now for a lookup, or None."""
        seconds = self.addresses.wait(address)
        return _code_slow_down(seconds) if seconds else None

    def find(self, address: str | None, get: Callable[[str], T], code: str) -> T:
        """``get(code)``, unless this address is over the limit (:class:`SlowDown`).
        A ``no_room`` refusal from ``get`` counts as a miss."""
        refused = self.blocked(address)
        if refused is not None:
            raise refused
        try:
            return get(code)
        except RoomError as exc:
            if exc.code == "no_room":
                self.addresses.spend(address)
            raise


class TokenGuard:
    """Wrong tokens per client address. Over the limit, a token is still checked
    against the tokens the server made (128 random bits: no rate makes them
    guessable, and a player behind the same address as a guesser must get back in)
    but no longer against the tokens agents chose themselves."""

    def __init__(self, limits: Limits) -> None:
        self.addresses = PerAddress(limits.wrong_tokens_per_minute, limits.wrong_token_burst,
                                    limits.clock)

    def strict(self, address: str | None) -> bool:
        """Is this address over the limit (only the server's own tokens checked)?"""
        return self.addresses.wait(address) > 0

    def wrong(self, address: str | None) -> None:
        self.addresses.spend(address)


class CreateGuard:
    """Requests of one kind per client address: new rooms (POST /api/rooms and play
    again), or work (``what``: replays, the table mode's answers)."""

    def __init__(self, limits: Limits, what: str = "new rooms") -> None:
        if what == "new rooms":
            self.addresses = PerAddress(limits.rooms_per_minute, limits.room_burst,
                                        limits.clock)
        else:
            self.addresses = PerAddress(limits.work_per_minute, limits.work_burst, limits.clock)
        self.what = what

    def take(self, address: str | None) -> None:
        """Count one request, or raise :class:`SlowDown` past the limit."""
        seconds = self.addresses.wait(address)
        if seconds:
            raise SlowDown(f"too many {self.what} from your address: try again in {seconds} s",
                           seconds)
        self.addresses.spend(address)


Verdict = Literal["ok", "slow_down", "close"]


class MessageRate:
    """One connection's messages: :meth:`take` for each one received."""

    def __init__(self, limits: Limits) -> None:
        now = limits.clock()
        self.limits = limits
        self.messages = Bucket(limits.messages_per_second, limits.message_burst, now)
        self.drops = Bucket(limits.messages_per_second, limits.flood_burst, now)

    def take(self) -> Verdict:
        """``ok``: handle it; ``slow_down``: drop it and say so; ``close``: flooding."""
        now = self.limits.clock()
        if self.messages.take(now):
            return "ok"
        return "slow_down" if self.drops.take(now) else "close"

    def advice(self) -> str:
        per_second = f"{self.limits.messages_per_second:g}"
        return f"too many messages: this one was dropped (at most {per_second} a second)"


# --- the app's side ----------------------------------------------------------------


def install(app: Starlette, limits: Limits) -> None:
    """Give the app its limits (``app.state``): one guard for each kind of event."""
    app.state.limits = limits
    app.state.guard = RoomGuard(limits)
    app.state.tokens = TokenGuard(limits)
    app.state.creations = CreateGuard(limits)
    app.state.work = CreateGuard(limits, "replays and table answers")


def too_many(request: HTTPConnection) -> Response | None:
    """A request that costs CPU (``app.state.work``): None, or 429 past the limit."""
    try:
        request.app.state.work.take(address(request))
    except SlowDown as exc:
        return refusal(exc)
    return None


def address(conn: HTTPConnection) -> str | None:
    return conn.client.host if conn.client is not None else None


def lookup(conn: HTTPConnection, get: Callable[[str], T]) -> T:
    """``get`` the room named in the path of a request or websocket, through the guard."""
    guard: RoomGuard = conn.app.state.guard
    return guard.find(address(conn), get, str(conn.path_params["code"]))


def refusal(exc: RoomError) -> Response:
    """A failed lookup over HTTP: 404, or 429 with Retry-After past the limit."""
    body = msgspec.json.encode({"code": exc.code, "message": exc.message})
    if isinstance(exc, SlowDown):
        return Response(body, 429, {"Retry-After": str(math.ceil(exc.retry_after))},
                        media_type="application/json")
    return Response(body, 404, media_type="application/json")


def rate_of(ws: WebSocket) -> MessageRate:
    """A new connection's message rate, from the app's limits."""
    return MessageRate(ws.app.state.limits)


UNREAD = "nightcall.unread"


def unread(ws: WebSocket, text: str) -> None:
    """Put a frame back: the next :func:`receive` returns it (a hello read to find a
    token, before the connection is handed to whatever reads hellos)."""
    ws.scope[UNREAD] = text


async def receive(ws: WebSocket) -> str:
    """The next frame's text. A binary frame is read as UTF-8 (so it gets the same
    errors as text): Starlette's ``receive_text`` would fail on it with a KeyError."""
    back = ws.scope.pop(UNREAD, None)
    if back is not None:
        return str(back)
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        data: bytes = message.get("bytes") or b""
        text = data.decode("utf-8", errors="replace")
    return str(text)
