"""All the rooms of one server process: creating them, finding them, saving them,
and bringing back the unfinished ones after a restart."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from nightcall.engine.errors import DeckError, NightcallError
from nightcall.engine.ruleset import MasterChoice, Rules, all_rulesets, get_ruleset
from nightcall.server.clock import RoomClock
from nightcall.server.messages import CreateRoom
from nightcall.server.narration import role_name, scenario_name
from nightcall.server.room import Room, RoomError
from nightcall.server.samples import Samples
from nightcall.server.saving import Held, TurnSaver
from nightcall.server.store import Store
from nightcall.server.tables import NO_TABLE, TableError, tables_of

if TYPE_CHECKING:
    from nightcall.server.cluster import Node

log = logging.getLogger("nightcall.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: read aloud and typed on phones
CODE_LENGTH = 4
MAX_CODE_LENGTH = 8  # (the join form takes 8 letters)
# Codes tried at one length before taking a longer one: when even this many in a row
# are taken, the space is mostly full (at 90% full, 8 tries all miss 43% of the time).
TRIES_PER_LENGTH = 8
MAX_SECONDS = 3600.0
# Seconds without a client before a room leaves memory (it stays in the store).
IDLE_OVER = 300.0
IDLE_LOBBY = 3600.0
LANGUAGES = ("en", "it", "de")


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def candidate_codes() -> Iterator[str]:
    """The codes to try for a new room, in order: short ones first, longer ones once the
    short ones are mostly taken; a bounded number in all (a full space must not hang the
    event loop). One process (Hub.free_code) and a cluster (Node.create) both use it."""
    for length in range(CODE_LENGTH, MAX_CODE_LENGTH + 1):
        for _ in range(TRIES_PER_LENGTH):
            yield new_code(length)


def check_settings(settings: CreateRoom) -> None:
    """Refuse a room that could never be dealt, before anyone joins it."""
    try:
        ruleset = get_ruleset(settings.ruleset)
    except DeckError as exc:
        raise RoomError("bad_ruleset", str(exc)) from None
    if not ruleset.min_players <= settings.seats <= ruleset.max_players:
        raise RoomError(
            "bad_seats",
            f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} players",
        )
    for name in ("call_seconds", "discussion_seconds", "vote_seconds", "defense_seconds"):
        value = getattr(settings, name)
        if not 0 <= value <= MAX_SECONDS:
            raise RoomError("bad_timer", f"{name} must be between 0 and {MAX_SECONDS:.0f}")
    kind, _, level = settings.bots.partition(":")
    if kind not in ("random", "reasoning") or level not in ("", "easy", "normal", "hard"):
        raise RoomError("bad_bots", "bots are \"reasoning\" (or \"reasoning:easy\", "
                                    "\"reasoning:hard\") or \"random\"")
    try:
        from nightcall.bots import make_bot

        make_bot(settings.bots, ruleset.id, 0)  # the bots that will take the empty seats
    except ValueError as exc:
        raise RoomError("bad_bots", str(exc)) from None
    try:
        roles = list(settings.roles) or ruleset.default_deck(settings.seats, settings.scenario)
        ruleset.validate_deck(settings.seats, roles, settings.options)
        # The whole room, as the deal will see it: the options too (Epic Battle reads
        # its options only when dealing), so that no room exists that cannot start.
        ruleset.deal([f"p{i}" for i in range(settings.seats)], roles, 0, settings.options)
    except DeckError as exc:
        raise RoomError("bad_deck", str(exc)) from None


@dataclass(frozen=True)
class Elsewhere:
    """Where a room lives when another process owns it (cluster mode): its clients are
    relayed to ``owner``; ``doc`` is the room as saved, when the lookup read it."""

    code: str
    owner: str
    doc: dict[str, Any] | None = None


# What a room lookup finds: the room, served here, or where it is served.
Found = Room | Elsewhere


def readable(found: Found) -> Room:
    """A room to read (HTTP) from what a lookup found: ours, or a copy rebuilt from the
    store that nothing here runs."""
    if isinstance(found, Room):
        return found
    if found.doc is None:
        raise RoomError("unavailable", "the server cannot read that room right now: "
                                       "try again in a moment")
    return Room.from_doc(found.doc)


# What a damaged (or hand-edited, or older) room document raises when it is read: a
# missing field, a wrong type, a value msgspec refuses, moves the rules refuse.
# (msgspec's ValidationError is not a ValueError in 0.18, our lower bound: named.)
DAMAGED_DOC = (KeyError, TypeError, ValueError, AttributeError, IndexError,
               msgspec.ValidationError, NightcallError)


def room_from_doc(doc: dict[str, Any]) -> Room:
    """The room a saved document holds; RoomError("damaged") saying what is wrong."""
    try:
        return Room.from_doc(doc)
    except DAMAGED_DOC as exc:
        code = doc.get("code") if isinstance(doc, dict) else None
        raise RoomError("damaged", f"room {code}: its saved document cannot be read "
                                   f"({type(exc).__name__}: {exc})") from exc


class Hub:
    def __init__(self, store: Store, scale: float = 1.0, public_url: str = "",
                 node: Node | None = None, *, dusk_scale: float = 1.0) -> None:
        self.store = store
        self.dusk_scale = dusk_scale  # the dusk's reading time alone (tests read fast)
        self.node = node  # set when several processes share the rooms (Redis)
        self.scale = scale
        self.public_url = public_url.rstrip("/")
        self.rooms: dict[str, Room] = {}
        # The table histories in the same store (issue 20), and the rooms served here
        # that were not over yet: a game is kept at its table when it ends (Hub.save).
        self.tables = tables_of(store)
        self.unfinished: set[str] = set()
        # Where changes go before their updates: the node's Redis batches in a cluster,
        # else this process's own group commit; both take save, hold and flush.
        self.saver: TurnSaver | Node = node if node is not None else TurnSaver(store)
        self.clocks: dict[str, RoomClock] = {}
        # Finished rooms whose next room is being made (play again, in a cluster).
        self.making_next: set[str] = set()
        self.background: set[asyncio.Task[None]] = set()
        # Server-side latencies, for the metrics: handling a move; an update's wait to go out.
        self.timings = Samples(20_000)
        self.send_timings = Samples(50_000)
        # How late the event loop wakes up (every 10 ms): time every client waits on us.
        self.loop_lag = Samples(30_000)

    def join_url(self, code: str, base: str = "") -> str:
        """What the QR code says: ``--public-url``, else ``base`` (the address the
        server listens on, never a request's Host header); empty when neither is known."""
        root = self.public_url or base.rstrip("/")
        return f"{root}/play/{code}" if root else ""

    def free_code(self) -> str:
        """A code nobody uses. Longer codes once the short ones are mostly taken; a
        bounded number of tries in all (a full space must not hang the event loop)."""
        for code in candidate_codes():
            if code not in self.rooms and self.store.load(code) is None:
                return code
        raise RoomError("busy", "no room code is free now: try again later")

    def create(self, settings: CreateRoom, base_url: str = "",
               prepare: Callable[[Room], None] | None = None) -> Room:
        """A new room, served here (one process; a cluster creates rooms with
        :meth:`acreate`, whose Redis calls do not block). ``prepare`` sets it up
        before it is first saved (play again: the seat order and the bots)."""
        if self.node is not None:
            raise RuntimeError("in a cluster, rooms are created with await Hub.acreate")
        check_settings(settings)
        code = self.free_code()
        room = Room(code, settings)
        room.join_url = self.join_url(code, base_url)
        if prepare is not None:
            prepare(room)
        # Written before the room is served: a save that fails (a full disk) leaves
        # nothing behind.
        self.store.save(code, room.to_doc(), finished=False)
        self._attach(room)
        log.info("room %s created (%s, %d seats)", code, settings.ruleset, settings.seats)
        return room

    async def acreate(self, settings: CreateRoom, base_url: str = "",
                      prepare: Callable[[Room], None] | None = None) -> Room:
        """A new room (POST /api/rooms, play again): in a cluster, saved in Redis
        without blocking the event loop and served by the first process asked for it
        (Node.create); in one process, served here (:meth:`create`)."""
        if self.node is not None:
            return await self.node.create(settings, base_url, prepare)
        return self.create(settings, base_url, prepare)

    def check_table(self, settings: CreateRoom) -> None:
        """A new room may only be linked to a table that exists (POST /api/rooms; the
        next game of a deleted table's room is simply not kept)."""
        if settings.table is None:
            return
        if self.tables is None:
            raise RoomError("no_tables", "this server's store keeps no tables")
        if not self.tables.exists(settings.table):
            raise RoomError("no_table", NO_TABLE)

    def link_table(self, room: Room, table: str | None) -> None:
        """Keep a room's games at ``table`` from now on (None: no more); a game already
        over is kept at once (POST /api/rooms/CODE/table, on the room's own process)."""
        room.settings.table = table
        self.save(room)  # (a room over now is not kept by Hub.save: it was over before)
        if room.status == "over" and table is not None:
            self.keep_at_table(room)

    def keep_at_table(self, room: Room) -> None:
        """The game just ended: keep it at its table. Never fails the room's save."""
        if room.settings.table is None or self.tables is None:
            return
        try:
            if not self.tables.record(room.settings.table, room):
                log.info("room %s: its table is gone, the game is not kept", room.code)
        except TableError as exc:  # (a full table keeps its old games)
            log.warning("room %s: the game is not kept at its table: %s", room.code, exc)
        except self.store.errors:
            log.exception("room %s: cannot keep the game at its table", room.code)

    def _attach(self, room: Room) -> None:
        room.on_change = self.save
        if room.status != "over":
            self.unfinished.add(room.code)
        self.rooms[room.code] = room
        self.clocks[room.code] = RoomClock(room, self.scale, self.dusk_scale)

    def get(self, code: str) -> Found:
        """What there is of room ``code``: the room, served here (loaded from the store
        if need be), or a ``no_room`` refusal. In a cluster only the rooms served here
        are known without asking Redis: the others are looked up with
        ``await node.getter(code)`` (cluster.py), which never blocks."""
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if self.node is not None:
            raise RuntimeError("in a cluster, a room not served here is found through "
                               "Node.getter")
        if self.store.load(code) is None:
            raise RoomError("no_room", f"there is no room {code}")
        return self.adopt(code)

    def adopt(self, code: str, doc: dict[str, Any] | None = None) -> Room:
        """Load a room from the store (unless given its ``doc``) and run it here, its
        clock where it stood."""
        doc = self.store.load(code) if doc is None else doc
        if doc is None:
            raise RoomError("no_room", f"there is no room {code}")
        room = room_from_doc(doc)
        room.join_url = self.join_url(code) or room.join_url
        self._attach(room)
        if room.status == "playing":
            self.clock(room).resume()
        return room

    def drop(self, code: str) -> None:
        """Stop serving a room another process took over: its clients reconnect there."""
        room = self.rooms.pop(code, None)
        clock = self.clocks.pop(code, None)
        if clock is not None:
            clock.stop()
        if room is None:
            return
        room.on_change = lambda r: None
        for sink in list(room.sinks):
            close = getattr(sink, "close_with", None)
            if callable(close):
                close(1012)
            room.forget(sink)

    def unload_idle(self, now: float | None = None) -> list[str]:
        """Let rooms nobody uses leave memory: a finished game after ``IDLE_OVER``
        seconds without a client, a lobby after ``IDLE_LOBBY``. They stay in the store
        and come back on the next request (:meth:`get`). A game in play stays: its
        clock plays it to the end even with every phone gone. The codes unloaded."""
        now = time.monotonic() if now is None else now
        pending = set(self.saver.saves)
        gone = []
        for code, room in list(self.rooms.items()):
            if room.sinks or room.status == "playing" or code in pending:
                continue
            if now - room.active_at < (IDLE_OVER if room.status == "over" else IDLE_LOBBY):
                continue
            del self.rooms[code]
            self.unfinished.discard(code)
            clock = self.clocks.pop(code, None)
            if clock is not None:
                clock.stop()
            if self.node is not None:
                self.node.release(code)
            gone.append(code)
        return gone

    def expire(self, now: float | None = None) -> int:
        """Let the store forget abandoned lobbies and finished games past the time it
        keeps them. Rooms served here are kept. How many went."""
        gone = self.store.expire(time.time() if now is None else now, set(self.rooms))
        if gone:
            log.info("forgot %d old room(s)", gone)
        return gone

    def clock(self, room: Room) -> RoomClock:
        return self.clocks[room.code]

    def save(self, room: Room) -> None:
        """Persist at the end of this turn of the event loop, with every other room
        changed in it (saving.py; in a cluster, the node's Redis batch). Called before
        the change is broadcast (``Room.changed``): the updates to local sockets are
        held (:meth:`hold`) until the save is written."""
        self.saver.save(room)
        if room.status == "over" and room.code in self.unfinished:
            self.unfinished.discard(room.code)
            self.keep_at_table(room)

    def hold(self, sink: Held, data: bytes) -> None:
        """An update for a local socket: out once the saves before it are written."""
        self.saver.hold(sink, data)

    def start(self, room: Room, seats: int | None = None) -> None:
        room.start(seats)
        self.clock(room).begin()

    def play_again(self, room: Room,
                   failed: Callable[[RoomError], None] = lambda exc: None) -> None:
        """After the end: a new room with the same settings and as many bots; everyone
        in the old room is told to move there (players rejoin by name). Asking twice
        gives the same new room. In a cluster the new room is made in the background
        (its Redis calls do not block the event loop); ``failed`` hears why it could
        not be made, there as here, and asking again tries again."""
        if room.status != "over":
            raise RoomError("not_over", "the next game starts once this one is over")
        if room.next_code is not None or room.code in self.making_next:
            return
        base = room.join_url.rsplit("/play/", 1)[0]
        order = [s.name.casefold() for s in room.seats]  # everyone back in their seat
        bots = sum(1 for s in room.seats if s.bot)

        def prepare(new: Room) -> None:
            new.order = order
            for _ in range(bots):
                new.add_bot()

        if self.node is None:
            new = self.create(room.settings, base, prepare)
            room.send_next(new.code, new.host_token)
            return
        self.making_next.add(room.code)
        task = asyncio.get_running_loop().create_task(
            self._play_again(room, base, prepare, failed))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _play_again(self, room: Room, base: str, prepare: Callable[[Room], None],
                          failed: Callable[[RoomError], None]) -> None:
        try:
            new = await self.acreate(room.settings, base, prepare)
        except RoomError as exc:
            failed(exc)
            return
        finally:
            self.making_next.discard(room.code)
        if self.rooms.get(room.code) is room:  # (else another process took the old room)
            room.send_next(new.code, new.host_token)

    def resume_all(self) -> int:
        """Load every game in play and restart its clock where it stood (in a cluster,
        the node's sweep adopts the rooms whose owner is gone instead). Lobbies stay in
        the store until someone asks for one (:meth:`get`): abandoned ones would fill
        the memory, and a lobby has no clock to run."""
        if self.node is not None:
            return 0
        count = 0
        for doc in self.store.unfinished():
            if doc.get("status") != "playing":
                continue
            try:
                room = room_from_doc(doc)
            except RoomError:  # one broken room must not keep the others down
                log.exception("cannot resume room %s", doc.get("code"))
                continue
            room.join_url = self.join_url(room.code) or room.join_url
            self._attach(room)
            if room.status == "playing":
                self.clock(room).resume()
            count += 1
        return count

    def stop(self) -> None:
        for clock in self.clocks.values():
            clock.stop()
        self.saver.flush()
        self.store.close()

    def public_rulesets(self) -> list[dict[str, object]]:
        out = []
        for rid, rs in available_rulesets().items():
            decks = {}
            for n in range(rs.min_players, rs.max_players + 1):
                try:
                    decks[str(n)] = rs.default_deck(n)
                except DeckError:  # a count the ruleset has no default deck for
                    continue
            out.append({
                "id": rid, "title": rs.title, "min_players": rs.min_players,
                "max_players": rs.max_players, "roles": list(rs.role_ids),
                "decks": decks, "scenarios": _scenarios(rs),
                "options": dict(rs.default_options),
                # (the create page asks for the defense's time only where there is one)
                "defense_seconds": rs.defense_seconds,
                # The table page: the cards beside the players' (its deck picker), whether
                # it narrates the game (a declared script) and whether a Master runs it.
                "center_cards": rs.center_cards,
                "narrated": rs.narration_script is not None,
                "master": isinstance(rs, MasterChoice),
                # The front page has no room yet: it picks its language's names here.
                "role_names": {lang: {r: role_name(rid, r, lang) for r in rs.role_ids}
                               for lang in LANGUAGES},
                # For the role help: each role's side ("" where the ruleset has none).
                "teams": {r: side for r in rs.role_ids if (side := rs.side_of(r))},
            })
        return out


def available_rulesets() -> dict[str, Rules]:
    """Every installed ruleset, by id (a broken one is an error, not a missing game)."""
    return dict(all_rulesets())


def _scenarios(ruleset: Rules) -> list[dict[str, object]]:
    """The ruleset's named scenarios (Epic Battle has some), as the front page shows them."""
    return [{"id": str(item["id"]), "name": str(item.get("name", item["id"])),
             "names": {lang: scenario_name(ruleset.id, str(item["id"]),
                                           str(item.get("name", item["id"])), lang)
                       for lang in LANGUAGES},
             "min_players": item.get("min_players"), "max_players": item.get("max_players"),
             # Shown before picking: who plays against whom, how hard, which cards.
             "parties": item.get("parties"), "difficulty": item.get("difficulty"),
             "decks": _scenario_decks(ruleset, item)}
            for item in ruleset.scenarios()]


def _scenario_decks(ruleset: Rules, item: Mapping[str, object]) -> dict[str, list[str]]:
    """A scenario's deck per player count (empty where the deck is drawn at the deal)."""
    lo, hi = item.get("min_players"), item.get("max_players")
    if not isinstance(lo, int) or not isinstance(hi, int):
        return {}
    out = {}
    for n in range(lo, hi + 1):
        try:
            deck = ruleset.scenario_deck(str(item["id"]), n, 0)
            if deck != ruleset.scenario_deck(str(item["id"]), n, 1):
                return {}  # (Anarchy draws its deck at the deal: nothing to show)
        except DeckError:
            continue
        out[str(n)] = deck
    return out
