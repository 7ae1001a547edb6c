"""Proof of the ruleset contract (issue #13): a fourth game, defined entirely in this
folder, plays through every part of nightcall that takes a ruleset: records and
`nightcall replay`, `nightcall simulate`, the agent environment, the leak audit, and a
real `nightcall serve` game over websockets."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from nightcall.agents.env import NightcallEnv
from nightcall.audit.core import audit_game, default_configs, run_audit
from nightcall.engine import records
from nightcall.engine.errors import DeckError, RecordError
from nightcall.engine.ruleset import all_rulesets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from liveserver import LiveServer
from test_restart import read_until as _read_until

pytestmark = pytest.mark.timeout(120)

RECORD = {
    "ruleset": "moonlight",
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "cards": {"Ann": "villager", "Bob": "werewolf", "Cy": "seer", "Dee": "villager"},
    "steps": [
        {"call": "seer", "player": "Cy", "look": "Bob", "text": "Cy sees the Werewolf."},
        {"votes": {"Ann": "Bob", "Bob": "Ann", "Cy": "Bob", "Dee": "Bob"}},
    ],
}


def nightcall(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line, in a process of its own (PYTHONPATH set by the fixture)."""
    return subprocess.run([sys.executable, "-m", "nightcall.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_it_is_found_like_the_built_in_ones(moonlight: Any) -> None:
    assert moonlight.id == "moonlight"
    assert set(all_rulesets()) >= {"onuw", "epic", "lupus", "moonlight"}
    assert moonlight.night_calls(moonlight.default_deck(4)) == ["werewolf", "seer"]


def test_a_record_replays_to_its_outcome(moonlight: Any, tmp_path: Path) -> None:
    rs, state = records.replay(RECORD)
    assert rs is moonlight
    out = rs.outcome_json(state)
    # Bob, the Werewolf, has three votes: he dies and the village wins.
    assert out["dead"] == ["Bob"] and out["teams"] == ["village"]
    assert out["winners"] == ["Ann", "Cy", "Dee"]
    # The record written back replays to the same end.
    again = rs.replay(rs.to_record(state))
    assert rs.outcome_json(again) == out

    path = tmp_path / "moon.json"
    path.write_text(json.dumps(RECORD))
    done = nightcall("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winners"] == ["Ann", "Cy", "Dee"]
    account = nightcall("replay", str(path))
    assert account.returncode == 0, account.stderr
    assert "Cy looked at Bob's card." in account.stdout


def test_a_bad_record_is_refused_with_the_step_named(moonlight: Any) -> None:
    bad = {**RECORD, "steps": [{"call": "seer", "player": "Ann", "look": "Bob"}]}
    with pytest.raises(RecordError, match="step 0"):
        records.replay(bad)
    with pytest.raises(DeckError, match="exactly one werewolf"):
        moonlight.validate_deck(3, ["villager", "seer", "villager"])


def test_simulate_plays_it(moonlight: Any) -> None:
    done = nightcall("simulate", "moonlight", "-n", "5", "-g", "200", "--bots", "random",
                     "-w", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 200
    teams = result["win_rates"]["teams"]
    assert {"village", "werewolves"} <= set(teams)
    assert sum(t["wins"] for t in teams.values()) == 200  # one side wins every game


def test_the_agent_environment_plays_it(moonlight: Any) -> None:
    env = NightcallEnv("moonlight", 4)
    for seed in range(5):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter(1000):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            choices = [i for i, bit in enumerate(obs["action_mask"]) if bit]
            assert choices, f"{agent} was selected with an empty mask"
            env.step(rng.choice(choices))
        assert not env.agents
        assert moonlight.outcome(env.state) is not None


def test_the_leak_audit_checks_it_and_finds_nothing(moonlight: Any) -> None:
    result = run_audit({"moonlight": 200}, seed=1)
    assert result.games == 200 and result.messages > 200 * 5
    assert result.findings == []


def test_the_leak_audit_catches_a_planted_leak(moonlight: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    module = sys.modules[type(moonlight).__module__]
    monkeypatch.setattr(module, "visible_to", lambda event, viewer: True)  # every secret out
    cfg = next(default_configs("moonlight", random.Random(2)))
    found = audit_game(cfg).leaks
    assert found and any("deal" in f.what or "look" in f.what for f in found)


def test_a_real_server_plays_it_over_websockets(moonlight: Any, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "rooms.sqlite3").start()
    try:
        listed = httpx.get(f"{server.url}/api/rulesets").json()
        ids = [r["id"] for r in (listed["rulesets"] if isinstance(listed, dict) else listed)]
        assert "moonlight" in ids
        r = httpx.post(f"{server.url}/api/rooms", json={
            "ruleset": "moonlight", "seats": 4,
            "roles": ["werewolf", "seer", "villager", "villager"], "bots": "random",
            "call_seconds": 0.5, "discussion_seconds": 0.3, "vote_seconds": 5})
        assert r.status_code == 201, r.text
        code, host_token = r.json()["room"], r.json()["host_token"]
        ws_url = server.url.replace("http", "ws")

        async def game() -> list[dict[str, Any]]:
            host = await websockets.connect(f"{ws_url}/ws/{code}")
            await host.send(json.dumps({"type": "hello", "as": "host", "token": host_token}))
            phones = []
            for name in ("Ann", "Bob", "Cy", "Dee"):
                ws = await websockets.connect(f"{ws_url}/ws/{code}")
                await ws.send(json.dumps({"type": "hello", "name": name}))
                await _read_until(ws, lambda m: m["type"] == "welcome")
                phones.append(ws)
            await host.send(json.dumps({"type": "start"}))

            async def play(ws: Any) -> dict[str, Any]:
                # Each phone answers its legal moves at once: the Seer looks, all vote.
                answered: set[int] = set()
                while True:
                    msg = await _read_until(ws, lambda m: m["type"] == "observation", 40)
                    view = msg["view"]
                    if view["phase"] == "over":
                        return msg
                    if view.get("legal") and msg["state_id"] not in answered:
                        answered.add(msg["state_id"])
                        await ws.send(json.dumps({"type": "action", "action": view["legal"][0],
                                                  "state_id": msg["state_id"]}))

            ends = await asyncio.gather(*(play(ws) for ws in phones))
            for ws in (host, *phones):
                await ws.close()
            return list(ends)

        ends = asyncio.run(game())
    finally:
        server.stop()
    outcomes = [e["view"]["outcome"] for e in ends]
    assert all(o == outcomes[0] for o in outcomes)
    assert outcomes[0]["teams"] in (["village"], ["werewolves"])
    # Every phone saw its own card and nobody else's before the end.
    for seat, end in enumerate(ends):
        deals = [e for e in end["view"]["events"] if e["kind"] == "deal"]
        assert [d["seat"] for d in deals] == [seat]
        # Its events come told by the one renderer, from its own lines (site/locales):
        # a sentence for each, the phone's own card in the second person.
        assert len(end["said"]) == len(end["view"]["events"]) and all(end["said"])
        assert end["said"][0].startswith("You look at your card: you are the ")
        assert end["said"][-1].startswith("The votes are counted")
