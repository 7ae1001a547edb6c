"""Load test of the web app (not a test): N rooms of 5 phones on loopback, played through.

Starts ``nightcall serve`` on a free port with a fresh SQLite file (or, with
``--redis auto --workers 2``, a throwaway redis-server, two server processes on two
ports and nginx in front of them with the shipped deploy/nginx.conf, which sends each
room to one process; or uses ``--url``), creates N One Night rooms, connects 5
player websockets and a host per room, deals, and plays: each phone answers
every call and the vote with a legal move after a short "thinking" pause, and
makes claims during the day.
Measured: players connected at once, and the action-to-update latency (a move
or claim sent -> the sender's own update received), p50/p99/max.

    .venv/bin/python benchmarks/load_web.py --rooms 200
    .venv/bin/python benchmarks/load_web.py --rooms 400 --redis auto --workers 2

The phones run in Node.js (benchmarks/load_client.mjs, far less CPU per message,
so that on 2 cores the server is what gets measured) when ``node`` is installed,
or in Python (``--client python``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.sent_at: list[float] = []  # when each measured move left (for the rate)
        self.started = time.perf_counter()
        self.connected = 0
        self.peak = 0
        self.errors: dict[str, int] = {}
        self.games_over = 0
        self.lag = 0.0

    def connect(self, delta: int) -> None:
        self.connected += delta
        self.peak = max(self.peak, self.connected)


class Phone:
    """One player's phone. Reading never waits: each answer is scheduled for after a
    short "thinking" pause and always acts on the latest observation. Latency is the
    time from sending a move (or claim) to the first update that reflects it."""

    def __init__(self, ws: Any, stats: Stats, rng: random.Random, claims: int) -> None:
        self.ws, self.stats, self.rng, self.claims = ws, stats, rng, claims
        self.latest: dict[str, Any] | None = None
        self.move: tuple[float, int] | None = None  # (sent at, state id acted on)
        self.claim: tuple[float, int] | None = None  # (sent at, claims of mine expected)
        self.said = 0
        self.last_claim = -1
        self.seat = -1
        self.thinking = False
        self.sending: asyncio.Future[None] | None = None

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        kind = msg["type"]
        if kind == "welcome":
            self.seat = msg["seat"]
        if kind in ("error", "room_error"):
            self.stats.errors[msg["code"]] = self.stats.errors.get(msg["code"], 0) + 1
            self.move = self.claim = None
            return
        if kind != "observation":
            return
        self.latest = msg
        if self.move is not None and msg["state_id"] != self.move[1]:
            self.stats.latencies.append(now - self.move[0])
            self.stats.sent_at.append(self.move[0] - self.stats.started)
            self.move = None
        if self.claim is not None and self.my_claims(msg) >= self.claim[1]:
            self.stats.latencies.append(now - self.claim[0])
            self.stats.sent_at.append(self.claim[0] - self.stats.started)
            self.claim = None
        if not self.thinking and (msg["view"].get("legal") or self.may_claim(msg)):
            self.thinking = True
            asyncio.get_running_loop().call_later(self.rng.uniform(0.05, 0.3), self.answer)

    def my_claims(self, msg: dict[str, Any]) -> int:
        return sum(1 for e in msg["view"]["events"]
                   if e["kind"] == "claim" and e["seat"] == self.seat)

    def may_claim(self, msg: dict[str, Any]) -> bool:
        return msg["clock"]["stage"] in ("discussion", "vote") and self.said < self.claims

    def answer(self) -> None:
        self.thinking = False
        msg = self.latest
        if msg is None or msg["clock"]["stage"] == "over":
            return
        legal = msg["view"].get("legal") or []
        if legal and self.move is None:
            self.move = (time.perf_counter(), msg["state_id"])
            self.send({"type": "action", "action": self.rng.choice(legal),
                       "state_id": msg["state_id"]})
        elif self.may_claim(msg) and self.claim is None:
            self.said += 1
            self.claim = (time.perf_counter(), self.my_claims(msg) + 1)
            # werewolf, seer, robber, troublemaker, villager; never the same twice in a row
            # (the server refuses a repeated claim as a double tap)
            role = self.rng.choice([r for r in (1, 4, 5, 6, 11) if r != self.last_claim])
            self.last_claim = role
            self.send({"type": "action", "action": {"kind": "claim", "a": role},
                       "state_id": msg["state_id"]})
            self.thinking = True  # the next claim comes a little later
            asyncio.get_running_loop().call_later(self.rng.uniform(0.5, 1.5), self.answer)

    def send(self, msg: dict[str, Any]) -> None:
        self.sending = asyncio.ensure_future(self._send(json.dumps(msg)))

    async def _send(self, text: str) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):  # the game ended meanwhile
            await self.ws.send(text)


async def phone(url: str, code: str, name: str, stats: Stats, rng: random.Random,
                ready: asyncio.Event, claims: int, gate: asyncio.Semaphore) -> None:
    async with gate:
        ws = await websockets.connect(f"{url}/ws/{code}", max_queue=None,
                                      open_timeout=60, compression=None)
    async with ws:
        stats.connect(1)
        await ws.send(json.dumps({"type": "hello", "name": name}))
        me = Phone(ws, stats, rng, claims)
        ready.set()
        try:
            async for raw in ws:
                msg = json.loads(raw)
                me.on_message(msg, time.perf_counter())
                if msg["type"] == "observation" and msg["clock"]["stage"] == "over":
                    stats.games_over += 1
                    return
        finally:
            stats.connect(-1)


async def room(url: str, http: httpx.AsyncClient, stats: Stats, seed: int,
               args: argparse.Namespace) -> None:
    rng = random.Random(seed)
    async with args.gate:  # no connection storm: a few handshakes at a time
        r = await http.post("/api/rooms", json={
            "seats": 5, "call_seconds": args.call_seconds,
            "discussion_seconds": args.discussion_seconds, "vote_seconds": args.vote_seconds})
        r.raise_for_status()
    code, token = r.json()["room"], r.json()["host_token"]
    readies = [asyncio.Event() for _ in range(5)]
    tasks = [asyncio.create_task(phone(url, code, f"p{i}", stats, random.Random(rng.random()),
                                       readies[i], args.claims, args.gate)) for i in range(5)]
    for ev in readies:
        await ev.wait()
    async with args.gate:
        host = await websockets.connect(f"{url}/ws/{code}", max_queue=None,
                                      open_timeout=60, compression=None)
    async with host:
        await host.send(json.dumps({"type": "hello", "as": "host", "token": token}))
        # Deal once every phone of every room is connected (all players held at once),
        # each table at its own moment within --stagger seconds, as real tables would.
        await args.all_seated.wait()
        await asyncio.sleep(rng.uniform(0, args.stagger))
        await host.send(json.dumps({"type": "start"}))
        await asyncio.gather(*tasks)


async def loop_lag(stats: Stats) -> None:
    """How late this client's own event loop runs (if high, the client is the bottleneck)."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.lag = max(stats.lag, time.perf_counter() - t - 0.01)


def stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's whole process group, SIGKILL if it lingers."""
    import signal

    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)


def start_redis(tmp: str) -> tuple[subprocess.Popen[bytes], str]:
    """A throwaway redis-server (AOF, fsync every second: the usual production choice)."""
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", tmp,
         "--save", "", "--appendonly", "yes", "--appendfsync", "everysec"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    for _ in range(100):
        try:
            redis.Redis(port=port).ping()
            break
        except redis.RedisError:
            time.sleep(0.05)
    return proc, f"redis://127.0.0.1:{port}/0"


TOKEN = "load-web-metrics"


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    """The server (and, for several workers, nginx in front): its URL. ``args.ports``
    are the processes' own ports, where the metrics are read."""
    tmp = tempfile.mkdtemp(prefix="nightcall-load-")
    if args.redis == "auto":  # first: its port must not be one the workers will take
        args.redis_proc, args.redis = start_redis(tmp)
    port = free_port()
    # A baseline of another checkout (PYTHONPATH) runs as that version did: its workers
    # shared one port (no proxy), and it had /api/stats rather than /metrics.
    old = "PYTHONPATH" in args.server_env
    proxied = args.workers > 1 and not old
    while proxied and any(_busy(port + i) for i in range(args.workers)):
        port = free_port()
    url = f"http://127.0.0.1:{port}"
    # (an older version's workers shared a port: none of them counts for all)
    args.ports = ([port + i for i in range(args.workers)] if proxied
                  else [port] if args.workers == 1 else [])
    cmd = [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port)]
    if not old or _has_room_burst(args.server_env):  # every room comes from this one
        cmd += ["--room-burst", str(args.rooms + 10)]  # address (older versions: no limit)
    if args.pin:  # the server alone on core 0, as if the phones were on other machines
        cmd = ["taskset", "-c", "0", *cmd]
    if args.redis:
        cmd += ["--redis", args.redis, "--workers", str(args.workers)]
    else:
        cmd += ["--db", str(Path(tmp) / "rooms.sqlite3")]
    args.nginx = None
    if proxied:
        tests = Path(__file__).resolve().parents[1] / "tests"
        sys.path[:0] = [str(tests / "stores"), str(tests)]  # (proxy.py uses prochelpers)
        from proxy import DEPLOY, Nginx, site  # the tests' nginx, on the shipped file

        front = free_port()
        while front in args.ports:
            front = free_port()
        url = f"http://127.0.0.1:{front}"
        cmd += ["--public-url", url]
        args.nginx = Nginx(Path(tmp) / "nginx", site((DEPLOY / "nginx.conf").read_text(),
                                                      {80: front}, args.ports))
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NIGHTCALL_METRICS_TOKEN": TOKEN,
           **args.server_env}
    # A session of its own: stopping it stops its workers too, whatever happens here.
    args.server_log = Path(tmp) / "server.log"
    log = args.server_log.open("ab")
    server = subprocess.Popen(cmd, stdout=log, stderr=log, env=env, start_new_session=True)
    for p in args.ports or [port]:
        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{p}/api/rulesets", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    if args.nginx is not None:
        args.nginx.start(url + "/api/rulesets")
    time.sleep(1.0)  # every worker up, not just the first to answer
    return server, url


