"""The game master over JSON lines, driven as a real subprocess by a scripted agent."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nightcall.engine.ruleset import all_rulesets

ROOT = Path(__file__).resolve().parents[2]
NIGHTCALL = [sys.executable, "-m", "nightcall.cli"]

pytestmark = pytest.mark.timeout(60)


class GameMaster:
    """``nightcall agent stdio ...`` as a child process we talk to line by line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [*NIGHTCALL, "agent", "stdio", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", bufsize=1,
        )
        self.received: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the game master stopped: {self.stderr()}"
        message: dict[str, Any] = json.loads(line)
        self.received.append(message)
        return message

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def stderr(self) -> str:
        self.proc.wait(timeout=30)
        assert self.proc.stderr is not None
        return self.proc.stderr.read()


def action(kind: str, a: int = -1, b: int = -1, state_id: int | None = None) -> str:
    act: dict[str, Any] = {"kind": kind}
    if a != -1:
        act["a"] = a
    if b != -1:
        act["b"] = b
    msg: dict[str, Any] = {"type": "action", "action": act}
    if state_id is not None:
        msg["state_id"] = state_id
    return json.dumps(msg)


def play_out(
    gm: GameMaster, rng: random.Random, pending: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Answer observations at random (one claim in the day) until the game is over."""
    claimed = False
    while True:
        msg = pending or gm.read()
        pending = None
        if msg["type"] == "game_over":
            return msg
        assert msg["type"] == "observation", msg
        if msg["view"]["phase"] == "day" and msg["talk"] and not claimed:
            choice = rng.choice(msg["talk"])
            claimed = True
        else:
            choice = rng.choice(msg["view"]["legal"])
        gm.send(json.dumps({"type": "action", "action": choice, "state_id": msg["state_id"]}))


def test_a_whole_game_with_bad_lines_refused_on_the_way(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    gm = GameMaster("onuw", "--players", "5", "--seat", "2", "--seed", "3",
                    "--record", str(record))
    welcome = gm.read()
    assert welcome["type"] == "welcome" and welcome["seat"] == 2
    assert welcome["players"] == [f"player_{i}" for i in range(5)]
    assert welcome["protocol"] == 1, "the version is on the wire, as docs/agents.md says"
    gm.send(json.dumps({"type": "hello", "name": "test-agent"}))
    first = gm.read()
    assert first["type"] == "observation" and first["seat"] == 2
    sid = first["state_id"]
    illegal = {"kind": "vote", "a": 2}  # nobody votes for themselves, nor at night
    bad_lines = [
        ("this is not json", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "action", "action": {"kind": "vote", "a": "x"}}', "bad_message"),
        (json.dumps({"type": "action", "action": illegal}), "illegal_action"),
        (action(first["view"]["legal"][0]["kind"], state_id=sid + 5), "stale_state"),
    ]
    for line, code in bad_lines:
        gm.send(line)
        error = gm.read()
        assert error["type"] == "error" and error["code"] == code, error
        assert error["message"] and error["state_id"] == sid
        again = gm.read()
        assert again == first, "after an error the same observation comes again"
    over = play_out(gm, random.Random(1), pending=first)
    assert over["view"]["phase"] == "over" and isinstance(over["won"], bool)
    assert gm.stderr() == "" and gm.proc.returncode == 0

    # Secrets: until the end, this seat is shown only its own deal, never the deal.
    for msg in gm.received:
        if msg["type"] == "observation":
            for event in msg["view"]["events"]:
                assert "cards" not in event
                if event["kind"] == "deal":
                    assert event["seat"] == 2
    # The record of the game replays to the same outcome.
    replayed = subprocess.run([*NIGHTCALL, "replay", "--json", str(record)],
                              capture_output=True, text=True, check=True)
    outcome = json.loads(replayed.stdout)
    assert ("player_2" in outcome["winners"]) == over["won"]
    steps = json.loads(record.read_text())["steps"]
    assert any("claims" in s or "claims_detail" in s for s in steps), "the claim was kept"


def test_same_seed_same_conversation() -> None:
    transcripts = []
    for _ in range(2):
        gm = GameMaster("onuw", "--players", "6", "--seat", "0", "--seed", "21", "--mask")
        welcome = gm.read()
        assert welcome["action_space"], "--mask sends the action space"
        play_out(gm, random.Random(5))
        gm.stderr()
        transcripts.append(gm.received)
    assert transcripts[0] == transcripts[1]
    masks = [m["mask"] for m in transcripts[0] if m["type"] == "observation"]
    assert masks and all(sum(mask) >= 1 for mask in masks)


def test_agent_leaving_early_stops_the_game_with_a_message() -> None:
    gm = GameMaster("onuw", "--players", "4", "--seat", "0", "--seed", "1")
    assert gm.read()["type"] == "welcome"
    assert gm.proc.stdin is not None
    gm.proc.stdin.close()
    err = gm.stderr()
    assert gm.proc.returncode == 3
    assert "closed its output before the game was over" in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["onuw", "--players", "5", "--seat", "7"], "there is no seat 7"),
        (["onuw", "--players", "2"], "for 3 to 10 players"),
        (["chess", "--players", "4"], "unknown ruleset 'chess'"),
        (["onuw", "--players", "3", "--roles", "werewolf,seer"], "3 players need 6 cards"),
    ],
)
def test_bad_setup_is_refused_with_a_reason(args: list[str], words: str) -> None:
    done = subprocess.run([*NIGHTCALL, "agent", "stdio", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert words in done.stderr
    assert done.stdout == ""


def test_play_runs_agent_programs_on_their_seats(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    example = str(ROOT / "examples" / "agent.py")
    done = subprocess.run(
        [*NIGHTCALL, "agent", "play", "onuw", "--players", "5", "--seed", "7",
         "--agent", f"0={sys.executable} {example}", "--agent", f"3={sys.executable} {example}",
         "--record", str(record)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["status"] == "over"
    # Each example agent claimed the card it was dealt, then heard the end.
    dealt = json.loads(record.read_text())["cards"]
    claims = {}
    for step in json.loads(record.read_text())["steps"]:
        claims.update(step.get("claims", {}))
    assert claims == {"player_0": dealt["player_0"], "player_3": dealt["player_3"]}
    assert done.stderr.count("agent: won=") == 2


def test_play_refuses_a_malformed_agent_option() -> None:
    done = subprocess.run([*NIGHTCALL, "agent", "play", "onuw", "--agent", "zero=python x.py"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "is not SEAT=COMMAND" in done.stderr


@pytest.mark.parametrize(("agents", "said"), [
    (["9=python x.py"], "there is no seat 9: the seats are 0 to 4"),
    (["1=python x.py", "1=python y.py"], "seat 1 is given two programs"),
])
def test_play_refuses_a_seat_the_table_lacks_or_two_programs_on_one(
        agents: list[str], said: str) -> None:
    args = [a for spec in agents for a in ("--agent", spec)]
    done = subprocess.run([*NIGHTCALL, "agent", "play", "onuw", "-n", "5", *args],
                          capture_output=True, text=True)
    assert done.returncode == 2 and said in done.stderr, done.stderr


@pytest.mark.parametrize("ruleset", sorted(set(all_rulesets()) - {"onuw"}))
def test_other_rulesets_play_over_stdio_too(ruleset: str) -> None:
    players = max(5, all_rulesets()[ruleset].min_players)
    gm = GameMaster(ruleset, "--seat", "1", "--seed", "2", "--mask")  # default table size
    welcome = gm.read()
    assert welcome["ruleset"] == ruleset and welcome["action_space"]
    assert len(welcome["players"]) == players
    over = play_out(gm, random.Random(2))
    assert over["view"]["phase"] == "over"
    assert gm.stderr() == "" and gm.proc.returncode == 0
    for msg in gm.received:
        if msg["type"] == "observation":
            assert sum(msg["mask"]) == len(msg["view"]["legal"])
            for event in msg["view"]["events"]:
                assert "cards" not in event, "the deal is the master's"
                if event["kind"] == "deal":
                    assert event["seat"] == 1


def test_play_says_so_when_an_agent_program_cannot_start() -> None:
    done = subprocess.run(
        [*NIGHTCALL, "agent", "play", "onuw", "--agent", "0=/no/such/agent --fast"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert "cannot start '/no/such/agent --fast'" in done.stderr


def test_a_silent_agent_gets_a_move_played_for_it_after_the_timeout() -> None:
    gm = GameMaster("onuw", "--players", "4", "--seat", "0", "--seed", "5", "--timeout", "0.3")
    assert gm.read()["type"] == "welcome"
    first = gm.read()
    assert first["type"] == "observation"
    # Say nothing: after 0.3 s a random legal move is played for seat 0.
    timeout = gm.read()
    assert timeout["type"] == "error" and timeout["code"] == "timeout"
    played = timeout["message"].split(": ")[-1].removesuffix(" was played for you")
    legal = {"(" + " ".join([a["kind"], *(str(a[k]) for k in ("a", "b") if k in a)]) + ")"
             for a in first["view"]["legal"]}
    assert played in legal
    over = play_out(gm, random.Random(0))
    assert over["type"] == "game_over"
    assert gm.stderr() == "" and gm.proc.returncode == 0


def test_play_finishes_a_game_whose_agent_never_answers(tmp_path: Path) -> None:
    log = tmp_path / "heard.txt"
    silent = tmp_path / "silent.py"
    silent.write_text(
        "import json, sys\n"
        f"with open({str(log)!r}, 'w') as out:\n"
        "    for line in sys.stdin:\n"
        "        out.write(json.loads(line)['type'] + '\\n')\n"
    )
    done = subprocess.run(
        [*NIGHTCALL, "agent", "play", "onuw", "--players", "4", "--seed", "2",
         "--timeout", "0.2", "--agent", f"1={sys.executable} {silent}"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    heard = log.read_text().split()
    assert heard[0] == "welcome" and heard[-1] == "game_over"
    assert heard.count("error") == heard.count("observation") >= 1
