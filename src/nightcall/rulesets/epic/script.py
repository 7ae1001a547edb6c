"""Epic Battle's narration script (``Ruleset.narration_script``): the locale lines of
each night call, in order, with their pauses (nightcall.engine.script)."""

from __future__ import annotations

from typing import Final

from nightcall.engine.script import ACTION, COUNT, DISCUSSION, SHORT, Line, Script, call

# --- Epic Battle (epic-battle-rulebook.txt, "Game Master Sheet") -----------------
SCRIPT: Final = Script(
    # The role markers lie face up for all to see ("Setup"): the narrator reads them out.
    opening=(Line("setup.roles", SHORT), Line("epic.night.start", SHORT)),
    calls={
        "mimic": call("epic.mimic"),
        "vampire": call("epic.vampire"),
        "the_count": call("epic.the_count"),
        "renfield": (
            Line("epic.renfield.point", ACTION),
            Line("epic.renfield.wake", ACTION),
            Line("epic.renfield.sleep"),
        ),
        "infected": call("epic.infected"),
        "venus": call("epic.venus"),
        "instigator": call("epic.instigator"),
        "priest": call("epic.priest"),
        "assassin": call("epic.assassin"),
        "tokens": (Line("epic.tokens.wake", ACTION), Line("epic.tokens.sleep", SHORT)),
        "lovers": call("epic.lovers"),
        "werewolf": (
            Line("epic.werewolf.wake", ACTION),
            Line("epic.werewolf.lone", ACTION),
            Line("epic.werewolf.sleep"),
        ),
        # The Game Master sheet's other text for the werewolves when the Dream Wolf is in.
        "werewolves_dream_wolf": (
            Line("epic.werewolf.wake_dream", ACTION),
            Line("epic.werewolf.dream_down"),
            Line("epic.werewolf.lone", ACTION),
            Line("epic.werewolf.sleep"),
        ),
        "alpha_wolf": call("epic.alpha_wolf"),
        "sight_wolf": call("epic.sight_wolf"),
        "freemason": call("epic.freemason"),
        "the_thing": call("epic.the_thing"),
        "seer": call("epic.seer"),
        "ghost_hunter": call("epic.ghost_hunter"),
        "tracker": call("epic.tracker"),
        "robber": call("epic.robber"),
        "witch": call("epic.witch"),
        "fortune_teller": call("epic.fortune_teller"),
        "goblin": call("epic.goblin"),
        "insomniac": call("epic.insomniac"),
        "enlightener": call("epic.enlightener"),
        "curator": call("epic.curator"),
    },
    closing=(
        Line("epic.night.wake"),
        Line("epic.day.artifacts", SHORT, when=("curator",)),
    ),
    day=(
        Line("epic.day.discussion", DISCUSSION),
        Line("epic.vote.ready", SHORT),
        Line("count.1", COUNT),
        Line("count.2", COUNT),
        Line("count.3", COUNT),
        Line("epic.vote.now"),
    ),
    aliases={"look_at_token": "tokens", "token": "tokens", "twilight_tokens": "tokens",
             "love": "lovers", "werewolves": "werewolf", "vampires": "vampire",
             "freemasons": "freemason"},
)
