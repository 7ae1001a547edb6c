"""Lupus in Tabula's events and view, typed (see nightcall.engine.shapes)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from nightcall.engine.shapes import BaseView, DeathPair, EventBody, Seat


class Deal(EventBody, tag="deal"):
    """The master's deal (``cards``), or one seat's own card (``seat``, ``card``)."""

    cards: list[str] | UnsetType = UNSET
    seat: Seat | UnsetType = UNSET
    card: str | UnsetType = UNSET


class Night(EventBody, tag="night"):
    night: int


class Call(EventBody, tag="call"):
    role: str
    night: int


class WolfPick(EventBody, tag="wolf_pick"):
    """A werewolf points at tonight's victim (seen by the pack)."""

    seat: Seat
    target: Seat


class Medium(EventBody, tag="medium"):
    """The Medium learns whether the player executed yesterday was a werewolf."""

    seat: Seat
    werewolf: bool


class Freemasons(EventBody, tag="freemasons"):
    seats: list[Seat]


class Wolves(EventBody, tag="wolves"):
    seats: list[Seat]


class Protect(EventBody, tag="protect"):
    seat: Seat


class Visit(EventBody, tag="visit"):
    """The Harlot's night: a house, or None to stay home."""

    seat: Seat | None


class Victim(EventBody, tag="victim"):
    seat: Seat


class Seen(EventBody, tag="seen"):
    """The Seer learns whether a player is a werewolf."""

    seat: Seat
    werewolf: bool


class Mark(EventBody, tag="mark"):
    """The Owl points at a player, who will be a suspect."""

    seat: Seat


class Imitate(EventBody, tag="imitate"):
    """The Mythomaniac points at a player; ``becomes`` is the role it takes from the
    next night (None: it stays a plain human)."""

    seat: Seat
    becomes: str | None


class Transformed(EventBody, tag="transformed"):
    quiet = True
    seat: Seat
    role: str


class Dawn(EventBody, tag="dawn"):
    """Morning: who died in the night; ``last`` counts as the last to die."""

    night: int
    dead: list[Seat]
    last: Seat | None


class Causes(EventBody, tag="causes"):
    """The master alone: why each died in the night."""

    quiet = True
    deaths: list[DeathPair]


class Accusation(EventBody, tag="accusation"):
    """The day's accusations start; ``owl`` is the Owl's living pick."""

    day: int
    order: list[Seat]
    owl: Seat | None


class Last(EventBody, tag="last"):
    """The player who counts as the last to die (when two died together)."""

    seat: Seat


class Accuse(EventBody, tag="accuse"):
    seat: Seat
    target: Seat | None


class Suspects(EventBody, tag="suspects"):
    seats: list[Seat]


class Votes(EventBody, tag="votes"):
    """Each voter and the suspect they chose ([voter, suspect or None])."""

    votes: list[tuple[Seat, Seat | None]]


class Executed(EventBody, tag="executed"):
    day: int
    seat: Seat


class Reveal(EventBody, tag="reveal"):
    cards: list[str]


class Over(EventBody, tag="over"):
    quiet = True
    teams: list[str]
    winners: list[Seat]


Event = Deal | Night | Call | WolfPick | Medium | Freemasons | Wolves | Protect | Visit | \
    Victim | Seen | Mark | Imitate | Transformed | Dawn | Causes | Accusation | Last | \
    Accuse | Suspects | Votes | Executed | Reveal | Over
EVENTS: tuple[type[EventBody], ...] = (
    Deal, Night, Call, WolfPick, Medium, Freemasons, Wolves, Protect, Visit, Victim, Seen,
    Mark, Imitate, Transformed, Dawn, Causes, Accusation, Last, Accuse, Suspects, Votes,
    Executed, Reveal, Over)


class View(BaseView):
    night: int
    day: int
    stage: str | None
    alive: list[str]
    ghosts: list[str]
    last_to_die: str | None
    accusation_order: list[str]
    accuser: str | None
    suspects: list[str]
    executed: list[str]
    events: list[Event]
    role: str | UnsetType | None = UNSET  # a seat's view
    ghost: bool | UnsetType = UNSET  # a seat's view
    roles: list[str] | UnsetType = UNSET  # the master's view
    waiting_for: list[str] | UnsetType = UNSET  # the master's view
