"""A ruleset's narration script as data: which locale lines each night call speaks, in
order, and how long to wait after each.

A ruleset declares its script (``Ruleset.narration_script``, a "module:attribute" path
to a :class:`Script` in its own folder); the narrator (nightcall.narration.script)
reads it. It lives in the engine because it is pure data a ruleset declares, so that a
ruleset's script stays in its folder without the ruleset importing narration.

A call id comes from ``ruleset.night_calls(deck, night)``; its lines are looked up
here. A line may be conditional on the deck (``when``: one of these roles is in it;
``unless``: none is) or on a ruleset option, never on where a card lies: the script
must be the same for every deal of the same deck.

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
    # Said only where the cards lie on a real table (nudging them), not in a room, where
    # the phones hold the cards (server/narration.py).
    table_only: bool = False

    def applies(self, deck: frozenset[str], options: dict[str, object]) -> bool:
        if self.when and not any(r in deck for r in self.when):
            return False
        if any(r in deck for r in self.unless):
            return False
        if self.unless_option is not None and options.get(self.unless_option):
            return False
        return self.option is None or bool(options.get(self.option))


def call(prefix: str, *middle: Line, wait: str = ACTION) -> tuple[Line, ...]:
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


# A call the script has no lines for: "<role>, wake up", then "close your eyes".
GENERIC: Final = (Line("generic.wake", ACTION), Line("generic.sleep"))
