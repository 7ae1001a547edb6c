"""docs/arena.md's TOML file and examples/arena.toml are tournaments the arena accepts."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from nightcall.arena.config import build

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_toml_file_is_accepted_as_written() -> None:
    doc = (ROOT / "docs" / "arena.md").read_text(encoding="utf-8")
    found = re.search(r"### The TOML file\n\n```toml\n(.*?)```", doc, re.S)
    assert found, "docs/arena.md shows a TOML file under 'The TOML file'"
    t = build(tomllib.loads(found.group(1)), {}, where="docs/arena.md")
    assert (t.ruleset, t.players, t.deals, t.seed) == ("onuw", 5, 400, 1)
    assert [(e.name, e.kind) for e in t.entrants] == [
        ("reasoning", "bot"), ("mine", "stdio"), ("local-llama", "llm")]


def test_the_example_tournament_and_its_commented_entrants_are_accepted() -> None:
    text = (ROOT / "examples" / "arena.toml").read_text(encoding="utf-8")
    t = build(tomllib.loads(text), {}, where="examples/arena.toml")
    assert [e.name for e in t.entrants] == [
        "random", "reasoning:easy", "reasoning", "reasoning:hard"]
    # The entrants shown commented out are valid too, once uncommented.
    uncommented = re.sub(r"^# (\[\[entrant\]\]|\w+ = )", r"\1", text, flags=re.M)
    t = build(tomllib.loads(uncommented), {}, where="examples/arena.toml")
    assert [e.kind for e in t.entrants][-2:] == ["stdio", "llm"]
