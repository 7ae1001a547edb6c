"""A table: a group's history under a private link, with no accounts (issue 20).

A table is two secrets, made here: its link's token (``/t/TOKEN``), which the host
screen remembers and players open on their phones to see the history, and the
host's key, which only the host's screen keeps and which alone may merge names or
delete. Every finished game of a room linked to the table (``CreateRoom.table``, or
linked from the host screen) is kept under it: the game record with the names at the
table and who won. The numbers are :mod:`nightcall.history`'s.

The store keeps a table under a hash of its token (:func:`table_key`), in the same
store as the rooms (SQLite or Redis), for ever: a room expires, its table's copy of
the game does not. Deleting a game or the table deletes it from the store.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from nightcall.history import merge_aliases
from nightcall.server.store import Doc

if TYPE_CHECKING:
    from nightcall.server.room import Room

# A link's token and the host's key: 32 random bytes, 43 URL-safe characters. What a
# room accepts as a table token (messages.CreateRoom): this alphabet and length range.
TOKEN_BYTES = 32
MIN_TABLE_TOKEN = 32
MAX_TABLE_TOKEN = 64
TOKEN_PATTERN = "^[A-Za-z0-9_-]+$"
MAX_GAMES = 5000  # per table: a weekly group plays a few thousand games in a decade


@runtime_checkable
class TableStore(Protocol):
    """What a store offers for tables (SQLiteStore, RedisStore, MemoryStore). ``key``
    is :func:`table_key` of the token; a game is only added while its table is."""

    def table_create(self, key: str, meta: Doc) -> None: ...

    def table_meta(self, key: str) -> Doc | None: ...

    def table_update(self, key: str, meta: Doc) -> bool: ...

    def table_add_game(self, key: str, game_id: str, game: Doc) -> bool: ...

    def table_games(self, key: str) -> list[Doc]: ...

    def table_delete_game(self, key: str, game_id: str) -> bool: ...

    def table_delete(self, key: str) -> bool: ...


def table_key(token: str) -> str:
    """Where the store keeps the table: a dump of the store does not give the links."""
    return hashlib.sha256(token.encode()).hexdigest()


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class TableError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


NO_TABLE = "there is no such table (the link may be wrong, or the table was deleted)"


def game_entry(room: Room, finished: float) -> Doc:
    """What a table keeps of a finished room's game."""
    record = room.ruleset.to_record(room.state)
    outcome = room.ruleset.outcome(room.state)
    names = [s.name for s in room.seats]
    return {
        "id": f"{room.code}-{room.seed}",  # the same game saved twice is one game
        "room": room.code,
        "finished": finished,
        "ruleset": room.ruleset.id,
        "language": room.settings.language,
        "players": names,
        "bots": [s.name for s in room.seats if s.bot],
        "winners": [names[s] for s in outcome.winners] if outcome is not None else [],
        "record": record,
    }


class Tables:
    """The tables of one store."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    def create(self, language: str = "en") -> tuple[str, str]:
        """A new table: its link's token and the host's key."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        key = secrets.token_urlsafe(TOKEN_BYTES)
        self.store.table_create(table_key(token), {
            "created": time.time(), "language": language, "admin": _digest(key),
            "aliases": {},
        })
        return token, key

    def meta(self, token: str) -> dict[str, Any]:
        meta = self.store.table_meta(table_key(token))
        if meta is None:
            raise TableError("no_table", NO_TABLE)
        return meta

    def exists(self, token: str) -> bool:
        return self.store.table_meta(table_key(token)) is not None

    def check_admin(self, token: str, key: str | None) -> dict[str, Any]:
        """The table, if ``key`` is its host's key."""
        meta = self.meta(token)
        if not key or not secrets.compare_digest(str(meta.get("admin", "")), _digest(key)):
            raise TableError("not_host", "only the host's screen (the one that made this "
                                         "table) can change it")
        return meta

    def games(self, token: str) -> list[dict[str, Any]]:
        self.meta(token)
        return sorted(self.store.table_games(table_key(token)),
                      key=lambda g: (float(g.get("finished", 0.0)), str(g.get("id"))))

    def record(self, token: str, room: Room, finished: float | None = None) -> bool:
        """Keep a finished room's game under the table (False: there is no table)."""
        entry = game_entry(room, time.time() if finished is None else finished)
        key = table_key(token)
        # (counted before adding: a full table keeps its old games, says the log)
        if len(self.store.table_games(key)) >= MAX_GAMES:
            raise TableError("full", f"a table keeps at most {MAX_GAMES} games")
        return self.store.table_add_game(key, str(entry["id"]), entry)

    def merge(self, token: str, key: str | None, spelling: str, into: str) -> dict[str, str]:
        meta = self.check_admin(token, key)
        known = {n.casefold() for g in self.store.table_games(table_key(token))
                 for n in _players(g)}
        aliases = dict(meta.get("aliases") or {})
        for name in (spelling, into):
            if name.casefold() not in known and name not in aliases.values():
                raise TableError("no_player", f"nobody called {name} played at this table")
        try:
            meta["aliases"] = merge_aliases(aliases, spelling, into)
        except ValueError as exc:
            raise TableError("same_player", str(exc)) from None
        if not self.store.table_update(table_key(token), meta):
            raise TableError("no_table", NO_TABLE)
        return dict(meta["aliases"])

    def delete_game(self, token: str, key: str | None, game_id: str) -> None:
        self.check_admin(token, key)
        if not self.store.table_delete_game(table_key(token), game_id):
            raise TableError("no_game", "this table has no such game")

    def delete(self, token: str, key: str | None) -> None:
        self.check_admin(token, key)
        self.store.table_delete(table_key(token))


def _players(game: Doc) -> list[str]:
    """The names at the table in one kept game (game_entry's ``players``)."""
    players = game.get("players")
    return [str(p) for p in players] if isinstance(players, list) else []


def tables_of(store: object) -> Tables | None:
    """The store's tables, if it keeps any."""
    return Tables(store) if isinstance(store, TableStore) else None
