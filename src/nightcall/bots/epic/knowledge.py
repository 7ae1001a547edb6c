"""What one Epic Battle seat knows, read from its view's events and nothing else.

A *fact* is a card or token seen at a place (a seat, a center card), with the
number of card- or token-moving calls that came after it: a later Robber, Witch,
Goblin or Alpha Wolf call may have moved the card the seat saw, so a fact grows
less certain with every such call it did not make itself (:func:`confidence`).
The seat's own moves are applied to its facts, so what it moved it still knows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from nightcall.rulesets.epic.night import CALL_OF_ROLE
from nightcall.rulesets.epic.roles import (
    ASSASSIN,
    BOUNTY,
    DREAM_WOLF,
    FREEMASON,
    GHOST_HUNTER,
    MIMIC,
    PLAGUE,
    THE_THING,
    VAMPIRE,
    VAMPIRE_TOKEN,
    VILLAGER,
    WEREWOLF,
)

# The calls that move cards between places, and the one that moves tokens after
# everybody looked at their own token.
CARD_MOVERS = frozenset({"alpha_wolf", "robber", "witch", "goblin"})
TOKEN_MOVERS = frozenset({"goblin"})
SOME_WOLF = WEREWOLF  # a werewolf card of unknown kind (the Alpha Wolf's extra card)


@dataclass(frozen=True, slots=True)
class Fact:
    value: str  # a role id (cards) or a token id (tokens)
    moves: int  # the moving calls counted when it was learned


@dataclass
class Knowledge:
    seat: int
    n: int
    deck: Counter[str]  # the roles in play, the Alpha Wolf's extra card included
    start: str  # the card dealt to the seat
    copied: str | None = None  # what the Mimic copied / the Ghost Hunter became
    cards: dict[int, Fact] = field(default_factory=dict)  # places 0..n+2
    tokens: dict[int, Fact] = field(default_factory=dict)  # seats
    wolves: set[int] = field(default_factory=set)  # seen awake as werewolves
    vampires: set[int] = field(default_factory=set)  # seen awake as vampires
    village: set[int] = field(default_factory=set)  # Freemasons, the Thing's tap
    lovers: set[int] = field(default_factory=set)
    thumbs: set[int] = field(default_factory=set)  # the Fortune Teller's sight
    revealed: dict[int, str] = field(default_factory=dict)  # the Enlightener's, public
    artifact: str | None = None
    placed_artifact: int | None = None  # where this seat (the Curator) put one
    card_moves: int = 0
    token_moves: int = 0
    calls: list[str] = field(default_factory=list)
    this_call: list[Mapping[str, Any]] = field(default_factory=list)  # events since the call
    tokens_in_play: bool = False

    # --- derived facts ---------------------------------------------------------------
    def token_at(self, token: str) -> int | None:
        """The seat last known to hold ``token`` (None when unknown)."""
        for seat, fact in self.tokens.items():
            if fact.value == token:
                return seat
        return None

    @property
    def plague(self) -> int | None:
        return self.token_at(PLAGUE)

    @property
    def bounty(self) -> int | None:
        return self.token_at(BOUNTY)

    @property
    def bitten(self) -> int | None:
        return self.token_at(VAMPIRE_TOKEN)

    def my_card(self) -> str:
        """The role this seat believes its card counts as now."""
        fact = self.cards.get(self.seat)
        card = fact.value if fact is not None else self.start
        if card == MIMIC:
            # Only the Mimic who started with the card knows what it copied.
            return (self.copied or VILLAGER) if self.start == MIMIC else VILLAGER
        if card == GHOST_HUNTER and self.start == GHOST_HUNTER and self.copied:
            return self.copied
        if card == ASSASSIN and self.start != ASSASSIN:
            return VILLAGER  # an Assassin card from the center is a villager
        return card

    def my_token(self) -> str | None:
        fact = self.tokens.get(self.seat)
        return fact.value if fact is not None else None


def confidence(fact: Fact, now: int, decay: float) -> float:
    """How sure a fact still is after ``now - fact.moves`` moving calls."""
    return float(decay ** max(0, now - fact.moves))


def read_view(view: Mapping[str, Any]) -> Knowledge:
    """The seat's knowledge from its view: events in order, own moves applied."""
    me = int(view["seat"])
    n = len(view["players"])
    k = Knowledge(me, n, Counter(view.get("roles_in_play", [])), "",
                  tokens_in_play=bool(view.get("tokens_in_play")))
    for e in view.get("events", []):
        _read(k, e)
    return k


