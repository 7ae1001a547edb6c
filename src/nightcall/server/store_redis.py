"""Rooms in Redis (issue #8): the same three methods as :class:`SQLiteStore`.

Layout, all under one prefix (default ``nightcall``):

- ``<prefix>:room:<code>``: the room's JSON document (a plain string);
- ``<prefix>:unfinished``: a sorted set of room codes not over yet, scored by the
  time of their last save, so :meth:`unfinished` lists them oldest first like SQLite;
- ``<prefix>:playing``: the same for games in play only: what a cluster's sweep adopts
  when their owner is gone (lobbies wait for a client to ask for them);
- ``<prefix>:lease:<code>``: which process owns the room now (:mod:`.cluster`);
- ``<prefix>:table:<key>`` and ``<prefix>:table:<key>:games``: a table's settings and
  its finished games, a hash of game id -> entry (issue 20, :mod:`.tables`); ``key`` is
  a hash of the table's link. A table never expires; deleting it deletes both keys.

A lobby's document expires :data:`LOBBY_TTL_MS` after its last save (an abandoned
lobby does not stay forever), a finished room's :data:`FINISHED_TTL_MS` after its end;
a game in play never expires. Index entries whose document expired are dropped by
:meth:`RedisStore.unfinished`.

With several processes (``owner`` set), a save is fenced: a Lua script writes only
while the lease still names this process, so a process that stalled past its lease
can never overwrite what the room's new owner saved (:class:`LeaseLost` instead).

A save is one MULTI/EXEC transaction (document and index move together, so a
crash never leaves a finished room in the index or an indexed room without a
document). Redis answers EXEC only after the write is in its AOF buffer; with
``appendonly yes`` and ``appendfsync always`` it is on disk before the reply,
which is what "acknowledged" means for the restart test.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import TYPE_CHECKING

import msgspec
import redis

from nightcall.server.store import Doc, LeaseLost, StoreErrors

if TYPE_CHECKING:
    from nightcall.server.store import Store

DEFAULT_PREFIX = "nightcall"

# A finished room's document (its record) is kept this long, then Redis drops it: a
# public server's Redis holds the games in play and the recent ones, not every game.
FINISHED_TTL_MS = 30 * 24 * 3600 * 1000
# A lobby nobody changed for a week is abandoned: its document goes.
LOBBY_TTL_MS = 7 * 24 * 3600 * 1000

# KEYS: document, unfinished index, lease, playing index; ARGV: text, status, now,
# owner, code, time to live of a finished room, of a lobby.
FENCED_SAVE = """
if redis.call('get', KEYS[3]) ~= ARGV[4] then return 0 end
if ARGV[2] == 'over' then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[6])
  redis.call('zrem', KEYS[2], ARGV[5])
  redis.call('zrem', KEYS[4], ARGV[5])
elseif ARGV[2] == 'playing' then
  redis.call('set', KEYS[1], ARGV[1])
  redis.call('zadd', KEYS[2], ARGV[3], ARGV[5])
  redis.call('zadd', KEYS[4], ARGV[3], ARGV[5])
else
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[7])
  redis.call('zadd', KEYS[2], ARGV[3], ARGV[5])
  redis.call('zrem', KEYS[4], ARGV[5])
