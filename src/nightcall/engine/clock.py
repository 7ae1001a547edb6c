"""The night's clock as the engine sees it: every call is a step that ends by an action.

A game state always has one *open call*: before the first call of the first night
it is at dusk (everyone looks at their card), then at each call of the night in
wake order, every role in the deck called whether its card is in the center or its
holder is dead (the narrator's order, ``Ruleset.night_calls``), then at the day's
stage (the vote; Lupus' accusations and execution). ``Ruleset.open_call`` names it.

A call ends by the action :data:`END_CALL`, applied from :data:`CLOCK_SEAT` by
whoever keeps the time: the server's timer, the Lupus Master, a test or a driver.
Seats still choosing when a call ends get :func:`default_move` (skip or abstain
where the rules allow it, else a seeded random legal choice), recorded as their
own moves, so a record never holds an ``end_call`` and replays as before.

Two ways to run a game (``clock`` of ``Ruleset.new_game`` / ``deal``):

- ``clock=None`` (records, simulations, bots, agents, the CLI): a call in which
  nobody is choosing ends at once, as if ``end_call`` came the instant it opened or
  its last choice was made. This is how a record replays: its ``end_call`` steps are
  implied (docs/architecture.md, "The clock").
- ``clock=SEED`` (the server): every call, dusk and day stage stays open until
  ``end_call``; the seed draws the default moves, so rebuilding a game from its
  moves and end_calls lands on the same call with the same defaults.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from nightcall.engine.actions import Action

if TYPE_CHECKING:
    from nightcall.engine.ruleset import Ruleset

S = TypeVar("S")

END_CALL = Action("end_call")
# The seat ``end_call`` comes from: nobody at the table (the timer, the Master).
CLOCK_SEAT = -1
# The name ``open_call`` gives the moment before the first call of the game.
DUSK = "dusk"
# The moves a silent seat makes when the rules allow doing nothing.
PASSES = (Action("skip"), Action("abstain"))
# Guard for end_idle_calls: far more calls than any night and day have.
MAX_IDLE_CALLS = 10_000


def default_move(legal: Sequence[Action], rng: random.Random) -> Action | None:
    """What a seat that has not chosen gets when its call ends: skip or abstain where
    the rules allow it, otherwise a random legal choice from the game's seeded
    generator (docs/rulings.md, "A silent phone"). None if it has no choice."""
    if not legal:
        return None
    for move in PASSES:
        if move in legal:
            return move
    return rng.choice(list(legal))


def defaults_rng(clock: int | None) -> random.Random:
    """The generator of a game's default moves (seed 0 for a game without a clock)."""
    return random.Random(0 if clock is None else clock)


def end_idle_calls(ruleset: Ruleset[S], state: S) -> int:
    """End every open call in which nobody is choosing, until a seat must choose or
    the game is over; return how many were ended. For drivers of a game with a clock
    that have no timer (tests, a fast table); a game without one does this itself."""
    ended = 0
    while (
        ended < MAX_IDLE_CALLS
        and ruleset.open_call(state) is not None
        and not ruleset.waiting_for(state)
    ):
        ruleset.apply(state, CLOCK_SEAT, END_CALL)
        ended += 1
    return ended
