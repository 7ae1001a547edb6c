"""The words the host screen shows and speaks for each moment of the game.

The narrator's locale files (``nightcall/narration/locales/<lang>.json``) are
used when they hold a line for the moment; otherwise a plain English sentence
built from the call's name keeps the game going.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _locale(language: str) -> dict[str, Any]:
    try:
        text = (
            resources.files("nightcall.narration")
            .joinpath("locales", f"{language}.json")
            .read_text(encoding="utf-8")
        )
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def _lookup(language: str, *keys: str) -> str | None:
    """The first of ``keys`` found in the locale (flat "a.b" keys or nested objects)."""
    table = _locale(language)
    for key in keys:
        if isinstance(table.get(key), str):
            return str(table[key])
        node: Any = table
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, str):
            return node
    return None


def role_name(ruleset: str, role: str, language: str) -> str:
    found = _lookup(language, f"roles.{ruleset}.{role}", f"roles.{role}", f"role.{role}")
    return found or role.replace("_", " ").title().replace("Doppelganger", "Doppelgänger")


def call_line(ruleset: str, call: str, language: str) -> str:
    found = _lookup(
        language, f"{ruleset}.calls.{call}.wake", f"calls.{ruleset}.{call}", f"calls.{call}"
    )
    if found:
        return found
    if call == "doppelganger_insomniac":
        return "Doppelgänger, if you became the Insomniac, wake up and look at your card."
    return f"{role_name(ruleset, call, language)}, wake up."


def stage_line(ruleset: str, stage: str, language: str) -> str:
    found = _lookup(language, f"{ruleset}.stages.{stage}", f"stages.{stage}")
    if found:
        return found
    return {
        "night": "Everyone, close your eyes.",
        "discussion": "Everyone, wake up! Talk: who is a werewolf?",
        "vote": "Time to vote: point at a player on your phone.",
        "day": "Day: the accused speak, the village decides.",
        "over": "The game is over.",
        "lobby": "Scan the code to take a seat.",
    }.get(stage, "")
