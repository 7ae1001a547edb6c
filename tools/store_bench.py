"""Room store latency: SQLiteStore (WAL file) against RedisStore on a real redis-server
(loopback, AOF with fsync every second and with fsync always). Figures for
docs/benchmarks.md (Redis store and leak audit).

    .venv/bin/python tools/store_bench.py [--saves 2000]

Each save writes a real room document: a finished 12-seat Lupus room played by bots
through the hub (its size is printed first).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from nightcall.server.store import SQLiteStore, Store
from nightcall.server.store_redis import RedisStore


def real_room_doc() -> dict[str, Any]:
    """A finished 12-seat Lupus room as the hub saves it."""
    from nightcall.server.hub import Hub
    from nightcall.server.messages import CreateRoom
    from nightcall.server.store import MemoryStore

    async def play() -> dict[str, Any]:
        hub = Hub(MemoryStore())
        room = hub.create(CreateRoom(ruleset="lupus", seats=12, call_seconds=0,
                                     discussion_seconds=0, vote_seconds=0.01,
                                     defense_seconds=0))
        hub.start(room)
        while room.status != "over":
            await asyncio.sleep(0.01)
        doc = room.to_doc()
        hub.stop()
        return doc

    return asyncio.run(play())


@contextmanager
def redis_server(fsync: str) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    workdir = tempfile.mkdtemp(prefix="nightcall-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir",
                             workdir, "--save", "", "--appendonly", "yes", "--appendfsync",
                             fsync], stdout=subprocess.DEVNULL)
    try:
        url = f"redis://127.0.0.1:{port}/0"
        for _ in range(200):
            try:
                RedisStore.from_url(url).ping()
                break
            except Exception:
                time.sleep(0.02)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)


def percentiles(samples: list[float]) -> str:
    ms = sorted(x * 1000 for x in samples)

    def p(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    return f"p50 {p(0.5):.3f} ms, p99 {p(0.99):.3f} ms, mean {statistics.fmean(ms):.3f} ms"


def bench(name: str, make: Callable[[], Store], doc: dict[str, Any], saves: int) -> None:
    store = make()
    rooms = 500
    lat: list[float] = []
    for i in range(saves):
        t = time.perf_counter()
        store.save(f"R{i % rooms:04d}", doc, finished=i % 7 == 0)
        lat.append(time.perf_counter() - t)
    loads: list[float] = []
    for i in range(saves // 2):
        t = time.perf_counter()
        store.load(f"R{i % rooms:04d}")
        loads.append(time.perf_counter() - t)
    t = time.perf_counter()
    unfinished = len(store.unfinished())
    scan = time.perf_counter() - t
    # Four threads saving at once (four event loops or workers sharing one store).
    per_thread = saves // 4

    def work(k: int) -> None:
        for i in range(per_thread):
            store.save(f"T{k}-{i % 50}", doc, finished=False)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    rate = per_thread * 4 / (time.perf_counter() - t)
    store.close()
    print(f"{name}")
    print(f"  save ({len(lat)}):  {percentiles(lat)}")
    print(f"  load ({len(loads)}):  {percentiles(loads)}")
    print(f"  unfinished(): {unfinished} rooms in {scan * 1000:.1f} ms")
    print(f"  4 threads: {rate:.0f} saves/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=2000)
    args = parser.parse_args()
    doc = real_room_doc()
    import json

    print(f"room document: {len(json.dumps(doc, ensure_ascii=False))} bytes, "
          f"{len(doc['actions'])} moves")
    with tempfile.TemporaryDirectory() as d:
        bench("SQLiteStore (WAL, synchronous=NORMAL)",
              lambda: SQLiteStore(Path(d) / "rooms.sqlite3"), doc, args.saves)
    for fsync in ("everysec", "always"):
        with redis_server(fsync) as url:
            bench(f"RedisStore (appendonly yes, appendfsync {fsync})",
                  partial(RedisStore.from_url, url), doc, args.saves)


if __name__ == "__main__":
    main()
