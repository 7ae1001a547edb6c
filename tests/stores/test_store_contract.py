"""One contract for every room store: MemoryStore, SQLiteStore (a real file), RedisStore
(a real redis-server). The hub relies on exactly these behaviours to resume rooms."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from nightcall.server.store import MemoryStore, SQLiteStore, Store

_prefixes = itertools.count()


@dataclass
class Backend:
    name: str
    open: Callable[[], Store]  # a new handle on the same backing storage
    durable: bool  # does a new handle see what an old one saved?


@pytest.fixture(params=["memory", "sqlite", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    opened: list[Store] = []

    def track(make: Callable[[], Store]) -> Callable[[], Store]:
        def open_() -> Store:
            store = make()
            opened.append(store)
            return store

        return open_

    if request.param == "memory":
        shared = MemoryStore()
        yield Backend("memory", track(lambda: shared), durable=False)
    elif request.param == "sqlite":
        path = tmp_path / "rooms.sqlite3"
        yield Backend("sqlite", track(lambda: SQLiteStore(path)), durable=True)
    else:
        from nightcall.server.store_redis import RedisStore

        server = request.getfixturevalue("redis_server")
        prefix = f"test{next(_prefixes)}"  # one server for the session, a namespace per test
        yield Backend(
            "redis", track(lambda: RedisStore.from_url(server.url, prefix=prefix)), durable=True
        )
    for store in opened:
        # Closing twice is harmless for SQLite and Redis; suppress anything odd at teardown.
        with contextlib.suppress(Exception):
            store.close()


def room(code: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "status": "playing", "seats": [{"name": "Ann"}], **extra}


def codes(docs: list[dict[str, Any]]) -> set[str]:
    return {d["code"] for d in docs}


def test_round_trip_and_missing(backend: Backend) -> None:
    store = backend.open()
    doc = room("ABCD", history=[[0, {"kind": "look", "a": 1}]], clock=12.5, none=None)
    store.save("ABCD", doc, finished=False)
    assert store.load("ABCD") == doc
    assert store.load("ZZZZ") is None


def test_load_returns_a_copy(backend: Backend) -> None:
    store = backend.open()
    store.save("COPY", room("COPY"), finished=False)
    got = store.load("COPY")
    assert got is not None
    got["status"] = "mutated"
    assert store.load("COPY") == room("COPY")


def test_overwrite_keeps_the_last(backend: Backend) -> None:
    store = backend.open()
    for step in range(5):
        store.save("OVER", room("OVER", step=step), finished=False)
    assert store.load("OVER") == room("OVER", step=4)
    assert [d["step"] for d in store.unfinished() if d["code"] == "OVER"] == [4]


def test_unfinished_lists_only_rooms_not_over(backend: Backend) -> None:
    store = backend.open()
    for i in range(6):
        store.save(f"R{i}", room(f"R{i}"), finished=i % 2 == 1)
    assert codes(store.unfinished()) == {"R0", "R2", "R4"}
    # A finished room is still there to load (to show its record), just not resumed.
    assert store.load("R1") == room("R1")


def test_finished_rooms_drop_out(backend: Backend) -> None:
    store = backend.open()
    store.save("GAME", room("GAME"), finished=False)
    assert codes(store.unfinished()) == {"GAME"}
    store.save("GAME", room("GAME", status="over"), finished=True)
    assert store.unfinished() == []
    assert store.load("GAME") == room("GAME", status="over")


def test_unicode_names(backend: Backend) -> None:
    store = backend.open()
    names = ["Zoë", "Jürgen", "李雷", "Ἀχιλλεύς", "🐺 wolf", "a\"b'c\\d", "\u0000nul", "x\ny"]
    doc = room("UNIC", seats=[{"name": n} for n in names])
    store.save("UNIC", doc, finished=False)
    assert store.load("UNIC") == doc
    assert store.unfinished() == [doc]


def test_large_documents(backend: Backend) -> None:
    store = backend.open()
    # A long Lupus game is far smaller; ~1 MB covers any room with margin.
    history = [[i % 12, {"kind": "vote", "a": i % 11, "b": -1, "note": "ü" * 40}]
               for i in range(10_000)]
    doc = room("BIG1", history=history)
    store.save("BIG1", doc, finished=False)
    assert store.load("BIG1") == doc


def test_concurrent_saves_from_threads(backend: Backend) -> None:
    store = backend.open()
    threads, rounds = 8, 40
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def work(t: int) -> None:
        try:
            barrier.wait()
            for i in range(rounds):
                store.save(f"T{t}", room(f"T{t}", step=i), finished=False)
                # Every thread also writes one shared room: the result must be whole.
                store.save("SHARED", room("SHARED", by=t, step=i), finished=False)
                got = store.load(f"T{t}")
                assert got is not None and got["step"] == i
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    for t in range(threads):
        assert store.load(f"T{t}") == room(f"T{t}", step=rounds - 1)
    shared = store.load("SHARED")
    assert shared is not None and shared["step"] == rounds - 1 and 0 <= shared["by"] < threads
    assert codes(store.unfinished()) == {"SHARED", *(f"T{t}" for t in range(threads))}


# MemoryStore keeps nothing past close() by design: only the durable stores here.
@pytest.mark.parametrize("backend", ["sqlite", "redis"], indirect=True)
def test_reopen_after_close_sees_everything_acknowledged(backend: Backend) -> None:
    assert backend.durable
    first = backend.open()
    for i in range(20):
        first.save(f"K{i}", room(f"K{i}", n=i), finished=i >= 15)
    first.close()
    second = backend.open()
    for i in range(20):
        assert second.load(f"K{i}") == room(f"K{i}", n=i)
    assert codes(second.unfinished()) == {f"K{i}" for i in range(15)}
