"""One room: its seats, its game, and the one pipeline every move goes through.

The pipeline (style guide, boardgame.io): authenticate the seat → reject if the
game is not running, not this seat's turn, stale, or illegal → apply → send each
client its own seat's view → persist. The clock (:mod:`.clock`) drives the
night and the day through the same ``apply_move``.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nightcall.engine.actions import Action
from nightcall.engine.clock import CLOCK_SEAT, DUSK, END_CALL, end_idle_calls
from nightcall.engine.errors import DeckError, IllegalAction, RecordError
from nightcall.engine.ruleset import MasterChoice, Ruleset, Talk, get_ruleset, is_talk
from nightcall.narration.render import Told
from nightcall.narration.telling import explained
from nightcall.protocol import SAID_AGAIN, choices_key, said_again
from nightcall.server.fast import FastRound
from nightcall.server.messages import Clock, CreateRoom, Lobby, Observation, SeatInfo
from nightcall.server.pack import PackDraft

MAX_NAME = 24
MIN_TOKEN = 16
MAX_TOKEN = 128  # an agent's own token is kept in the room's document
BOT_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Hugo", "Ilse",
             "Jonas", "Kira", "Luca", "Mara", "Nico", "Olga", "Piet", "Quinn", "Rita")
# Stages in which the day's moves are open; in "discussion" and "defense" they wait.
TURN_STAGES = frozenset({"vote", "accuse", "execute", "day"})
DAY_STAGES = TURN_STAGES | {"discussion", "defense"}
# The seat of the host's and the clock's own entries in the history: the end of a
# call (``end_call``), and the Lupus Master naming the last to die, which replays
# through ``ruleset.choose_last`` rather than ``apply``.
MASTER_SEAT = CLOCK_SEAT
LAST_TO_DIE = "last_to_die"


def clock_seed(seed: int) -> int:
    """The seed of a room's game clock (its silent seats' defaults), from the deal's."""
    return seed * 1000003 + 1


class RoomError(Exception):
    """A refused request; ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Seat:
    name: str
    token: str
    bot: bool = False
    chosen: bool = False  # the token is the agent's own (maybe guessable), not ours


@dataclass
class ClockState:
    stage: str = "lobby"  # lobby, night, discussion, vote, day, over
    night: int = 0
    slot: int = 0  # how many calls of this night have ended (the engine knows which)
    ends_at: float | None = None  # loop-independent wall time (seconds)
    seconds: float | None = None


class Sink:
    """Somewhere a room sends messages: a websocket connection, or a test's list."""

    viewer: int | None  # the seat, or None for the host screen and spectators
    role: str

    def send(self, data: bytes) -> None:
        raise NotImplementedError

    def close_with(self, code: int) -> None:
        """Close the connection after what is already sent (a test's sink: nothing)."""


# The roles whose connection sits in a seat (``viewer``): a browser or an agent,
# connected here or relayed from another process.
SEATED_ROLES = frozenset({"player", "agent"})
# A browser that asks the host to let it back into a seat (Room.ask_back).
ASKING = "asking"
KICKED = 4000  # the close code of a refusal: the page does not reconnect


def same_token(known: str, given: str) -> bool:
    """Constant-time, on UTF-8 bytes: ``compare_digest`` refuses str with non-ASCII
    characters (a TypeError a hostile hello used to turn into a dropped connection)."""
    return secrets.compare_digest(known.encode(), given.encode())


# Letters that draw nothing (Hangul fillers, the braille blank, the Khmer vowels
# inherent); with control and format characters (zero-width spaces, direction marks)
# and unassigned or private code points they are taken out of every name.
INVISIBLE = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
# What marks a bot at the table: "Ada (bot)", "Bot 3" (and the same in other scripts'
# look-alikes, compared after NFKC: fullwidth letters and brackets).
BOT_LIKE = re.compile(r"[(\[{<]\s*bot\s*[)\]}>]|^bot\s*\d*$")


def _shown(ch: str) -> str:
    """The character as a name keeps it: a control character (a tab, a NUL) parts
    words like a space; what draws nothing is dropped."""
    category = unicodedata.category(ch)
    if category == "Cc":
        return " "
    if ch in INVISIBLE or category in HIDDEN_CATEGORIES:
        return ""
    if 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF:  # variation selectors
        return ""
    return ch


