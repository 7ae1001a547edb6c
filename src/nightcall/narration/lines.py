"""The narration scripts' shapes, and every locale key a declared script can use.

A ruleset declares its script (``Ruleset.narration_script``) in its own folder
(rulesets/<id>/script.py); the shapes it is written in live in the engine
(:mod:`nightcall.engine.script`, so a ruleset need not import narration) and are
named here too, for the narrator's code.
"""

from __future__ import annotations

from collections.abc import Container, Sequence

from nightcall.engine.ruleset import all_rulesets, load
from nightcall.engine.script import (
    ACTION,
    COUNT,
    DISCUSSION,
    GENERIC,
    NONE,
    SHORT,
    Line,
    Script,
    call,
)

__all__ = ["ACTION", "COUNT", "DISCUSSION", "GENERIC", "NONE", "SHORT", "Line", "Script",
           "all_keys", "call", "end_key", "script_of"]


def script_of(ruleset_id: str) -> Script:
    """The script a ruleset declares (an empty one if it has none: every call is then
    GENERIC's "wake up" and "close your eyes")."""
    from nightcall.engine.ruleset import get_ruleset

    path = get_ruleset(ruleset_id).narration_script
    return load(path) if path is not None else Script(opening=(), calls={}, closing=(), day=())


def all_keys() -> set[str]:
    """Every locale key a script can use (the locale test checks they all exist)."""
    keys = {line.key for line in GENERIC}
    for ruleset_id in all_rulesets():
        script = script_of(ruleset_id)
        for part in (script.opening, script.closing, script.day, *script.calls.values()):
            keys.update(line.key for line in part)
    return keys


def end_key(ruleset_id: str, teams: Sequence[str], lines: Container[str]) -> str | None:
    """The closing line of a game with a master: ``<id>.end.<team>`` for the winning
    team (the ruleset names one; a Werehamster alive at the end is the only one)."""
    return next((key for team in teams if (key := f"{ruleset_id}.end.{team}") in lines), None)
