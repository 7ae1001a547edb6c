"""``nightcall serve``: the web app, for a table of phones and a shared screen."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def default_db() -> Path:
    """$XDG_DATA_HOME/nightcall/rooms.sqlite3 (~/.local/share/nightcall by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nightcall" / "rooms.sqlite3"


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")]
    = "0.0.0.0",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file for rooms (default: the data directory).")
    ] = None,
    public_url: Annotated[
        str, typer.Option(help="The address phones use, for the QR code (e.g. http://192.168.1.5:8000).")
    ] = "",
    time_scale: Annotated[
        float, typer.Option(help="Multiply every timer (0.1: ten times faster; for testing).")
    ] = 1.0,
    redis: Annotated[
        str | None,
        typer.Option(help="Keep rooms in Redis at this URL (redis://host:port/0) instead of "
                     "the SQLite file."),
    ] = None,
) -> None:
    """Serve the web app: create a room on the big screen, join with phones."""
    import logging

    import uvicorn

    from nightcall.server.app import create_app
    from nightcall.server.store import SQLiteStore, Store

    if not public_url and host in ("0.0.0.0", "::"):
        public_url = f"http://{_lan_address()}:{port}"
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    store: Store
    if redis:
        from nightcall.server.store_redis import RedisStore

        try:
            store = RedisStore.from_url(redis)
            store.unfinished()  # fail now, with a clear message, if Redis is unreachable
        except Exception as exc:
            typer.echo(f"cannot use Redis at {redis}: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"rooms are kept in Redis at {redis}")
    else:
        path = db or default_db()
        store = SQLiteStore(path)
        typer.echo(f"rooms are kept in {path}")
    typer.echo(f"open {public_url or f'http://{host}:{port}'}/ on the shared screen")
    app = create_app(store, scale=time_scale, public_url=public_url)
    # No per-message deflate: on a local network bandwidth is free and CPU is not.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=16384,
                ws_per_message_deflate=False)


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
    app.command("serve")(serve)
