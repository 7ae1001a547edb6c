"""The agent protocol: the messages an agent and the game master exchange.

One message is one JSON object with a ``"type"``; over stdio each message is one
line (JSON lines), over the web app's websocket each message is one text frame.
The same messages travel both ways, so an agent written in any language can take
a seat anywhere. ``nightcall agent schema`` prints the JSON Schema of all of them.

From the game master to the agent (:data:`ServerMessage`):

``welcome``
    ``{"type": "welcome", "protocol": 1, "ruleset": "onuw", "seat": 2,
    "players": ["ann", "bob", ...], "role_ids": [...], "action_space": [...]?}``.
    Sent once, first. ``role_ids`` are the ruleset's roles: a claim's role number
    (One Night's ``claim`` a, ``claim_saw`` b) is an index in this list; seat
    numbers index ``players``; in claims a position n+i is center card i.
    ``action_space`` (only when masks were asked for) is the fixed list of every
    action of this game; ``mask[i]`` in an observation refers to ``action_space[i]``.
``observation``
    ``{"type": "observation", "seat": 2, "state_id": 7, "view": {...},
    "talk": [...], "mask": [...]?}``: what the seat knows now. When
    ``view["legal"]`` is not empty the seat must answer with one ``action``; when
    it is empty the seat may only talk (the web app's discussion) or stay silent.
    ``state_id`` is the version of this seat's choices: it goes up by one whenever
    the moves allowed to this seat or the phase change (never with what others did
    in secret, and never with talk: a claim changes nobody's choices, so an
    observation that only adds a claim keeps its ``state_id``; see :func:`choices_key`).
    ``view`` is exactly what the ruleset lets this seat know (``Ruleset.view``),
    including ``view["legal"]``, the moves allowed now. ``talk`` lists what the seat
    may say now (claims during the One Night day); saying something is also an
    ``action`` and is answered by a fresh observation. ``mask`` marks the legal
    moves in ``action_space`` with 1.
``error``
    ``{"type": "error", "code": "illegal_action", "message": "...", "state_id": 7}``:
    the last message was refused and nothing changed; see :class:`ErrorCode`.
    (``timeout`` is the exception: no answer came in time and the game master
    played a random legal move for the seat; the message says which.)
    Over stdio the observation is sent again after the error.
``game_over``
    ``{"type": "game_over", "seat": 2, "state_id": 31, "view": {...}, "won": true}``:
    the final view (with the outcome and the revealed cards). Last message.

From the agent to the game master (:data:`AgentMessage`):

``hello``
    ``{"type": "hello", "name": "my-bot"}``: optional, says who is playing.
``action``
    ``{"type": "action", "action": {"kind": "vote", "a": 3}, "state_id": 7}``:
    a move from ``view["legal"]`` or a line from ``talk``. ``a`` and ``b`` are
    left out when unused. ``state_id`` is optional; when given, it must be the
    one of the latest observation, so an answer to an old observation is refused.
    A claim identical to the seat's previous move is refused (``illegal_action``):
    since a claim keeps the ``state_id``, that is how a repeat is told from a new one.

Decoding never raises anything but :class:`ProtocolError`, whose ``error`` is the
:class:`Error` message to send back.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Final, TypeVar

import msgspec

from nightcall.engine.actions import Action
from nightcall.engine.ruleset import is_talk

PROTOCOL_VERSION: Final = 1

# The refusal of a claim identical to the seat's previous move, on every transport.
SAID_AGAIN: Final = "you have just said exactly that"


def said_again(ruleset: object, action: Action, last: Action | None) -> bool:
    """Is ``action`` a claim identical to the seat's previous move (``last``)? A claim
    keeps the ``state_id``, so this is how a repeat (a double tap, a resent line) is
    told from a new claim; both transports refuse it with :data:`SAID_AGAIN`."""
    return action == last and is_talk(ruleset, action)


def choices_key(view: dict[str, Any]) -> tuple[str, object]:
    """What a seat's ``state_id`` versions in its view: the moves it may make and the
    phase. Events (others' claims among them) are left out: an answer stays valid
    while the table talks. The web app adds its clock's stage (Room.snapshot)."""
    return repr(view.get("legal")), view.get("phase")


class ErrorCode(StrEnum):
    """Why a message was refused (the ``code`` of an ``error`` message)."""

    BAD_JSON = "bad_json"  # the line is not a JSON object
    BAD_MESSAGE = "bad_message"  # a known type with missing or wrong fields
    UNKNOWN_TYPE = "unknown_type"  # no such message type
    ILLEGAL_ACTION = "illegal_action"  # the rules do not allow this action now
    STALE_STATE = "stale_state"  # state_id is not the latest observation's
    NOT_YOUR_TURN = "not_your_turn"  # this seat has nothing to do now
    GAME_OVER = "game_over"  # the game has ended
    TIMEOUT = "timeout"  # no answer in time: a legal move was played for this seat
    # Over a websocket only:
    TOO_LONG = "too_long"  # the message is longer than the server reads
    SLOW_DOWN = "slow_down"  # too many messages at once: this one was dropped
    REFUSED = "refused"  # no seat here (no such room, a taken name, a full table...)


Seat = Annotated[int, msgspec.Meta(ge=0, lt=1000)]
Arg = Annotated[int, msgspec.Meta(ge=-1, lt=1000)]


class ActionJSON(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An :class:`~nightcall.engine.actions.Action` on the wire; -1 (unused) is left out."""

    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    a: Arg = -1
    b: Arg = -1

    def to_action(self) -> Action:
        return Action(self.kind, self.a, self.b)

    @classmethod
    def of(cls, action: Action) -> ActionJSON:
        return cls(action.kind, action.a, action.b)


class _Message(msgspec.Struct, tag_field="type", omit_defaults=True, forbid_unknown_fields=True):
    """Base of every message: tagged by ``type``."""


# --- game master -> agent -----------------------------------------------------


class Welcome(_Message, tag="welcome"):
    ruleset: str
    seat: Seat
    players: list[str]
    # Required, not defaulted: omit_defaults would keep the version off the wire.
    protocol: int
    role_ids: list[str] = msgspec.field(default_factory=list)
    action_space: list[ActionJSON] | None = None


class Observation(_Message, tag="observation"):
    seat: Seat
    state_id: int
    view: dict[str, Any]
    talk: list[ActionJSON]  # required, so that it is on the wire even when empty
    mask: list[int] | None = None

    @property
    def legal(self) -> list[Action]:
        """The moves allowed now, read from the view."""
        return [Action.from_json(a) for a in self.view.get("legal") or ()]


class Error(_Message, tag="error"):
    code: ErrorCode
    message: str
    state_id: int | None = None


class GameOver(_Message, tag="game_over"):
    seat: Seat
    state_id: int
    view: dict[str, Any]
    won: bool


# --- agent -> game master -----------------------------------------------------


class Hello(_Message, tag="hello"):
    name: Annotated[str, msgspec.Meta(max_length=200)] = ""
    protocol: int = PROTOCOL_VERSION


class ActionMessage(_Message, tag="action"):
    action: ActionJSON
    state_id: int | None = None


ServerMessage = Welcome | Observation | Error | GameOver
AgentMessage = Hello | ActionMessage

SERVER_TYPES: Final = ("welcome", "observation", "error", "game_over")
AGENT_TYPES: Final = ("hello", "action")


class ProtocolError(Exception):
    """A message that could not be read; ``error`` is the reply to send."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.error = Error(code, message)


_agent_decoder: Final = msgspec.json.Decoder(AgentMessage)
_server_decoder: Final = msgspec.json.Decoder(ServerMessage)
_encoder: Final = msgspec.json.Encoder()


def encode(message: ServerMessage | AgentMessage) -> bytes:
    """One message as compact JSON, without the trailing newline."""
    return _encoder.encode(message)


def encode_line(message: ServerMessage | AgentMessage) -> str:
    """One message as a JSON line (with ``\\n``), ready for a text stream."""
    return _encoder.encode(message).decode("utf-8") + "\n"


def decode_agent(data: str | bytes) -> AgentMessage:
    """Read a message from an agent, or raise :class:`ProtocolError` saying what is wrong."""
    return _decode(data, _agent_decoder, AGENT_TYPES)


def decode_server(data: str | bytes) -> ServerMessage:
    """Read a message from the game master (what an agent written in Python needs)."""
    return _decode(data, _server_decoder, SERVER_TYPES)


TOO_DEEP = "the message is nested too deeply"
T = TypeVar("T")


def _decode(data: str | bytes, decoder: msgspec.json.Decoder[T], types: tuple[str, ...]) -> T:
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError(ErrorCode.BAD_JSON, f"not valid JSON: {exc}") from None
    except RecursionError:  # a few KB of "[[[[": msgspec gives up at Python's limit
        raise ProtocolError(ErrorCode.BAD_JSON, TOO_DEEP) from None
    if not isinstance(raw, dict):
        raise ProtocolError(
            ErrorCode.BAD_JSON, f"a message is a JSON object, got {type(raw).__name__}"
        )
    kind = raw.get("type")
    if kind not in types:
        what = ("a message needs a \"type\"" if kind is None
                else f"unknown message type {kind!r}")
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"{what}: expected one of {', '.join(types)}")
    try:
        return decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"bad {kind!r} message: {exc}") from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, TOO_DEEP) from None


def schema() -> dict[str, Any]:
    """The JSON Schema of every message, generated from the types above."""
    (server, agent), components = msgspec.json.schema_components(
        [ServerMessage, AgentMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "nightcall agent protocol",
        "description": (
            f"Version {PROTOCOL_VERSION}. One JSON object per line over stdio, one per "
            "text frame over the websocket. serverMessage: game master to agent; "
            "agentMessage: agent to game master."
        ),
        "$defs": {**components, "serverMessage": server, "agentMessage": agent},
        "anyOf": [{"$ref": "#/$defs/serverMessage"}, {"$ref": "#/$defs/agentMessage"}],
    }
