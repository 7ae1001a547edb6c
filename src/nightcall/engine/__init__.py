"""The ruleset-independent core: actions, events and audiences, outcomes,
errors, playing-card mapping, the ruleset registry and game records."""

from nightcall.engine.actions import Action
from nightcall.engine.errors import DeckError, IllegalAction, NightcallError, RecordError
from nightcall.engine.events import EVERYONE, MASTER, Event, visible_to
from nightcall.engine.outcome import Death, Outcome

__all__ = [
    "EVERYONE",
    "MASTER",
    "Action",
    "Death",
    "DeckError",
    "Event",
    "IllegalAction",
    "NightcallError",
    "Outcome",
    "RecordError",
    "visible_to",
]
