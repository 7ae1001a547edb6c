"""Where rooms live between restarts: a tiny interface and its SQLite implementation.

A room is saved as one JSON document (settings, seats with their tokens, the
deal's seed, every applied action, the game record, the clock's position), so
a store only needs to put, get and list documents. A Redis store (issue #8)
implements the same three methods.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import Protocol

import msgspec


class LeaseLost(Exception):
    """This process no longer owns the room: another one took it over (Redis cluster)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code} is owned by another process now")
        self.code = code


# What a store raises when its disk or its server fails (full, gone, unreachable):
# the callers that must go on (saving, readiness, the table's history) catch these
# and these only, so a bug is never taken for a full disk.
StoreErrors = tuple[type[Exception], ...]
# A JSON document the store keeps and gives back as it was (a room, a table's meta
# or one of its games): the store never looks inside beyond what it names.
Doc = dict[str, object]


class Store(Protocol):
    errors: StoreErrors

    def save(self, code: str, doc: Doc, finished: bool) -> None: ...

    def save_many(self, items: list[tuple[str, Doc, bool]]) -> None:
        """Several saves at once: all of them or none (one transaction)."""
        ...

    def flush(self) -> None:
        """Make every save so far durable (block until written)."""
        ...

    def load(self, code: str) -> Doc | None: ...

    def unfinished(self) -> list[Doc]:
        """Every room not over yet, to resume after a restart."""
        ...

    def ping(self) -> bool:
        """Whether the store answers now (GET /readyz); a store error if it cannot."""
        ...

    def expire(self, now: float, keep: Collection[str] = ()) -> int:
        """Forget abandoned lobbies and finished games past the time they are kept,
        except the rooms ``keep``; how many went (0 for a store that keeps everything or
        expires by itself)."""
        ...

    def close(self) -> None: ...


# How long the store keeps a room nobody changes: a lobby nobody started is abandoned
# after a day; a finished game (its record) is kept for ``keep_days`` (serve
# --keep-days; 0: for ever).
LOBBY_SECONDS = 24 * 3600.0
KEEP_DAYS = 30.0


class MemoryStore:
    """For benchmarks and quick experiments: nothing survives the process."""

    errors: StoreErrors = ()  # (no disk, no server: nothing to fail but a bug)

    def __init__(self) -> None:
        self._docs: dict[str, tuple[str, bool]] = {}
        self._tables: dict[str, tuple[Doc, dict[str, str]]] = {}

    def save(self, code: str, doc: Doc, finished: bool) -> None:
        self._docs[code] = (msgspec.json.encode(doc).decode(), finished)

    def save_many(self, items: list[tuple[str, Doc, bool]]) -> None:
        for code, doc, finished in items:
            self.save(code, doc, finished)

    def flush(self) -> None:
        pass

    def load(self, code: str) -> Doc | None:
        got = self._docs.get(code)
        return None if got is None else dict(json.loads(got[0]))

    def unfinished(self) -> list[Doc]:
        return [json.loads(d) for d, done in self._docs.values() if not done]

    def ping(self) -> bool:
        return True

    def expire(self, now: float, keep: Collection[str] = ()) -> int:
        return 0  # (nothing survives the process anyway)

    def close(self) -> None:
        self._docs.clear()

    # --- tables (issue 20: a group's history, :mod:`nightcall.server.tables`) -------
    def table_create(self, key: str, meta: Doc) -> None:
        self._tables[key] = (dict(meta), {})

    def table_meta(self, key: str) -> Doc | None:
        got = self._tables.get(key)
        return None if got is None else dict(got[0])

    def table_update(self, key: str, meta: Doc) -> bool:
        if key not in self._tables:
            return False
        self._tables[key] = (dict(meta), self._tables[key][1])
        return True

    def table_add_game(self, key: str, game_id: str, game: Doc) -> bool:
        if key not in self._tables:
            return False
        self._tables[key][1][game_id] = msgspec.json.encode(game).decode()
        return True

    def table_games(self, key: str) -> list[Doc]:
        got = self._tables.get(key)
        return [] if got is None else [json.loads(g) for g in got[1].values()]

    def table_delete_game(self, key: str, game_id: str) -> bool:
        got = self._tables.get(key)
        return got is not None and got[1].pop(game_id, None) is not None

    def table_delete(self, key: str) -> bool:
        return self._tables.pop(key, None) is not None


SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms (finished, updated);
CREATE TABLE IF NOT EXISTS tables (
    key TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS table_games (
    key TEXT NOT NULL,
    game TEXT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (key, game)
);
"""


UPSERT = (
    "INSERT INTO rooms (code, doc, finished, updated) VALUES (?, ?, ?, ?) "
    "ON CONFLICT(code) DO UPDATE SET doc=excluded.doc, "
    "finished=excluded.finished, updated=excluded.updated"
)


class SQLiteStore:
    """One SQLite file in WAL mode (synchronous=NORMAL).

    A save is one small transaction on the caller's thread: it reaches the OS before
    the next event is handled, so killing the process loses nothing. What can stall
    on a busy disk is the WAL checkpoint (it fsyncs), so the saving connection never
    checkpoints; a background thread does, on its own connection, once a second."""

    CHECKPOINT_EVERY = 1.0

    errors: StoreErrors = (sqlite3.Error, OSError)

    def __init__(self, path: str | Path, keep_days: float = KEEP_DAYS,
                 lobby_seconds: float = LOBBY_SECONDS) -> None:
        self.keep_days = keep_days
        self.lobby_seconds = lobby_seconds
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._db.executescript(SCHEMA)
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint_loop,
                                              name="nightcall-checkpoint", daemon=True)
        self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self._stop.wait(self.CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # busy now: the next round will do it
                    continue
        finally:
            db.close()

    def save(self, code: str, doc: Doc, finished: bool) -> None:
        self.save_many([(code, doc, finished)])

    def save_many(self, items: list[tuple[str, Doc, bool]]) -> None:
        # msgspec writes the same compact UTF-8 JSON as json.dumps, about 10x faster: a
        # save runs on the event loop, so its cost is latency. One transaction for the
        # lot: a commit costs about as much as two rows (the server saves a turn's
        # rooms together, saving.py).
        now = time.time()
        rows = [(code, msgspec.json.encode(doc).decode(), int(finished), now)
                for code, doc, finished in items]
        with self._lock:
            if len(rows) == 1:
                self._db.execute(UPSERT, rows[0])
                return
            self._db.execute("BEGIN")
            try:
                self._db.executemany(UPSERT, rows)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def flush(self) -> None:
        """Saves are written when made; nothing waits here."""

    def load(self, code: str) -> Doc | None:
        with self._lock:
            row = self._db.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def unfinished(self) -> list[Doc]:
        with self._lock:
            rows = self._db.execute(
                "SELECT doc FROM rooms WHERE finished = 0 ORDER BY updated"
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def ping(self) -> bool:
        """A read: a query of microseconds on a local file."""
        return self.load("") is None

    def expire(self, now: float, keep: Collection[str] = ()) -> int:
        """Delete the lobbies unchanged for ``lobby_seconds`` and the finished games
        older than ``keep_days`` (0: kept for ever), except the codes in ``keep`` (rooms
        being served). How many went."""
        kept = set(keep)
        with self._lock:
            rows = self._db.execute(
                "SELECT code FROM rooms WHERE finished = 0 AND updated < ? "
                "AND json_extract(doc, '$.status') = 'lobby'",
                (now - self.lobby_seconds,)).fetchall()
            if self.keep_days > 0:
                rows += self._db.execute(
                    "SELECT code FROM rooms WHERE finished = 1 AND updated < ?",
                    (now - self.keep_days * 86400,)).fetchall()
            codes = [(c,) for (c,) in rows if c not in kept]
            if codes:
                self._db.execute("BEGIN")
                try:
                    self._db.executemany("DELETE FROM rooms WHERE code = ?", codes)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        return len(codes)

    # --- tables (issue 20: a group's history, :mod:`nightcall.server.tables`) -------
    # Rows are keyed by a hash of the table's link (tables.table_key), never the link.
    def table_create(self, key: str, meta: Doc) -> None:
        with self._lock:
            self._db.execute("INSERT INTO tables (key, doc, updated) VALUES (?, ?, ?)",
                             (key, msgspec.json.encode(meta).decode(), time.time()))

    def table_meta(self, key: str) -> Doc | None:
        with self._lock:
            row = self._db.execute("SELECT doc FROM tables WHERE key = ?", (key,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def table_update(self, key: str, meta: Doc) -> bool:
        with self._lock:
            cur = self._db.execute("UPDATE tables SET doc = ?, updated = ? WHERE key = ?",
                                   (msgspec.json.encode(meta).decode(), time.time(), key))
        return cur.rowcount > 0

    def table_add_game(self, key: str, game_id: str, game: Doc) -> bool:
        """Kept only while the table is (a game ending after its deletion is not)."""
        with self._lock:
            cur = self._db.execute(
                "INSERT OR REPLACE INTO table_games (key, game, doc) SELECT ?, ?, ? "
                "WHERE EXISTS (SELECT 1 FROM tables WHERE key = ?)",
                (key, game_id, msgspec.json.encode(game).decode(), key))
        return cur.rowcount > 0

    def table_games(self, key: str) -> list[Doc]:
        with self._lock:
            rows = self._db.execute("SELECT doc FROM table_games WHERE key = ?",
                                    (key,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def table_delete_game(self, key: str, game_id: str) -> bool:
        return self._forget("DELETE FROM table_games WHERE key = ? AND game = ?",
                            (key, game_id)) > 0

    def table_delete(self, key: str) -> bool:
        return self._forget("DELETE FROM table_games WHERE key = ?", (key,),
                            "DELETE FROM tables WHERE key = ?") > 0

    def _forget(self, sql: str, args: tuple[str, ...], *more: str) -> int:
        """Delete for good: with secure_delete the freed pages are zeroed, so the names
        do not linger in the file (the WAL's copies go at the next checkpoint). The
        rows of the last statement counted."""
        with self._lock:
            self._db.execute("PRAGMA secure_delete = ON")
            self._db.execute("BEGIN")
            try:
                count = self._db.execute(sql, args).rowcount
                for extra in more:
                    count = self._db.execute(extra, args).rowcount
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            finally:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")
                self._db.execute("PRAGMA secure_delete = OFF")
        return int(count)

    def journal_mode(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(10)
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()
