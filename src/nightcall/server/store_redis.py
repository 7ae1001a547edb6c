"""Rooms in Redis (issue #8): the same three methods as :class:`SQLiteStore`.

Layout, all under one prefix (default ``nightcall``):

- ``<prefix>:room:<code>``: the room's JSON document (a plain string);
- ``<prefix>:unfinished``: a sorted set of room codes not over yet, scored by the
  time of their last save, so :meth:`unfinished` lists them oldest first like SQLite;
- ``<prefix>:lease:<code>``: which process owns the room now (:mod:`.cluster`).

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
from typing import TYPE_CHECKING, Any

import msgspec
import redis

from nightcall.server.store import LeaseLost

if TYPE_CHECKING:
    from nightcall.server.store import Store

DEFAULT_PREFIX = "nightcall"

# A finished room's document (its record) is kept this long, then Redis drops it: a
# public server's Redis holds the games in play and the recent ones, not every game.
FINISHED_TTL_MS = 30 * 24 * 3600 * 1000

# KEYS: document, index, lease; ARGV: text, finished ("1"/"0"), now, owner, code, ttl.
FENCED_SAVE = """
if redis.call('get', KEYS[3]) ~= ARGV[4] then return 0 end
if ARGV[2] == '1' then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[6])
  redis.call('zrem', KEYS[2], ARGV[5])
else
  redis.call('set', KEYS[1], ARGV[1])
  redis.call('zadd', KEYS[2], ARGV[3], ARGV[5])
end
return 1
"""


class RedisStore:
    def __init__(self, client: redis.Redis, prefix: str = DEFAULT_PREFIX,
                 owner: str | None = None) -> None:
        self._r = client
        self.prefix = prefix
        self._index = f"{prefix}:unfinished"
        self.owner = owner  # set by the cluster: saves are fenced by the room's lease
        self._fenced = client.register_script(FENCED_SAVE)

    @property
    def client(self) -> redis.Redis:
        return self._r

    def lease_key(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    @classmethod
    def from_url(cls, url: str, prefix: str = DEFAULT_PREFIX, **kwargs: Any) -> RedisStore:
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

    def save(self, code: str, doc: dict[str, Any], finished: bool) -> None:
        if self.owner is not None:
            text = msgspec.json.encode(doc)  # compact UTF-8 JSON, as json.dumps but faster
            done = self._fenced(
                keys=[self._key(code), self._index, self.lease_key(code)],
                args=[text, "1" if finished else "0", time.time(), self.owner, code,
                      FINISHED_TTL_MS],
            )
            if not done:
                raise LeaseLost(code)
            return
        # redis-py's pipeline is not shared state: one per call is thread-safe.
        self.save_many([(code, doc, finished)])

    def save_many(self, items: list[tuple[str, dict[str, Any], bool]]) -> None:
        """One MULTI transaction (fenced saves go one by one: a cluster's node batches
        those itself, cluster.py)."""
        if self.owner is not None:
            for code, doc, finished in items:
                self.save(code, doc, finished)
            return
        now = time.time()
        with self._r.pipeline(transaction=True) as pipe:
            for code, doc, finished in items:
                pipe.set(self._key(code), msgspec.json.encode(doc),
                         px=FINISHED_TTL_MS if finished else None)
                if finished:
                    pipe.zrem(self._index, code)
                else:
                    pipe.zadd(self._index, {code: now})
            pipe.execute()

    def flush(self) -> None:
        """Every save is already acknowledged by Redis when save() returns (and on disk
        with ``appendfsync always``); nothing is buffered on our side to wait for."""

    def load(self, code: str) -> dict[str, Any] | None:
        raw = self._r.get(self._key(code))
        return None if raw is None else dict(json.loads(_as_bytes(raw)))

    def unfinished(self) -> list[dict[str, Any]]:
        codes = [_as_bytes(c).decode() for c in self._r.zrange(self._index, 0, -1)]
        if not codes:
            return []
        raws = self._r.mget([self._key(c) for c in codes])
        # A code without a document cannot happen through save(); skip it rather than fail
        # a restart if someone deleted a key by hand.
        return [json.loads(_as_bytes(raw)) for raw in raws if raw is not None]

    def ping(self) -> bool:
        return bool(self._r.ping())

    def close(self) -> None:
        self._r.close()


def _as_bytes(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    raise TypeError(f"unexpected reply from Redis: {type(value).__name__}")


if TYPE_CHECKING:
    # mypy fails here if the Store protocol grows a method this class does not have.
    def _is_a_store(store: RedisStore) -> Store:
        return store