def _has_room_burst(env: dict[str, str]) -> bool:
    """Does the server of this environment (another checkout's) take ``--room-burst``?"""
    out = subprocess.run([sys.executable, "-m", "nightcall.cli", "serve", "--help"],
                         env={**os.environ, **env}, capture_output=True, text=True)
    return "--room-burst" in out.stdout


def _busy(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def server_numbers(ports: list[int], timings: bool) -> dict[str, Any]:
    """What the server processes say: players connected (all of them), and with
    ``timings`` the first one's latencies, from /metrics (the baseline: /api/stats)."""
    out: dict[str, Any] = {"players_connected": 0}
    for i, port in enumerate(ports):
        base = f"http://127.0.0.1:{port}"
        r = httpx.get(base + "/metrics", timeout=10, headers={"Authorization": f"Bearer {TOKEN}"})
        if r.status_code == 404:  # an older server: its /api/stats
            got = httpx.get(base + "/api/stats" + ("" if timings else "?timings=0"),
                            timeout=10).json()
            out["players_connected"] += got["players_connected"]
            if i == 0:
                out.update({k: v for k, v in got.items() if k != "players_connected"})
            continue
        values: dict[str, float] = {}
        for line in r.text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                values[name] = float(value)
        out["players_connected"] += int(values.get('nightcall_connections{role="player"}', 0)
                                        + values.get('nightcall_connections{role="agent"}', 0))
        if i == 0 and timings:
            def ms(metric: str, q: str, values: dict[str, float] = values) -> float | None:
                v = values.get(f'{metric}{{quantile="{q}"}}')
                return None if v is None else round(v * 1000, 3)

            out.update({
                "action_ms_p50": ms("nightcall_move_seconds", "0.5"),
                "action_ms_p99": ms("nightcall_move_seconds", "0.99"),
                "updates_waited": None,
                "send_wait_ms_p50": ms("nightcall_update_wait_seconds", "0.5"),
                "send_wait_ms_p99": ms("nightcall_update_wait_seconds", "0.99"),
                "loop_lag_ms_p50": ms("nightcall_event_loop_lag_seconds", "0.5"),
                "loop_lag_ms_p99": ms("nightcall_event_loop_lag_seconds", "0.99"),
                "loop_lag_ms_max": ms("nightcall_event_loop_lag_seconds", "1"),
            })
    return out


async def client(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """Play ``args.rooms`` rooms against ``url``; the raw numbers, to be merged."""
    stats = Stats()
    args.all_seated = asyncio.Event()
    args.gate = asyncio.Semaphore(16)
    ws_url = url.replace("http", "ws")
    started = time.perf_counter()
    try:
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
            rooms = [asyncio.create_task(room(ws_url, http, stats, i, args))
                     for i in range(args.rooms)]

            async def seat_watch() -> None:
                while stats.connected < args.rooms * 5:
                    await asyncio.sleep(0.05)
                args.all_seated.set()

            lag = asyncio.create_task(loop_lag(stats))
            await asyncio.wait_for(asyncio.gather(seat_watch(), *rooms), args.timeout)
            lag.cancel()
    finally:
        pass
    return {"latencies": stats.latencies, "sent_at": stats.sent_at, "peak": stats.peak,
            "games": stats.games_over // 5, "errors": stats.errors, "lag": stats.lag,
            "seconds": time.perf_counter() - started}


def tree(pid: int) -> list[int]:
    """The process and all its descendants (uvicorn's workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (Linux /proc)."""
    total = 0.0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_mib(pids: list[int]) -> float:
    """Resident memory of these processes, MiB."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server (unless --url), run --procs client processes, merge their numbers.
    Peak players held is the sum of each client's peak (they all seat before dealing)."""
    server = None
    url = args.url
    args.redis_proc = None
    redis_setting = args.redis  # "auto" becomes this run's URL: the next run starts anew
    args.nginx = None
    args.ports = []
    if not url:
        server, url = start_server(args)
    redis_mem0 = redis_memory(args.redis) if args.redis else 0.0
    stack = contextlib.ExitStack()
    try:
        share = [args.rooms // args.procs + (i < args.rooms % args.procs)
                 for i in range(args.procs)]
        settings = {"call_seconds": args.call_seconds,
                    "discussion_seconds": args.discussion_seconds,
                    "vote_seconds": args.vote_seconds, "claims": args.claims,
                    "timeout": args.timeout, "stagger": args.stagger, "url": url}
        # The server's processes, found once: walking all of /proc twice a second took
        # enough CPU, next to the server, to move its p99 (60 -> 90 ms at 1,000 players).
        pids = tree(server.pid) if server else []
        cpu0 = cpu_seconds(pids)
        rss0 = rss_mib(pids)
        polls = 0
        rss_peak = rss0
        redis_mem = redis_mem0
        wall0 = time.perf_counter()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        client_cpu0 = used.ru_utime + used.ru_stime
        # Their numbers go to files: a pipe nobody reads before they end would fill up
        # (64 KiB) and stop them for good.
        outs = [stack.enter_context(tempfile.TemporaryFile()) for _ in share]  # noqa: SIM115
        kids = [subprocess.Popen(client_command(args, settings, n, i), stdout=outs[i])
                for i, n in enumerate(share) if n]
        held = 0
        got: dict[str, Any] = {}
        while any(k.poll() is None for k in kids):  # the server's own count, twice a second
            try:  # (counts only: sorting the timings twice a second would stall the server)
                if args.ports:
                    got = server_numbers(args.ports, timings=False)
                    held = max(held, got["players_connected"])
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            polls += 1
            if server is not None and polls % 4 == 0:
                rss_peak = max(rss_peak, rss_mib(pids))
            if args.redis:
                redis_mem = max(redis_mem, redis_memory(args.redis))
            time.sleep(0.5)
        for k in kids:
            k.wait()
        parts = []
        for out in outs[: len(kids)]:
            out.seek(0)
            parts.append(json.loads(out.read()))
        used = resource.getrusage(resource.RUSAGE_CHILDREN)  # the phones' processes, ended
        client_cpu = used.ru_utime + used.ru_stime - client_cpu0
        with contextlib.suppress(httpx.HTTPError, ValueError, KeyError):
            if args.ports:
                got = server_numbers(args.ports, timings=True)
        server_cpu = cpu_seconds(pids) - cpu0 if server else None
        wall = time.perf_counter() - wall0
    finally:
        stack.close()
        if args.nginx is not None:
            args.nginx.stop()
        if server is not None:
            stop(server)
        if args.redis_proc is not None:
            args.redis_proc.terminate()
            args.redis_proc.wait(10)
    redis_url, args.redis = args.redis, redis_setting
    lat = sorted(x for p in parts for x in p["latencies"])
    errors: dict[str, int] = {}
    for p in parts:
        for k, v in p["errors"].items():
            errors[k] = errors.get(k, 0) + v

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    actions = len(lat)
    # Moves and claims per second, in one-second bins (each client's own clock: they
    # start within a second of each other): the mean while any was made, and the peak.
    bins: dict[int, int] = {}
    for p in parts:
        for t in p.get("sent_at", []):
            bins[int(t)] = bins.get(int(t), 0) + 1
    return {
        "rooms": args.rooms,
        "server_env": args.server_env,
        "store": (f"redis, {args.workers} worker(s)" if args.redis else "sqlite, 1 process")
        + (", behind nginx" if args.nginx is not None else ""),
        "client": args.client,
        "pinned": args.pin,
        "client_processes": len(parts),
        # The servers' own count (every worker), else the clients' (an older server).
        "players_held": held or sum(p["peak"] for p in parts),
        "games_over": sum(p["games"] for p in parts),
        "updates_measured": len(lat),
        "actions_per_s_mean_peak": [round(actions / max(1, len(bins)), 1),
                                    max(bins.values(), default=0)],
        "p50_ms": round(pct(0.50), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "errors": errors,
        "client_loop_lag_max_ms": round(max(p["lag"] for p in parts) * 1000, 1),
        "server_action_ms_p50": got.get("action_ms_p50"),
        "server_action_ms_p99": got.get("action_ms_p99"),
        # Updates that could not go out at once (flow control), and how long they waited.
        "server_updates_waited": got.get("updates_waited"),
        "server_send_wait_ms_p50": got.get("send_wait_ms_p50"),
        "server_send_wait_ms_p99": got.get("send_wait_ms_p99"),
        "server_loop_lag_ms_p50_p99_max": [got.get("loop_lag_ms_p50"),
                                           got.get("loop_lag_ms_p99"),
                                           got.get("loop_lag_ms_max")],
        "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 1),
        "server_cpu_ms_per_action": None if server_cpu is None or not actions
        else round(server_cpu / actions * 1000, 2),
        "server_rss_mib_start_peak": None if server is None
        else [round(rss0, 1), round(rss_peak, 1)],
        "server_kib_per_room": None if server is None
        else round((rss_peak - rss0) * 1024 / args.rooms, 1),
        "redis_kib_per_room": round((redis_mem - redis_mem0) / 1024 / args.rooms, 1)
        if redis_url else None,
        "server_cpu_share": None if server_cpu is None else round(server_cpu / wall, 2),
        "client_cpu_share": round(client_cpu / wall, 2),
        "load_average": os.getloadavg(),
        "server_log": str(getattr(args, "server_log", "")),
        "seconds": round(max(p["seconds"] for p in parts), 1),
    }


def redis_memory(url: str) -> float:
    """Redis' own count of the bytes it uses."""
    import redis

    return float(redis.Redis.from_url(url).info("memory")["used_memory"])


def client_command(args: argparse.Namespace, settings: dict[str, Any], rooms: int,
                   i: int) -> list[str]:
    cmd = _client_command(args, settings, rooms, i)
    if args.pin:
        cmd = ["taskset", "-c", f"1-{(os.cpu_count() or 2) - 1}", *cmd]
    return cmd


def _client_command(args: argparse.Namespace, settings: dict[str, Any], rooms: int,
                    i: int) -> list[str]:
    if args.client == "node":
        cfg = {**settings, "rooms": rooms, "seed": 1000 + i}
        return ["node", "--experimental-websocket", "--no-warnings",
                str(Path(__file__).with_name("load_client.mjs")), json.dumps(cfg)]
    return [sys.executable, __file__, "--url", settings["url"], "--child",
            "--call-seconds", str(args.call_seconds),
            "--discussion-seconds", str(args.discussion_seconds),
            "--vote-seconds", str(args.vote_seconds), "--claims", str(args.claims),
            "--timeout", str(args.timeout), "--stagger", str(args.stagger),
            "--rooms", str(rooms)]


def cli() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rooms", type=int, default=200, help="rooms of 5 players (default 200)")
    p.add_argument("--url", default="", help="a running server (default: start one)")
    p.add_argument("--call-seconds", type=float, default=2.0)
    p.add_argument("--discussion-seconds", type=float, default=6.0)
    p.add_argument("--vote-seconds", type=float, default=6.0)
    p.add_argument("--claims", type=int, default=3, help="claims per player per day")
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--stagger", type=float, default=4.0,
                   help="deal each room within this many seconds (0: all in lockstep)")
    p.add_argument("--redis", default="",
                   help="serve from Redis at this URL ('auto': start a throwaway one)")
    p.add_argument("--workers", type=int, default=1, help="server processes (with --redis)")
    p.add_argument("--client", choices=("node", "python"),
                   default="node" if shutil.which("node") else "python",
                   help="what runs the phones (default: node when installed)")
    p.add_argument("--baseline", default="", metavar="NAME=VALUE",
                   help="also run the server with this environment variable set (the same-"
                        "run baseline: NIGHTCALL_GC=default, Python's own collector, or "
                        "NIGHTCALL_GC=50000,10,10, other thresholds; NIGHTCALL_SEND=queue, "
                        "every update through the "
                        "writer task; PYTHONPATH=<checkout>/src, another version)")
    p.add_argument("--repeat", type=int, default=1,
                   help="with --baseline: runs of each, alternating; every run and medians")
    p.add_argument("--pin", action="store_true",
                   help="the server on core 0, the phones (and this script) on the others: "
                        "on one machine, the closest thing to phones elsewhere")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    import signal

    # Stopped from outside (a timeout): still stop the server, in the finally blocks.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
    if args.child:
        print(json.dumps(asyncio.run(client(args, args.url))))
        return
    args.server_env = {}
    if args.pin and not args.child:
        os.sched_setaffinity(0, set(range(1, os.cpu_count() or 2)))
    if args.baseline:
        print(json.dumps(compare(args), indent=2))
        return
    print(json.dumps(run(args), indent=2))


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """Same machine, same minutes, alternating: the server as it is, and the baseline."""
    name, _, value = args.baseline.partition("=")
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "as is": []}
    for _ in range(args.repeat):
        for which, env in (("baseline", {name: value}), ("as is", {})):
            args.server_env = env
            runs[which].append(run(args))
            print(json.dumps(runs[which][-1]), file=sys.stderr)
    keys = ("p50_ms", "p99_ms", "max_ms", "server_cpu_ms_per_action", "server_kib_per_room")
    out: dict[str, Any] = {}
    for which, got in runs.items():
        out[which] = {k: statistics.median(r[k] for r in got if r[k] is not None) for k in keys}
        out[which]["loop_lag_ms_p99"] = statistics.median(
            r["server_loop_lag_ms_p50_p99_max"][1] for r in got)
        out[which]["loop_lag_ms_max"] = statistics.median(
            r["server_loop_lag_ms_p50_p99_max"][2] for r in got)
        out[which]["games_over"] = [r["games_over"] for r in got]
        out[which]["players_held"] = [r["players_held"] for r in got]
    out["baseline_env"] = args.baseline
    out["p99_ratio_as_is_to_baseline"] = round(
        out["as is"]["p99_ms"] / out["baseline"]["p99_ms"], 2)
    return out


if __name__ == "__main__":
    cli()
