"""The fast night: every seat chooses at once, then the engine applies the choices.

docs/rulings.md, "The fast night (issue 18)". A ruleset with the :class:`FastNight`
capability splits each night's calls into *rounds*: runs of consecutive calls in
wake order whose legal choices, and whatever a seat sees before choosing, do not
depend on anything an earlier call of the same round does. In a round every seat
gets its task at once (:func:`choices`), its picks are buffered by the caller (the
room), and :func:`resolve_round` applies them through the ruleset's own sequential
steps, in wake order, ending each call with ``END_CALL`` as the timer would. So a
fast night is a normal sequence of moves and end_calls: its record is a normal
record and replays to the same outcome (tests/engine/test_fast_night.py checks this
against the sequential night with the same choices, over random games).

A seat may be asked more than once in a round (the Doppelgänger copies, then acts
as the copy): its *stages*. :func:`choices` gives a seat's next stage from the picks
it has made so far, by playing the round on a copy of the state in which the other
seats make their default moves; the property test proves that the other seats'
real picks cannot change it.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from nightcall.engine.actions import Action
from nightcall.engine.clock import CLOCK_SEAT, END_CALL, MAX_IDLE_CALLS

if TYPE_CHECKING:
    from nightcall.engine.ruleset import MoveFn, Ruleset

S = TypeVar("S")


class FastNight(ABC, Generic[S]):
    """A ruleset whose night can be played with every seat choosing at once."""

    @abstractmethod
    def fast_rounds(self, state: S) -> list[tuple[str, ...]]:
        """Tonight's calls (those ``open_call`` will name, in wake order) split into
        rounds. Rounds depend on the deck and the night only (public), never on who
        holds which card."""

    def fast_ghosts(self, state: S) -> frozenset[int]:
        """The seats with no task at all tonight (Lupus' ghosts, "eyes closed at night"):
        public, so their phones may differ from the living's. Nobody by default."""
        return frozenset()


def split_rounds(calls: Sequence[str], starts: Iterable[str]) -> list[tuple[str, ...]]:
    """``calls`` cut before each call of ``starts`` (a call that must wait for the
    outcome of an earlier one opens a new round, and takes every later call with it)."""
    cut = set(starts)
    rounds: list[list[str]] = [[]]
    for call in calls:
        if call in cut and rounds[-1]:
            rounds.append([])
        rounds[-1].append(call)
    return [tuple(r) for r in rounds if r]


def current_round(ruleset: Ruleset[S], state: S) -> tuple[str, ...]:
    """The round of the call open now (empty outside the night, or at dusk)."""
    call = ruleset.open_call(state)
    if call is None or not isinstance(ruleset, FastNight):
        return ()
    for calls in ruleset.fast_rounds(state):
        if call in calls:
            return calls
    return ()


def ghosts(ruleset: Ruleset[S], state: S) -> frozenset[int]:
    """The seats that sit the fast night out (the dead): no task, not waited for."""
    return ruleset.fast_ghosts(state) if isinstance(ruleset, FastNight) else frozenset()


def _in_round(ruleset: Ruleset[S], state: S, calls: tuple[str, ...]) -> bool:
    """Whether the round is still open: it is left when the open call is no longer one
    of its calls (a call's name comes again only in a later night, after the day)."""
    return ruleset.open_call(state) in calls and not ruleset.is_over(state)


def choices(
    ruleset: Ruleset[S], state: S, seat: int, made: Sequence[Action] = ()
) -> tuple[Action, ...]:
    """What ``seat`` may choose next in the round open now, having picked ``made``
    (its earlier stages): empty when it has nothing (more) to choose. ``state`` is
    left as it is; the round is played on a copy where other seats take their
    default moves (their real picks cannot change this: the property test)."""
    return _probe(ruleset, state, seat, made)[0]


def sight(ruleset: Ruleset[S], state: S, seat: int, made: Sequence[Action]) -> list[object]:
    """What the last pick of ``made`` showed ``seat`` at once (the events it added to
    the seat's view): a same-phone role's glimpse before its next stage, such as the
    card the Doppelgänger copied."""
    return _probe(ruleset, state, seat, made)[1]


def _probe(
    ruleset: Ruleset[S], state: S, seat: int, made: Sequence[Action]
) -> tuple[tuple[Action, ...], list[object]]:
    calls = current_round(ruleset, state)
    probe = copy.deepcopy(state)
    asked = 0
    seen: list[object] = []
    for _ in range(MAX_IDLE_CALLS):
        if not calls or not _in_round(ruleset, probe, calls):
            break
        if seat in ruleset.waiting_for(probe):
            if asked == len(made):
                return tuple(ruleset.legal_actions(probe, seat)), seen
            before = ruleset.view(probe, seat)["events"]
            ruleset.apply(probe, seat, made[asked])
            seen = ruleset.view(probe, seat)["events"][len(before):]
            asked += 1
            continue
        ruleset.apply(probe, CLOCK_SEAT, END_CALL)
    return (), seen


def resolve_round(
    ruleset: Ruleset[S],
    state: S,
    picks: Mapping[int, Sequence[Action]],
    move: MoveFn | None = None,
) -> list[tuple[int, Action]]:
    """Apply every seat's buffered ``picks`` (its stages, in order) through the
    ruleset's sequential steps until the round open now is over; a seat without a
    (legal) pick left gets its default move when the call ends, as at a timed call.
    Returns the moves made, END_CALLs included, in order (what the room records).
    ``move(seat, action)``, if given, makes each move (default ``ruleset.apply``)."""
    make = move or (lambda s, a: ruleset.apply(state, s, a))
    calls = current_round(ruleset, state)
    left = {seat: list(p) for seat, p in picks.items()}
    made: list[tuple[int, Action]] = []
    for _ in range(MAX_IDLE_CALLS):
        if not calls or not _in_round(ruleset, state, calls):
            break
        moved = False
        for seat in ruleset.waiting_for(state):
            queue = left.get(seat)
            if queue:
                action = queue.pop(0)
                if action in ruleset.legal_actions(state, seat):
                    make(seat, action)
                    made.append((seat, action))
                    moved = True
                    break  # who waits may have changed: look again
        if not moved:
            make(CLOCK_SEAT, END_CALL)
            made.append((CLOCK_SEAT, END_CALL))
    return made
