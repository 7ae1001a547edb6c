"""Helpers for the web app tests: fast rooms and a websocket reader."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.testclient import TestClient

    from nightcall.engine.actions import Action
    from nightcall.server.messages import CreateRoom
    from nightcall.server.room import Room, Seat

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




def host_starts(session: Any, token: str) -> WS:
    """The host's websocket says hello, starts the game from the lobby and waits for the
    first observation (``latest("observation")``)."""
    host = WS(session)
    host.send(type="hello", **{"as": "host", "token": token})
    host.until(lambda m: m["type"] == "lobby")
    host.send(type="start")
    host.until(lambda m: m["type"] == "observation")
    return host


def save_playing(db: Path, code: str, settings: CreateRoom, seats: Iterable[Seat],
                 roles: list[str], seed: int, actions: Iterable[tuple[int, Action]] = (),
                 stage: str = "dusk") -> Room:
    """A room saved as playing, nobody connected yet, at ``stage`` of the first night or
    day on its clock after ``actions``: what the server finds after a restart."""
    from nightcall.server.room import ClockState, Room
    from nightcall.server.store import SQLiteStore

    room = Room(code, settings)
    room.seats = list(seats)
    room.status, room.seed, room.roles, room.actions = "playing", seed, roles, list(actions)
    room.clock = ClockState(stage, 1, 0)
    room.rebuild()
    store = SQLiteStore(db)
    store.save(room.code, room.to_doc(), finished=False)
    store.close()
    return room


def two_dead_at_dawn(names: list[str], roles: list[str],
                     keep: Callable[[tuple[int, ...]], bool] = lambda dead: True,
                     ) -> tuple[int, list[tuple[int, Action]], tuple[int, ...]]:
    """The first seed whose random Lupus night leaves two or more dead at the first dawn
    (the game not over, and ``keep(dead)``): the seed, the night's actions, the dead."""
    from nightcall.engine.ruleset import get_ruleset

    lupus = get_ruleset("lupus")
    for seed in range(1000):
        rng = random.Random(seed)
        st = lupus.deal(names, roles, seed)
        actions = []
        while lupus.view(st, None)["phase"] == "night":
            seat = rng.choice(lupus.waiting_for(st))
            action = rng.choice(lupus.legal_actions(st, seat))
            lupus.apply(st, seat, action)
            actions.append((seat, action))
        dead = tuple(lupus.dawn_deaths(st))
        if len(dead) >= 2 and not lupus.is_over(st) and keep(dead):
            return seed, actions, dead
    raise AssertionError("no seed gives two deaths at the first dawn")


def make_room(client: TestClient, **settings: Any) -> tuple[str, str]:
    body = {**FAST, **settings}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["room"], data["host_token"]
