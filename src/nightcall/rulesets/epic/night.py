"""The Epic Battle twilight and night: each call, who wakes, what they may do and learn.

Source: epic-battle-rulebook.txt, "Twilight", "Night", every role paragraph, the
"Special Cases" and the "Game Master Sheet". Rulings: docs/rulings.md (Epic Battle).

Call ids, in the Game Master sheet's order (a call is made when its role is in
the deck, wherever the card lies, so the narration never gives the deck away):

==========================  ======  =================================================
call id                     number  who wakes
==========================  ======  =================================================
``mimic``                   -8      the Mimic: looks at a center card, becomes it
``vampires``                -6      Vampire, The Count, The Master: see each other,
                                    give a non-vampire the Vampire token
``the_count``               -6B     The Count again: gives a non-vampire the Panic token
``renfield``                -6C     vampires point at their victim; Renfield watches,
                                    then takes the Bat token
``infected``                -5      gives a neighbour the Plague token
``venus``                   -4      may give two players the Love tokens
``instigator``              -3      may give a player the Traitor token
``priest``                  -2      takes a Certainty token, may give one to another
``assassin``                -1      gives a player the Bounty token
``tokens``                          everybody looks at their own token (with tokens)
``lovers``                          the players with a Love token see each other
``werewolves``              2       the werewolves see each other (lone wolf: may look
                                    at a center card)
``werewolves_dream_wolf``   2       the same call when the Dream Wolf is in the deck
``alpha_wolf``              2B      exchanges the extra werewolf card with a player
``sight_wolf``              2C      may look at a player's card
``freemasons``              4       the Freemasons see each other
``the_thing``               4B      may tap a neighbour
``seer``                    5       one player's card or two center cards
``ghost_hunter``            5C      up to two cards; a monster or Tanner transforms him
``tracker``                 5D      a card, then another player's token
``robber``                  6       swaps with a player, sees the new card
``witch``                   6B      may look at a center card, then must swap it
``fortune_teller``          7C      sees who moved or looked at a card or token
``goblin``                  7D      may swap two players' cards or two players' tokens
``insomniac``               9       looks at her own card
``enlightener``             10      may turn a player's card face up
``curator``                 11      may put a random artifact on a card
==========================  ======  =================================================

The twilight calls are in :mod:`.twilight`, the shared helpers in :mod:`.common`.
Each call is three small functions, as in the One Night ruleset:
``begin(state)`` does what needs no choice and returns the seat that must choose
(or -1), ``options(state, seat)`` lists that seat's legal actions (asked when it
wakes and at each new stage of its call, and kept in ``state.choices``), and
``act(state, seat, action)`` performs one and returns True when the call is over.

Action kinds: ``copy_center`` (a=center), ``token`` (a=seat), ``token_two`` (a, b),
``look`` (a=seat), ``look_center`` (a[, b]=center), ``look_token`` (a=seat),
``swap`` (a=seat: with one's own card, or with the extra card for the Alpha Wolf),
``swap_center`` (a=seat: with the center card the Witch looked at), ``swap_two``
(a, b: two players' cards), ``swap_tokens`` (a, b), ``tap`` (a), ``reveal`` (a),
``artifact`` (a), ``skip``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import cache

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event
from nightcall.rulesets.epic.common import (
    CENTER_ONE,
    SKIP,
    Act,
    Begin,
    Options,
    call_over,
    each_pair,
    each_seat,
    holder,
    holders,
    left_of,
    no_options,
    others,
    right_of,
    role_begin,
    tell,
    tell_group,
    two_stage_begin,
)
from nightcall.rulesets.epic.roles import (
    ALPHA_WOLF,
    ASSASSIN,
    CURATOR,
    DREAM_WOLF,
    ENLIGHTENER,
    ENLIGHTENER_HIDES,
    FORTUNE_TELLER,
    FREEMASON,
    GHOST_HUNTER,
    GHOST_TRANSFORMS,
    GOBLIN,
    INFECTED,
    INSOMNIAC,
    INSTIGATOR,
    MIMIC,
    PRIEST,
    RENFIELD,
    ROBBER,
    SEER,
    SIGHT_WOLF,
    THE_COUNT,
    THE_THING,
    TOKEN_ROLES,
    TRACKER,
    VAMPIRE_CARDS,
    VENUS,
    WAKING_WOLVES,
    WITCH,
    WOLF_CARDS,
)
from nightcall.rulesets.epic.state import NIGHT, EpicState
from nightcall.rulesets.epic.twilight import TWILIGHT_CALLS
from nightcall.rulesets.onenight import robber_options, seer_options

# --- night ----------------------------------------------------------------------------


def _wolves_begin(st: EpicState) -> int:
    awake = holders(st, WAKING_WOLVES)
    thumbs = holders(st, {DREAM_WOLF})
    st.wolves_known = frozenset(awake + thumbs)
    if not awake:
        return -1
    tell_group(st, awake, "wolves", seats=awake, dream_wolves=thumbs)
    if len(awake) == 1 and not thumbs:
        return awake[0]  # the lone wolf may look at a center card
    return -1


# Option tuples that are the same in every game, or for every table size: built once
# (each choice is asked twice, by legal_actions and by apply's check).
CENTER_ONE_OR_SKIP = (*CENTER_ONE, SKIP)


@cache
def goblin_choices(n: int, tokens: bool) -> tuple[Action, ...]:
    """The Goblin's choices at ``n`` seats: swap two cards, two tokens if any token role
    is in play, or nothing."""
    if not tokens:  # no token role: everyone keeps Certainty (docs/rulings.md)
        return (*each_pair("swap_two", n), SKIP)
    return (*each_pair("swap_two", n), *each_pair("swap_tokens", n), SKIP)


def _lone_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return CENTER_ONE_OR_SKIP


def _look_center_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "look_center":
        st.acted.add(seat)
        for i in (action.a, action.b):
            if i >= 0:
                tell(st, seat, "saw", center=i, card=st.cards[st.n + i])
    return True


def _alpha_targets(st: EpicState, seat: int) -> tuple[int, ...]:
    return tuple(x for x in range(st.n) if x != seat and x not in st.wolves_known)


def _alpha_begin(st: EpicState) -> int:
    seat = holder(st, ALPHA_WOLF)
    if seat < 0 or st.extra_pos < 0 or st.cards[st.extra_pos] not in WOLF_CARDS:
        return -1
    return seat if _alpha_targets(st, seat) else -1


def _alpha_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return each_seat("swap", _alpha_targets(st, seat), False)


def _alpha_act(st: EpicState, seat: int, action: Action) -> bool:
    x, e = action.a, st.extra_pos
    st.cards[x], st.cards[e] = st.cards[e], st.cards[x]
    st.acted.add(seat)
    tell(st, seat, "swapped", seats=[x], extra=True)
    return True


def _look_other_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return each_seat("look", others(st.n, seat), True)


def _look_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "look":
        st.acted.add(seat)
        tell(st, seat, "saw", seat=action.a, card=st.cards[action.a])
    return True


def _freemasons_begin(st: EpicState) -> int:
    masons = holders(st, {FREEMASON})
    if masons:
        tell_group(st, masons, "freemasons", seats=masons)
    return -1


def _thing_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    n = st.n
    return each_seat("tap", tuple(sorted({left_of(n, seat), right_of(n, seat)})), True)


def _thing_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "tap":
        tell(st, action.a, "tapped", by=seat)
        tell(st, seat, "tapped", seat=action.a)
    return True


def _seer_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return seer_options(st.n, seat)


def _seer_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "look":
        return _look_act(st, seat, action)
    return _look_center_act(st, seat, action)


def _ghost_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    if st.stage == 1:
        return each_seat("look", others(st.n, seat), True)
    return each_seat("look", tuple(x for x in others(st.n, seat) if x != st.pick), True)


def _ghost_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "skip":
        return True
    _look_act(st, seat, action)
    card = st.cards[action.a]
    if card in GHOST_TRANSFORMS:
        # The transformation follows the card that gave the ability (Ghost Hunter or Mimic).
        st.card_as[st.start[seat]] = card
        tell(st, seat, "became", role=card)
        return True
    if st.stage == 1:
        st.stage, st.pick = 2, action.a
        return False
    return True


def _tracker_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    if st.stage == 1:
        return each_seat("look", others(st.n, seat), True)
    return each_seat("look_token", tuple(x for x in others(st.n, seat) if x != st.pick), True)


def _tracker_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "skip":
        return True
    if action.kind == "look":
        _look_act(st, seat, action)
        if not st.tokens_in_play:
            return True
        st.stage, st.pick = 2, action.a
        return False
    st.acted.add(seat)
    tell(st, seat, "saw_token", seat=action.a, token=st.tokens[action.a])
    return True


def _robber_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return robber_options(st.n, seat)


def _robber_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "swap":
        x, cards = action.a, st.cards
        cards[seat], cards[x] = cards[x], cards[seat]
        st.acted.add(seat)
        tell(st, seat, "swapped", seats=[seat, x])
        tell(st, seat, "saw", seat=seat, card=cards[seat])
    return True


def _witch_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    if st.stage == 1:
        return CENTER_ONE_OR_SKIP
    return each_seat("swap_center", tuple(range(st.n)), False)  # compulsory once she looked


def _witch_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "skip":
        return True
    if st.stage == 1:
        _look_center_act(st, seat, action)
        st.stage, st.pick = 2, action.a
        return False
    i, x, cards = st.n + st.pick, action.a, st.cards
    cards[i], cards[x] = cards[x], cards[i]
    tell(st, seat, "swapped", seats=[x], center=st.pick)
    return True


def _fortune_begin(st: EpicState) -> int:
    seat = holder(st, FORTUNE_TELLER)
    if seat >= 0:
        tell(st, seat, "thumbs", seats=sorted(st.acted - {seat}))
    return -1


def _goblin_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return goblin_choices(st.n, st.tokens_in_play)


def _goblin_act(st: EpicState, seat: int, action: Action) -> bool:
    a, b = action.a, action.b
    if action.kind == "swap_two":
        st.cards[a], st.cards[b] = st.cards[b], st.cards[a]
        tell(st, seat, "swapped", seats=[a, b])
    elif action.kind == "swap_tokens":
        st.tokens[a], st.tokens[b] = st.tokens[b], st.tokens[a]
        tell(st, seat, "swapped_tokens", seats=[a, b])
    else:
        return True
    st.acted.add(seat)
    return True


def _insomniac_begin(st: EpicState) -> int:
    seat = holder(st, INSOMNIAC)
    if seat >= 0:
        st.acted.add(seat)
        tell(st, seat, "saw", seat=seat, card=st.cards[seat])
    return -1


def _enlightener_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return each_seat("reveal", others(st.n, seat), True)


def _enlightener_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "reveal":
        card = st.cards[action.a]
        st.acted.add(seat)
        tell(st, seat, "saw", seat=action.a, card=card)
        if card in ENLIGHTENER_HIDES:
            tell(st, seat, "concealed", seat=action.a)
        else:
            st.revealed[action.a] = card
    return True


def _curator_begin(st: EpicState) -> int:
    seat = holder(st, CURATOR)
    return seat if st.artifact_pool else -1


def _curator_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return each_seat("artifact", tuple(range(st.n)), True)


def _curator_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "skip":
        return True
    # Drawn face down at random (the state's seeded RNG) unless a record says which.
    if st.rng is None:
        st.rng = random.Random(st.options.get("seed", 0))
    drawn = st.forced_artifact or st.rng.choice(sorted(st.artifact_pool))
    st.forced_artifact = None
    st.artifact_pool.remove(drawn)
    st.artifacts[action.a] = drawn
    tell(st, seat, "placed_artifact", seat=action.a)
    st.log.append(Event("artifact_drawn", "master", {"seat": action.a, "artifact": drawn}))
    return True





CALLS: dict[str, tuple[Begin, Options, Act]] = {
    **TWILIGHT_CALLS,
    "werewolves": (_wolves_begin, _lone_options, _look_center_act),
    "werewolves_dream_wolf": (_wolves_begin, _lone_options, _look_center_act),
    "alpha_wolf": (_alpha_begin, _alpha_options, _alpha_act),
    "sight_wolf": (role_begin(SIGHT_WOLF), _look_other_options, _look_act),
    "freemasons": (_freemasons_begin, no_options, call_over),
    "the_thing": (role_begin(THE_THING), _thing_options, _thing_act),
    "seer": (role_begin(SEER), _seer_options, _seer_act),
    "ghost_hunter": (two_stage_begin(GHOST_HUNTER), _ghost_options, _ghost_act),
    "tracker": (two_stage_begin(TRACKER), _tracker_options, _tracker_act),
    "robber": (role_begin(ROBBER), _robber_options, _robber_act),
    "witch": (two_stage_begin(WITCH), _witch_options, _witch_act),
    "fortune_teller": (_fortune_begin, no_options, call_over),
    "goblin": (role_begin(GOBLIN), _goblin_options, _goblin_act),
    "insomniac": (_insomniac_begin, no_options, call_over),
    "enlightener": (role_begin(ENLIGHTENER), _enlightener_options, _enlightener_act),
    "curator": (_curator_begin, _curator_options, _curator_act),
}

# Which call a role's card is woken by (the Dream Wolf only raises a thumb in it).
CALL_OF_ROLE: dict[str, str] = {
    MIMIC: "mimic", "vampire": "vampires", "the_master": "vampires", THE_COUNT: "the_count",
    RENFIELD: "renfield", INFECTED: "infected", VENUS: "venus", INSTIGATOR: "instigator",
    PRIEST: "priest", ASSASSIN: "assassin", "werewolf": "werewolves", DREAM_WOLF: "werewolves",
    ALPHA_WOLF: "alpha_wolf", SIGHT_WOLF: "sight_wolf", FREEMASON: "freemasons",
    THE_THING: "the_thing", SEER: "seer", GHOST_HUNTER: "ghost_hunter", TRACKER: "tracker",
    ROBBER: ROBBER, WITCH: WITCH, FORTUNE_TELLER: "fortune_teller", GOBLIN: GOBLIN,
    INSOMNIAC: INSOMNIAC, ENLIGHTENER: ENLIGHTENER, CURATOR: CURATOR,
}
CALL_ORDER = tuple(CALLS)


def schedule_for(deck: Iterable[str]) -> tuple[str, ...]:
    """Every call for the roles in the deck (center and extra card included), in order."""
    roles = set(deck)
    calls: list[str] = []
    for call in CALL_ORDER:
        if call == "vampires":
            wanted = bool(roles & VAMPIRE_CARDS)
        elif call == "tokens":
            wanted = bool(roles & TOKEN_ROLES)
        elif call == "lovers":
            wanted = VENUS in roles
        elif call == "werewolves":
            wanted = bool(roles & WOLF_CARDS) and DREAM_WOLF not in roles
        elif call == "werewolves_dream_wolf":
            wanted = DREAM_WOLF in roles
        else:
            wanted = any(CALL_OF_ROLE.get(r) == call for r in roles)
        if wanted:
            calls.append(call)
    return tuple(calls)


# The public "this role is called" events are the same in every game: built once.
CALL_EVENTS = {call: Event("call", EVERYONE, {"call": call}) for call in CALLS}


def advance(st: EpicState, start_day: Callable[[EpicState], None]) -> None:
    """Run the night until a seat must choose, or the night is over; with a clock
    (``st.held``), open the next call and stop there even if nobody chooses in it."""
    schedule = st.schedule
    while st.phase == NIGHT:
        if st.call_i >= len(schedule):
            start_day(st)
            return
        call = schedule[st.call_i]
        if st.stage == 0:
            st.log.append(CALL_EVENTS[call])
        begin, options, _ = CALLS[call]
        actor = begin(st)
        if actor >= 0:
            st.actor = actor
            st.choices = options(st, actor)
            return
        st.actor = -1
        st.choices = ()
        if st.held:
            return  # the call stays open, nobody choosing, until end_call
        st.call_i += 1
        st.stage = 0
        st.pick = -1


def finish_call(st: EpicState, start_day: Callable[[EpicState], None]) -> None:
    """The open call's choices are made: with a clock it stays open (nobody choosing)
    until end_call; without one the next call opens."""
    if st.held:
        st.actor = -1
        st.choices = ()
        return
    end_call(st, start_day)


def end_call(st: EpicState, start_day: Callable[[EpicState], None]) -> None:
    """Close the open call (or the dusk) and open the next one."""
    if st.dusk:
        st.dusk = False
        advance(st, start_day)
        return
    st.call_i += 1
    st.stage = 0
    st.pick = -1
    st.actor = -1
    st.choices = ()
    advance(st, start_day)


def fast_waits(schedule: tuple[str, ...]) -> list[str]:
    """The calls that open a new round of the fast night (docs/rulings.md, fast night
    rules 6-16): the night waits for the twilight's tokens and the Mimic's copy; the
    vampires wait for the Mimic (a Mimic-vampire is one of them), the Count for the
    vampires' victim; the Ghost Hunter's and the Tracker's looks for the Alpha Wolf."""
    waits: list[str] = []
    twilight = [c for c in schedule if c in TWILIGHT_CALLS]
    if "mimic" in twilight and twilight[-1] != "mimic":
        waits.append(twilight[twilight.index("mimic") + 1])
    if "the_count" in twilight:
        waits.append("the_count")
    night = [c for c in schedule if c not in TWILIGHT_CALLS]
    if night:
        waits.append(night[0])
    if "alpha_wolf" in night:
        waits += [c for c in night if c in ("ghost_hunter", "tracker")][:1]
    return waits
