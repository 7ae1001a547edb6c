"""The LLM player against a small scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from llmhelpers import Script, ScriptedLLM, to_day

from nightcall.agents.llm import LLMPlayer, parse_choice
from nightcall.agents.table import Table
from nightcall.narration.locale import load
from nightcall.protocol import Observation
from nightcall.rulesets.onuw.state import NOT_VOTED


def completion(text: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}


def options_of(request: dict[str, Any]) -> list[str]:
    user = request["messages"][-1]["content"]
    return re.findall(r"^\d+\. (.*)$", user, re.M)


def talker(request: dict[str, Any]) -> tuple[int, Any]:
    """Say something when possible, else take the last option."""
    options = options_of(request)
    for i, text in enumerate(options, 1):
        if text.startswith('say "I am the'):
            return 200, completion(f"{i} - I tell the truth.")
    return 200, completion(f"{len(options)}. That one.")


def at_day(url: str, players: int, seed: int, seat: int,
           **kw: Any) -> tuple[Table, LLMPlayer, io.StringIO]:
    """A One Night table dealt with ``seed``, its night played: the LLM player at ``url``
    takes ``seat`` for the day. The table, the player and the player's log."""
    table = Table.deal("onuw", players, seed=seed)
    to_day(table)
    log = io.StringIO()
    player = LLMPlayer(url, "test-model", log=log, **kw)
    player.start(table.welcome(seat))
    return table, player, log


def test_parse_choice_reads_the_first_number_only() -> None:
    assert parse_choice("3 - the wolf", 5) == 2
    assert parse_choice("**2.** because", 5) == 1
    assert parse_choice("I pick option 5", 5) == 4
    assert parse_choice("9 then 2", 5) is None
    assert parse_choice("no idea", 5) is None
    assert parse_choice("0", 5) is None


@pytest.mark.timeout(30)
def test_prompt_shows_the_view_and_numbered_options_and_the_reply_picks(
    llm_server: Callable[[Script], ScriptedLLM],
) -> None:
    server = llm_server(lambda req: (200, completion("2 - seems right")))
    table, player, log = at_day(server.url, 5, 3, 1, api_key="sk-test")
    obs = table.observe(1)
    choice = player.choose(obs)
    request = server.requests[0]
    assert request["model"] == "test-model"
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert "One Night Ultimate Werewolf" in request["messages"][0]["content"]
    user = request["messages"][1]["content"]
    assert "You are player_1 (seat 1)" in user
    # The one renderer's sentence for the deal (issue #13; it was "You were dealt the ...").
    dealt = load("en").role("onuw", table.state.start[1])
    assert f"You look at your card: you are the {dealt}." in user
    assert user.count("You look at your card") == 1, "only this seat's card is in the prompt"
    options = options_of(request)
    assert options[0] == "vote for player_0" and options[-1].startswith('say "')
    assert choice == player.options(obs)[1]
    assert server.headers[0]["Authorization"] == "Bearer sk-test"
    assert log.getvalue() == ""


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("status", "reply", "why"),
    [
        (200, completion("I would rather not say"), "no option number"),
        (200, completion("999"), "no option number"),
        (500, {"error": "boom"}, "HTTP 500"),
        (200, "this is not json", "did not answer JSON"),
        (200, {"choices": []}, "no choices[0].message.content"),
    ],
)
def test_garbage_becomes_a_random_legal_move_and_the_player_says_so(
    llm_server: Callable[[Script], ScriptedLLM], status: int, reply: Any, why: str,
) -> None:
    server = llm_server(lambda req: (status, reply))
    table, player, log = at_day(server.url, 5, 3, 0)
    obs = table.observe(0)
    choice = player.choose(obs)
    assert choice in obs.legal, "a fallback is a move, never talk"
    assert why in log.getvalue() and "random legal action" in log.getvalue()
    assert player.fallbacks == 1


def test_unreachable_endpoint_falls_back_too() -> None:
    table, player, log = at_day("http://127.0.0.1:9/v1", 4, 2, 0, timeout=2)
    assert player.choose(table.observe(0)) in table.observe(0).legal
    assert "cannot reach" in log.getvalue()


@pytest.mark.timeout(30)
def test_talk_is_limited_so_the_player_gets_to_vote(
    llm_server: Callable[[Script], ScriptedLLM],
) -> None:
    server = llm_server(talker)
    table, player, _ = at_day(server.url, 5, 8, 2, max_talk=2)
    said = 0
    while 2 in table.to_act():
        obs: Observation = table.observe(2)
        action = player.choose(obs)
        if action not in obs.legal:
            said += 1
        assert table.submit(2, _message(action, obs.state_id)) is None
    assert said == 2
    claims = [e for e in table.ruleset.view(table.state, 0)["events"] if e["kind"] == "claim"]
    assert [c["seat"] for c in claims] == [2, 2]
    assert table.state.votes[2] != NOT_VOTED, "after talking, the player voted"


def _message(action: Any, state_id: int) -> Any:
    from nightcall.protocol import ActionJSON, ActionMessage

    return ActionMessage(ActionJSON.of(action), state_id)


@pytest.mark.timeout(60)
def test_llm_agent_program_plays_a_whole_game_over_stdio(
    llm_server: Callable[[Script], ScriptedLLM], tmp_path: Path,
) -> None:
    garbled = []

    def script(request: dict[str, Any]) -> tuple[int, Any]:
        moves_only = not any(o.startswith("say") for o in options_of(request))
        if moves_only and not garbled:
            garbled.append(request)
            return 200, completion("hmm")  # garbage once: the game goes on regardless
        return talker(request)

    server = llm_server(script)
    record = tmp_path / "game.json"
    # The model comes from the environment, the URL from the command line.
    llm = f"{sys.executable} -m nightcall.cli agent llm --url {server.url} --max-talk 1"
    done = subprocess.run(
        [sys.executable, "-m", "nightcall.cli", "agent", "play", "onuw", "--players", "5",
         "--seed", "4", "--agent", f"1={llm}", "--record", str(record)],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "NIGHTCALL_LLM_MODEL": "test-model"},
    )
    assert done.returncode == 0, done.stderr
    assert "playing a random legal action instead" in done.stderr
    assert "llm player: game over" in done.stderr
    assert server.requests, "the model was asked"
    assert all(r["model"] == "test-model" for r in server.requests)
    data = json.loads(record.read_text())
    claims: dict[str, str] = {}
    for step in data["steps"]:
        claims.update(step.get("claims", {}))
    assert list(claims) == ["player_1"], "the model talked through the protocol"
    assert garbled and json.loads(done.stdout)["status"] == "over"


def test_with_only_talk_open_the_player_stays_silent_without_asking(
    llm_server: Callable[[Script], ScriptedLLM],
) -> None:
    server = llm_server(talker)
    table, player, _ = at_day(server.url, 5, 3, 0)
    obs = table.observe(0)
    talk_only = Observation(obs.seat, obs.state_id, {**obs.view, "legal": []}, obs.talk)
    assert player.choose(talk_only) is None
    assert server.requests == []
    out = io.StringIO()
    lines = io.StringIO(
        "".join(protocol_line(m) for m in (table.welcome(0), talk_only, table.game_over(0)))
    )
    from nightcall.agents.client import play_lines

    play_lines(player, lines, out)
    assert out.getvalue() == "", "nothing is sent for a silent choice"


def protocol_line(message: Any) -> str:
    from nightcall.protocol import encode_line

    return encode_line(message)