end
return 1
"""


# KEYS: the table's settings, its games; ARGV: game id, entry. Only while the table is.
ADD_GAME = """
if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('hset', KEYS[2], ARGV[1], ARGV[2])
return 1
"""
# KEYS: the table's settings; ARGV: the new settings. Only while the table is.
UPDATE_TABLE = """
if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('set', KEYS[1], ARGV[1])
return 1
"""


def save_args(store: RedisStore, code: str, doc: Doc, status: str, now: float,
              owner: str) -> tuple[list[str], list[bytes | str | float]]:
    """The keys and arguments of one :data:`FENCED_SAVE` (the store's and the node's)."""
    keys = [store.room_key(code), store.index_key, store.lease_key(code), store.playing_key]
    args: list[bytes | str | float] = [msgspec.json.encode(doc), status, now, owner, code,
                       FINISHED_TTL_MS, LOBBY_TTL_MS]
    return keys, args


def _status(doc: Doc, finished: bool) -> str:
    """Only a document that says it is a lobby expires as one."""
    return "over" if finished else "lobby" if doc.get("status") == "lobby" else "playing"


class RedisStore:
    errors: StoreErrors = (redis.RedisError, OSError, TimeoutError)

    def __init__(self, client: redis.Redis, prefix: str = DEFAULT_PREFIX,
                 owner: str | None = None) -> None:
        self._r = client
        self.prefix = prefix
        self._index = f"{prefix}:unfinished"
        self.playing_key = f"{prefix}:playing"
        self.owner = owner  # set by the cluster: saves are fenced by the room's lease
        self._fenced = client.register_script(FENCED_SAVE)
        self._add_game = client.register_script(ADD_GAME)
        self._update_table = client.register_script(UPDATE_TABLE)

    @property
    def client(self) -> redis.Redis:
        return self._r

    def lease_key(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    @classmethod
    def from_url(cls, url: str, prefix: str = DEFAULT_PREFIX, **kwargs: object) -> RedisStore:
        """``redis://host:port/db``; extra keyword arguments go to redis-py."""
        # Bytes in, bytes out: we decode JSON ourselves (UTF-8) and keep codes as str.
        client = redis.Redis.from_url(url, decode_responses=False, **kwargs)
        return cls(client, prefix)

    def _key(self, code: str) -> str:
        return f"{self.prefix}:room:{code}"

    room_key = _key

    @property
    def index_key(self) -> str:
        return self._index

    def save(self, code: str, doc: Doc, finished: bool) -> None:
        if self.owner is not None:
            keys, args = save_args(self, code, doc, _status(doc, finished), time.time(),
                                   self.owner)
            if not self._fenced(keys=keys, args=args):
                raise LeaseLost(code)
            return
        # redis-py's pipeline is not shared state: one per call is thread-safe.
        self.save_many([(code, doc, finished)])

    def save_many(self, items: list[tuple[str, Doc, bool]]) -> None:
        """One MULTI transaction (fenced saves go one by one: a cluster's node batches
        those itself, cluster.py)."""
        if self.owner is not None:
            for code, doc, finished in items:
                self.save(code, doc, finished)
            return
        now = time.time()
        with self._r.pipeline(transaction=True) as pipe:
            for code, doc, finished in items:
                status = _status(doc, finished)
                ttl = {"over": FINISHED_TTL_MS, "lobby": LOBBY_TTL_MS}.get(status)
                pipe.set(self._key(code), msgspec.json.encode(doc), px=ttl)
                if finished:
                    pipe.zrem(self._index, code)
                else:
                    pipe.zadd(self._index, {code: now})
                if status == "playing":
                    pipe.zadd(self.playing_key, {code: now})
                else:
                    pipe.zrem(self.playing_key, code)
            pipe.execute()

    def flush(self) -> None:
        """Every save is already acknowledged by Redis when save() returns (and on disk
        with ``appendfsync always``); nothing is buffered on our side to wait for."""

    def load(self, code: str) -> Doc | None:
        raw = self._r.get(self._key(code))
        return None if raw is None else dict(json.loads(_as_bytes(raw)))

    def unfinished(self) -> list[Doc]:
        codes = [_as_bytes(c).decode() for c in self._r.zrange(self._index, 0, -1)]
        if not codes:
            return []
        raws = self._r.mget([self._key(c) for c in codes])
        # A code without a document: an abandoned lobby that expired (or a key deleted by
        # hand). Its index entry goes too.
        gone = [c for c, raw in zip(codes, raws, strict=True) if raw is None]
        if gone:
            self._r.zrem(self._index, *gone)
        return [json.loads(_as_bytes(raw)) for raw in raws if raw is not None]

    # --- tables (issue 20: a group's history, :mod:`nightcall.server.tables`) -------
    def table_key(self, key: str) -> str:
        return f"{self.prefix}:table:{key}"

    def table_create(self, key: str, meta: Doc) -> None:
        self._r.set(self.table_key(key), msgspec.json.encode(meta))

    def table_meta(self, key: str) -> Doc | None:
        raw = self._r.get(self.table_key(key))
        return None if raw is None else dict(json.loads(_as_bytes(raw)))

    def table_update(self, key: str, meta: Doc) -> bool:
        return bool(self._update_table(keys=[self.table_key(key)],
                                       args=[msgspec.json.encode(meta)]))

    def table_add_game(self, key: str, game_id: str, game: Doc) -> bool:
        table = self.table_key(key)
        return bool(self._add_game(keys=[table, f"{table}:games"],
                                   args=[game_id, msgspec.json.encode(game)]))

    def table_games(self, key: str) -> list[Doc]:
        raws = self._r.hvals(f"{self.table_key(key)}:games")
        return [json.loads(_as_bytes(raw)) for raw in raws]

    def table_delete_game(self, key: str, game_id: str) -> bool:
        return bool(self._r.hdel(f"{self.table_key(key)}:games", game_id))

    def table_delete(self, key: str) -> bool:
        table = self.table_key(key)
        return bool(self._r.delete(table, f"{table}:games"))

    def ping(self) -> bool:
        return bool(self._r.ping())

    def expire(self, now: float, keep: Collection[str] = ()) -> int:
        return 0  # Redis expires a room by itself (its key's TTL, set at each save)

    def close(self) -> None:
        self._r.close()


def _as_bytes(value: object) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    raise TypeError(f"unexpected reply from Redis: {type(value).__name__}")


if TYPE_CHECKING:
    # mypy fails here if the Store protocol grows a method this class does not have.
    def _is_a_store(store: RedisStore) -> Store:
        return store
