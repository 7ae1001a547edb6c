"""docs/agents.md and docs/schema stay true to the code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from nightcall import protocol as p
from nightcall.agents.table import Table
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.actions import Action

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "schema" / "agent-protocol.json"


def test_the_doc_shows_the_example_agent_unchanged() -> None:
    doc = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    example = (ROOT / "examples" / "agent.py").read_text(encoding="utf-8")
    assert f"```python\n{example}```" in doc


def test_schema_file_is_the_generated_schema() -> None:
    generated = json.dumps(p.schema(), indent=2, ensure_ascii=False) + "\n"
    assert SCHEMA_FILE.read_text(encoding="utf-8") == generated, (
        "regenerate it: nightcall agent schema --out docs/schema/agent-protocol.json"
    )
    printed = subprocess.run([sys.executable, "-m", "nightcall.cli", "agent", "schema"],
                             capture_output=True, text=True, check=True).stdout
    assert printed == generated


def check(message: dict[str, Any], schema: dict[str, Any]) -> None:
    """A small validator for what our schema uses: a tagged object per message type."""
    defs = schema["$defs"]
    by_tag = {d["properties"]["type"]["enum"][0]: d for d in defs.values()
              if "properties" in d and "type" in d["properties"]}
    definition = by_tag[message["type"]]
    missing = set(definition["required"]) - set(message)
    assert not missing, (message["type"], missing)
    extra = set(message) - set(definition["properties"])
    assert not extra, (message["type"], extra)


def test_every_message_of_a_real_game_fits_the_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    table = Table.deal("onuw", 4, seed=6, masks=True)
    sent: list[p.ServerMessage | p.AgentMessage] = [table.welcome(0), p.Hello(name="x")]
    bot = RandomBot(2)
    while not table.is_over():
        seat = min(table.to_act())
        obs = table.observe(seat)
        choice = bot.choose(obs.view)
        assert choice is not None
        message = p.ActionMessage(p.ActionJSON.of(choice), obs.state_id)
        sent += [obs, message]
        error = table.submit(seat, p.ActionMessage(p.ActionJSON.of(Action("dance")), None))
        assert error is not None
        sent.append(error)
        assert table.submit(seat, message) is None
    sent.append(table.game_over(0))
    assert {m.__class__.__name__ for m in sent} == {
        "Welcome", "Hello", "Observation", "ActionMessage", "Error", "GameOver"}
    for message in sent:
        check(json.loads(p.encode(message)), schema)


# "...", or "...words...", in a shown line stands for any text.
ELIDED = re.compile(r"\.\.\.(?:[a-z ]+\.\.\.)?")


def shown_matches(shown: str, real: str) -> bool:
    """Whether ``real`` is ``shown`` with its elisions filled in (a prefix, pieces in
    order, a suffix)."""
    pieces = ELIDED.split(shown)
    if len(pieces) == 1:
        return shown == real
    if not (real.startswith(pieces[0]) and real.endswith(pieces[-1])):
        return False
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        found = real.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return at <= len(real) - len(pieces[-1])


def test_the_docs_conversation_is_what_the_game_master_says() -> None:
    doc = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    found = re.search(r"It is what\n\n```\n(nightcall agent stdio [^\n]+)\n```\n.*?\n```\n"
                      r"(< \{.*?)```", doc, re.S)
    assert found, "docs/agents.md shows the command and then the conversation"
    command, conversation = found.group(1).split(), found.group(2).splitlines()
    mine = [line[2:] for line in conversation if line.startswith("> ")]
    shown = [line[2:] for line in conversation if line.startswith("< ")]
    assert len(mine) + len(shown) == len(conversation)
    done = subprocess.run([sys.executable, "-m", "nightcall.cli", *command[1:]],
                          input="".join(line + "\n" for line in mine),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    real = done.stdout.splitlines()
    assert len(real) == len(shown), real
    for want, got in zip(shown, real, strict=True):
        assert shown_matches(want, got), f"docs/agents.md shows\n{want}\nthe wire says\n{got}"


def test_the_docs_python_environment_example_runs_as_written() -> None:
    doc = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", doc, re.S)
              if "NightcallEnv(" in b]
    assert len(blocks) == 1, "docs/agents.md shows the AEC environment once"
    # As a reader would run it; then the game is over and every agent has left.
    script = blocks[0] + "assert env.agents == [], env.agents\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
