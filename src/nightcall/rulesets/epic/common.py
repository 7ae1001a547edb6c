"""What the twilight and night calls share: option lists, telling seats what they
learn, who wakes for a role, and the token board (epic-battle-rulebook.txt, "Symbol
tokens": an exchanged token goes to the board where the other one lay).

The skip action and the one-seat audiences are the One Night family's
(:mod:`nightcall.rulesets.onenight`), and so are the Seer's and Robber's option lists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.events import Event
from nightcall.rulesets.epic.roles import LOVE, MIMIC
from nightcall.rulesets.epic.state import EpicState
from nightcall.rulesets.onenight import ONLY as ONLY  # re-exported: shared with One Night
from nightcall.rulesets.onenight import SKIP as SKIP

# A call's three functions (see nightcall.rulesets.epic.night).
Begin = Callable[[EpicState], int]
Options = Callable[[EpicState, int], tuple[Action, ...]]
Act = Callable[[EpicState, int, Action], bool]


# --- cached option lists ---------------------------------------------------------


@cache
def each_seat(kind: str, seats: tuple[int, ...], skip: bool) -> tuple[Action, ...]:
    return (*(Action(kind, x) for x in seats), *((SKIP,) if skip else ()))


@cache
def each_pair(kind: str, n: int) -> tuple[Action, ...]:
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
    """The first seat that wakes for ``role`` (:func:`holders`), or -1."""
    start = st.start
    copied = st.card_as.get(MIMIC) == role
    if not copied:
        if role not in start:
            return -1  # (most calls: the role's card is in the center)
        seat = start.index(role)
        if seat != st.panicked or not st.night_started:
            return seat  # (most of the others: its starting card, no Mimic, no Panic)
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

def role_begin(role: str, token: str | None = None) -> Callable[[EpicState], int]:
    def begin(st: EpicState) -> int:
        seat = holder(st, role)
        if token is not None and not on_board(st, token, 2 if token == LOVE else 1):
            return -1
        return seat

    return begin


def two_stage_begin(role: str) -> Callable[[EpicState], int]:
    """The begin of a call its role makes in two steps (look, then look or swap):
    the holder wakes for the first (``stage`` 1; ``act`` moves it to 2)."""
    def begin(st: EpicState) -> int:
        seat = holder(st, role)
        if seat >= 0:
            st.stage = 1
        return seat

    return begin


def no_options(st: EpicState, seat: int) -> tuple[Action, ...]:
    return ()


def call_over(st: EpicState, seat: int, action: Action) -> bool:
    return True
