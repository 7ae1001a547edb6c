"""The One Night night: each call, who wakes for it, what they may do, what they learn.

Source: one-night-ultimate-werewolf.md, the role table and "Gameplay". Everyone
wakes for the card they saw at the start (``state.start``); the Doppelgänger
wakes again for the role it copied. Each call is three small functions:

- ``begin(state)`` does what needs no choice (werewolves seeing each other,
  the Insomniac's look, ...) and returns the seat that must now choose, or -1;
- ``options(state, seat)`` lists that seat's legal actions;
- ``act(state, seat, action)`` performs one and returns True when the call is over.

Action kinds: ``copy`` (a=seat), ``look`` (a=seat), ``look_center`` (a[, b]=center
indices), ``swap`` (a=seat: exchange with your own card), ``swap_two`` (a, b=seats),
``take_center`` (a=center index), ``skip``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event, new_event
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

SKIP = Action("skip")
# One frozenset per seat, built once: audiences are on the hot path.
ONLY = tuple(frozenset({i}) for i in range(64))


# --- option lists, cached per (players, seat) ---------------------------------


@cache
def copy_options(n: int, seat: int) -> tuple[Action, ...]:
    return tuple(Action("copy", x) for x in range(n) if x != seat)


@cache
def seer_options(n: int, seat: int) -> tuple[Action, ...]:
    players = [Action("look", x) for x in range(n) if x != seat]
    pairs = [Action("look_center", a, b) for a, b in combinations(range(3), 2)]
    return (*players, *pairs, SKIP)


@cache
def robber_options(n: int, seat: int) -> tuple[Action, ...]:
    return (*(Action("swap", x) for x in range(n) if x != seat), SKIP)


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


def _tell(st: OneNightState, who: int, kind: str, **data: object) -> None:
    st.log.append(new_event(Event, (kind, ONLY[who], data)))


def _holders(st: OneNightState, role: str) -> list[int]:
    """Seats that wake for ``role``: it was their starting card, or the Doppelgänger copied it."""
    seats = [s for s, card in enumerate(st.start) if card == role]
    if st.copy == role and st.doppel >= 0:
        seats.append(st.doppel)
    return seats


def werewolf_seats(st: OneNightState) -> list[int]:
    """Who opens their eyes (or raises a thumb) as a Werewolf tonight."""
    return _holders(st, WEREWOLF)


# --- the role actions, shared by the role's own call and the Doppelgänger ----


def perform(st: OneNightState, role: str, seat: int, action: Action) -> None:
    """Carry out ``action`` for ``role`` played by ``seat`` (already checked legal)."""
    kind = action.kind
    cards = st.cards
    n = st.n
    if kind == "skip":
        return
    if role == SEER:
        if kind == "look":
            _tell(st, seat, "saw", seat=action.a, card=cards[action.a])
        else:
            _tell(st, seat, "saw", center=action.a, card=cards[n + action.a])
            _tell(st, seat, "saw", center=action.b, card=cards[n + action.b])
    elif role == ROBBER:
        x = action.a
        cards[seat], cards[x] = cards[x], cards[seat]
        _tell(st, seat, "swapped", seats=[seat, x])
        _tell(st, seat, "saw", seat=seat, card=cards[seat])
    elif role == TROUBLEMAKER:
        a, b = action.a, action.b
        cards[a], cards[b] = cards[b], cards[a]
        _tell(st, seat, "swapped", seats=[a, b])
    elif role == DRUNK:
        i = n + action.a
        cards[seat], cards[i] = cards[i], cards[seat]
        _tell(st, seat, "swapped", seat=seat, center=action.a)
    elif role == WEREWOLF:
        _tell(st, seat, "saw", center=action.a, card=cards[n + action.a])


# --- the calls -------------------------------------------------------------------


def _doppel_begin(st: OneNightState) -> int:
    if st.stage == 0:
        st.doppel = next((s for s, c in enumerate(st.start) if c == DOPPELGANGER), -1)
        if st.doppel < 0:
            return -1
        st.stage = 1
    return st.doppel


def _doppel_options(st: OneNightState, seat: int) -> tuple[Action, ...]:
    if st.stage == 1:
        return copy_options(st.n, seat)
    return role_options(st.copy or "", st.n, seat)


def _doppel_act(st: OneNightState, seat: int, action: Action) -> bool:
    if st.stage == 1:
        role = st.cards[action.a]
        st.copy = role
        _tell(st, seat, "saw", seat=action.a, card=role)
        _tell(st, seat, "became", role=role)
        if role in ACTS_AT_ONCE:
            st.stage = 2
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
    wolves = werewolf_seats(st)
    if not wolves:
        return -1
    audience = frozenset(wolves)
    st.log.append(new_event(Event, ("wolves", audience, {"seats": wolves})))
    if len(wolves) == 1 and st.options.get("lone_wolf", True):
        st.stage = 1
        return wolves[0]
    return -1


def _wolves_options(st: OneNightState, seat: int) -> tuple[Action, ...]:
    return LONE_WOLF_OPTIONS


def _wolves_act(st: OneNightState, seat: int, action: Action) -> bool:
    perform(st, WEREWOLF, seat, action)
    return True


def _minion_begin(st: OneNightState) -> int:
    minions = [s for s, c in enumerate(st.start) if c == MINION]
    if minions:
        wolves = werewolf_seats(st)
        for m in minions:
            _tell(st, m, "thumbs", seats=wolves)
    return -1


def _masons_begin(st: OneNightState) -> int:
    masons = _holders(st, MASON)
    if masons:
        st.log.append(Event("masons", frozenset(masons), {"seats": masons}))
    return -1


def _single(role: str) -> Callable[[OneNightState], int]:
    def begin(st: OneNightState) -> int:
        start = st.start
        return start.index(role) if role in start else -1

    return begin


def _single_options(role: str) -> Callable[[OneNightState, int], tuple[Action, ...]]:
    def options(st: OneNightState, seat: int) -> tuple[Action, ...]:
        return role_options(role, st.n, seat)

    return options


def _single_act(role: str) -> Callable[[OneNightState, int, Action], bool]:
    def act(st: OneNightState, seat: int, action: Action) -> bool:
        perform(st, role, seat, action)
        return True

    return act


def _insomniac_begin(st: OneNightState) -> int:
    for s, card in enumerate(st.start):
        if card == INSOMNIAC:
            _tell(st, s, "saw", seat=s, card=st.cards[s])
    return -1


def _doppel_insomniac_begin(st: OneNightState) -> int:
    if st.copy == INSOMNIAC and st.doppel >= 0:
        _tell(st, st.doppel, "saw", seat=st.doppel, card=st.cards[st.doppel])
    return -1


def _no_options(st: OneNightState, seat: int) -> tuple[Action, ...]:
    return ()


def _no_act(st: OneNightState, seat: int, action: Action) -> bool:
    return True


Begin = Callable[[OneNightState], int]
Options = Callable[[OneNightState, int], tuple[Action, ...]]
Act = Callable[[OneNightState, int, Action], bool]

CALLS: dict[str, tuple[Begin, Options, Act]] = {
    DOPPELGANGER: (_doppel_begin, _doppel_options, _doppel_act),
    WEREWOLF: (_wolves_begin, _wolves_options, _wolves_act),
    MINION: (_minion_begin, _no_options, _no_act),
    MASON: (_masons_begin, _no_options, _no_act),
    SEER: (_single(SEER), _single_options(SEER), _single_act(SEER)),
    ROBBER: (_single(ROBBER), _single_options(ROBBER), _single_act(ROBBER)),
    TROUBLEMAKER: (
        _single(TROUBLEMAKER), _single_options(TROUBLEMAKER), _single_act(TROUBLEMAKER)
    ),
    DRUNK: (_single(DRUNK), _single_options(DRUNK), _single_act(DRUNK)),
    INSOMNIAC: (_insomniac_begin, _no_options, _no_act),
    DOPPELGANGER_INSOMNIAC: (_doppel_insomniac_begin, _no_options, _no_act),
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
    """Run the night until a seat must choose, or the night is over."""
    schedule = st.schedule
    log = st.log
    while st.phase == NIGHT:
        if st.call_i >= len(schedule):
            start_day(st)
            return
        call = schedule[st.call_i]
        if st.stage == 0:
            log.append(CALL_EVENTS[call])
        begin, options, _ = CALLS[call]
        actor = begin(st)
        if actor >= 0:
            st.actor = actor
            st.choices = options(st, actor)
            return
        st.actor = -1
        st.choices = ()
        st.call_i += 1
        st.stage = 0
