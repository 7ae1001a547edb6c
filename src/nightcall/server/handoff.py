"""Handing a phone's connection to the process that owns its room, on the same machine.

With ``nightcall serve --redis URL --workers N`` the kernel gives each new connection
to whichever worker accepts first, so about half of a room's phones land on a worker
that does not own the room; relaying them over Redis pub/sub (:mod:`.cluster`) costs
a PUBLISH, a decode and a second hop for every message, both ways. When the owner runs
on the same machine, the worker that accepted a websocket can instead pass the socket
itself to the owner before answering the handshake: the file descriptor travels over
a Unix datagram socket (``SCM_RIGHTS``) with the client's handshake request, the owner
adopts the TCP connection as if it had accepted it, and answers the handshake itself.
The phone never notices. Relaying stays for owners on other machines, and as the
fallback whenever a handoff cannot be made.

Each process listens on ``<runtime dir>/nightcall-<uid>/<worker id>.sock`` (a directory
only its user can enter) and announces it in Redis with the machine's identity
(``<prefix>:handoff:<worker id>``, renewed with the leases).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import tempfile
import time
from array import array
from pathlib import Path
from typing import Any

log = logging.getLogger("nightcall.cluster")

# What uvicorn is told about websockets, by ``serve`` and for adopted connections alike.
WS_SETTINGS: dict[str, Any] = {"ws": "websockets-sansio", "ws_max_size": 16384,
                               "ws_per_message_deflate": False}
MAX_REQUEST = 65536  # a handshake request's bytes, with every header
DISABLED = os.environ.get("NIGHTCALL_HANDOFF") == "off"  # tests of the relay; baselines


def machine_id() -> str:
    """This machine (and boot): processes with the same id can pass sockets."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()}/{boot}"


def supported() -> bool:
    """Unix sockets that carry file descriptors (Linux, the BSDs, macOS)."""
    return hasattr(socket, "AF_UNIX") and hasattr(socket, "SCM_RIGHTS") and hasattr(os, "getuid")


def socket_dir() -> Path:
    """A directory for this user's sockets that no other user can enter or have made:
    whoever can write to a process's socket can hand it connections."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    path = Path(base) / f"nightcall-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    info = path.lstat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077 or not path.is_dir():
        raise PermissionError(f"{path} is not private to this user: no handoffs")
    return path


class Handoff:
    """This process's end: it adopts connections sent to it, and sends connections to
    the owners of their rooms."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.machine = machine_id()
        self.path = socket_dir() / f"{worker}.sock"
        self.inbox: socket.socket | None = None
        self.outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # raises if none
        self.factory: Any = None
        self.state: Any = None  # uvicorn's ServerState of the adopted connections
        self.known: dict[str, tuple[float, str | None]] = {}  # worker -> (until, path)
        self.sent = 0
        self.adopted = 0

    # --- receiving ------------------------------------------------------------------
    def listen(self, app: Any) -> None:
        """Adopt connections sent here, serving them with ``app`` as uvicorn would."""
        import uvicorn
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from uvicorn.server import ServerState

        config = uvicorn.Config(app, log_config=None, lifespan="off", **WS_SETTINGS)
        config.load()
        state = self.state = ServerState()
        self.factory = lambda: WebSocketsSansIOProtocol(config=config, server_state=state,
                                                        app_state={})
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        inbox.bind(str(self.path))
        inbox.setblocking(False)
        self.inbox = inbox
        asyncio.get_running_loop().add_reader(inbox.fileno(), self._receive)

    def _receive(self) -> None:
        assert self.inbox is not None
        while True:
            try:
                request, fds, _, _ = socket.recv_fds(self.inbox, MAX_REQUEST, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.warning("handoff socket failed", exc_info=True)
                return
            for fd in fds:
                asyncio.get_running_loop().create_task(self._adopt(fd, request))

    async def _adopt(self, fd: int, request: bytes) -> None:
        conn = socket.socket(fileno=fd)
        try:
            _, protocol = await asyncio.get_running_loop().connect_accepted_socket(
                self.factory, conn)
        except Exception:
            log.warning("cannot adopt a handed-off connection", exc_info=True)
            conn.close()
            return
        self.adopted += 1
        protocol.data_received(request)  # the handshake, as the phone sent it

    def close(self) -> None:
        """Stop taking connections, and close the adopted ones as uvicorn closes its own
        at a stop (1012, "service restart": the pages reconnect at once)."""
        if self.state is not None:
            for conn in list(self.state.connections):
                with contextlib.suppress(Exception):
                    conn.shutdown()
        if self.inbox is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.inbox.fileno())
            self.inbox.close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        self.outbox.close()

    # --- announcing and finding -----------------------------------------------------
    def announcement(self) -> str:
        return json.dumps({"machine": self.machine, "path": str(self.path)})

    def path_of(self, worker: str, lookup: Any) -> str | None:
        """Where ``worker`` takes connections, if it runs on this machine (cached a few
        seconds; ``lookup`` reads its announcement from Redis)."""
        now = time.monotonic()
        cached = self.known.get(worker)
        if cached is not None and cached[0] > now:
            return cached[1]
        path = None
        raw = lookup(worker)
        if raw:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                found = json.loads(raw)
                if found["machine"] == self.machine:
                    path = str(found["path"])
        self.known[worker] = (now + 5.0, path)
        return path

    # --- sending ----------------------------------------------------------------------
    async def send(self, ws: Any, path: str) -> bool:
        """Pass this not yet accepted websocket to the process listening at ``path``.
        True when it went: this process then lets go of it without a word."""
        from nightcall.server.direct import RAW_SEND

        proto: Any = getattr(ws.scope.get(RAW_SEND), "__self__", None)
        transport = getattr(proto, "transport", None)
        request = getattr(proto, "request", None)
        if transport is None or request is None or getattr(proto, "handshake_complete", True):
            return False
        if transport.get_extra_info("sslcontext") is not None:
            return False  # TLS state lives in this process: it cannot move with the socket
        raw = transport.get_extra_info("socket")
        if raw is None:
            return False
        data = request.serialize()
        if len(data) > MAX_REQUEST:
            return False
        fd = os.dup(raw.fileno())
        try:
            # (socket.send_fds drops its address argument on Python 3.11: sendmsg.)
            self.outbox.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                          array("i", [fd]))], 0, path)
        except OSError:  # the owner is gone or its socket is full: relay instead
            self.known = {w: hit for w, hit in self.known.items() if hit[1] != path}
            return False
        finally:
            os.close(fd)
        self.sent += 1
        # Let go here without closing the connection (the owner holds it now): abort
        # closes only this process's descriptor, and uvicorn, seeing the connection
        # lost, writes nothing.
        transport.abort()
        for _ in range(100):
            if proto.disconnected:
                break
            await asyncio.sleep(0.001)
        return True
