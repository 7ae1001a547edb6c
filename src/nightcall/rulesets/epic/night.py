"""The Epic Battle twilight and night: each call, who wakes, what they may do and learn.

Source: epic-battle-rulebook.txt, "Twilight", "Night", every role paragraph, the
"Special Cases" and the "Game Master Sheet". Rulings: docs/rulings/epic.md.

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

Each call is three small functions, as in the One Night ruleset:
``begin(state)`` does what needs no choice and returns the seat that must choose
(or -1), ``options(state, seat)`` lists that seat's legal actions, and
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
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event
from nightcall.rulesets.epic.roles import (
    ALPHA_WOLF,
    ASSASSIN,
    BAT,
    BOUNTY,
    CERTAINTY,
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
    LOVE,
    MIMIC,
    PANIC,
    PLAGUE,
    PRIEST,
    RENFIELD,
    ROBBER,
    SEER,
    SIGHT_WOLF,
    THE_COUNT,
    THE_THING,
    TOKEN_ROLES,
    TRACKER,
    TRAITOR,
    VAMPIRE_CARDS,
    VAMPIRE_TOKEN,
    VENUS,
    WAKING_WOLVES,
    WITCH,
    WOLF_CARDS,
)
from nightcall.rulesets.epic.state import NIGHT, EpicState
from nightcall.rulesets.onuw.night import ONLY, SKIP, robber_options, seer_options

# Shared with One Night: the skip action, one-seat audiences, the Seer's and the
# Robber's option lists (the same choices in both games).
__all__ = ["CALLS", "ONLY", "SKIP", "advance", "schedule_for"]

# --- cached option lists ---------------------------------------------------------


@cache
def _each(kind: str, seats: tuple[int, ...], skip: bool) -> tuple[Action, ...]:
    return (*(Action(kind, x) for x in seats), *((SKIP,) if skip else ()))


@cache
def _pairs(kind: str, n: int) -> tuple[Action, ...]:
    return tuple(Action(kind, a, b) for a, b in combinations(range(n), 2))


@cache
def others(n: int, seat: int) -> tuple[int, ...]:
    return tuple(x for x in range(n) if x != seat)


def left_of(n: int, seat: int) -> int:
    return (seat + 1) % n


def right_of(n: int, seat: int) -> int:
    return (seat - 1) % n


CENTER_ONE = tuple(Action("look_center", i) for i in range(3))
COPY_OPTIONS = tuple(Action("copy_center", i) for i in range(3))

# --- helpers ------------------------------------------------------------------------


def tell(st: EpicState, who: int, kind: str, **data: object) -> None:
    st.log.append(Event(kind, ONLY[who], data))


def tell_group(st: EpicState, group: Iterable[int], kind: str, **data: object) -> None:
    st.log.append(Event(kind, frozenset(group), data))


def holders(st: EpicState, roles: frozenset[str] | set[str]) -> list[int]:
    """Seats that wake for one of ``roles``: their starting card, or the Mimic's copy.
    From the night on, the seat with the Panic token stays asleep."""
    seats = [s for s, card in enumerate(st.start) if card in roles]
    copy = st.card_as.get(MIMIC)
    if copy in roles and MIMIC in st.start:
        seats.append(st.start.index(MIMIC))
        seats.sort()
    if st.night_started and st.panicked in seats:
        seats.remove(st.panicked)
    return seats


def holder(st: EpicState, role: str) -> int:
    seats = holders(st, {role})
    return seats[0] if seats else -1


def exchange_token(st: EpicState, seat: int, token: str) -> None:
    """The player's token goes to the board where ``token`` lay; ``token`` goes to them."""
    old = st.tokens[seat]
    st.board[token] -= 1
    st.board[old] += 1
    st.tokens[seat] = token


def on_board(st: EpicState, token: str, count: int = 1) -> bool:
    return st.board[token] >= count


# --- twilight ---------------------------------------------------------------------------


def _mimic_begin(st: EpicState) -> int:
    return holder(st, MIMIC)


def _mimic_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return COPY_OPTIONS


def _mimic_act(st: EpicState, seat: int, action: Action) -> bool:
    card = st.cards[st.n + action.a]
    st.card_as[MIMIC] = card
    st.acted.add(seat)
    tell(st, seat, "saw", center=action.a, card=card)
    tell(st, seat, "became", role=card)
    return True


def _vampires_begin(st: EpicState) -> int:
    vampires = holders(st, VAMPIRE_CARDS)
    st.vampires = tuple(vampires)
    if not vampires:
        return -1
    tell_group(st, vampires, "vampires", seats=vampires)
    if not _vampire_targets(st) or not on_board(st, VAMPIRE_TOKEN):
        return -1  # everybody else is a vampire: nobody to transform
    return vampires[0]


