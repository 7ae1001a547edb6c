"""Lupus in Tabula's narration script (``Ruleset.narration_script``): the locale lines of
each night call, in order, with their pauses (nightcall.engine.script)."""

from __future__ import annotations

from typing import Final

from nightcall.engine.script import DISCUSSION, SHORT, Line, Script, call

# --- Lupus in Tabula (lupus-in-tabula.md, "Gameplay" and "The night, what to say") --
SCRIPT: Final = Script(
    opening=(Line("lupus.night.start", SHORT),),
    calls={
        "medium": call("lupus.medium"),
        "bodyguard": call("lupus.bodyguard"),
        "harlot": call("lupus.harlot"),
        "werewolf": call("lupus.werewolf"),
        "seer": call("lupus.seer"),
        "owl": call("lupus.owl"),
        "freemason": call("lupus.freemason"),
        "mythomaniac": call("lupus.mythomaniac"),
    },
    closing=(Line("lupus.night.dawn"),),
    day=(Line("lupus.day.discussion", DISCUSSION),),
    aliases={"werewolves": "werewolf", "freemasons": "freemason"},
)
