"""Every message of the websocket, as typed msgspec values.

Client messages are one tagged union (field ``type``) decoded and validated in
one call; anything that does not decode gets an ``error`` back and changes
nothing. Server messages are plain structs encoded to JSON. In-game messages
(``action``, ``error``) are the agent protocol's (:mod:`nightcall.protocol`);
agents connect to ``/ws/CODE/agent`` and get nothing but protocol messages.
Lobby and room messages are ours.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from nightcall import protocol
from nightcall.engine.ruleset import default_ruleset_id
from nightcall.protocol import ActionMessage
from nightcall.server.tables import MAX_TABLE_TOKEN, MIN_TABLE_TOKEN, TOKEN_PATTERN

# --- client -> server ----------------------------------------------------------


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    """The first message: who is connecting. A player gives a name (new seat)
    or the token of the seat it had (reconnect); the host gives the host token.
    ``protocol`` is accepted so that the agent protocol's hello also reads."""

    as_: Literal["player", "host", "spectator"] = msgspec.field(name="as", default="player")
    name: str | None = None
    token: str | None = None
    protocol: int = 1


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    """Host: fill the empty seats with bots and deal."""

    seats: int | None = None


class AddBot(msgspec.Struct, tag="add_bot", forbid_unknown_fields=True):
    """Host: seat one bot now."""


class Kick(msgspec.Struct, tag="kick", forbid_unknown_fields=True):
    """Host: free a seat in the lobby."""

    seat: int


class LetIn(msgspec.Struct, tag="let_in", forbid_unknown_fields=True):
    """Host: let the phone asking for ``seat`` play it (``yes``), or send it away."""

    seat: int
    yes: bool


class Advance(msgspec.Struct, tag="advance", forbid_unknown_fields=True):
    """Host: end the discussion now and open the vote."""


class Extend(msgspec.Struct, tag="extend", forbid_unknown_fields=True):
    """Host: one more minute of discussion (or of the Lupus defense)."""


class Pause(msgspec.Struct, tag="pause", forbid_unknown_fields=True):
    """Host: stop the discussion's clock, or start it again (the time left is kept)."""


class LastToDie(msgspec.Struct, tag="last_to_die", forbid_unknown_fields=True):
    """Host, as the Lupus Master: of two or more deaths at this dawn, ``seat`` counts as
    the last to die (the accusations start at its left). Only during the dawn's talk."""

    seat: int


class Arrange(msgspec.Struct, tag="arrange", forbid_unknown_fields=True):
    """Host, in the lobby: the seats in the order the players sit round the table
    (``order[k]`` is the seat that becomes seat ``k``); play again keeps it."""

    order: list[int]


class PlayAgain(msgspec.Struct, tag="play_again", forbid_unknown_fields=True):
    """Host, after the end: a new room with the same settings; everyone is sent there."""


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


# Moves and claims are the agent protocol's ``action`` message, for browsers and agents alike.
ClientMessage = (
    Hello | ActionMessage | Start | AddBot | Kick | LetIn | Arrange | Advance | Extend | Pause
    | LastToDie | PlayAgain | Ping
)

# --- server -> client ----------------------------------------------------------


class Welcome(msgspec.Struct, tag="welcome"):
    room: str
    role: str  # "player", "host", "spectator", or "asking" (room.ASKING: no token yet)
    seat: int | None = None
    name: str | None = None
    token: str | None = None


class SeatInfo(msgspec.Struct):
    seat: int
    name: str
    bot: bool
    connected: bool
    asking: bool = False  # a new phone asks the host to let it play this seat


class Lobby(msgspec.Struct, tag="lobby"):
    """Public room facts: settings, who sits where, whether the game started."""

    room: str
    ruleset: str
    title: str
    status: str  # "lobby", "playing", "over"
    seats: list[SeatInfo]
    settings: dict[str, Any]
    join_url: str


class Clock(msgspec.Struct):
    """The public clock: the same for every client. ``ends_at`` is epoch milliseconds."""

    # "lobby", "night", "discussion", then the day's turns: "vote" (One Night games),
    # "accuse", "defense", "execute" (Lupus), and "over".
    stage: str
    call: str | None = None
    night: int = 0
    ends_at: int | None = None
    seconds: float | None = None
    narration: str | None = None


