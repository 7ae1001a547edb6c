"""A small scripted OpenAI-compatible endpoint on 127.0.0.1, for the LLM player's tests
(tests/agents) and the arena's (tests/arena)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nightcall.agents.table import Table

# What the endpoint answers a request with: an HTTP status and a reply (sent as JSON
# unless it is already text).
Script = Callable[[dict[str, Any]], tuple[int, Any]]


class ScriptedLLM:
    """Answers POST /v1/chat/completions with whatever ``script`` says (another path:
    404); keeps every request, its headers and the time it came."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.times: list[float] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                outer.headers.append(dict(self.headers))
                outer.times.append(time.monotonic())
                if self.path != "/v1/chat/completions":
                    status, reply = 404, {"error": "no such path"}
                else:
                    status, reply = outer.script(body)
                data = reply.encode() if isinstance(reply, str) else json.dumps(reply).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the player gave up waiting
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def to_day(table: Table) -> None:
    """The night played by a random bot, the lowest waiting seat first: the table is at
    its day, where the player under test speaks and votes."""
    from nightcall.bots.random_bot import RandomBot

    bot = RandomBot(0)
    while table.ruleset.view(table.state, None)["phase"] == "night":
        seat = min(table.to_act())
        choice = bot.choose(table.ruleset.view(table.state, seat))
        assert choice is not None
        table.play(seat, choice)
