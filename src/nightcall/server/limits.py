"""Rate limits: room-code guessing per client address, and messages per connection.

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


class SlowDown(RoomError):
    """Refused by a rate limit; ``retry_after`` is in seconds (HTTP 429's Retry-After)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("slow_down", message)
        self.retry_after = retry_after


class RoomGuard:
    """Failed room lookups per client address. An address over the limit is refused
    every lookup, of rooms that exist too (else a scan would still learn which do)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.misses: dict[str, Bucket] = {}

    def find(self, address: str | None, get: Callable[[str], T], code: str) -> T:
        """``get(code)``, unless this address is over the limit (:class:`SlowDown`).
        A ``no_room`` refusal from ``get`` counts as a miss."""
        now = self.limits.clock()
        key = address or ""
        bucket = self.misses.get(key)
        if bucket is not None:
            wait = bucket.wait(now)
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                raise SlowDown(
                    f"too many unknown room codes from your address: try again in {seconds} s",
                    seconds,
                )
        try:
            return get(code)
        except RoomError as exc:
            if exc.code == "no_room":
                self._miss(key, now)
            raise

    def _miss(self, key: str, now: float) -> None:
        bucket = self.misses.get(key)
        if bucket is None:
            if len(self.misses) >= MAX_ADDRESSES:
                self._forget(now)
            rate = self.limits.misses_per_minute / 60.0
            bucket = self.misses[key] = Bucket(rate, self.limits.miss_burst, now)
        bucket.take(now)

    def _forget(self, now: float) -> None:
        for key in [k for k, b in self.misses.items() if b.full(now)]:
            del self.misses[key]
        while len(self.misses) >= MAX_ADDRESSES:
            del self.misses[next(iter(self.misses))]


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
    """Give the app its limits (``app.state``): one guard for all its room lookups."""
    app.state.limits = limits
    app.state.guard = RoomGuard(limits)


def lookup(conn: HTTPConnection, get: Callable[[str], T]) -> T:
    """``get`` the room named in the path of a request or websocket, through the guard."""
    guard: RoomGuard = conn.app.state.guard
    host = conn.client.host if conn.client is not None else None
    return guard.find(host, get, str(conn.path_params["code"]))


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


async def receive(ws: WebSocket) -> str:
    """The next frame's text. A binary frame is read as UTF-8 (so it gets the same
    errors as text): Starlette's ``receive_text`` would fail on it with a KeyError."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        data: bytes = message.get("bytes") or b""
        text = data.decode("utf-8", errors="replace")
    return str(text)
