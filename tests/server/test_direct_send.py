"""The direct send path (server/direct.py) under a real uvicorn: updates are written
straight to the connection, and when the connection cannot take more (flow control)
they wait in order behind the ASGI path, none lost or overtaken."""

from __future__ import annotations

import asyncio
import json
import socket
import tempfile
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from nightcall.server.app import WsSink, create_app
from nightcall.server.direct import RAW_SEND
from nightcall.server.messages import CreateRoom
from nightcall.server.store import SQLiteStore


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serve(app: Any, port: int) -> uvicorn.Server:
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws="websockets-sansio", ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    return server


async def _until(predicate: Any, what: str) -> None:
    for _ in range(500):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_updates_go_out_directly_and_keep_their_order_under_flow_control() -> None:
    async def go() -> None:
        app = create_app(SQLiteStore(Path(tempfile.mkdtemp()) / "rooms.sqlite3"))
        hub = app.state.hub
        port = _port()
        server = await _serve(app, port)
        try:
            room = hub.create(CreateRoom(seats=5))
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/{room.code}")
            await ws.send(json.dumps({"type": "hello", "name": "Ann"}))
            first = json.loads(await ws.recv())
            assert first["type"] == "welcome"
            await _until(lambda: len(room.sinks) == 1, "the seat")
            sink = next(iter(room.sinks))
            assert isinstance(sink, WsSink)
            assert sink.direct is not None, "uvicorn's sans-I/O connection was not found"

            # Count the direct writes: a lobby change reaches Ann through them.
            direct, calls = sink.direct, []

            def counting(data: bytes) -> bool:
                calls.append(data)
                return direct(data)

            sink.direct = counting
            await _drain(ws)
            room.add_bot()
            lobby = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert lobby["type"] == "lobby" and len(lobby["seats"]) == 2
            assert calls and json.loads(calls[-1]) == lobby

            # The connection stops taking writes (uvicorn's flow control): the next
            # updates queue behind the ASGI path, and come out in order once it resumes.
            proto = sink.ws.scope[RAW_SEND].__self__
            proto.writable.clear()
            written = len(calls)
            for _ in range(3):
                room.add_bot()
            await asyncio.sleep(0.05)
            assert sink.busy, "a send that has to wait must hold the sends behind it"
            proto.writable.set()
            seats = [len(json.loads(await asyncio.wait_for(ws.recv(), 5))["seats"])
                     for _ in range(3)]
            assert seats == [3, 4, 5]
            # Only the first was tried directly (and refused); the others queued behind it.
            assert len(calls) == written + 1
            await _until(lambda: not sink.busy, "the writer to empty its queue")
            room.kick(4)
            again = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert len(again["seats"]) == 4
            assert json.loads(calls[-1]) == again  # direct again once the queue is empty
            await ws.close()
        finally:
            server.should_exit = True
            await asyncio.sleep(0.2)

    asyncio.run(go())


async def _drain(ws: Any) -> None:
    """Read whatever is already on its way (the lobby after the welcome)."""
    while True:
        try:
            await asyncio.wait_for(ws.recv(), 0.2)
        except TimeoutError:
            return


def test_text_frames_are_the_ones_websockets_builds() -> None:
    from websockets.frames import Frame, Opcode

    from nightcall.server.direct import text_frame

    for n in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        data = ("é" * n).encode()[:n]
        assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(
            mask=False, extensions=[]), n
