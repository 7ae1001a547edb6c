"""What one One Night seat knows, read from its view alone.

The view is the only input (the same JSON a human client or an agent gets), so
anything built on :class:`Knowledge` (the belief solver, the bots, the web app's
hints) cannot learn more than the seat may. Positions are numbered as in the
ruleset: seats 0..n-1, then center card i at n+i.

Night observations keep the call they happened in (the public "call" events
say which), because a card seen later in the night may have moved since the
deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


class Observation(NamedTuple):
    """One private fact: ``kind`` is "saw" (pos, role), "swapped" (pos a, pos b),
    "became" (role), or "wolves"/"thumbs"/"masons" (the seats seen)."""

    call: int  # index into the night's schedule
    kind: str
    pos: int = -1
    other: int = -1
    role: str = ""
    seats: tuple[int, ...] = ()


class Claim(NamedTuple):
    """Day talk: ``kind`` is "claim" (role), "claim_saw" (pos, role) or "claim_swap"
    (pos, other)."""

    seat: int
    kind: str
    pos: int = -1
    other: int = -1
    role: str = ""


@dataclass(frozen=True, slots=True)
class Knowledge:
    n: int
    deck: tuple[str, ...]  # every card in play, sorted
    schedule: tuple[str, ...]  # the night's calls, in order
    seat: int
    card: str  # the card this seat saw at the deal
    night: tuple[Observation, ...]
    claims: tuple[Claim, ...] = ()

    def without_claims(self) -> Knowledge:
        return Knowledge(self.n, self.deck, self.schedule, self.seat, self.card, self.night)

    def with_claims(self, claims: tuple[Claim, ...]) -> Knowledge:
        return Knowledge(self.n, self.deck, self.schedule, self.seat, self.card, self.night, claims)

    def key(self) -> tuple[Any, ...]:
        """A hashable summary, for caching beliefs across games."""
        return (self.n, self.deck, self.seat, self.card, self.night, self.claims)


def canonical(k: Knowledge) -> tuple[Knowledge, tuple[int, ...]]:
    """The same knowledge with the positions renamed, and the renaming: position p of
    ``k`` is position ``to[p]`` of the result. The seat itself becomes seat 0, then come
    the seats in the order the night (and the claims) first name them, then the others
    in number order; the center cards likewise.

    The rules treat seats alike and center cards alike, so many knowledge states are
    renamings of one canonical state: beliefs are cached for it (bots.onuw.bot), which
    is exact because the solver's sums without claims are integer sums.
    """
    n = k.n
    named: list[int] = [k.seat]
    center: list[int] = []
    for o in k.night:
        for p in (o.pos, o.other, *o.seats):
            group = named if p < n else center
            if p >= 0 and p not in group:
                group.append(p)
    for c in k.claims:
        for p in (c.seat, c.pos, c.other):
            group = named if p < n else center
            if p >= 0 and p not in group:
                group.append(p)
    order = [*named, *(s for s in range(n) if s not in named),
             *center, *(p for p in range(n, n + 3) if p not in center)]
    to = [0] * (n + 3)
    for new, old in enumerate(order):
        to[old] = new
    return rename(k, to), tuple(to)


def rename(k: Knowledge, to: Sequence[int]) -> Knowledge:
    """The same knowledge with position p called ``to[p]`` (seats stay seats, center
    cards center cards)."""
    night = tuple(
        o._replace(pos=to[o.pos] if o.pos >= 0 else -1,
                   other=to[o.other] if o.other >= 0 else -1,
                   seats=tuple(sorted(to[s] for s in o.seats)))
        for o in k.night)
    return Knowledge(k.n, k.deck, k.schedule, to[k.seat], k.card, night, renamed(k.claims, to))


def renamed(claims: tuple[Claim, ...], to: Sequence[int]) -> tuple[Claim, ...]:
    """The claims with position p called ``to[p]``."""
    return tuple(c._replace(seat=to[c.seat], pos=to[c.pos] if c.pos >= 0 else -1,
                            other=to[c.other] if c.other >= 0 else -1) for c in claims)


def _position(event: Mapping[str, Any], n: int) -> int:
    if "seat" in event:
        return int(event["seat"])
    return n + int(event["center"])


def knowledge_from_view(
    view: Mapping[str, Any], schedule: Sequence[str] | None = None
) -> Knowledge:
    """Read a seat's view (``ruleset.view(state, seat)``) into a :class:`Knowledge`.

    ``schedule`` is the night's call order; by default it is rebuilt from the
    roles in play with the ruleset's public ``night_calls``.
    """
    from nightcall.rulesets.onuw.game import ONUW

    if view.get("ruleset") != ONUW.id:  # the id the One Night ruleset declares
        raise ValueError("not a One Night view")
    seat = int(view["seat"])
    n = len(view["players"])
    deck = tuple(sorted(view["roles_in_play"]))
    if schedule is None:
        schedule = ONUW.night_calls(deck)
    calls = tuple(schedule)
    card = ""
    night: list[Observation] = []
    claims: list[Claim] = []
    call_i = -1
    for e in view["events"]:
        kind = e["kind"]
        if kind == "deal" and e.get("seat") == seat:
            card = e["card"]
        elif kind == "call":
            call_i += 1
        elif kind == "saw":
            night.append(Observation(call_i, "saw", _position(e, n), role=e["card"]))
        elif kind == "swapped":
            if "seats" in e:
                a, b = e["seats"]
            else:
                a, b = int(e["seat"]), n + int(e["center"])
            night.append(Observation(call_i, "swapped", a, b))
        elif kind == "became":
            night.append(Observation(call_i, "became", role=e["role"]))
        elif kind in ("wolves", "thumbs", "masons"):
            night.append(Observation(call_i, kind, seats=tuple(sorted(e["seats"]))))
        elif kind == "claim":
            claims.append(claim_from_event(e))
    if not card:
        raise ValueError("the view does not show this seat's own card")
    return Knowledge(n, deck, calls, seat, card, tuple(night), tuple(claims))


def claim_from_event(e: Mapping[str, Any]) -> Claim:
    s = e["seat"]
    swapped = e.get("swapped")
    if swapped is not None:
        return Claim(s, "claim_swap", swapped[0], swapped[1])
    saw = e.get("saw")
    if saw is not None:
        return Claim(s, "claim_saw", saw, -1, e["role"])
    return Claim(s, "claim", -1, -1, e["role"])
