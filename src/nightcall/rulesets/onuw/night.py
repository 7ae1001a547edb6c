"""The One Night night: each call, who wakes for it, what they may do, what they learn.

Source: one-night-ultimate-werewolf.md, the role table and "Gameplay". Everyone
wakes for the card they saw at the start (``state.start``); the Doppelgänger
wakes again for the role it copied. Each call is two small functions:

- ``begin(state)`` does what needs no choice (werewolves seeing each other,
  the Insomniac's look, ...) and returns the seat that must now choose, or -1,
  having set ``state.choices``, that seat's legal actions;
- ``act(state, seat, action)`` performs one and returns True when the call is over
  (else it has set ``state.choices`` for the same seat's next choice).

Action kinds: ``copy`` (a=seat), ``look`` (a=seat), ``look_center`` (a[, b]=center
indices), ``swap`` (a=seat: exchange with your own card), ``swap_two`` (a, b=seats),
``take_center`` (a=center index), ``skip``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event
from nightcall.rulesets.onenight import ONLY as ONLY  # re-exported for onuw modules
from nightcall.rulesets.onenight import SKIP as SKIP
from nightcall.rulesets.onenight import robber_options as robber_options
from nightcall.rulesets.onenight import seer_options as seer_options
from nightcall.rulesets.onuw.roles import (
    ACTS_AT_ONCE,
    DOPPELGANGER,
    DOPPELGANGER_INSOMNIAC,
    DRUNK,
    INSOMNIAC,
    MASON,
    MINION,
    ROBBER,
    SEER,
    TROUBLEMAKER,
    WEREWOLF,
)
from nightcall.rulesets.onuw.state import NIGHT, OneNightState

# --- option lists, cached per (players, seat) ---------------------------------


@cache
def copy_options(n: int, seat: int) -> tuple[Action, ...]:
    return tuple(Action("copy", x) for x in range(n) if x != seat)


@cache
def troublemaker_options(n: int, seat: int) -> tuple[Action, ...]:
    others = [x for x in range(n) if x != seat]
    return (*(Action("swap_two", a, b) for a, b in combinations(others, 2)), SKIP)


DRUNK_OPTIONS = tuple(Action("take_center", i) for i in range(3))
LONE_WOLF_OPTIONS = (*(Action("look_center", i) for i in range(3)), SKIP)


def role_options(role: str, n: int, seat: int) -> tuple[Action, ...]:
    if role == SEER:
        return seer_options(n, seat)
    if role == ROBBER:
        return robber_options(n, seat)
    if role == TROUBLEMAKER:
        return troublemaker_options(n, seat)
    if role == DRUNK:
        return DRUNK_OPTIONS
    return ()


# --- helpers -------------------------------------------------------------------
# Events are built inline as ``Event(kind, ONLY[seat], {...})``: a helper
# taking ``**data`` cost one more call and one more dict per fact, on the hot path.


def _tell(st: OneNightState, who: int, kind: str, **data: object) -> None:
    st.log.append(Event(kind, ONLY[who], data))


def holders(st: OneNightState, role: str) -> list[int]:
    """Seats that wake for ``role``: it was their starting card, or the Doppelgänger copied it."""
    start = st.start
    count = start.count(role)  # at most two cards of a role (deck rules)
    if not count:
        seats = []
    else:
        first = start.index(role)
        seats = [first] if count == 1 else [first, start.index(role, first + 1)]
    if st.copy == role and st.doppel >= 0:
        # In seat order: listing the Doppelgänger last would tell the others who it is.
        seats.append(st.doppel)
        seats.sort()
    return seats


def werewolf_seats(st: OneNightState) -> list[int]:
    """Who opens their eyes (or raises a thumb) as a Werewolf tonight."""
    return holders(st, WEREWOLF)


# --- the role actions, shared by the role's own call and the Doppelgänger ----
# Each returns True: the call is over once the action is done.


def _seer_act(st: OneNightState, seat: int, action: Action) -> bool:
    kind = action.kind
    if kind == "look":
        x = action.a
        st.log.append(Event("saw", ONLY[seat], {"seat": x, "card": st.cards[x]}))
    elif kind == "look_center":
        cards, n, log, who = st.cards, st.n, st.log, ONLY[seat]
        a, b = action.a, action.b
        log.append(Event("saw", who, {"center": a, "card": cards[n + a]}))
        log.append(Event("saw", who, {"center": b, "card": cards[n + b]}))
    return True


def _robber_act(st: OneNightState, seat: int, action: Action) -> bool:
    if action.kind == "swap":
        cards, log, who, x = st.cards, st.log, ONLY[seat], action.a
        cards[seat], cards[x] = cards[x], cards[seat]
        log.append(Event("swapped", who, {"seats": [seat, x]}))
        log.append(Event("saw", who, {"seat": seat, "card": cards[seat]}))
    return True


def _troublemaker_act(st: OneNightState, seat: int, action: Action) -> bool:
    if action.kind == "swap_two":
        cards, a, b = st.cards, action.a, action.b
        cards[a], cards[b] = cards[b], cards[a]
        st.log.append(Event("swapped", ONLY[seat], {"seats": [a, b]}))
    return True


def _drunk_act(st: OneNightState, seat: int, action: Action) -> bool:
    if action.kind == "take_center":
        cards, c = st.cards, action.a
        i = st.n + c
        cards[seat], cards[i] = cards[i], cards[seat]
        st.log.append(Event("swapped", ONLY[seat], {"seat": seat, "center": c}))
    return True


def _wolves_act(st: OneNightState, seat: int, action: Action) -> bool:
    if action.kind == "look_center":
        c = action.a
        card = st.cards[st.n + c]
        st.log.append(Event("saw", ONLY[seat], {"center": c, "card": card}))
    return True


ROLE_ACTS: dict[str, Callable[[OneNightState, int, Action], bool]] = {
    SEER: _seer_act,
    ROBBER: _robber_act,
    TROUBLEMAKER: _troublemaker_act,
    DRUNK: _drunk_act,
    WEREWOLF: _wolves_act,
}


def perform(st: OneNightState, role: str, seat: int, action: Action) -> None:
    """Carry out ``action`` for ``role`` played by ``seat`` (already checked legal)."""
    act = ROLE_ACTS.get(role)
    if act is not None:
        act(st, seat, action)


# --- the calls -------------------------------------------------------------------
# Each call is two functions: ``begin(st)`` does what needs no choice and returns the
# seat that must now choose (having set ``st.choices``), or -1; ``act(st, seat, action)``
# performs a legal action and returns True when the call is over (else it has set
# ``st.choices`` for the same seat's next choice). One call fewer per decision than a
# separate ``options`` step.


def _doppel_begin(st: OneNightState) -> int:
    if st.stage == 0:
        st.doppel = next((s for s, c in enumerate(st.start) if c == DOPPELGANGER), -1)
        if st.doppel < 0:
            return -1
        st.stage = 1
        st.choices = copy_options(st.n, st.doppel)
    return st.doppel


def _doppel_act(st: OneNightState, seat: int, action: Action) -> bool:
    if st.stage == 1:
        role = st.cards[action.a]
        st.copy = role
        _tell(st, seat, "saw", seat=action.a, card=role)
        _tell(st, seat, "became", role=role)
        if role in ACTS_AT_ONCE:
            st.stage = 2
            st.choices = role_options(role, st.n, seat)
            return False
        if role == MINION:
            # The Doppelgänger-Minion keeps its eyes open while the Werewolves raise a thumb.
            _tell(st, seat, "thumbs", seats=werewolf_seats(st))
        return True
    perform(st, st.copy or "", seat, action)
    return True


def _wolves_begin(st: OneNightState) -> int:
    if st.stage == 1:
        return st.actor
    wolves = holders(st, WEREWOLF)
    if not wolves:
        return -1
    if len(wolves) == 1:
        wolf = wolves[0]
        st.log.append(Event("wolves", ONLY[wolf], {"seats": wolves}))
        if st.options.get("lone_wolf", True):
            st.stage = 1
            st.choices = LONE_WOLF_OPTIONS
            return wolf
        return -1
    st.log.append(Event("wolves", frozenset(wolves), {"seats": wolves}))
    return -1


def _minion_begin(st: OneNightState) -> int:
    minions = [s for s, c in enumerate(st.start) if c == MINION]
    if minions:
        wolves = werewolf_seats(st)
        for m in minions:
            _tell(st, m, "thumbs", seats=wolves)
    return -1


def _masons_begin(st: OneNightState) -> int:
    masons = holders(st, MASON)
    if masons:
        st.log.append(Event("masons", frozenset(masons), {"seats": masons}))
    return -1


def _single(role: str, options: Callable[[int, int], tuple[Action, ...]]) -> Begin:
    def begin(st: OneNightState) -> int:
        start = st.start
        if role in start:
            seat = start.index(role)
            st.choices = options(st.n, seat)
            return seat
        return -1

    return begin


def _drunk_options(n: int, seat: int) -> tuple[Action, ...]:
    return DRUNK_OPTIONS


def _insomniac_begin(st: OneNightState) -> int:
    for s, card in enumerate(st.start):
        if card == INSOMNIAC:
            _tell(st, s, "saw", seat=s, card=st.cards[s])
    return -1


def _doppel_insomniac_begin(st: OneNightState) -> int:
    if st.copy == INSOMNIAC and st.doppel >= 0:
        _tell(st, st.doppel, "saw", seat=st.doppel, card=st.cards[st.doppel])
    return -1


def _no_act(st: OneNightState, seat: int, action: Action) -> bool:
    return True


Begin = Callable[[OneNightState], int]
Act = Callable[[OneNightState, int, Action], bool]

CALLS: dict[str, tuple[Begin, Act]] = {
    DOPPELGANGER: (_doppel_begin, _doppel_act),
    WEREWOLF: (_wolves_begin, _wolves_act),
    MINION: (_minion_begin, _no_act),
    MASON: (_masons_begin, _no_act),
    SEER: (_single(SEER, seer_options), _seer_act),
    ROBBER: (_single(ROBBER, robber_options), _robber_act),
    TROUBLEMAKER: (_single(TROUBLEMAKER, troublemaker_options), _troublemaker_act),
    DRUNK: (_single(DRUNK, _drunk_options), _drunk_act),
    INSOMNIAC: (_insomniac_begin, _no_act),
    DOPPELGANGER_INSOMNIAC: (_doppel_insomniac_begin, _no_act),
}


# The public "this role is called" events are the same in every game: built once.
CALL_EVENTS = {call: Event("call", EVERYONE, {"role": call}) for call in CALLS}


def schedule_for(deck: tuple[str, ...], call_order: tuple[str, ...]) -> tuple[str, ...]:
    """Every call for the roles in the deck, center ones included, in wake order."""
    roles = set(deck)
    calls = [c for c in call_order if c in roles]
    if DOPPELGANGER in roles and INSOMNIAC in roles:
        calls.append(DOPPELGANGER_INSOMNIAC)
    return tuple(calls)


def advance(st: OneNightState, start_day: Callable[[OneNightState], None]) -> None:
    """Run the night until a seat must choose, or the night is over; with a clock
    (``st.held``), open the next call and stop there even if nobody chooses in it."""
    schedule = st.schedule
    log = st.log
    while st.phase == NIGHT:
        if st.call_i >= len(schedule):
            start_day(st)
            return
        call = schedule[st.call_i]
        if st.stage == 0:
            log.append(CALL_EVENTS[call])
        actor = CALLS[call][0](st)
        if actor >= 0:  # begin() has set st.choices
            st.actor = actor
            return
        st.actor = -1
        st.choices = ()
        if st.held:
            return  # the call stays open, nobody choosing, until end_call
        st.call_i += 1
        st.stage = 0


def end_call(st: OneNightState, start_day: Callable[[OneNightState], None]) -> None:
    """Close the open call (its choices made) and open the next one."""
    if st.dusk:
        st.dusk = False
    else:
        st.call_i += 1
        st.stage = 0
        st.actor = -1
        st.choices = ()
    advance(st, start_day)
