"""What the One Night family (One Night Ultimate Werewolf and its Epic Battle edition)
shares: the skip and abstain actions, the one-seat audiences, and the option lists of
the calls and the vote that both rulebooks word the same way ("look at another
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
