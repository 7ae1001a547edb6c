"""A table's history in the room stores (issue 20): on a real SQLite file and a real
redis-server it survives a new handle (a restart), and deleting a game or the whole
table removes it from the store."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from nightcall.server.store import MemoryStore, SQLiteStore
from nightcall.server.tables import TableError, Tables, table_key

sys.path.insert(0, str(Path(__file__).parent.parent / "history"))
from tablegames import onuw

_prefixes = itertools.count()
NAME = "Zephyrine"  # a name found nowhere else in the store's bytes


def game(gid: str, finished: float) -> dict[str, Any]:
    return onuw(gid, finished, {NAME: "werewolf", "Bea": "villager", "Cy": "villager",
                                "Dan": "seer"},
                {NAME: "Bea", "Bea": NAME, "Cy": NAME, "Dan": NAME})


@pytest.fixture(params=["memory", "sqlite", "redis"])
def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """A new handle on the same storage each call (memory: the same object)."""
    opened: list[Any] = []
    if request.param == "memory":
        shared = MemoryStore()

        def make() -> Any:
            return shared
    elif request.param == "sqlite":
        def make() -> Any:
            return SQLiteStore(tmp_path / "rooms.sqlite3")
    else:
        from nightcall.server.store_redis import RedisStore

        url = request.getfixturevalue("redis_server").url
        prefix = f"tables{next(_prefixes)}"

        def make() -> Any:
            return RedisStore.from_url(url, prefix=prefix)

    def open_() -> Any:
        store = make()
        opened.append(store)
        return store

    yield open_
    for store in opened:
        store.close()


def test_a_table_and_its_games_survive_a_new_handle(reopen: Callable[[], Any]) -> None:
    store = reopen()
    tables = Tables(store)
    token, _ = tables.create("it")
    assert store.table_add_game(table_key(token), "G1", game("G1", 2.0))
    assert store.table_add_game(table_key(token), "G0", game("G0", 1.0))
    # The same game saved again (a restart finishing it twice) stays one game.
    assert store.table_add_game(table_key(token), "G1", game("G1", 2.0))
    again = Tables(reopen())
    assert [g["id"] for g in again.games(token)] == ["G0", "G1"]
    assert again.meta(token)["language"] == "it"
    # The store knows the table by a hash of its link, never by the link itself.
    assert store.table_meta(token) is None


def test_no_game_is_kept_without_its_table(reopen: Callable[[], Any]) -> None:
    store = reopen()
    assert not store.table_add_game(table_key("nope" * 10), "G1", game("G1", 1.0))
    assert store.table_games(table_key("nope" * 10)) == []
    with pytest.raises(TableError) as got:
        Tables(store).games("nope" * 10)
    assert got.value.code == "no_table"


def test_deleting_a_game_needs_the_hosts_key(reopen: Callable[[], Any]) -> None:
    tables = Tables(reopen())
    token, key = tables.create()
    for i in range(3):
        tables.store.table_add_game(table_key(token), f"G{i}", game(f"G{i}", i))
    for wrong in (None, "", token, key[:-1] + "x"):
        with pytest.raises(TableError, match="only the host"):
            tables.delete_game(token, wrong, "G1")
    tables.delete_game(token, key, "G1")
    assert [g["id"] for g in Tables(reopen()).games(token)] == ["G0", "G2"]
    with pytest.raises(TableError) as got:
        tables.delete_game(token, key, "G1")
    assert got.value.code == "no_game"


def test_merge_is_kept_with_the_table(reopen: Callable[[], Any]) -> None:
    tables = Tables(reopen())
    token, key = tables.create()
    tables.store.table_add_game(table_key(token), "G1", game("G1", 1.0))
    with pytest.raises(TableError) as got:
        tables.merge(token, key, "Nobody", "Bea")
    assert got.value.code == "no_player"
    assert tables.merge(token, key, "Cy", "Bea") == {"Cy": "Bea"}
    assert Tables(reopen()).meta(token)["aliases"] == {"Cy": "Bea"}
    with pytest.raises(TableError) as got:
        tables.merge(token, key, "Cy", "Bea")
    assert got.value.code == "same_player"


def test_deleting_a_table_removes_it_from_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteStore(path)
    tables = Tables(store)
    token, key = tables.create()
    kept, _ = tables.create()  # another group's table stays
    for i in range(40):  # enough rows to fill pages of their own
        store.table_add_game(table_key(token), f"G{i}", game(f"G{i}", i))
    store.table_add_game(table_key(kept), "K1", onuw(
        "K1", 1.0, {"Ada": "werewolf", "Bea": "villager", "Cy": "villager", "Dan": "seer"},
        {"Ada": "Bea", "Bea": "Ada", "Cy": "Ada", "Dan": "Ada"}))
    store.close()
    assert NAME.encode() in _all_bytes(path)
    store = SQLiteStore(path)
    Tables(store).delete(token, key)
    store.close()
    # Gone from the file (and from its WAL): not even the freed pages hold the name.
    assert NAME.encode() not in _all_bytes(path)
    store = SQLiteStore(path)
    try:
        assert store.table_meta(table_key(token)) is None
        assert store.table_games(table_key(token)) == []
        assert [g["id"] for g in Tables(store).games(kept)] == ["K1"]
        with pytest.raises(TableError) as got:
            Tables(store).meta(token)
        assert got.value.code == "no_table"
    finally:
        store.close()


def _all_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


def test_deleting_a_table_removes_it_from_redis(redis_server: Any) -> None:
    from nightcall.server.store_redis import RedisStore

    prefix = f"tables{next(_prefixes)}"
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        tables = Tables(store)
        token, key = tables.create()
        kept, _ = tables.create()
        for i in range(3):
            store.table_add_game(table_key(token), f"G{i}", game(f"G{i}", i))
        store.table_add_game(table_key(kept), "K1", game("K1", 1.0))
        raw = redis.Redis.from_url(redis_server.url)
        assert len(list(raw.scan_iter(f"{prefix}:*"))) == 4
        tables.delete(token, key)
        left = sorted(k.decode() for k in raw.scan_iter(f"{prefix}:*"))
        assert left == [f"{prefix}:table:{table_key(kept)}",
                        f"{prefix}:table:{table_key(kept)}:games"]
        # Nothing else in this Redis holds the deleted table's games.
        assert not any(NAME.encode() in (raw.get(k) or b"") for k in left
                       if raw.type(k) == b"string")
        assert not store.table_add_game(table_key(token), "G9", game("G9", 9.0))
        raw.close()
    finally:
        store.close()