def _vampire_targets(st: EpicState) -> tuple[int, ...]:
    return tuple(x for x in range(st.n) if x not in st.vampires)


def _vampires_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return _each("token", _vampire_targets(st), False)


def _vampires_act(st: EpicState, seat: int, action: Action) -> bool:
    exchange_token(st, action.a, VAMPIRE_TOKEN)
    st.acted.update(st.vampires)
    tell_group(st, st.vampires, "bitten", seat=action.a)
    return True


def _count_targets(st: EpicState, seat: int) -> tuple[int, ...]:
    return tuple(x for x in range(st.n) if x != seat and x not in st.vampires
                 and st.tokens[x] != VAMPIRE_TOKEN)


def _count_begin(st: EpicState) -> int:
    seat = holder(st, THE_COUNT)
    if seat < 0 or not _count_targets(st, seat) or not on_board(st, PANIC):
        return -1
    return seat


def _count_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return _each("token", _count_targets(st, seat), False)


def _token_act(token: str) -> Callable[[EpicState, int, Action], bool]:
    def act(st: EpicState, seat: int, action: Action) -> bool:
        exchange_token(st, action.a, token)
        st.acted.add(seat)
        tell(st, seat, "gave_token", seat=action.a, token=token)
        return True

    return act


def _renfield_begin(st: EpicState) -> int:
    seat = holder(st, RENFIELD)
    if seat < 0:
        return -1
    bitten = [x for x in range(st.n) if st.tokens[x] == VAMPIRE_TOKEN]
    tell(st, seat, "vampires", seats=list(st.vampires),
         bitten=bitten[0] if bitten else None)
    if on_board(st, BAT):
        exchange_token(st, seat, BAT)
        st.acted.add(seat)
        tell(st, seat, "gave_token", seat=seat, token=BAT)
    return -1


def _role_begin(role: str, token: str | None = None) -> Callable[[EpicState], int]:
    def begin(st: EpicState) -> int:
        seat = holder(st, role)
        if token is not None and not on_board(st, token, 2 if token == LOVE else 1):
            return -1
        return seat

    return begin


def _infected_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    n = st.n
    return _each("token", tuple(sorted({left_of(n, seat), right_of(n, seat)})), False)


def _venus_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return (*_pairs("token_two", st.n), SKIP)


def _venus_act(st: EpicState, seat: int, action: Action) -> bool:
    if action.kind == "skip":
        return True
    exchange_token(st, action.a, LOVE)
    exchange_token(st, action.b, LOVE)
    st.acted.add(seat)
    tell(st, seat, "gave_token", seats=[action.a, action.b], token=LOVE)
    return True


def _anyone(skip: bool) -> Callable[[EpicState, int], tuple[Action, ...]]:
    def options(st: EpicState, seat: int) -> tuple[Action, ...]:
        return _each("token", tuple(range(st.n)), skip)

    return options


def _optional_token_act(token: str) -> Callable[[EpicState, int, Action], bool]:
    give = _token_act(token)

    def act(st: EpicState, seat: int, action: Action) -> bool:
        return True if action.kind == "skip" else give(st, seat, action)

    return act


def _priest_begin(st: EpicState) -> int:
    seat = holder(st, PRIEST)
    if seat < 0 or not on_board(st, CERTAINTY):
        return -1
    exchange_token(st, seat, CERTAINTY)  # compulsory: he heals himself
    st.acted.add(seat)
    tell(st, seat, "gave_token", seat=seat, token=CERTAINTY)
    return seat if on_board(st, CERTAINTY) else -1


def _priest_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return _each("token", others(st.n, seat), True)


def _tokens_begin(st: EpicState) -> int:
    st.night_started = True
    for s in range(st.n):
        tell(st, s, "token", seat=s, token=st.tokens[s])
    st.panicked = st.tokens.index(PANIC) if PANIC in st.tokens else -1
    return -1


def _lovers_begin(st: EpicState) -> int:
    lovers = [s for s in range(st.n) if st.tokens[s] == LOVE]
    if lovers:
        tell_group(st, lovers, "lovers", seats=lovers)
    return -1


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


def _lone_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return (*CENTER_ONE, SKIP)


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
    return _each("swap", _alpha_targets(st, seat), False)


def _alpha_act(st: EpicState, seat: int, action: Action) -> bool:
    x, e = action.a, st.extra_pos
    st.cards[x], st.cards[e] = st.cards[e], st.cards[x]
    st.acted.add(seat)
    tell(st, seat, "swapped", seats=[x], extra=True)
    return True


