"""``nightcall serve --redis URL --workers N`` behind the shipped nginx configuration
(deploy/nginx.conf), with a real nginx and a real redis-server: the proxy puts each
room's connections on one process (nothing relayed), and when a process is killed
mid-game its rooms move to the other one and every game ends with nothing lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import websockets
from clusterplay import Phone, create_room, free_port, saw_the_recorded_outcome
from processes import ProcessGroups, members
from prochelpers import closes_on_sigterm
from proxy import DEPLOY, NGINX, Nginx, site

RedisServer = Any
TOKEN = "operator-token-for-the-tests"


def _need_nginx() -> None:
    if NGINX is None:
        if os.environ.get("NIGHTCALL_REQUIRE_NGINX"):
            pytest.fail("NIGHTCALL_REQUIRE_NGINX is set but nginx is not installed")
        pytest.skip("nginx not found (apt install nginx)")


def workers_of(pid: int) -> dict[int, int]:
    """The worker processes of a supervisor: port -> pid (from /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"--port" in argv:
            found[int(argv[argv.index(b"--port") + 1])] = int(entry.name)
    return found


def metric(port: int, name: str) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5,
                     headers={"Authorization": f"Bearer {TOKEN}"}).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name + " ") or line.startswith(name + "{"))


class Stack:
    """A supervisor of two workers, nginx in front of them."""

    def __init__(self, tmp: Path, redis_url: str, groups: ProcessGroups,
                 workers: int = 2, proxy_port: int = 0) -> None:
        self.groups = groups
        self.first = worker_ports(workers)
        self.ports = [self.first + i for i in range(workers)]
        self.proxy_port = proxy_port or free_port()
        self.url = f"http://127.0.0.1:{self.proxy_port}"
        self.nginx = Nginx(tmp / "nginx", site((DEPLOY / "nginx.conf").read_text(),
                                                {80: self.proxy_port}, self.ports),
                           groups)
        # Registered as it starts: a start that fails below still has it killed.
        self.proc = groups.popen(
            [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.first), "--workers", str(workers), "--redis", redis_url,
             "--public-url", self.url, "--lease-seconds", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env={**os.environ, "NIGHTCALL_METRICS_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"})
        self.wait_ready(self.ports)
        self.nginx.start(self.url + "/healthz")

    def wait_ready(self, ports: list[int], timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        for port in ports:
            while True:
                if self.proc.poll() is not None:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise AssertionError(f"serve exited: {err}")
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, f"no worker on port {port}"
                time.sleep(0.1)



def worker_ports(n: int) -> int:
    """The first of ``n`` consecutive free ports for the workers, below the kernel's
    ephemeral range: a port from ``free_port()`` (port 0) can be given meanwhile to an
    outgoing connection, such as a worker's to Redis, and the next worker then cannot
    bind it (CI saw "address already in use" five times in a row)."""
    import random
    import socket

    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(max(1024, low - 12000), low - n)
        try:
            for i in range(n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", first + i))
        except OSError:
            continue
        return first
    raise RuntimeError("no free ports for the workers below the ephemeral range")


def _busy(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def stack(durable_redis: RedisServer, tmp_path: Path, groups: ProcessGroups) -> Stack:
    """Two workers behind nginx; ``groups`` kills them all at the end (see processes.py)."""
    _need_nginx()
    return Stack(tmp_path, durable_redis.url, groups)


def _doc(redis_url: str, code: str) -> dict[str, Any]:
    raw = redis.Redis.from_url(redis_url).get(f"nightcall:room:{code}")
    assert raw is not None
    return dict(json.loads(raw))


async def _play_rooms(tables: list[tuple[list[Phone], Phone]], during: Any) -> None:
    tasks = []
    for phones, _ in tables:
        tasks += [asyncio.create_task(p.run(first=0)) for p in phones]
    for phones, _ in tables:
        for p in phones:
            await asyncio.wait_for(p.seated.wait(), 30)
    hosts = [asyncio.create_task(h.run(first=0)) for _, h in tables]
    for _, host in tables:
        await asyncio.wait_for(host.seated.wait(), 30)
    await asyncio.sleep(0.3)
    for _, host in tables:
        await host.send({"type": "start"})
    await during()
    await asyncio.wait_for(asyncio.gather(*tasks), 150)
    for _, host in tables:
        await asyncio.wait_for(host.over.wait(), 30)
    for h in hosts:
        h.cancel()


def test_two_workers_behind_nginx_lose_nothing_when_one_is_killed_mid_game(
    stack: Stack, durable_redis: RedisServer
) -> None:
    tables = []
    for t in range(4):
        code, token = create_room(stack.url, call_seconds=1.2, vote_seconds=3.0)
        phones = [Phone([stack.url], code, f"p{i}", seed=100 * t + i) for i in range(5)]
        tables.append((phones, Phone([stack.url], code, "host", seed=100 * t + 9,
                                     host_token=token)))
    before: dict[str, dict[str, Any]] = {}
    seen: dict[str, float] = {}
    killed: dict[str, int] = {}

    async def kill_mid_game() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
            h.last is not None and h.last["clock"]["stage"] == "night" for _, h in tables
        ):
            await asyncio.sleep(0.05)
        # The proxy put each room's connections on one process: nothing is relayed.
        seen["relayed"] = sum(metric(p, "nightcall_relayed_connections") for p in stack.ports)
        seen["players"] = sum(metric(p, "nightcall_connections") for p in stack.ports)
        for phones, _ in tables:
            before[phones[0].code] = _doc(durable_redis.url, phones[0].code)
        pids = workers_of(stack.proc.pid)
        # The worker running most rooms (the hash may have put all four on one).
        port = max(stack.ports, key=lambda p: metric(p, "nightcall_rooms"))
        killed["pid"], killed["port"] = pids[port], port
        os.kill(killed["pid"], signal.SIGKILL)  # no goodbye: its leases run out

    asyncio.run(_play_rooms(tables, kill_mid_game))
    assert seen == {"relayed": 0, "players": 24}  # 4 rooms x (5 phones + the host)
    moved = 0
    for phones, host in tables:
        code = phones[0].code
        was, now = before[code], _doc(durable_redis.url, code)
        assert was["status"] == "playing" and now["status"] == "over"
        # Everything saved before the kill is still the start of the game's history.
        assert now["actions"][: len(was["actions"])] == was["actions"]
        saw_the_recorded_outcome(stack.url, code, [*phones, host])
        for p in phones:
            assert p.last is not None and p.last["view"]["seat"] == p.seat
            assert not [e for e in p.errors if e["code"] != "stale_state"], p.errors
        if any(p.connections > 1 for p in phones):
            moved += 1
            assert all(p.connections > 1 for p in phones)  # the whole table moved
    assert moved >= 1  # (the killed worker ran at least one of the four rooms)
    # The supervisor started the killed worker again, on its port.
    stack.wait_ready(stack.ports, timeout=20)
    assert workers_of(stack.proc.pid)[killed["port"]] != killed["pid"]


def test_a_room_created_through_the_proxy_is_served_where_its_phones_are(
    stack: Stack,
) -> None:
    """Whichever process answered the POST, the room runs on the one the hash picks:
    its host screen, players and agents are all local there."""

    async def go(code: str, token: str) -> None:
        ws_base = stack.url.replace("http://", "ws://")
        async with websockets.connect(f"{ws_base}/ws/{code}") as host, \
                websockets.connect(f"{ws_base}/ws/{code}/agent?name=Agent") as agent:
            await host.send(json.dumps({"type": "hello", "as": "host", "token": token}))
            assert json.loads(await asyncio.wait_for(host.recv(), 10))["type"] == "welcome"
            await asyncio.sleep(0.3)
            rooms = [metric(p, "nightcall_rooms") for p in stack.ports]
            assert sorted(rooms)[-1] >= 1
            assert sum(metric(p, "nightcall_relayed_connections") for p in stack.ports) == 0
            assert agent.close_code is None

    for _ in range(4):
        code, token = create_room(stack.url)
        asyncio.run(go(code, token))


def test_the_shipped_configurations_pass_nginx_t(tmp_path: Path) -> None:
    _need_nginx()
    plain = Nginx(tmp_path / "plain", site((DEPLOY / "nginx.conf").read_text(),
                                           {80: free_port()}, [8001, 8002]))
    done = plain.test()
    assert done.returncode == 0, done.stderr
    tls_text = (DEPLOY / "nginx-tls.conf").read_text()
    # One place for the routing: both files start with the same maps and upstream.
    shared = (DEPLOY / "nginx.conf").read_text().split("server {\n", 1)[0]
    assert tls_text.split("server {\n", 1)[0].split("\nmap ", 1)[1] == \
        shared.split("\nmap ", 1)[1]


def test_sigterm_stops_every_worker_within_5_s_and_tells_the_phones(
    stack: Stack, durable_redis: RedisServer
) -> None:
    """``serve --workers 2`` stopped by SIGTERM (systemctl stop): each worker closes its
    websockets with 1012 and saves, and the whole tree is gone within 5 s; the rooms'
    leases are released, so another server takes them at once."""
    rooms = [create_room(stack.url) for _ in range(4)]
    closes: list[int | None] = []

    async def go() -> float:
        ws_base = stack.url.replace("http://", "ws://")
        sockets = []
        for code, token in rooms:
            ws = await websockets.connect(f"{ws_base}/ws/{code}")
            await ws.send(json.dumps({"type": "hello", "as": "host", "token": token}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
            sockets.append(ws)
        codes, seconds = await closes_on_sigterm(stack.proc, sockets)
        closes.extend(codes)
        return seconds

    pids = list(workers_of(stack.proc.pid).values())
    took = asyncio.run(go())
    assert closes == [1012] * 4
    assert took < 5 and stack.proc.returncode == 0
    assert not [p for p in pids if Path(f"/proc/{p}").exists()
                and "zombie" not in Path(f"/proc/{p}/status").read_text()]
    r = redis.Redis.from_url(durable_redis.url)
    assert [r.get(f"nightcall:lease:{code}") for code, _ in rooms] == [None] * 4


def test_a_worker_that_keeps_dying_stops_the_service(durable_redis: RedisServer,
                                                     groups: ProcessGroups) -> None:
    """Its port is taken: the supervisor starts it again a few times, then stops every
    worker and exits with status 1 (for systemd to report), rather than loop forever."""
    import socket

    first = worker_ports(2)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", first + 1))
        taken.listen()
        proc = groups.popen(
            [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1",
             "--port", str(first), "--workers", "2", "--redis", durable_redis.url],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=90)
    assert proc.returncode == 1
    assert "worker 1 keeps exiting" in err.decode()
    assert not _busy(first)  # worker 0 was stopped too


def test_servers_that_fail_to_start_are_stopped_with_their_workers(
    durable_redis: RedisServer, tmp_path: Path,
) -> None:
    """The teardown of every test here: a stack whose start fails after its supervisor
    and workers are up (nginx cannot take its port) leaves no process behind, nor does
    one whose supervisor died first and left its workers running."""
    import socket

    _need_nginx()
    groups = ProcessGroups()
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            with pytest.raises(RuntimeError, match="nginx exited"):
                Stack(tmp_path / "a", durable_redis.url, groups,
                      proxy_port=int(taken.getsockname()[1]))
        assert len(groups.procs) == 2  # the supervisor (its workers were up) and nginx
    finally:
        leaders = [p.pid for p in groups.procs]
        groups.stop_all()
    assert leaders and not [g for g in leaders if members(g)]

    groups = ProcessGroups()
    s = Stack(tmp_path / "b", durable_redis.url, groups)
    workers = list(workers_of(s.proc.pid).values())
    assert len(workers) == 2
    os.kill(s.proc.pid, signal.SIGKILL)  # the supervisor dies; its workers run on
    s.proc.wait(10)
    assert all(Path(f"/proc/{w}").exists() for w in workers)
    groups.stop_all()
    assert not members(s.proc.pid) and not members(s.nginx.proc.pid if s.nginx.proc else 0)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()
                and "zombie" not in Path(f"/proc/{w}/status").read_text()]


def test_a_room_is_linked_to_a_table_from_any_worker(
    stack: Stack, durable_redis: RedisServer
) -> None:
    """POST /api/rooms/CODE/table changes the room where it runs, whichever process
    the request reaches (the proxy's pick, or the other one after a failover): the
    room's owner checks the host's token, saves, and only then is the answer sent."""
    code, token = create_room(stack.url)
    owner, other = (f"http://127.0.0.1:{p}" for p in stack.ports)
    made = httpx.post(f"{stack.url}/api/tables", json={"language": "en"}, timeout=10)
    assert made.status_code == 201, made.text
    table = made.json()["token"]

    def link(base: str, host_token: str, to: str | None) -> httpx.Response:
        return httpx.post(f"{base}/api/rooms/{code}/table", timeout=10,
                          json={"host_token": host_token, "table": to})

    async def go() -> None:
        # The host screen on the first worker: that process owns the room now.
        async with websockets.connect(f"{owner.replace('http', 'ws')}/ws/{code}") as host:
            await host.send(json.dumps({"type": "hello", "as": "host", "token": token}))
            assert json.loads(await asyncio.wait_for(host.recv(), 10))["type"] == "welcome"
            assert metric(stack.ports[0], "nightcall_rooms") == 1
            # From the process that does not run it: asked of the owner, saved there.
            r = await asyncio.to_thread(link, other, token, table)
            assert r.status_code == 200, r.text
            assert r.json() == {"room": code, "table": True}
            assert _doc(durable_redis.url, code)["settings"]["table"] == table
            # Through nginx, wherever it sends the request; then the link undone.
            r = await asyncio.to_thread(link, stack.url, token, None)
            assert r.status_code == 200, r.text
            assert _doc(durable_redis.url, code)["settings"]["table"] is None
            r = await asyncio.to_thread(link, other, token, table)
            assert r.status_code == 200 and r.json()["table"] is True
            # A wrong host token changes nothing, from either process.
            for base in (owner, other):
                r = await asyncio.to_thread(link, base, "x" * len(token), None)
                assert r.status_code == 403, r.text
                assert r.json()["code"] == "bad_token"
            assert _doc(durable_redis.url, code)["settings"]["table"] == table
            # Still served by its owner alone: the request was not a takeover.
            assert metric(stack.ports[1], "nightcall_rooms") == 0

    asyncio.run(go())
