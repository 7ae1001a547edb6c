"""The dusk's reading time follows ``serve --dusk-scale`` (tests need no time to
listen); its look at the card keeps a call's length, and users get the whole dusk."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from webhelpers import host_starts, make_room

from nightcall.server.app import create_app
from nightcall.server.narration import dusk_line, dusk_seconds
from nightcall.server.store import SQLiteStore


def test_the_reading_time_scales_and_the_look_at_the_card_does_not() -> None:
    line = dusk_line("onuw", "en", ["werewolf", "werewolf", "seer", "robber", "troublemaker",
                                    "villager"])
    words = len(line.split())
    assert words > 10  # a real opening, worth reading slowly
    assert dusk_seconds(line, 5) == pytest.approx(words / 2.5 + 5)  # what users get
    assert dusk_seconds(line, 5, 0.1) == pytest.approx(words / 25 + 5)
    assert dusk_seconds(line, 5, 0.0) == 5


def dusk_length(db: Path, **app: float) -> tuple[float, float]:
    """How long the dusk lasts from its first update, and how long its opening would
    take to read at full length."""
    with TestClient(create_app(SQLiteStore(db), **app)) as client:
        code, token = make_room(client, ruleset="onuw", seats=3, call_seconds=2)
        with client.websocket_connect(f"/ws/{code}") as ws:
            clock = host_starts(ws, token).latest("observation")["clock"]
            assert clock["stage"] == "dusk"
            roles = client.get(f"/api/rooms/{code}").json()["settings"]["roles"]
            reading = len(dusk_line("onuw", "en", roles).split()) / 2.5
            return float(clock["ends_at"]) / 1000 - time.time(), reading


def test_the_server_option_shortens_the_dusk_and_the_default_keeps_it(tmp_path: Path) -> None:
    whole, reading = dusk_length(tmp_path / "a.sqlite3")
    short, _ = dusk_length(tmp_path / "b.sqlite3", dusk_scale=0.05)
    assert reading > 5
    assert whole == pytest.approx(2 + reading, abs=1.0)  # the whole reading, a call's look
    assert short == pytest.approx(2 + 0.05 * reading, abs=1.0)  # the look, a blink of reading
