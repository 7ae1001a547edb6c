"""Epic Battle's events and view, typed (see nightcall.engine.shapes)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from nightcall.engine.shapes import BaseView, CenterIndex, DeathPair, EventBody, Seat


class Deal(EventBody, tag="deal"):
    """The master's deal (``cards``, seats then center then the extra card, and the
    symbol ``tokens``), or one seat's own card (``seat``, ``card``)."""

    cards: list[str] | UnsetType = UNSET
    tokens: list[str] | UnsetType = UNSET
    seat: Seat | UnsetType = UNSET
    card: str | UnsetType = UNSET


class Call(EventBody, tag="call"):
    """A night step begins (``call``: a role, or a step such as ``tokens``)."""

    call: str


class Saw(EventBody, tag="saw"):
    """A card seen: a seat's (``seat``) or a center card (``center``)."""

    card: str
    seat: Seat | UnsetType = UNSET
    center: CenterIndex | UnsetType = UNSET


class Became(EventBody, tag="became"):
    role: str


class Vampires(EventBody, tag="vampires"):
    """The vampires see each other (Renfield: and whom they ``bitten``)."""

    seats: list[Seat]
    bitten: Seat | UnsetType | None = UNSET


class Bitten(EventBody, tag="bitten"):
    seat: Seat


class GaveToken(EventBody, tag="gave_token"):
    """A symbol token handed to one seat (``seat``) or two (``seats``)."""

    token: str
    seat: Seat | UnsetType = UNSET
    seats: list[Seat] | UnsetType = UNSET


class Token(EventBody, tag="token"):
    """A seat's own symbol token, seen at the token step."""

    seat: Seat
    token: str


class Lovers(EventBody, tag="lovers"):
    seats: list[Seat]


class Wolves(EventBody, tag="wolves"):
    """The werewolves see each other, and the Dream Wolf's thumb (``dream_wolves``)."""

    seats: list[Seat]
    dream_wolves: list[Seat]


class Freemasons(EventBody, tag="freemasons"):
    seats: list[Seat]


class Swapped(EventBody, tag="swapped"):
    """Cards traded: two seats' (``seats``), a seat's with the spare werewolf card
    (``extra``) or with a center card (``center``)."""

    seats: list[Seat]
    extra: bool | UnsetType = UNSET
    center: CenterIndex | UnsetType = UNSET


class SwappedTokens(EventBody, tag="swapped_tokens"):
    seats: list[Seat]


class SawToken(EventBody, tag="saw_token"):
    seat: Seat
    token: str


class Tapped(EventBody, tag="tapped"):
    """The Thing's tap: felt (``by``) or given (``seat``)."""

    by: Seat | UnsetType = UNSET
    seat: Seat | UnsetType = UNSET


class Thumbs(EventBody, tag="thumbs"):
    """The Fortune Teller sees who has touched a card or token so far."""

    seats: list[Seat]


class Concealed(EventBody, tag="concealed"):
    """The Enlightener turns the card face down again."""

    seat: Seat


class PlacedArtifact(EventBody, tag="placed_artifact"):
    seat: Seat


class ArtifactDrawn(EventBody, tag="artifact_drawn"):
    """The master alone: which artifact the Curator drew."""

    quiet = True
    seat: Seat
    artifact: str


class Dawn(EventBody, tag="dawn"):
    pass


class Revealed(EventBody, tag="revealed"):
    """The cards lying face up at dawn, by seat (as a string: a JSON object's key)."""

    cards: dict[str, str]


class Artifact(EventBody, tag="artifact"):
    """The artifact on a seat's card, and what it tells its holder."""

    artifact: str
    instruction: str


class Claim(EventBody, tag="claim"):
    """What a player says in the day, as in One Night: "I am the ``role``", "I saw
    ``role`` at ``saw``", or "I swapped ``swapped``" (positions, n+i is center card i)."""

    seat: Seat
    role: str | UnsetType = UNSET
    saw: int | UnsetType = UNSET
    swapped: list[int] | UnsetType = UNSET


class Votes(EventBody, tag="votes"):
    votes: list[Seat | None]


class Died(EventBody, tag="died"):
    deaths: list[DeathPair]


class Reveal(EventBody, tag="reveal"):
    """Every card and token turned over, and what each seat counts as (``roles``)."""

    cards: list[str]
    roles: list[str]
    tokens: list[str]
    artifacts: list[str | None]


class Over(EventBody, tag="over"):
    quiet = True


Event = Deal | Call | Saw | Became | Vampires | Bitten | GaveToken | Token | Lovers | \
    Wolves | Freemasons | Swapped | SwappedTokens | SawToken | Tapped | Thumbs | Concealed | \
    PlacedArtifact | ArtifactDrawn | Dawn | Revealed | Artifact | Claim | Votes | Died | \
    Reveal | Over
EVENTS: tuple[type[EventBody], ...] = (
    Deal, Call, Saw, Became, Vampires, Bitten, GaveToken, Token, Lovers, Wolves, Freemasons,
    Swapped, SwappedTokens, SawToken, Tapped, Thumbs, Concealed, PlacedArtifact,
    ArtifactDrawn, Dawn, Revealed, Artifact, Claim, Votes, Died, Reveal, Over)


class View(BaseView):
    tokens_in_play: bool
    face_up: dict[str, str]
    events: list[Event]
    instructions: list[str] | UnsetType = UNSET  # a seat's view
