"""Which locale lines each call speaks, in order, and how long to wait after each.

This is the narrator's script as data. A call id comes from
``ruleset.night_calls(deck, night)``; its lines are looked up here. A line may be
conditional on the deck (``when``: one of these roles is in it; ``unless``: none
is) or on a ruleset option, never on where a card lies: the script must be the
same for every deal of the same deck.

Wait kinds: ``ACTION`` is the role's pause (the same whether its card is held,
in the center or dead), ``SHORT`` a breath between two lines of one call,
``NONE`` no pause, ``COUNT`` one beat of the vote countdown, ``DISCUSSION`` the
day timer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

ACTION: Final = "action"
SHORT: Final = "short"
NONE: Final = "none"
COUNT: Final = "count"
DISCUSSION: Final = "discussion"


@dataclass(frozen=True, slots=True)
class Line:
    key: str
    wait: str = NONE
    when: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    option: str | None = None  # a ruleset option that must be on
    unless_option: str | None = None  # a ruleset option that must be off

    def applies(self, deck: frozenset[str], options: dict[str, object]) -> bool:
        if self.when and not any(r in deck for r in self.when):
            return False
        if any(r in deck for r in self.unless):
            return False
        if self.unless_option is not None and options.get(self.unless_option):
            return False
        return self.option is None or bool(options.get(self.option))


def _call(prefix: str, *middle: Line, wait: str = ACTION) -> tuple[Line, ...]:
    """The common shape: wake (then the action pause), optional extra lines, sleep."""
    return (Line(f"{prefix}.wake", wait), *middle, Line(f"{prefix}.sleep"))


@dataclass(frozen=True, slots=True)
class Script:
    opening: tuple[Line, ...]
    calls: dict[str, tuple[Line, ...]]
    closing: tuple[Line, ...]
    day: tuple[Line, ...]
    options: dict[str, object] = field(default_factory=dict)  # defaults of the options used
    # Other spellings a ruleset may use for the same call (resolved before lookup).
    aliases: dict[str, str] = field(default_factory=dict)


GENERIC: Final = (Line("generic.wake", ACTION), Line("generic.sleep"))

# --- One Night Ultimate Werewolf (one-night-ultimate-werewolf.md, "Gameplay" and
# the quick reference "The night, what to say") ---------------------------------
_DOPPEL_MINION = ("minion",)
ONUW: Final = Script(
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
        "mason": _call("onuw.mason"),
        "seer": _call("onuw.seer"),
        "robber": _call("onuw.robber"),
        "troublemaker": _call("onuw.troublemaker"),
        "drunk": _call("onuw.drunk"),
        "insomniac": _call("onuw.insomniac"),
        "doppelganger_insomniac": _call("onuw.doppelganger_insomniac"),
    },
    closing=(Line("onuw.night.nudge", SHORT), Line("onuw.night.wake")),
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

# --- Epic Battle (epic-battle-rulebook.txt, "Game Master Sheet") -----------------
EPIC: Final = Script(
    # The role markers lie face up for all to see ("Setup"): the narrator reads them out.
    opening=(Line("setup.roles", SHORT), Line("epic.night.start", SHORT)),
    calls={
        "mimic": _call("epic.mimic"),
        "vampire": _call("epic.vampire"),
        "the_count": _call("epic.the_count"),
        "renfield": (
            Line("epic.renfield.point", ACTION),
            Line("epic.renfield.wake", ACTION),
            Line("epic.renfield.sleep"),
        ),
        "infected": _call("epic.infected"),
        "venus": _call("epic.venus"),
        "instigator": _call("epic.instigator"),
        "priest": _call("epic.priest"),
        "assassin": _call("epic.assassin"),
        "tokens": (Line("epic.tokens.wake", ACTION), Line("epic.tokens.sleep", SHORT)),
        "lovers": _call("epic.lovers"),
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
        "alpha_wolf": _call("epic.alpha_wolf"),
        "sight_wolf": _call("epic.sight_wolf"),
        "freemason": _call("epic.freemason"),
        "the_thing": _call("epic.the_thing"),
        "seer": _call("epic.seer"),
        "ghost_hunter": _call("epic.ghost_hunter"),
        "tracker": _call("epic.tracker"),
        "robber": _call("epic.robber"),
        "witch": _call("epic.witch"),
        "fortune_teller": _call("epic.fortune_teller"),
        "goblin": _call("epic.goblin"),
        "insomniac": _call("epic.insomniac"),
        "enlightener": _call("epic.enlightener"),
        "curator": _call("epic.curator"),
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

# --- Lupus in Tabula (lupus-in-tabula.md, "Gameplay" and "The night, what to say") --
LUPUS: Final = Script(
    opening=(Line("lupus.night.start", SHORT),),
    calls={
        "medium": _call("lupus.medium"),
        "bodyguard": _call("lupus.bodyguard"),
        "harlot": _call("lupus.harlot"),
        "werewolf": _call("lupus.werewolf"),
        "seer": _call("lupus.seer"),
        "owl": _call("lupus.owl"),
        "freemason": _call("lupus.freemason"),
        "mythomaniac": _call("lupus.mythomaniac"),
    },
    closing=(Line("lupus.night.dawn"),),
    day=(Line("lupus.day.discussion", DISCUSSION),),
    aliases={"werewolves": "werewolf", "freemasons": "freemason"},
)

# The built-in rulesets declare these by import path (Ruleset.narration_script).
SCRIPTS: Final[tuple[Script, ...]] = (ONUW, EPIC, LUPUS)


def all_keys() -> set[str]:
    """Every locale key a script can use (the locale test checks they all exist)."""
    keys = {line.key for line in GENERIC}
    for script in SCRIPTS:
        for part in (script.opening, script.closing, script.day, *script.calls.values()):
            keys.update(line.key for line in part)
    return keys
