"""CPU per websocket message on the server's side, by send path (not a test).

One uvicorn server in this process (websockets-sansio, as ``nightcall serve`` runs it)
sends N text messages of an update's size to one client in another process, which only
reads. The server's CPU time (``time.process_time``, this process alone: the client's is
not counted) is measured around the sends, for each path, alternating:

- ``starlette``: ``WebSocket.send_text`` (Starlette, its send wrappers, uvicorn);
- ``asgi``: the server's own ASGI ``send`` with a ``websocket.send`` message, as
  ``WsSink`` sends now (server/ops.py ``KeepServerSend``: a public interface);
- ``direct``: the frame written into uvicorn's transport through private attributes,
  as the removed server/direct.py did (loaded from a checkout that still has it,
  ``--direct-from``), for the record of what it saved.

    .venv/bin/python benchmarks/send_path.py --messages 20000 --repeat 5 \\
        --direct-from /work/base/src
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CLIENT = """
import asyncio, sys, websockets
async def main():
    async with websockets.connect(sys.argv[1], max_size=None, compression=None) as ws:
        await ws.send("ready")
        async for msg in ws:
            if msg == "done":
                return
asyncio.run(main())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def load_direct(src: str) -> Any:
    path = Path(src) / "nightcall" / "server" / "direct.py"
    spec = importlib.util.spec_from_file_location("old_direct", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def main(args: argparse.Namespace) -> dict[str, Any]:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    from nightcall.server.ops import SERVER_SEND, KeepServerSend

    direct = load_direct(args.direct_from) if args.direct_from else None
    # An observation's size in the load test: a few hundred bytes of JSON.
    payload = json.dumps({"type": "observation", "view": {"events": ["x" * 40] * 12}})
    results: dict[str, list[float]] = {"starlette": [], "asgi": [], "direct": []}
    if direct is None:
        del results["direct"]
    done = asyncio.Event()

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        await ws.receive_text()
        server_send = ws.scope[SERVER_SEND]
        writer = direct.writer_for(ws.scope) if direct is not None else None
        for _ in range(args.repeat):
            for mode in results:
                cpu = time.process_time()
                for i in range(args.messages):
                    if mode == "starlette":
                        await ws.send_text(payload)
                    elif mode == "asgi":
                        await server_send({"type": "websocket.send", "text": payload})
                    else:
                        assert writer is not None
                        if not writer(payload.encode()):
                            await ws.send_text(payload)
                    if i % 64 == 0:
                        await asyncio.sleep(0)  # let the client read
                results[mode].append((time.process_time() - cpu) / args.messages * 1e6)
                await asyncio.sleep(0.2)
        await ws.send_text("done")
        done.set()

    app: Any = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    app = KeepServerSend(app)
    if direct is not None:
        app = direct.KeepRawSend(app)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning",
                                           ws="websockets-sansio", lifespan="off",
                                           ws_per_message_deflate=False))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    client = subprocess.Popen([sys.executable, "-c", CLIENT, f"ws://127.0.0.1:{port}/ws"])
    await done.wait()
    await asyncio.to_thread(client.wait, 30)
    server.should_exit = True
    await task
    return {"microseconds_cpu_per_message_median": {m: round(statistics.median(v), 2)
                                                    for m, v in results.items()},
            "runs": {m: [round(x, 2) for x in v] for m, v in results.items()},
            "messages_per_run": args.messages, "bytes_per_message": len(payload)}


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--messages", type=int, default=20000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--direct-from", default="", help="a checkout's src/ with server/direct.py")
    print(json.dumps(asyncio.run(main(p.parse_args())), indent=2))
