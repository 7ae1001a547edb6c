"""The Lupus night: the calls in their fixed order, who wakes, what they may do, what they learn.

Source: lupus-in-tabula.md, "Setup" (role table), "Gameplay" (Night, The calls,
The werewolves choose), "Variants" (Owl, Freemasons, Werehamster, Mythomaniac)
and the quick reference. Rulings: docs/rulings.md (Lupus in Tabula).

Every role in the deck is called every night it is due, dead or alive; only the
living holders of a role wake and choose (ghosts keep their eyes closed). Each
call has a ``begin`` that tells the woken players what they learn without
choosing and returns who must choose, and a ``finish`` run once they all chose.

Action kinds: ``protect`` (Bodyguard), ``visit`` / ``stay_home`` (Harlot),
``kill`` (each werewolf's pick), ``see`` (Seer), ``mark`` (Owl), ``imitate``
(Mythomaniac); ``a`` is the seat pointed at.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, MASTER, Event
from nightcall.rulesets.lupus.roles import (
    BODYGUARD,
    CALL_ORDER,
    FIRST_NIGHT,
    FREEMASON,
    HARLOT,
    MEDIUM,
    MYTHOMANIAC,
    ONLY_NIGHT,
    OWL,
    SEER,
    WEREHAMSTER,
    WEREWOLF,
)
from nightcall.rulesets.lupus.state import NIGHT, NOBODY, LupusState

STAY_HOME = Action("stay_home")
# One frozenset per seat, built once: audiences are on the hot path.
ONLY = tuple(frozenset({i}) for i in range(64))

# The action kind of each call that has a choice.
KIND = {BODYGUARD: "protect", HARLOT: "visit", WEREWOLF: "kill", SEER: "see", OWL: "mark",
        MYTHOMANIAC: "imitate"}


@lru_cache(maxsize=1024)
def calls_for(roles: tuple[str, ...], night: int) -> tuple[str, ...]:
    """The calls of night ``night`` for a deck, in order, whoever is dead."""
    present = set(roles)
    return tuple(
        call for call in CALL_ORDER
        if call in present
        and night >= FIRST_NIGHT.get(call, 1)
        and ONLY_NIGHT.get(call, night) == night
    )


@cache
def per_seat(kind: str) -> tuple[Action, ...]:
    """``Action(kind, s)`` for every seat, made once per kind."""
    return tuple(Action(kind, s) for s in range(64))


@lru_cache(maxsize=8192)
def targets(kind: str, mask: int, exclude: int, n: int) -> tuple[Action, ...]:
    """One action per seat in ``mask`` other than ``exclude`` (cached: the hot path).
    Random games reach many living sets, so a miss is common: it only picks from
    actions made once (a NamedTuple costs a Python call to build)."""
    row = per_seat(kind)
    return tuple([row[s] for s in range(n) if mask >> s & 1 and s != exclude])


def options(st: LupusState, seat: int) -> tuple[Action, ...]:
    """The legal choices of ``seat`` in the current call (empty if it is not choosing)."""
    if st.phase != NIGHT or seat in st.picks:
        return ()
    return st.choices.get(seat, ())


def _options(st: LupusState, call: str, seat: int) -> tuple[Action, ...]:
    """What ``seat``, woken for ``call``, may choose (worked out as the call opens)."""
    n = st.n
    mask = st.alive_mask
    if call == WEREWOLF:
        # Any living player outside the pack (rulings: the pack knows itself), who are
        # the call's actors (``_wolves``).
        pack = st.mask_of(st.actors)
        return targets("kill", mask & ~pack, NOBODY, n)
    if call == BODYGUARD:
        return targets("protect", mask, seat if st.self_protected else NOBODY, n)
    if call == HARLOT:
        return (*targets("visit", mask, seat, n), STAY_HOME)
    return targets(KIND[call], mask, seat, n)


def _tell(st: LupusState, who: int, kind: str, **data: object) -> None:
    st.log.append(Event(kind, ONLY[who], data))


def begin_night(st: LupusState) -> bool:
    """Start the next night; return True if it is already over (nobody had to choose)."""
    st.night += 1
    st.phase = NIGHT
    st.calls = calls_for(st.deck, st.night)
    st.call_i = 0
    st.victim = st.protected = st.visit = NOBODY
    st.looks = []
    st.nights_log.append({})
    st.log.append(Event("night", EVERYONE, {"night": st.night}))
    return False if st.dusk else advance(st)


def advance(st: LupusState) -> bool:
    """Run the calls until living players must choose; True when the calls are over.
    With a clock (``st.held``) the next call opens and stays open even if nobody
    chooses in it (a dead or absent role's call lasts like any other)."""
    calls = st.calls
    while st.call_i < len(calls):
        call = calls[st.call_i]
        st.log.append(Event("call", EVERYONE, {"role": call, "night": st.night}))
        actors = BEGIN[call](st)
        if actors or st.held:
            st.actors = tuple(actors)
            st.picks = {}
            st.choices = {s: _options(st, call, s) for s in actors}
            return False
        st.call_i += 1
    st.actors = ()
    st.picks = {}
    st.choices = {}
    return True


def act(st: LupusState, seat: int, action: Action) -> bool:
    """Record one legal choice; True when this was the last choice of the night."""
    call = st.calls[st.call_i]
    st.picks[seat] = action
    if call == WEREWOLF:
        # Awake together, the pack sees each other point.
        audience = frozenset(st.actors)
        st.log.append(Event("wolf_pick", audience, {"seat": seat, "target": action.a}))
    if len(st.picks) < len(st.actors):
        return False
    FINISH[call](st)
    if st.held:
        return False  # the call stays open, its choices made, until end_call
    st.call_i += 1
    return advance(st)


def end_call(st: LupusState) -> bool:
    """Close the open call (or the dusk) and open the next; True when the night is over."""
    if st.dusk:
        st.dusk = False
    else:
        st.call_i += 1
    return advance(st)


# --- what each call does -------------------------------------------------------


def _medium(st: LupusState) -> list[int]:
    if st.executed:
        was = st.executed[-1]
        wolf = st.role_at_death.get(was) == WEREWOLF
        for m in st.living_with(MEDIUM):
            _tell(st, m, "medium", seat=was, werewolf=wolf)
    return []


def _freemasons(st: LupusState) -> list[int]:
    masons = st.living_with(FREEMASON)
    if masons:
        st.log.append(Event("freemasons", frozenset(masons), {"seats": masons}))
    return []


def _wolves(st: LupusState) -> list[int]:
    pack = st.living_with(WEREWOLF)
    if pack:
        st.log.append(Event("wolves", frozenset(pack), {"seats": pack}))
    return pack


def _holders(role: str) -> Callable[[LupusState], list[int]]:
    def begin(st: LupusState) -> list[int]:
        return st.living_with(role)

    return begin


def _finish_bodyguard(st: LupusState) -> None:
    for seat, action in st.picks.items():
        st.protected = action.a
        if action.a == seat:
            st.self_protected = True
        st.nights_log[-1]["bodyguard"] = action.a
        _tell(st, seat, "protect", seat=action.a)


def _finish_harlot(st: LupusState) -> None:
    for seat, action in st.picks.items():
        st.visit = action.a  # NOBODY (-1) for stay_home
        st.nights_log[-1]["harlot"] = action.a
        _tell(st, seat, "visit", seat=action.a if action.a >= 0 else None)


def settle_victim(st: LupusState, picks: dict[int, int]) -> int:
    """The pack's victim: the most pointed-at player; a tie goes to whoever sits
    closer, clockwise, to the last player to die (rulings: "The werewolves' victim")."""
    tally: dict[int, int] = {}
    for target in picks.values():
        tally[target] = tally.get(target, 0) + 1
    return min(tally, key=lambda t: (-tally[t], st.distance(t)))


def _finish_wolves(st: LupusState) -> None:
    picks = {seat: action.a for seat, action in st.picks.items()}
    st.victim = settle_victim(st, picks)
    entry = st.nights_log[-1]
    entry["wolves"] = st.victim
    # The record keeps each pick, in the order made, unless "wolves" alone says it all.
    if len(set(picks.values())) > 1 or list(picks) != sorted(picks):
        entry["wolf_picks"] = picks
    st.log.append(Event("victim", frozenset(st.actors), {"seat": st.victim}))


def _finish_seer(st: LupusState) -> None:
    looks: dict[int, int] = {}
    for seat in sorted(st.picks):
        target = st.picks[seat].a
        st.looks.append((seat, target))
        looks[seat] = target
        # The Possessed, the Harlot and the Werehamster are human for the Seer.
        _tell(st, seat, "seen", seat=target, werewolf=st.roles[target] == WEREWOLF)
    st.nights_log[-1]["seer"] = looks


def _finish_owl(st: LupusState) -> None:
    for seat, action in st.picks.items():
        st.owl_pick = action.a
        st.nights_log[-1]["owl"] = action.a
        _tell(st, seat, "mark", seat=action.a)


def _finish_mythomaniac(st: LupusState) -> None:
    for seat, action in st.picks.items():
        target_role = st.roles[action.a]
        becomes = target_role if target_role in (WEREWOLF, SEER) else None
        if becomes is not None:
            st.myth_becomes = (seat, becomes)
        st.nights_log[-1]["mythomaniac"] = action.a
        # Rulings: the Master nods, so the Mythomaniac knows whom to wake with.
        _tell(st, seat, "imitate", seat=action.a, becomes=becomes)


def transform_mythomaniac(st: LupusState) -> None:
    """At the start of night 3 a living Mythomaniac who pointed at a Werewolf or the
    Seer becomes that role in every respect (rulings: "The Mythomaniac")."""
    if st.myth_becomes is None:
        return
    seat, role = st.myth_becomes
    st.myth_becomes = None
    if st.alive[seat]:
        st.holders[st.roles[seat]].remove(seat)
        st.holders.setdefault(role, []).append(seat)
        st.holders[role].sort()
        st.roles[seat] = role
        if role == WEREWOLF:
            st.wolves += 1
            st.humans -= 1
        st.log.append(Event("transformed", MASTER, {"seat": seat, "role": role}))


def _nothing(st: LupusState) -> None:
    return None


def hamster_seen(st: LupusState) -> list[int]:
    """Werehamsters a Seer looked at tonight: they die at dawn."""
    return [t for _, t in st.looks if st.roles[t] == WEREHAMSTER]


BEGIN: dict[str, Callable[[LupusState], list[int]]] = {
    MEDIUM: _medium,
    BODYGUARD: _holders(BODYGUARD),
    HARLOT: _holders(HARLOT),
    WEREWOLF: _wolves,
    SEER: _holders(SEER),
    OWL: _holders(OWL),
    FREEMASON: _freemasons,
    MYTHOMANIAC: _holders(MYTHOMANIAC),
}
FINISH: dict[str, Callable[[LupusState], None]] = {
    MEDIUM: _nothing,
    BODYGUARD: _finish_bodyguard,
    HARLOT: _finish_harlot,
    WEREWOLF: _finish_wolves,
    SEER: _finish_seer,
    OWL: _finish_owl,
    FREEMASON: _nothing,
    MYTHOMANIAC: _finish_mythomaniac,
}