def _look_other_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return _each("look", others(st.n, seat), True)


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
    return _each("tap", tuple(sorted({left_of(n, seat), right_of(n, seat)})), True)


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
        return _each("look", others(st.n, seat), True)
    return _each("look", tuple(x for x in others(st.n, seat) if x != st.pick), True)


def _ghost_begin(st: EpicState) -> int:
    seat = holder(st, GHOST_HUNTER)
    if seat >= 0:
        st.stage = 1
    return seat


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


def _tracker_begin(st: EpicState) -> int:
    seat = holder(st, TRACKER)
    if seat >= 0:
        st.stage = 1
    return seat


def _tracker_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    if st.stage == 1:
        return _each("look", others(st.n, seat), True)
    return _each("look_token", tuple(x for x in others(st.n, seat) if x != st.pick), True)


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


def _witch_begin(st: EpicState) -> int:
    seat = holder(st, WITCH)
    if seat >= 0:
        st.stage = 1
    return seat


def _witch_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    if st.stage == 1:
        return (*CENTER_ONE, SKIP)
    return _each("swap_center", tuple(range(st.n)), False)  # compulsory once she looked


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
    return (*_pairs("swap_two", st.n), *_pairs("swap_tokens", st.n), SKIP)


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
    return _each("reveal", others(st.n, seat), True)


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
    return _each("artifact", tuple(range(st.n)), True)


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


def _nothing(st: EpicState, seat: int) -> tuple[Action, ...]:
    return ()


def _done(st: EpicState, seat: int, action: Action) -> bool:
    return True


Begin = Callable[[EpicState], int]
Options = Callable[[EpicState, int], tuple[Action, ...]]
Act = Callable[[EpicState, int, Action], bool]

CALLS: dict[str, tuple[Begin, Options, Act]] = {
    "mimic": (_mimic_begin, _mimic_options, _mimic_act),
    "vampires": (_vampires_begin, _vampires_options, _vampires_act),
    "the_count": (_count_begin, _count_options, _token_act(PANIC)),
    "renfield": (_renfield_begin, _nothing, _done),
    "infected": (_role_begin(INFECTED, PLAGUE), _infected_options, _token_act(PLAGUE)),
    "venus": (_role_begin(VENUS, LOVE), _venus_options, _venus_act),
    "instigator": (_role_begin(INSTIGATOR, TRAITOR), _anyone(True),
                   _optional_token_act(TRAITOR)),
    "priest": (_priest_begin, _priest_options, _optional_token_act(CERTAINTY)),
    "assassin": (_role_begin(ASSASSIN, BOUNTY), _anyone(False), _token_act(BOUNTY)),
    "tokens": (_tokens_begin, _nothing, _done),
    "lovers": (_lovers_begin, _nothing, _done),
    "werewolves": (_wolves_begin, _lone_options, _look_center_act),
    "werewolves_dream_wolf": (_wolves_begin, _lone_options, _look_center_act),
    "alpha_wolf": (_alpha_begin, _alpha_options, _alpha_act),
    "sight_wolf": (_role_begin(SIGHT_WOLF), _look_other_options, _look_act),
    "freemasons": (_freemasons_begin, _nothing, _done),
    "the_thing": (_role_begin(THE_THING), _thing_options, _thing_act),
    "seer": (_role_begin(SEER), _seer_options, _seer_act),
    "ghost_hunter": (_ghost_begin, _ghost_options, _ghost_act),
    "tracker": (_tracker_begin, _tracker_options, _tracker_act),
    "robber": (_role_begin(ROBBER), _robber_options, _robber_act),
    "witch": (_witch_begin, _witch_options, _witch_act),
    "fortune_teller": (_fortune_begin, _nothing, _done),
    "goblin": (_role_begin(GOBLIN), _goblin_options, _goblin_act),
    "insomniac": (_insomniac_begin, _nothing, _done),
    "enlightener": (_role_begin(ENLIGHTENER), _enlightener_options, _enlightener_act),
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


def advance(st: EpicState, start_day: Callable[[EpicState], None]) -> None:
    """Run the night until a seat must choose, or the night is over."""
    schedule = st.schedule
    while st.phase == NIGHT:
        if st.call_i >= len(schedule):
            start_day(st)
            return
        call = schedule[st.call_i]
        if st.stage == 0:
            st.log.append(Event("call", EVERYONE, {"call": call}))
        actor = CALLS[call][0](st)
        if actor >= 0:
            st.actor = actor
            return
        st.actor = -1
        st.call_i += 1
        st.stage = 0
        st.pick = -1


def finish_call(st: EpicState, start_day: Callable[[EpicState], None]) -> None:
    st.call_i += 1
    st.stage = 0
    st.pick = -1
    st.actor = -1
    advance(st, start_day)
