"""One Night Ultimate Werewolf's narration script (``Ruleset.narration_script``): the
locale lines of each night call, in order, with their pauses (nightcall.engine.script)."""

from __future__ import annotations

from typing import Final

from nightcall.engine.script import ACTION, COUNT, DISCUSSION, SHORT, Line, Script, call

# --- One Night Ultimate Werewolf (one-night-ultimate-werewolf.md, "Gameplay" and
# the quick reference "The night, what to say") ---------------------------------
_DOPPEL_MINION = ("minion",)
SCRIPT: Final = Script(
    # "The roles in play": said out loud before the night ("Setup").
    opening=(Line("setup.roles", SHORT), Line("onuw.night.start", SHORT)),
    calls={
        "doppelganger": (
            Line("onuw.doppelganger.wake", ACTION),
            Line("onuw.doppelganger.minion_check", SHORT, when=_DOPPEL_MINION),
            Line("onuw.doppelganger.minion_thumbs", ACTION, when=_DOPPEL_MINION),
            Line("onuw.doppelganger.minion_thumbs_down", when=_DOPPEL_MINION),
            Line("onuw.doppelganger.sleep"),
        ),
        "werewolf": (
            # One pause for the call either way: after the lone-wolf line when it is said.
            Line("onuw.werewolf.wake", SHORT, option="lone_wolf"),
            Line("onuw.werewolf.wake", ACTION, unless_option="lone_wolf"),
            Line("onuw.werewolf.lone", ACTION, option="lone_wolf"),
            Line("onuw.werewolf.sleep"),
        ),
        "minion": (
            Line("onuw.minion.wake"),
            Line("onuw.minion.thumbs", ACTION),
            Line("onuw.minion.thumbs_down"),
            Line("onuw.minion.sleep"),
        ),
        "mason": call("onuw.mason"),
        "seer": call("onuw.seer"),
        "robber": call("onuw.robber"),
        "troublemaker": call("onuw.troublemaker"),
        "drunk": call("onuw.drunk"),
        "insomniac": call("onuw.insomniac"),
        "doppelganger_insomniac": call("onuw.doppelganger_insomniac"),
    },
    closing=(Line("onuw.night.nudge", SHORT, table_only=True), Line("onuw.night.wake")),
    day=(
        Line("onuw.day.discussion", DISCUSSION),
        Line("onuw.vote.ready", SHORT),
        Line("count.3", COUNT),
        Line("count.2", COUNT),
        Line("count.1", COUNT),
        Line("onuw.vote.now"),
    ),
    options={"lone_wolf": True},
    aliases={"werewolves": "werewolf", "masons": "mason"},
)
