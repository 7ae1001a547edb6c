"""What the One Night family (One Night Ultimate Werewolf and its Epic Battle edition)
shares: the phases, the skip and abstain actions, the one-seat audiences, and the option lists of
the calls, the vote and the day's claims that both rulebooks word the same way ("look at another
player's card or two of the center cards", "exchange your card with another
player's card", "point at another player"). Both rulesets import these from here, so
neither imports the other's internals."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from nightcall.engine.actions import Action

# The phases of a game, and a seat's vote before it is cast or when it points at nobody.
NIGHT = 0
DAY = 1
OVER = 2
PHASE_NAMES = ("night", "day", "over")
NOT_VOTED = -2
ABSTAIN = -1



class NightClock:
    """The clock of a One Night family state (engine.clock): ``held``, each call stays
    open until end_call, and the game starts at ``dusk``, before its first call;
    ``defaults`` draws the moves of seats that did not choose in time; ``call_i`` is the
    open call of ``schedule``, ``stage`` its stage, ``actor`` the seat choosing in it."""

    __slots__ = ("actor", "call_i", "defaults", "dusk", "held", "stage")
    phase: int
    schedule: tuple[str, ...]

    def start_clock(self) -> None:
        self.held = False
        self.dusk = False
        self.defaults: random.Random | None = None
        self.call_i = 0
        self.stage = 0
        self.actor = -1

    @property
    def call(self) -> str | None:
        """The call being made now (public), or None outside the night."""
        if self.phase != NIGHT or self.dusk or self.call_i >= len(self.schedule):
            return None
        return self.schedule[self.call_i]


SKIP = Action("skip")
ABSTAIN_ACTION = Action("abstain")
# One frozenset per seat, built once: audiences are on the hot path.
ONLY = tuple(frozenset({i}) for i in range(64))


@cache
def seer_options(n: int, seat: int) -> tuple[Action, ...]:
    players = [Action("look", x) for x in range(n) if x != seat]
    pairs = [Action("look_center", a, b) for a, b in combinations(range(3), 2)]
    return (*players, *pairs, SKIP)


@cache
def robber_options(n: int, seat: int) -> tuple[Action, ...]:
    return (*(Action("swap", x) for x in range(n) if x != seat), SKIP)


@cache
def vote_options(n: int, seat: int) -> tuple[Action, ...]:
    """A vote for a fellow player, or none."""
    return (*(Action("vote", x) for x in range(n) if x != seat), ABSTAIN_ACTION)


@cache
def vote_table(n: int) -> tuple[tuple[Action, ...], ...]:
    """Every seat's vote options at a table of ``n``, by seat (set once at dawn)."""
    return tuple(vote_options(n, seat) for seat in range(n))


# Claims a seat may make in one day ("You may claim anything": a game needs far fewer).
MAX_CLAIMS_PER_SEAT = 40


@cache
def claim_options_for(role_ids: tuple[str, ...], n: int, roles: tuple[str, ...]
                      ) -> tuple[Action, ...]:
    """The claims over a ruleset's role ids: a role of the deck, a card seen (a seat or
    one of the three center cards), a swap made."""
    idx = [role_ids.index(r) for r in roles]
    positions = range(n + 3)
    return (
        *(Action("claim", i) for i in idx),
        *(Action("claim_saw", p, i) for p in positions for i in idx),
        *(Action("claim_swap", a, b) for a, b in combinations(positions, 2)),
    )


def claim_data(role_ids: tuple[str, ...], seat: int, action: Action) -> dict[str, object]:
    """A claim as its public ``claim`` event says it: the role, the card seen at a
    position, or the two positions swapped."""
    data: dict[str, object] = {"seat": seat}
    if action.kind == "claim":
        data["role"] = role_ids[action.a]
    elif action.kind == "claim_saw":
        data["saw"] = action.a
        data["role"] = role_ids[action.b]
    else:
        data["swapped"] = [action.a, action.b]
    return data


# --- claims in a record's ``claims_detail`` (shared/spec/game-record.md) -------------
def position_json(names: Sequence[str], pos: int) -> str | dict[str, int]:
    """A claim's position as a record writes it: a player's name or {"center": i}."""
    return names[pos] if pos < len(names) else {"center": pos - len(names)}


def position_of(names: Sequence[str], value: object) -> int | None:
    """A record's position (a name, or {"center": 0..2}) as 0..n+2, else None."""
    if isinstance(value, str) and value in names:
        return list(names).index(value)
    if isinstance(value, dict) and value.get("center") in (0, 1, 2):
        return len(names) + int(value["center"])
    return None


def detail_claim(names: Sequence[str], role_ids: tuple[str, ...], entry: object
                 ) -> Action | None:
    """A structured ``claims_detail`` entry as the claim it records, else None."""
    if not isinstance(entry, dict) or entry.get("player") not in names:
        return None
    if "saw" in entry and entry.get("role") in role_ids:
        pos = position_of(names, entry["saw"])
        if pos is not None:
            return Action("claim_saw", pos, role_ids.index(entry["role"]))
    swapped = entry.get("swapped")
    if isinstance(swapped, list) and len(swapped) == 2:
        a, b = (position_of(names, x) for x in swapped)
        if a is not None and b is not None and a != b:
            return Action("claim_swap", min(a, b), max(a, b))
    return None