def _card(k: Knowledge, place: int, value: str) -> None:
    k.cards[place] = Fact(value, k.card_moves)


def _token(k: Knowledge, seat: int, value: str) -> None:
    k.tokens[seat] = Fact(value, k.token_moves)


def _group_card(k: Knowledge, seat: int, role: str) -> None:
    """Seen awake with a group: its card was one of the group's (a Mimic's copy counts)."""
    if seat != k.seat and seat not in k.cards:
        _card(k, seat, role)


def _swap(facts: dict[int, Fact], a: int, b: int) -> None:
    fa, fb = facts.pop(a, None), facts.pop(b, None)
    if fa is not None:
        facts[b] = fa
    if fb is not None:
        facts[a] = fb


def _read(k: Knowledge, e: Mapping[str, Any]) -> None:  # one branch per event kind
    kind = e["kind"]
    n = k.n
    if kind != "call":
        k.this_call.append(e)
    if kind == "deal" and "card" in e:
        k.start = str(e["card"])
        _card(k, k.seat, k.start)
    elif kind == "call":
        call = str(e["call"])
        k.calls.append(call)
        k.this_call = []
        # A call this seat answers itself moves nothing it does not know about.
        mine = call in (CALL_OF_ROLE.get(k.start), CALL_OF_ROLE.get(k.copied or ""))
        if call in CARD_MOVERS and not mine:
            k.card_moves += 1
        if call in TOKEN_MOVERS and not mine:
            k.token_moves += 1
    elif kind == "saw":
        if "seat" in e:
            _card(k, int(e["seat"]), str(e["card"]))
        else:
            _card(k, n + int(e["center"]), str(e["card"]))
    elif kind == "became":
        k.copied = str(e["role"])
    elif kind == "wolves":
        for role, key in ((SOME_WOLF, "seats"), (DREAM_WOLF, "dream_wolves")):
            for s in e.get(key, []):
                k.wolves.add(int(s))
                _group_card(k, int(s), role)
    elif kind == "vampires":
        for s in e["seats"]:
            k.vampires.add(int(s))
            _group_card(k, int(s), VAMPIRE)
        if e.get("bitten") is not None:
            _token(k, int(e["bitten"]), VAMPIRE_TOKEN)
    elif kind == "bitten":
        _token(k, int(e["seat"]), VAMPIRE_TOKEN)
    elif kind == "freemasons":
        for s in e["seats"]:
            k.village.add(int(s))
            _group_card(k, int(s), FREEMASON)
    elif kind == "tapped" and "by" in e:
        k.village.add(int(e["by"]))  # only the Thing taps
        _card(k, int(e["by"]), THE_THING)
    elif kind == "lovers":
        k.lovers.update(int(s) for s in e["seats"])
    elif kind == "gave_token":
        seats = e["seats"] if "seats" in e else [e["seat"]]
        for s in seats:
            _token(k, int(s), str(e["token"]))
    elif kind in ("token", "saw_token"):
        _token(k, int(e["seat"]), str(e["token"]))
    elif kind == "swapped":
        _read_swap(k, e)
    elif kind == "swapped_tokens":
        a, b = (int(s) for s in e["seats"])
        _swap(k.tokens, a, b)
    elif kind == "thumbs":
        k.thumbs.update(int(s) for s in e["seats"])
    elif kind == "revealed":
        for s, card in e["cards"].items():
            k.revealed[int(s)] = str(card)
            _card(k, int(s), str(card))
    elif kind == "placed_artifact":
        k.placed_artifact = int(e["seat"])
    elif kind == "artifact":
        k.artifact = str(e["artifact"])


def _read_swap(k: Knowledge, e: Mapping[str, Any]) -> None:
    seats = [int(s) for s in e["seats"]]
    if e.get("extra"):
        # The Alpha Wolf gave the werewolf card beside the center to this seat.
        _card(k, seats[0], SOME_WOLF)
    elif "center" in e:
        _swap(k.cards, seats[0], k.n + int(e["center"]))
    else:
        _swap(k.cards, seats[0], seats[1])