def clean_name(raw: str) -> str:
    """A person's name as the table shows it, or a ``bad_name`` refusal: nothing that
    cannot be seen, and nothing that passes for a bot."""
    kept = "".join(_shown(ch) for ch in raw)
    name = " ".join(kept.split())[:MAX_NAME].strip()
    if not name or all(unicodedata.category(ch).startswith("M") for ch in name
                       if not ch.isspace()):
        raise RoomError("bad_name", "type a name to take a seat (one that can be seen)")
    if BOT_LIKE.search(unicodedata.normalize("NFKC", name).casefold()):
        raise RoomError("bad_name", "only bots are called bots here: pick another name")
    return name


class Room:
    def __init__(self, code: str, settings: CreateRoom, host_token: str | None = None) -> None:
        self.code = code
        self.settings = settings
        self.ruleset: Ruleset[Any] = get_ruleset(settings.ruleset)
        self.host_token = host_token or secrets.token_urlsafe(16)
        self.seats: list[Seat] = []
        # Play again: the last game's order of names (casefolded) that new seats follow.
        self.order: list[str] = []
        self.status = "lobby"
        self.seed = 0
        self.roles: list[str] = []
        self.state: Any = None
        self.actions: list[tuple[int, Action]] = []
        self.clock = ClockState()
        self.pack = PackDraft()  # Lupus: the wolves' picks until they agree (pack.py)
        self.fast = FastRound()  # the fast night's buffered picks (fast.py)
        # State ids from an earlier process (before a restart) do not match new ones.
        self.epoch = secrets.randbelow(1 << 20) * 10_000
        self.sinks: set[Sink] = set()
        # Phones that gave a seat's name once the game had started (the seat's own phone
        # died): each waits, seeing what a spectator sees, until the host answers.
        self.asking: dict[Sink, int] = {}
        self._turn: dict[int | None, tuple[int, object]] = {}
        self._last: dict[Sink, bytes] = {}
        self._last_lobby: dict[Sink, bytes] = {}
        self._welcomed: set[Sink] = set()
        self._public: dict[str, Any] = {}
        self._public_key: tuple[int, int] | None = None
        self._names: dict[str, str] | None = None
        self._timeline: list[str] | None = None
        self._told: dict[int | None, Told] = {}  # each viewer's sentences (said)
        # Play again: the room of the next game, once the host started it.
        self.next_code: str | None = None
        self.next_host_token: str | None = None
        self._told_next: set[Sink] = set()
        self._lobby_key: object = None
        self._lobby_bytes = b""
        self._clock_key: object = None
        self._clock: Clock | None = None
        self.warnings: list[str] = []
        self.active_at = time.monotonic()  # the last change, or the last client leaving
        # Hooks set by the server: persist after each change, wake the clock.
        self.on_change: Callable[[Room], None] = lambda room: None
        self.on_moved: Callable[[Room], None] = lambda room: None
        self.join_url = ""

    # --- seats ------------------------------------------------------------------
    def connected_seats(self) -> set[int | None]:
        return {s.viewer for s in self.sinks if s.role in SEATED_ROLES}

    def connected(self, seat: int) -> bool:
        return any(s.viewer == seat and s.role in SEATED_ROLES for s in self.sinks)

    def join(self, name: str, token: str | None = None) -> tuple[int, Seat]:
        """A new seat. An agent may bring its own secret token (to rejoin later)."""
        if self.status != "lobby":
            raise RoomError("started", "the game has started: ask the host for the next one")
        name = clean_name(name)
        if any(s.name.casefold() == name.casefold() for s in self.seats):
            raise RoomError("name_taken", f"someone here is already called {name}")
        if len(self.seats) >= self.seat_limit():
            raise RoomError("full", f"the table is full: {len(self.seats)} seats taken")
        if token is not None and not MIN_TOKEN <= len(token) <= MAX_TOKEN:
            raise RoomError("bad_token", f"a seat token has {MIN_TOKEN} to {MAX_TOKEN} "
                                         "characters")
        seat = Seat(name, token or secrets.token_urlsafe(16), chosen=token is not None)
        self.seats.append(seat)
        self._keep_order()
        self.changed()
        return self.seats.index(seat), seat

    def seat_limit(self) -> int:
        """The room's seats: a player beyond them could only make the deal fail."""
        return min(max(self.settings.seats, self.ruleset.min_players), self.ruleset.max_players)

    # --- the order round the table (The Thing's neighbours, Lupus' accusations) -------
    def arrange(self, order: list[int]) -> None:
        """The host puts the seats in the order the players really sit in."""
        if self.status != "lobby":
            raise RoomError("started", "seats are fixed once the cards are dealt")
        if sorted(order) != list(range(len(self.seats))):
            raise RoomError("bad_seat", "name every seat once, in the order round the table")
        self._permute(order)
        self.order = [s.name.casefold() for s in self.seats]
        self.changed()

    def _keep_order(self) -> None:
        """Play again: someone coming back sits where they sat in the last game."""
        if not self.order:
            return
        rank = {name: i for i, name in enumerate(self.order)}
        late = len(self.order)
        order = sorted(range(len(self.seats)),
                       key=lambda i: (rank.get(self.seats[i].name.casefold(), late), i))
        self._permute(order)

    def _permute(self, order: list[int]) -> None:
        """Seat ``order[k]`` becomes seat ``k``; every connection follows its seat."""
        if order == list(range(len(order))):
            return
        self.seats = [self.seats[i] for i in order]
        self._reseat({old: new for new, old in enumerate(order)})

    def seat_of_token(self, token: str, strict: bool = False) -> int:
        """The seat of this token. ``strict``: only tokens the server made count (the
        address sent too many wrong ones; an agent's own token may be guessable)."""
        for i, s in enumerate(self.seats):
            if not s.bot and not (strict and s.chosen) and same_token(s.token, token):
                return i
        raise RoomError("bad_token", "this seat is not known here: join again with a name")

    def opens(self, token: str) -> bool:
        """Is this the host's or a seat's token (a way in past the code-guessing limit)?"""
        return same_token(self.host_token, token) or any(
            not s.bot and same_token(s.token, token) for s in self.seats)

    def add_bot(self) -> None:
        if self.status != "lobby":
            raise RoomError("started", "bots join before the deal")
        if len(self.seats) >= self.seat_limit():
            raise RoomError("full", f"the table is full: {len(self.seats)} seats taken")
        # A bot has a plain name (the narration says "Carla", not "Carla (bot)"); the
        # pages mark it from ``bot`` in the lobby, and no person may take a bot's look
        # (clean_name).
        taken = {s.name.casefold() for s in self.seats}
        name = next((n for n in BOT_NAMES if n.casefold() not in taken),
                    f"Bot {len(self.seats) + 1}")
        self.seats.append(Seat(name, secrets.token_urlsafe(16), bot=True))
        self._keep_order()
        self.changed()

    def kick(self, seat: int) -> None:
        if self.status != "lobby":
            raise RoomError("started", "seats are fixed once the cards are dealt")
        if not 0 <= seat < len(self.seats):
            raise RoomError("bad_seat", f"there is no seat {seat}")
        after = {i: i - 1 for i in range(seat + 1, len(self.seats))}
        del self.seats[seat]
        self._reseat({seat: None, **after})
        self.changed()

    def _reseat(self, where: dict[int, int | None]) -> None:
        """The one place connections follow their seats (a kick, the host's order, play
        again): seat ``old`` is now seat ``where[old]``, or gone for None. Every seated
        connection (browser or agent, here or relayed) moves with its own seat; those of
        a seat that went are told and closed."""
        for sink in list(self.sinks):
            if sink.role not in SEATED_ROLES or sink.viewer is None or sink.viewer < 0:
                continue
            new = where.get(sink.viewer, sink.viewer)
            if new is not None:
                sink.viewer = new
            else:
                self._dismiss(sink, "kicked", "the host took your seat away")

    def _dismiss(self, sink: Sink, code: str, message: str) -> None:
        """Tell a seated connection why it goes, and close it for good (the page does
        not reconnect after KICKED); from now on it sees nothing and may do nothing."""
        from nightcall import protocol
        from nightcall.server.messages import RoomErrorMessage, encode

        sink.viewer = -1
        if sink.role == "agent":
            sink.send(encode(protocol.Error(protocol.ErrorCode.REFUSED, message)))
        else:
            sink.send(encode(RoomErrorMessage(code=code, message=message)))
        sink.close_with(KICKED)
        self.forget(sink)

    def attach(self, sink: Sink, asks: int | None = None) -> None:
        """A client joins the room (its welcome already sent). A seat plays from one
        browser: one that opens a seat another browser holds (a second tab, the link on
        another phone) takes it over, and the other is told and let go; its page
        offers to take the seat back. Two screens would both buzz, and each act on a
        view the other had changed. An asking browser (``asks``: the seat it asks
        for) sees what a spectator sees until the host lets it in."""
        if asks is not None:
            self.asking[sink] = asks
        elif sink.role == "player" and sink.viewer is not None:
            for other in [s for s in self.sinks if s is not sink
                          and s.role == "player" and s.viewer == sink.viewer]:
                self._dismiss(other, "elsewhere", "your seat was opened on another screen")
        self.sinks.add(sink)
        self.broadcast()  # the newcomer gets the lobby and its view; others see it

    def ask_back(self, name: str) -> int:
        """A player's phone died during the game, and another phone gives the seat's
        name: the seat it asks for (the host's screen asks whether to let it in: no
        name alone opens a seat, since anyone can type one)."""
        try:
            wanted = clean_name(name).casefold()
        except RoomError:  # (no seat has a name that is not one)
            wanted = None
        seat = next((i for i, s in enumerate(self.seats)
                     if not s.bot and s.name.casefold() == wanted), None)
        if seat is None or self.status == "over":
            raise RoomError("started", "the game has started: ask the host for the next one")
        if seat in self.asking.values():
            raise RoomError("asked", f"another phone is already asking to be "
                                     f"{self.seats[seat].name}: the host answers it first")
        return seat

    def let_in(self, seat: int, yes: bool) -> None:
        """The host's answer to the phone asking for ``seat``: in, it gets the seat's
        token and plays it (a phone still on the seat is let go); out, it is told."""
        from nightcall.server.messages import Welcome, encode

        sink = next((k for k, wanted in self.asking.items() if wanted == seat), None)
        if sink is None:
            raise RoomError("not_asked", "no phone is asking for that seat now")
        del self.asking[sink]
        if not yes:
            self._dismiss(sink, "not_let_in", "the host did not let this phone in")
            self.broadcast()
            return
        s = self.seats[seat]
        sink.send(encode(Welcome(room=self.code, role="player", seat=seat, name=s.name,
                                 token=s.token)))
        sink.role, sink.viewer = "player", seat
        self.attach(sink)

    # --- starting -----------------------------------------------------------------
    def start(self, seats: int | None = None) -> None:
        if self.status != "lobby":
            raise RoomError("started", "the game has already started")
        want = max(seats or self.settings.seats, len(self.seats), self.ruleset.min_players)
        want = min(want, self.ruleset.max_players)
        while len(self.seats) < want:
            self.add_bot()
        players = [s.name for s in self.seats]
        try:
            roles = list(self.settings.roles) or self.ruleset.default_deck(
                len(players), self.settings.scenario
            )
            self.warnings = self.ruleset.validate_deck(
                len(players), roles, self.settings.options
            )
            self.roles = roles
            self.seed = secrets.randbits(32)
            self.state = self._deal(players)
        except DeckError as exc:
            raise RoomError("bad_deck", str(exc)) from None
        self.status = "playing"

    def rebuild(self) -> None:
        """The state from the deal and every applied action (a game is its history)."""
        state = self._deal([s.name for s in self.seats])
        ruleset = self.ruleset
        for seat, action in self.actions:
            if action != END_CALL and not ruleset.waiting_for(state) and (
                    seat == MASTER_SEAT or action not in ruleset.legal_actions(state, seat)):
                # A history saved before the engine held its calls has no end_call:
                # the calls it passed are implied, as in a record (docs/architecture.md).
                end_idle_calls(ruleset, state)
            self._replay(state, seat, action)
        if self.clock.stage in DAY_STAGES and ruleset.view(state, None)["phase"] == "night":
            end_idle_calls(ruleset, state)  # (the same: the clock is already at the dawn)
        self.state = state

    def _deal(self, players: list[str]) -> Any:
        """The game from the room's seed, on a clock: each call stays open until the
        room's timer ends it, and the defaults of silent seats come from the seed."""
        return self.ruleset.deal(players, self.roles, self.seed, self.settings.options,
                                 clock=clock_seed(self.seed))

    def _replay(self, state: Any, seat: int, action: Action) -> None:
        """One history entry: a seat's move, or the host's choice as the Master."""
        if seat == MASTER_SEAT and action.kind == LAST_TO_DIE:
            if not isinstance(self.ruleset, MasterChoice):
                raise RecordError(f"{self.ruleset.title} has no master's choice to replay")
            self.ruleset.choose_last(state, action.a)
        else:
            self.ruleset.apply(state, seat, action)

    # --- the pipeline -----------------------------------------------------------
    def state_id(self, viewer: int | None) -> int:
        return self.epoch + self._turn.get(viewer, (0, None))[0]

    def submit(self, seat: int, action: Action, state_id: int | None) -> None:
        """A move from a player: checked against what that player was shown. The state
        id is optional (agent protocol), but when given it must be the latest."""
        if self.status == "lobby":
            raise RoomError("not_your_turn", "the game has not started yet")
        if self.status == "over":
            raise RoomError("game_over", "the game is over")
        self.snapshot(seat)
        if state_id is not None and state_id != self.state_id(seat):
            raise RoomError("stale_state", "the game moved on: look at your screen again")
        if is_talk(self.ruleset, action):
            if self.clock.stage not in DAY_STAGES:
                raise RoomError("not_your_turn", "claims are made during the day")
            if said_again(self.ruleset, action, self.last_move(seat)):  # a double tap
                raise RoomError("illegal_action", SAID_AGAIN)
        elif action.to_json() not in self.seat_view(seat).get("legal", []):
            raise RoomError("not_your_turn", "that is not one of your choices now")
        if self.fast.holds(self, seat, action):
            self.changed()  # only this phone's next stage changes
            self.on_moved(self)  # the clock: maybe every phone is done
        elif not self.pack.holds(self, seat, action):
            self.apply_move(seat, action)

    def last_move(self, seat: int) -> Action | None:
        return next((a for s, a in reversed(self.actions) if s == seat), None)

    def apply_move(self, seat: int, action: Action) -> None:
        """Apply (bots, defaults and checked players), then broadcast and persist."""
        try:
            self.ruleset.apply(self.state, seat, action)
        except IllegalAction as exc:
            raise RoomError("illegal_action", str(exc)) from None
        self.actions.append((seat, action))
        self.on_moved(self)
        self.changed()

    def dawn_choice(self) -> tuple[int, ...]:
        """Lupus: this dawn's dead when two or more died, while the host may still name
        the last to die (the talk after the dawn); otherwise nothing to choose."""
        rs = self.ruleset
        if self.status != "playing" or not isinstance(rs, MasterChoice) \
                or self.clock.stage != "discussion":
            return ()
        dead = tuple(rs.dawn_deaths(self.state))
        return dead if len(dead) >= 2 else ()

    def choose_last(self, seat: int) -> None:
        """The host, as the Lupus Master, names which of this dawn's dead counts as the
        last to die. Kept in the history like a move, so a restart replays it."""
        if not isinstance(self.ruleset, MasterChoice):
            raise RoomError("not_now", f"{self.ruleset.title} has no last to die to name")
        dead = self.dawn_choice()
        if not dead:
            raise RoomError("not_now", "the last to die is named at dawn, during the talk, "
                                       "when two or more died in the night")
        if seat not in dead:
            names = ", ".join(self.seats[s].name for s in dead)
            raise RoomError("bad_seat", f"name one of this dawn's dead: {names}")
        action = Action(LAST_TO_DIE, seat)
        try:
            self._replay(self.state, MASTER_SEAT, action)
        except IllegalAction as exc:
            raise RoomError("not_now", str(exc)) from None
        self.actions.append((MASTER_SEAT, action))
        self.changed()

    def end_call(self) -> None:
        """The timer ends the open call, the dusk or the day's turn: the engine gives the
        seats still choosing their default move and opens the next step. Kept in the
        history like a move (a restart comes back at the same call); the clock sends
        the new view together with its own new stage."""
        try:
            self.ruleset.apply(self.state, CLOCK_SEAT, END_CALL)
        except IllegalAction as exc:
            raise RoomError("not_now", str(exc)) from None
        self.actions.append((CLOCK_SEAT, END_CALL))

    def open_call(self) -> str | None:
        """The step the engine is at (public): dusk, a night call, the day's stage."""
        return self.ruleset.open_call(self.state) if self.state is not None else None

    # --- views ------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """The public view, computed once per move (read-only: callers copy to change it)."""
        key = (id(self.state), len(self.actions))
        if self._public_key != key:
            self._public = self.ruleset.view(self.state, None)
            self._public_key = key
        return self._public

    def engine_phase(self) -> str:
        return str(self.public_view().get("phase", ""))

    def turn_stage(self) -> str:
        """The name of the day's turn now: the ruleset's own (Lupus: accuse, execute)."""
        stage = self.public_view().get("stage")
        return stage if isinstance(stage, str) and stage else "vote"

    def seat_view(self, viewer: int | None) -> dict[str, Any]:
        """``ruleset.view`` for ``viewer``: the engine holds each call open until the
        timer ends it, so the view is the night as it stands at the call the clock
        shows, whatever the cards in the center."""
        if self.state is None:
            return {}
        view = dict(self.public_view()) if viewer is None else self.ruleset.view(self.state, viewer)
        if "outcome" in view:  # the rules give reasons; the room reads them in its language
            view["outcome"] = explained(view["outcome"], self.settings.language)
        if self.clock.stage in ("discussion", "defense") and "legal" in view:
            view["legal"] = []  # the vote opens when the talking ends
        if viewer is not None and 0 <= viewer < len(self.seats) and self.fast.active(self):
            view["legal"] = [a.to_json() for a in self.fast.options(self, viewer)]
            task = view["fast"] = self.fast.task(self, viewer)
            told = self.told(viewer, view["players"])
            task["said"] = [told.tell(e) for e in task["seen"]]
        return view

    def told(self, viewer: int | None, players: list[str]) -> Told:
        """The one renderer for ``viewer``, in the room's language, with the view's names."""
        told = self._told.get(viewer)
        if told is None or told.key != (tuple(players), self.settings.language):
            told = self._told[viewer] = Told(self.ruleset.id, players, viewer,
                                             self.settings.language, self.roles)
        return told

    def clock_message(self) -> Clock:
        """The public clock and its narration, rebuilt only when they can differ (every
        broadcast asks for it; most moves change neither)."""
        c = self.clock
        # The lines of these stages read nothing from the game; the others (Lupus'
        # dawn, accusations, suspects; the end) may change with any move.
        fixed = c.stage in ("night", "dusk", "vote", "execute", "lobby") or (
            c.stage == "discussion" and not isinstance(self.ruleset, MasterChoice))
        key = (c.stage, c.slot, c.night, c.ends_at, c.seconds,
               None if fixed else (id(self.state), len(self.actions), self.status))
        clock = self._clock
        if clock is None or key != self._clock_key:
            clock = self._clock = self._clock_now()
            self._clock_key = key
        return clock

    def _clock_now(self) -> Clock:
        from nightcall.server.narration import call_line, dusk_line, stage_line

        c = self.clock
        call = self.open_call() if c.stage == "night" else None
        call = None if call == DUSK else call
        rid, lang = self.ruleset.id, self.settings.language
        if call is not None and self.fast.calls(self):  # one countdown, no role called
            from nightcall.narration.locale import load

            call, text = None, load(lang).line("host.fast_night")
        elif call is not None:
            text = call_line(rid, call, lang, self.roles, c.night)
        elif c.stage == "dusk":
            text = dusk_line(rid, lang, self.roles)
        else:
            public = self.seat_view(None) if self.state is not None else {}
            text = stage_line(rid, c.stage, lang, public, self.settings.discussion_seconds)
        return Clock(
            stage=c.stage,
            call=call,
            night=c.night,
            ends_at=None if c.ends_at is None else int(c.ends_at * 1000),
            seconds=c.seconds,
            narration=text,
        )

    def snapshot(self, viewer: int | None) -> dict[str, Any]:
        """The viewer's view now; a new state id whenever its choices or the stage change."""
        view = self.pack.show(self, viewer, self.seat_view(viewer))
        key = (self.clock.stage, self.clock.slot, self.clock.night, *choices_key(view))
        turn, last = self._turn.get(viewer, (0, None))
        if key != last:
            self._turn[viewer] = (turn + 1, key)
        return view

    def observation(self, viewer: int | None, clock: Clock | None = None) -> Observation:
        view = self.snapshot(viewer)
        timeline = None
        if self.status == "over":
            if self._timeline is None:  # the same for everyone: written once
                from nightcall.server.narration import timeline as write_timeline

                self._timeline = write_timeline(self.ruleset, self.state, self.settings.language)
            timeline = self._timeline
        return Observation(
            room=self.code,
            state_id=self.state_id(viewer),
            view=view,
            clock=clock or self.clock_message(),
            timeline=timeline,
            said=self.told(viewer, view.get("players", []))(view.get("events", [])),
        )

    def _role_names(self) -> dict[str, str]:
        from nightcall.server.narration import role_name

        if self._names is None:
            rid, lang = self.ruleset.id, self.settings.language
            self._names = {r: role_name(rid, r, lang) for r in self.ruleset.role_ids}
        return self._names

    def lobby_bytes(self) -> bytes:
        """The encoded lobby, rebuilt only when something in it changed."""
        from nightcall.server.messages import encode

        here = self.connected_seats()
        asked = set(self.asking.values())
        key = (self.status, len(self.roles), tuple(self.warnings), self.join_url,
               tuple((s.name, s.bot, s.bot or i in here, i in asked)
                     for i, s in enumerate(self.seats)))
        if key != self._lobby_key:
            self._lobby_key = key
            self._lobby_bytes = encode(self.lobby())
        return self._lobby_bytes

    def lobby(self) -> Lobby:
        settings = {
            "seats": self.settings.seats,
            "roles": list(self.roles or self.settings.roles),
            "options": dict(self.settings.options),
            "scenario": self.settings.scenario,
            "language": self.settings.language,
            "call_seconds": self.settings.call_seconds,
            "discussion_seconds": self.settings.discussion_seconds,
            "vote_seconds": self.settings.vote_seconds,
            "defense_seconds": self.settings.defense_seconds,
            "bots": self.settings.bots,
            "fast_night": self.settings.fast_night,
            "center_cards": self.ruleset.center_cards,
            "talk": isinstance(self.ruleset, Talk),
            "warnings": list(self.warnings),
            "role_ids": list(self.ruleset.role_ids),
            "role_names": self._role_names(),
        }
        return Lobby(
            room=self.code,
            ruleset=self.ruleset.id,
            title=self.ruleset.title,
            status=self.status,
            seats=[
                SeatInfo(i, s.name, s.bot, s.bot or self.connected(i),
                         asking=i in self.asking.values())
                for i, s in enumerate(self.seats)
            ],
            settings=settings,
            join_url=self.join_url,
        )

    # --- broadcasting --------------------------------------------------------------
    def send_to(self, sink: Sink, data: bytes) -> None:
        """Send unless this client already has exactly this message (no empty updates:
        a message at an unusual moment would itself tell something)."""
        if self._last.get(sink) == data:
            return
        self._last[sink] = data
        sink.send(data)

    def broadcast(self) -> None:
        from nightcall.server.messages import encode

        lobby = self.lobby_bytes()
        cache: dict[int | None, bytes] = {}
        clock = self.clock_message() if self.state is not None else None
        for sink in list(self.sinks):
            if sink.role == "agent":
                self.update_agent(sink)
                continue
            self.send_lobby(sink, lobby)
            if self.state is None or (sink.viewer is not None and sink.viewer < 0):
                continue
            if sink.viewer not in cache:
                cache[sink.viewer] = self.fast.pad(
                    self, encode(self.observation(sink.viewer, clock)), sink.viewer)
            self.send_to(sink, cache[sink.viewer])
            self._tell_next(sink)

    def send_next(self, code: str, host_token: str) -> None:
        """Tell everyone here (and whoever connects later) the room of the next game."""
        self.next_code, self.next_host_token = code, host_token
        self.changed()

    def _tell_next(self, sink: Sink) -> None:
        if self.next_code is None or sink in self._told_next or sink.role == "agent":
            return
        from nightcall.server.messages import NextRoom, encode

        self._told_next.add(sink)
        token = self.next_host_token if sink.role == "host" else None  # the host's alone
        sink.send(encode(NextRoom(room=self.next_code, host_token=token)))

    def update_agent(self, sink: Sink) -> None:
        """An agent hears only the agent protocol: a welcome once the cards are dealt,
        an observation whenever it may act or talk, and game_over at the end."""
        from nightcall import protocol
        from nightcall.server.messages import encode

        seat = sink.viewer
        if self.state is None or seat is None or seat < 0:
            return
        if sink not in self._welcomed:
            self._welcomed.add(sink)
            sink.send(encode(protocol.Welcome(
                ruleset=self.ruleset.id, seat=seat, players=[s.name for s in self.seats],
                protocol=protocol.PROTOCOL_VERSION, role_ids=list(self.ruleset.role_ids),
            )))
        view = self.snapshot(seat)
        state_id = self.state_id(seat)
        if self.status == "over":
            outcome = self.ruleset.outcome(self.state)
            won = outcome is not None and seat in outcome.winners
            self.send_to(sink, encode(protocol.GameOver(seat, state_id, view, won)))
            return
        talk: list[protocol.ActionJSON] = []
        if isinstance(self.ruleset, Talk) and self.clock.stage in DAY_STAGES:
            talk = [protocol.ActionJSON.of(a) for a in self.ruleset.legal_claims(self.state, seat)]
        if view.get("legal") or talk:
            self.send_to(sink, encode(protocol.Observation(seat, state_id, view, talk)))

    def send_lobby(self, sink: Sink, data: bytes) -> None:
        if self._last_lobby.get(sink) == data:
            return
        self._last_lobby[sink] = data
        sink.send(data)

    def changed(self) -> None:
        self.active_at = time.monotonic()  # (for unloading idle rooms: Hub.unload_idle)
        # Saved first: a send may reach the socket at once, and no client may ever see
        # a state that a crash right now could forget.
        self.on_change(self)
        self.broadcast()

    def forget(self, sink: Sink) -> None:
        self.active_at = time.monotonic()
        self.sinks.discard(sink)
        self.asking.pop(sink, None)
        self._last.pop(sink, None)
        self._last_lobby.pop(sink, None)
        self._welcomed.discard(sink)
        self._told_next.discard(sink)

    # --- saving ----------------------------------------------------------------
    def to_doc(self) -> dict[str, Any]:
        # The record only once the game is over: before, the seed and the actions
        # rebuild it, and writing it at every move was a third of a save's cost.
        record = None
        if self.state is not None and self.status == "over":
            record = self.ruleset.to_record(self.state)
        c = self.clock
        return {
            "code": self.code,
            "settings": {
                "ruleset": self.settings.ruleset, "seats": self.settings.seats,
                "scenario": self.settings.scenario, "roles": list(self.settings.roles),
                "options": dict(self.settings.options), "language": self.settings.language,
                "call_seconds": self.settings.call_seconds,
                "discussion_seconds": self.settings.discussion_seconds,
                "vote_seconds": self.settings.vote_seconds,
                "defense_seconds": self.settings.defense_seconds,
                "bots": self.settings.bots,
                "table": self.settings.table,
                "fast_night": self.settings.fast_night,
                "fast_seconds": self.settings.fast_seconds,
            },
            "host_token": self.host_token,
            "seats": [{"name": s.name, "token": s.token, "bot": s.bot, "chosen": s.chosen}
                      for s in self.seats],
            "status": self.status,
            "seed": self.seed,
            "roles": list(self.roles),
            "actions": [[seat, a.to_json()] for seat, a in self.actions],
            "clock": {"stage": c.stage, "night": c.night, "slot": c.slot},
            "record": record,
            "next": [self.next_code, self.next_host_token] if self.next_code else None,
            "join_url": self.join_url,
            "order": list(self.order),
        }

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Room:
        import msgspec

        settings = msgspec.convert(doc["settings"], CreateRoom)
        room = cls(doc["code"], settings, doc["host_token"])
        room.seats = [Seat(s["name"], s["token"], bool(s["bot"]), bool(s.get("chosen")))
                      for s in doc["seats"]]
        room.status = doc["status"]
        room.seed = int(doc["seed"])
        room.roles = list(doc["roles"])
        room.actions = [(int(seat), Action.from_json(a)) for seat, a in doc["actions"]]
        c = doc["clock"]
        room.clock = ClockState(c["stage"], c["night"], c["slot"])
        if doc.get("next"):
            room.next_code, room.next_host_token = doc["next"]
        room.join_url = str(doc.get("join_url") or "")
        room.order = [str(n) for n in doc.get("order") or []]
        if room.status != "lobby":
            room.rebuild()
        return room
