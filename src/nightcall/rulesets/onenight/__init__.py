"""What the One Night family (One Night Ultimate Werewolf and its Epic Battle edition)
shares: the skip and abstain actions, the one-seat audiences, and the option lists of
the calls, the vote and the day's claims that both rulebooks word the same way ("look at another
player's card or two of the center cards", "exchange your card with another
player's card", "point at another player"). Both rulesets import these from here, so
neither imports the other's internals."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from nightcall.engine.actions import Action

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
