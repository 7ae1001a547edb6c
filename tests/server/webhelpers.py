"""Helpers for the web app tests: fast rooms and a websocket reader."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.testclient import TestClient

# Timers short enough for tests, long enough for a test thread to answer.
FAST = {"call_seconds": 0.4, "discussion_seconds": 0.3, "vote_seconds": 1.5}


class WS:
    """A websocket client of Starlette's test client, with small reading helpers."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.seen: list[dict[str, Any]] = []

    def send(self, **msg: Any) -> None:
        self.session.send_text(json.dumps(msg))

    def send_raw(self, text: str) -> None:
        self.session.send_text(text)

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.session.receive_json()
        self.seen.append(msg)
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 400) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError(f"no matching message in {limit}; last: {self.seen[-3:]}")

    def latest(self, type_: str) -> dict[str, Any]:
        return next(m for m in reversed(self.seen) if m["type"] == type_)




def make_room(client: TestClient, **settings: Any) -> tuple[str, str]:
    body = {**FAST, **settings}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], data["host_token"]
