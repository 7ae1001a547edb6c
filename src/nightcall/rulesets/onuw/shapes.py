"""One Night's events and view, typed (see nightcall.engine.shapes).

Positions: a seat is 0..n-1; a center card is its index 0..2 (``center``), except in
claims, where ``saw`` and ``swapped`` are positions 0..n+2 (n+i is center card i).
"""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from nightcall.engine.shapes import BaseView, CenterIndex, DeathPair, EventBody, Seat


class Deal(EventBody, tag="deal"):
    """The master's deal (``cards``: every card, seats then center), or one seat's own
    card (``seat``, ``card``)."""

    cards: list[str] | UnsetType = UNSET
    seat: Seat | UnsetType = UNSET
    card: str | UnsetType = UNSET


class Call(EventBody, tag="call"):
    """A role is called (its night step; ``doppelganger_insomniac`` and the like too)."""

    role: str


class Wolves(EventBody, tag="wolves"):
    """The werewolves see each other (one seat: a lone wolf)."""

    seats: list[Seat]


class Thumbs(EventBody, tag="thumbs"):
    """The Minion (or a Doppelgänger-Minion) sees the werewolves' thumbs."""

    seats: list[Seat]


class Masons(EventBody, tag="masons"):
    seats: list[Seat]


class Became(EventBody, tag="became"):
    """The Doppelgänger takes on the role it saw."""

    role: str


class Saw(EventBody, tag="saw"):
    """A card seen: a seat's (``seat``) or a center card (``center``)."""

    card: str
    seat: Seat | UnsetType = UNSET
    center: CenterIndex | UnsetType = UNSET


class Swapped(EventBody, tag="swapped"):
    """Two seats' cards traded (``seats``), or a seat's card with a center card."""

    seats: list[Seat] | UnsetType = UNSET
    seat: Seat | UnsetType = UNSET
    center: CenterIndex | UnsetType = UNSET


class Dawn(EventBody, tag="dawn"):
    """The night is over."""


class Claim(EventBody, tag="claim"):
    """What a player says in the day: "I am the ``role``", "I saw ``role`` at ``saw``",
    or "I swapped ``swapped``" (positions)."""

    seat: Seat
    role: str | UnsetType = UNSET
    saw: int | UnsetType = UNSET
    swapped: list[int] | UnsetType = UNSET


class Votes(EventBody, tag="votes"):
    """Whom each seat pointed at, in seat order (None: at nobody)."""

    votes: list[Seat | None]


class Died(EventBody, tag="died"):
    deaths: list[DeathPair]


class Reveal(EventBody, tag="reveal"):
    """Every card turned over; ``copy`` is the role the Doppelgänger copied."""

    cards: list[str]
    copy: str | None


Event = Deal | Call | Wolves | Thumbs | Masons | Became | Saw | Swapped | Dawn | Claim | \
    Votes | Died | Reveal
EVENTS: tuple[type[EventBody], ...] = (Deal, Call, Wolves, Thumbs, Masons, Became, Saw,
                                       Swapped, Dawn, Claim, Votes, Died, Reveal)


class View(BaseView):
    events: list[Event]
