"""The server's message pipeline, wherever a client's socket is: its hello (who it is),
then each frame (decoded, handled, refused with a message to it alone).

Plain Python, no web framework: the websocket endpoints (app.py) and the cluster's
relay (cluster.py, for a client whose socket another process holds) both call it with
a room and a :class:`~nightcall.server.room.Sink`, and send the bytes it returns.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from nightcall import protocol
from nightcall.server import messages as m
from nightcall.server.room import ASKING, Room, RoomError, Sink, same_token

if TYPE_CHECKING:
    from nightcall.server.hub import Hub
    from nightcall.server.limits import TokenGuard

MAX_MESSAGE = 4096

# The agent protocol's in-game codes, which a browser gets as ``error`` too; the ones
# about the connection itself a browser gets as a ``room_error`` (and an agent as an
# ``error``: agent_error).
CONNECTION_CODES = frozenset({"too_long", "slow_down", "refused"})
PROTOCOL_CODES = frozenset(c.value for c in protocol.ErrorCode) - CONNECTION_CODES
PONG = m.encode(m.Pong())


class SlowDown(RoomError):
    """Refused by a rate limit; ``retry_after`` is in seconds (HTTP 429's Retry-After)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("slow_down", message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Caller:
    """Who sent a hello, for the wrong-token limit (limits.TokenGuard)."""

    address: str | None
    tokens: TokenGuard

    def strict(self) -> bool:
        return self.tokens.strict(self.address)

    def wrong_token(self) -> None:
        self.tokens.wrong(self.address)

    def slow_down(self) -> SlowDown:
        """The answer to a token that matched nothing the server made, from an address
        over the limit (an agent's own token may be right: it is not checked now)."""
        seconds = max(1, self.tokens.addresses.wait(self.address))
        return SlowDown(f"too many wrong tokens from your address: try again in {seconds} s",
                        seconds)


def error(code: str, message: str) -> bytes:
    """In-game refusals are the agent protocol's ``error``; lobby ones are ``room_error``."""
    if code in PROTOCOL_CODES:
        return m.encode(protocol.Error(protocol.ErrorCode(code), message))
    return m.encode(m.RoomErrorMessage(code=code, message=message))


def agent_error(code: str, message: str) -> bytes:
    """An agent hears nothing but its protocol: a lobby or room refusal becomes an
    ``error`` (``too_long``, ``slow_down``, or ``refused`` with the reason said)."""
    if code not in PROTOCOL_CODES and code not in CONNECTION_CODES:
        code = "refused"
    return m.encode(protocol.Error(protocol.ErrorCode(code), message))


def error_bytes(code: str, message: str, agent: bool = False) -> bytes:
    """A refusal; for an agent, always an agent-protocol ``error``."""
    return agent_error(code, message) if agent else error(code, message)


def sink_error(sink: Sink, code: str, message: str) -> bytes:
    return error_bytes(code, message, agent=sink.role == "agent")


def decode_error(exc: Exception) -> bytes:
    if isinstance(exc, msgspec.ValidationError):  # (a subclass of DecodeError)
        if "`$.type`" in str(exc):
            return error("unknown_type", f"unknown message type: {exc}")
        return error("bad_message", str(exc))
    return error("bad_json", f"not valid JSON: {exc}")


# --- hello ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Admitted:
    """A connection let into a room: its role, the seat it sees (None: the host screen,
    a spectator, or a phone still asking), its welcome (None: an agent's protocol has
    none), and the seat it asks for (a phone still asking)."""

    role: str
    viewer: int | None
    welcome: bytes | None
    asks: int | None = None


def _hello(room: Room, hello: m.Hello, strict: bool = False) -> Admitted:
    """Who this connection is: a seat (new or rejoining), the host, or a spectator.
    ``strict``: this address sent too many wrong tokens; only the server's own are
    checked (limits.TokenGuard)."""
    if hello.as_ == "host":
        if hello.token is None or not same_token(room.host_token, hello.token):
            raise RoomError("bad_token", "only the host's screen can open this page as host")
        return Admitted("host", None, m.encode(
            m.Welcome(room=room.code, role="host", token=room.host_token)))
    if hello.as_ == "spectator":
        return Admitted("spectator", None, m.encode(m.Welcome(room=room.code, role="spectator")))
    if hello.token:
        seat = room.seat_of_token(hello.token, strict)
    elif hello.name is not None and room.status != "lobby":
        seat = room.ask_back(hello.name)  # (it sees what a spectator sees until let in)
        return Admitted(ASKING, None, m.encode(m.Welcome(
            room=room.code, role=ASKING, seat=seat, name=room.seats[seat].name)), asks=seat)
    elif hello.name is not None:
        seat, _ = room.join(hello.name)
    else:
        raise RoomError("bad_hello", "give a name to take a seat, or your seat's token")
    s = room.seats[seat]
    return Admitted("player", seat, m.encode(
        m.Welcome(room=room.code, role="player", seat=seat, name=s.name, token=s.token)))


def web_hello(room: Room, raw: str, caller: Caller | None = None) -> Admitted | bytes:
    """A browser's first frame, wherever its socket is: who it is and the welcome to
    send, or the refusal to send before closing. ``caller``: the client's address
    and the wrong-token limit (a connection relayed from another process has none)."""
    strict = False
    try:
        if len(raw) > MAX_MESSAGE:
            raise RoomError("too_long", "that message is too long")
        hello = m.decode(raw)
        if not isinstance(hello, m.Hello):
            raise RoomError("bad_hello", "the first message must be a hello")
        strict = caller is not None and caller.strict()
        return _hello(room, hello, strict)
    except RoomError as exc:
        if exc.code == "bad_token" and caller is not None:
            if strict:
                exc = caller.slow_down()
            caller.wrong_token()
        return error(exc.code, exc.message)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return decode_error(exc)


def hello_token(raw: str) -> str | None:
    """The token a browser's hello brings (None when it brings none, or is no hello)."""
    try:
        hello = m.decode(raw) if len(raw) <= MAX_MESSAGE else None
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    return hello.token if isinstance(hello, m.Hello) and hello.token else None


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


# --- frames --------------------------------------------------------------------------


def on_frame(hub: Hub, room: Room, sink: Sink, raw: str) -> None:
    """One frame from a seated client (here or relayed): a refusal goes to it alone."""
    try:
        if len(raw) > MAX_MESSAGE:
            raise RoomError("too_long", "that message is too long")
        started = time.perf_counter()
        msg = m.decode(raw)
        handle(hub, room, sink, msg)
        if isinstance(msg, protocol.ActionMessage):
            hub.timings.append(time.perf_counter() - started)
    except RoomError as exc:
        sink.send(sink_error(sink, exc.code, exc.message))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        sink.send(decode_error(exc))


def handle(hub: Hub, room: Room, sink: Sink, msg: m.ClientMessage) -> None:
    """One client message; raises RoomError to refuse it."""
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
    elif isinstance(msg, m.LetIn):
        room.let_in(msg.seat, msg.yes)
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
        # (in a cluster the new room is made without blocking: a failure comes later)
        hub.play_again(room, lambda exc: sink.send(sink_error(sink, exc.code, exc.message)))