class Observation(msgspec.Struct, tag="observation"):
    """What one seat (or the public) may know now, computed by ``ruleset.view``.
    The browser's observation: the agent protocol's, plus the public clock."""

    room: str
    state_id: int
    view: dict[str, Any]
    clock: Clock
    timeline: list[str] | None = None
    # The view's events as sentences for this viewer, in the room's language (one per
    # event, None for a bookkeeping one): the pages show these, never their own words.
    said: list[str | None] = []


class RoomErrorMessage(msgspec.Struct, tag="room_error"):
    """A refused lobby or room request (in-game refusals use the protocol's ``error``)."""

    code: str
    message: str


class Pong(msgspec.Struct, tag="pong"):
    pass


class NextRoom(msgspec.Struct, tag="next_room"):
    """The host started the next game in a new room: go there (players rejoin by name;
    the new host token goes to the host's screen alone)."""

    room: str
    host_token: str | None = None


ServerMessage = Welcome | Lobby | Observation | RoomErrorMessage | Pong | NextRoom

_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


TOO_DEEP = "the message is nested too deeply"


def decode(raw: str | bytes) -> ClientMessage:
    """Decode and validate one client message; raise msgspec.ValidationError/DecodeError
    (a frame nested deeper than Python's recursion limit, too: msgspec raises
    RecursionError there, which used to escape every handler)."""
    try:
        return _decoder.decode(raw)
    except RecursionError:
        raise msgspec.ValidationError(TOO_DEEP) from None


def decode_create(raw: bytes) -> CreateRoom:
    """The body of POST /api/rooms, with the same errors as :func:`decode`."""
    try:
        return _create_decoder.decode(raw)
    except RecursionError:
        raise msgspec.ValidationError(TOO_DEEP) from None


def encode(msg: ServerMessage | protocol.ServerMessage) -> bytes:
    return _encoder.encode(msg)


# Every field of a new room is bounded: the room's document is saved at every move
# and read back by GET /api/rooms/CODE, so its size is set here, at creation.
Word = Annotated[str, msgspec.Meta(max_length=64)]
# A ruleset option: a flag, a number, a word or a short list of words (Epic's artifacts);
# nothing nested deeper.
OptionValue = bool | Annotated[int, msgspec.Meta(ge=-(2**53), le=2**53)] | Word | Annotated[
    list[Word], msgspec.Meta(max_length=64)]


TableToken = Annotated[str, msgspec.Meta(min_length=MIN_TABLE_TOKEN, max_length=MAX_TABLE_TOKEN,
                                        pattern=TOKEN_PATTERN)]


class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    """POST /api/rooms: a new room. Times are seconds; ``roles`` empty = recommended deck."""

    ruleset: Word = msgspec.field(default_factory=default_ruleset_id)
    seats: int = 5
    scenario: Word | None = None
    roles: Annotated[list[Word], msgspec.Meta(max_length=64)] = msgspec.field(
        default_factory=list)
    options: Annotated[dict[Word, OptionValue], msgspec.Meta(max_length=16)] = msgspec.field(
        default_factory=dict)
    language: Literal["en", "it", "de"] = "en"
    call_seconds: float = 10.0
    discussion_seconds: float = 300.0
    vote_seconds: float = 30.0
    defense_seconds: float = 30.0
    # Who takes the empty seats: "reasoning" (optionally ":easy"/":hard") or "random".
    bots: Annotated[str, msgspec.Meta(max_length=32)] = "reasoning"
    # The fast night (server/fast.py): every phone chooses at once. The phone room's
    # page asks for it by default; off for the API's default, table and narrated play.
    fast_night: bool = False
    fast_seconds: float = 20.0  # the fast round's countdown (the floor: FAST_FLOOR of it)
    # The table whose history keeps this room's finished games (server/tables.py): the
    # token of its link. Never shown in the lobby.
    table: TableToken | None = None


_create_decoder = msgspec.json.Decoder(CreateRoom)
