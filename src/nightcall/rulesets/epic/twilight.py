"""The twilight: the roles that wake before the night, mostly to exchange symbol tokens,
then everybody's look at their token and the lovers (epic-battle-rulebook.txt,
"Twilight", the role paragraphs of the Mimic, Vampire, The Count, The Master,
Renfield, Infected, Venus, Instigator, Priest, Assassin, and the Game Master sheet).
Each call is ``begin``/``options``/``act`` as described in :mod:`.night`.
"""


from __future__ import annotations

from collections.abc import Callable
from functools import cache

from nightcall.engine.actions import Action
from nightcall.rulesets.epic.common import (
    COPY_OPTIONS,
    SKIP,
    Act,
    Begin,
    Options,
    call_over,
    each_pair,
    each_seat,
    exchange_token,
    holder,
    holders,
    left_of,
    no_options,
    on_board,
    others,
    right_of,
    role_begin,
    tell,
    tell_group,
)
from nightcall.rulesets.epic.roles import (
    ASSASSIN,
    BAT,
    BOUNTY,
    CERTAINTY,
    INFECTED,
    INSTIGATOR,
    LOVE,
    MIMIC,
    PANIC,
    PLAGUE,
    PRIEST,
    RENFIELD,
    THE_COUNT,
    TRAITOR,
    VAMPIRE_CARDS,
    VAMPIRE_TOKEN,
    VENUS,
)
from nightcall.rulesets.epic.state import EpicState

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
    return each_seat("token", _vampire_targets(st), False)


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
    return each_seat("token", _count_targets(st, seat), False)


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




def _infected_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    n = st.n
    return each_seat("token", tuple(sorted({left_of(n, seat), right_of(n, seat)})), False)


@cache
def _venus_choices(n: int) -> tuple[Action, ...]:
    return (*each_pair("token_two", n), SKIP)


def _venus_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return _venus_choices(st.n)


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
        return each_seat("token", tuple(range(st.n)), skip)

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
    return each_seat("token", others(st.n, seat), True)


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



# The twilight calls, then the token look and the lovers, in the Game Master sheet order.
TWILIGHT_CALLS: dict[str, tuple[Begin, Options, Act]] = {
    "mimic": (_mimic_begin, _mimic_options, _mimic_act),
    "vampires": (_vampires_begin, _vampires_options, _vampires_act),
    "the_count": (_count_begin, _count_options, _token_act(PANIC)),
    "renfield": (_renfield_begin, no_options, call_over),
    "infected": (role_begin(INFECTED, PLAGUE), _infected_options, _token_act(PLAGUE)),
    "venus": (role_begin(VENUS, LOVE), _venus_options, _venus_act),
    "instigator": (role_begin(INSTIGATOR, TRAITOR), _anyone(True),
                   _optional_token_act(TRAITOR)),
    "priest": (_priest_begin, _priest_options, _optional_token_act(CERTAINTY)),
    "assassin": (role_begin(ASSASSIN, BOUNTY), _anyone(False), _token_act(BOUNTY)),
    "tokens": (_tokens_begin, no_options, call_over),
    "lovers": (_lovers_begin, no_options, call_over),
}
