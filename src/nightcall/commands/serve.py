"""``nightcall serve``: the web app, for a table of phones and a shared screen."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from nightcall.commands._options import command_options

if TYPE_CHECKING:  # (the CLI imports what a command uses when it runs)
    from starlette.applications import Starlette


def default_db() -> Path:
    """$XDG_DATA_HOME/nightcall/rooms.sqlite3 (~/.local/share/nightcall by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nightcall" / "rooms.sqlite3"


# What uvicorn is told about websockets. No per-message deflate: on a local network
# bandwidth is free and CPU is not.
WS_SETTINGS: dict[str, Any] = {"ws": "websockets-sansio", "ws_max_size": 16384,
                               "ws_per_message_deflate": False}
# A stop closes every websocket with 1012 ("service restart": the pages reconnect at
# once) and waits this long for the connections to end before the last saves.
GRACEFUL_SECONDS = 3
CONFIG_ENV = "NIGHTCALL_SERVE_CONFIG"
TOKEN_ENV = "NIGHTCALL_METRICS_TOKEN"


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")]
    = "0.0.0.0",
    port: Annotated[int, typer.Option(help="TCP port (with --workers N: the first of N "
                                      "ports, one per process).")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file for rooms (default: the data directory).")
    ] = None,
    public_url: Annotated[
        str, typer.Option(help="The address phones use, for the QR code (e.g. http://192.168.1.5:8000).")
    ] = "",
    time_scale: Annotated[
        float, typer.Option(help="Multiply every timer (0.1: ten times faster; for testing).")
    ] = 1.0,
    dusk_scale: Annotated[
        float, typer.Option(help="Multiply the time the dusk leaves for reading the opening "
                            "aloud (0.1 for tests; the card's own look keeps a call's length).")
    ] = 1.0,
    redis: Annotated[
        str | None,
        typer.Option(help="Keep rooms in Redis at this URL (redis://host:port/0) instead of "
                     "the SQLite file; every process on the same Redis serves every room."),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Server processes, on the ports --port, --port + 1, ...: put "
                          "a proxy in front (deploy/nginx.conf). Needs --redis when over 1.")
    ] = 1,
    lease_seconds: Annotated[
        float, typer.Option(help="With --redis: how long a dead process keeps its rooms "
                            "before another one takes them over.")
    ] = 5.0,
    log_format: Annotated[
        str, typer.Option(help="Logs as \"text\" or \"json\" (one object per line).")
    ] = "text",
    metrics_token: Annotated[
        str, typer.Option(help="Serve Prometheus metrics at /metrics to whoever sends "
                          "\"Authorization: Bearer TOKEN\" (also from $NIGHTCALL_METRICS_TOKEN).",
                          envvar=TOKEN_ENV, show_envvar=False)
    ] = "",
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another site whose pages may use this server (e.g. "
                     "https://games.example.org); repeat for several. The public URL's "
                     "own origin is always allowed."),
    ] = None,
    keep_days: Annotated[
        float, typer.Option(help="Days a finished game's record is kept in the SQLite "
                            "file (0: for ever). Lobbies nobody started go after a day.")
    ] = 30.0,
    room_burst: Annotated[
        int, typer.Option(help="New rooms one address may open at once, before the limit "
                          "of 6 a minute applies (a venue with many tables behind one "
                          "router: raise it to the number of tables).")
    ] = 30,
) -> None:
    """Serve the web app: create a room on the big screen, join with phones."""
    import json

    from nightcall.server.ops import setup_logging

    if workers < 1:
        typer.echo("--workers must be at least 1", err=True)
        raise typer.Exit(2)
    if workers > 1 and not redis:
        typer.echo("several workers share their rooms through Redis: add --redis URL",
                   err=True)
        raise typer.Exit(2)
    if log_format not in ("text", "json"):
        typer.echo("--log-format is text or json", err=True)
        raise typer.Exit(2)
    if not 1 <= port <= 65535 - (workers - 1):
        top = 65535 - (workers - 1)
        where = f"1 to {top} with --workers {workers}" if workers > 1 else "1 to 65535"
        typer.echo(f"--port is a TCP port, {where}, not {port}", err=True)
        raise typer.Exit(2)
    # (with --workers the supervisor reports a worker that cannot listen, and stops)
    problem = _cannot_listen(host, port) if workers == 1 else ""
    if problem:
        typer.echo(f"cannot listen on {host}:{port}: {problem}", err=True)
        raise typer.Exit(2)
    if room_burst < 1:
        typer.echo("--room-burst must be at least 1", err=True)
        raise typer.Exit(2)
    if keep_days < 0:
        typer.echo("--keep-days is 0 (for ever) or more", err=True)
        raise typer.Exit(2)
    for flag, value in (("--time-scale", time_scale), ("--dusk-scale", dusk_scale),
                        ("--lease-seconds", lease_seconds)):
        if not value > 0:  # (also refuses nan)
            typer.echo(f"{flag} must be more than 0, not {value:g}", err=True)
            raise typer.Exit(2)
    for flag, url in (("--public-url", public_url),
                      *(("--allow-origin", o) for o in allow_origin or ())):
        if url and not _web_address(url):
            typer.echo(f"{flag} is a web address such as http://192.168.1.5:8000, "
                       f"not {url!r}", err=True)
            raise typer.Exit(2)
    public_url = public_url.rstrip("/")
    # Join links and QR codes say this address, chosen now: never a request's Host
    # header, which any client sets to whatever it likes.
    if not public_url and host in ("0.0.0.0", "::"):
        public_url = f"http://{_lan_address()}:{port}"
    elif not public_url:
        public_url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    setup_logging(log_format)
    if redis:
        import redis as redis_py  # missing: the command names the extra to install

        try:
            redis_py.Redis.from_url(redis, socket_timeout=5).ping()  # fail now, clearly
        except (redis_py.RedisError, ValueError) as exc:
            typer.echo(f"cannot use Redis at {redis}: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"rooms are kept in Redis at {redis}, shared by every process using it")
    else:
        path = db or default_db()
        problem = _cannot_keep_rooms(path)
        if problem:
            typer.echo(f"cannot keep rooms in {path}: {problem}", err=True)
            raise typer.Exit(2)
        typer.echo(f"rooms are kept in {path}")
    config = {"db": str(db or default_db()), "redis": redis, "scale": time_scale,
              "dusk_scale": dusk_scale,
              "public_url": public_url, "lease_seconds": lease_seconds,
              "log_format": log_format, "allow_origins": list(allow_origin or []),
              "keep_days": keep_days, "room_burst": room_burst}
    if workers > 1:
        typer.echo(f"{workers} processes on ports {port} to {port + workers - 1}: "
                   f"phones open {public_url}")
        raise typer.Exit(supervise(host, port, workers, config, metrics_token))
    typer.echo(f"open {public_url}/ on the shared screen")
    os.environ[CONFIG_ENV] = json.dumps(config)
    run_one(host, port, metrics_token)


def _web_address(url: str) -> bool:
    """An http(s) address with a host: what a phone can open and an origin check can use."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _cannot_keep_rooms(path: Path) -> str:
    """Why the SQLite file at ``path`` cannot be opened for the rooms ("" if it can):
    said before the server starts, not as a crash at its first room."""
    import sqlite3
    from contextlib import closing

    if path.is_dir():
        return "it is a folder; give a file name, e.g. --db rooms.sqlite3"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA user_version").fetchone()
    except (OSError, sqlite3.Error) as exc:
        return str(exc)
    return ""


def run_one(host: str, port: int, metrics_token: str) -> None:
    """One server process: uvicorn, the app from the settings in the environment."""
    import uvicorn

    parent = os.environ.get(PARENT_ENV)
    if parent:  # a worker of ``supervise``: it ends with its supervisor
        _die_with_parent()
        if str(os.getppid()) != parent:
            raise SystemExit(0)  # the supervisor is already gone
    import logging

    app = app_from_env(metrics_token)
    logging.getLogger("nightcall.serve").info("process %d serving on %s:%d", os.getpid(),
                                              host, port)
    uvicorn.run(app, host=host, port=port, log_config=None, log_level="warning",
                access_log=False, **WS_SETTINGS, timeout_graceful_shutdown=GRACEFUL_SECONDS)


PARENT_ENV = "NIGHTCALL_SUPERVISOR"


def supervise(host: str, port: int, workers: int, config: dict[str, Any],
              metrics_token: str) -> int:
    """Run ``workers`` server processes, each on a port of its own, behind a proxy
    that sends each room to one of them (deploy/nginx.conf). A worker that dies is
    started again (one that keeps dying at once stops them all, exit status 1, for
    the init system to see); SIGTERM or SIGINT stops them all (each closes its
    websockets with 1012 and saves), and this returns once they are gone."""
    import json
    import logging
    import signal
    import subprocess
    import sys
    import time

    log = logging.getLogger("nightcall.serve")
    env = {**os.environ, CONFIG_ENV: json.dumps(config), PARENT_ENV: str(os.getpid()),
           TOKEN_ENV: metrics_token}
    stopping: list[int] = []

    def start(i: int) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([sys.executable, "-m", "nightcall.cli", "serve-worker",
                                 "--host", host, "--port", str(port + i)], env=env)
        log.info("worker %d started on %s:%d (pid %d)", i, host, port + i, proc.pid)
        return proc

    def stop(signum: int, frame: object) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    procs = [start(i) for i in range(workers)]
    started = [time.monotonic()] * workers
    quick = [0] * workers  # exits in a row soon after a start: something is wrong
    failed = 0
    while not stopping and not failed:
        time.sleep(0.2)
        for i, proc in enumerate(procs):
            code = proc.poll()
            if code is None or stopping:
                continue
            quick[i] = quick[i] + 1 if time.monotonic() - started[i] < 10 else 1
            if quick[i] >= 5:  # (a port taken, Redis gone): let the init system decide
                log.error("worker %d keeps exiting (%s): stopping every worker", i, code)
                failed = 1
                break
            log.warning("worker %d (pid %d) exited with %s: starting it again", i,
                        proc.pid, code)
            time.sleep(0.5 * quick[i])
            procs[i], started[i] = start(i), time.monotonic()
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + GRACEFUL_SECONDS + 5
    for proc in procs:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return failed


def serve_worker(
    host: Annotated[str, typer.Option()] = "127.0.0.1",
    port: Annotated[int, typer.Option()] = 8000,
) -> None:
    """One process of ``serve --workers N`` (started by it, with its settings)."""
    import json

    from nightcall.server.ops import setup_logging

    setup_logging(json.loads(os.environ[CONFIG_ENV]).get("log_format", "text"))
    run_one(host, port, os.environ.get(TOKEN_ENV, ""))


def app_from_env(metrics_token: str = "") -> Starlette:
    """The app of one server process, from the settings ``serve`` put in the environment."""
    import json

    from nightcall.server.app import create_app
    from nightcall.server.limits import Limits
    from nightcall.server.store import SQLiteStore

    config = json.loads(os.environ[CONFIG_ENV])
    limits = Limits(room_burst=config.get("room_burst", Limits.room_burst))
    if config["redis"]:
        from nightcall.server.cluster import Node

        node = Node.from_url(config["redis"], lease_seconds=config["lease_seconds"])
        app = create_app(node.store, scale=config["scale"],
                         dusk_scale=config.get("dusk_scale", 1.0), public_url=config["public_url"],
                         node=node, metrics_token=metrics_token,
                         allow_origins=config.get("allow_origins", []), limits=limits)
    else:
        store = SQLiteStore(config["db"], keep_days=config.get("keep_days", 30.0))
        app = create_app(store, scale=config["scale"],
                         dusk_scale=config.get("dusk_scale", 1.0), public_url=config["public_url"],
                         metrics_token=metrics_token,
                         allow_origins=config.get("allow_origins", []), limits=limits)
    tune_gc()
    return app


def _die_with_parent() -> None:
    """A worker process ends with the ``serve`` that started it, even one killed with
    SIGKILL (which cannot pass the word on): Linux delivers SIGTERM to the orphan."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: a stop still reaches the workers
        pass


def tune_gc() -> None:
    """Short pauses for a server with many open sockets (docs/benchmarks.md, Web app).

    A collection stops the event loop, and so every phone, for as long as it runs.
    What start-up loaded (modules, rulesets) lives forever: ``freeze`` takes it out of
    every collection. Young collections stay small and frequent (every 1,000
    allocations, about a millisecond), and so do middle ones (every 5 young ones): a
    young generation of 50,000, or a middle one collected every 50 young ones, filled
    up with the sockets' waiting coroutines and futures and stopped the loop for 40-90
    ms in the middle of a game. Collections of the oldest generation (every object of
    every socket: 300 ms at 1,000 players) wait for 1,000 middle ones, and Python
    also skips them until that generation has grown by a quarter."""
    import gc

    setting = os.environ.get("NIGHTCALL_GC", "")
    if setting == "default":  # for the benchmark's same-run baseline
        return
    gc.collect()
    gc.freeze()
    thresholds = GC_THRESHOLDS
    if setting:  # "young,middle,old": for measuring others (docs/benchmarks.md)
        thresholds = tuple(int(x) for x in setting.split(","))  # type: ignore[assignment]
    gc.set_threshold(*thresholds)


GC_THRESHOLDS = (1_000, 5, 1_000)


def _cannot_listen(host: str, port: int) -> str:
    """Why ``host:port`` cannot be listened on ("" if it can), said before anything starts
    (uvicorn would print a log line after we had told the table where to go)."""
    import socket as sk

    try:
        infos = sk.getaddrinfo(host, port, type=sk.SOCK_STREAM, flags=sk.AI_PASSIVE)
    except (sk.gaierror, UnicodeError) as exc:
        return f"no such address ({exc})"
    family, kind, proto, _, address = infos[0]
    with sk.socket(family, kind, proto) as s:
        s.setsockopt(sk.SOL_SOCKET, sk.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            s.bind(address)
        except PermissionError:
            return "this user may not use ports below 1024 (pick another --port)"
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "another program is using that port (pick another --port)"
            return exc.strerror or str(exc)
    return ""


def _lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    import socket as sk

    s = sk.socket(sk.AF_INET, sk.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def register(app: typer.Typer) -> None:
    app.command("serve", **command_options())(serve)
    app.command("serve-worker", hidden=True)(serve_worker)
