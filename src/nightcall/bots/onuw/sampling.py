"""The sampling fallback: importance sampling for claims at big tables.

Proposal: the exact posterior from the seat's own knowledge (the solver's
scenarios, a uniform relabelling of the interchangeable positions, a uniform
filling of the free ones). Weight: the claims' likelihood. Seeded, so the same
knowledge gives the same beliefs; the standard error is reported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import accumulate
from math import sqrt

from nightcall.bots.onuw.knowledge import Claim, Knowledge
from nightcall.bots.onuw.solver import Beliefs, Inconsistent, _Branch, _fill, _root, scenarios
from nightcall.rulesets.onuw.roles import DOPPELGANGER


def sample_beliefs(
    k: Knowledge, claims: Sequence[Claim], trust: float, samples: int, seed: int
) -> Beliefs:
    n = k.n
    npos = n + 3
    roles = tuple(sorted(set(k.deck)))
    ri = {r: i for i, r in enumerate(roles)}
    root = _root(k, ())
    leaves = scenarios(k)
    weights = [br.weight * _fill(*_key(br, n, roles))[0] for br in leaves]
    if not leaves or sum(weights) <= 0:
        raise Inconsistent("no deal and no choices of the others explain what this seat saw")
    cum = list(accumulate(weights))
    rng = random.Random(seed)
    start = [[0.0] * len(roles) for _ in range(npos)]
    end = [[0.0] * len(roles) for _ in range(npos)]
    end_roles = [[0.0] * len(roles) for _ in range(npos)]
    total = 0.0
    total_sq = 0.0
    for br in rng.choices(leaves, cum_weights=cum, k=samples):
        deal, src, swaps = _concrete(br, root, n, roles, rng)
        w = 1.0
        for c in claims:
            if c.kind == "claim":
                true = deal[c.seat] == c.role
            elif c.kind == "claim_saw":
                true = deal[src[c.seat] if c.pos == c.seat else c.pos] == c.role
            else:
                true = (c.seat, min(c.pos, c.other), max(c.pos, c.other)) in swaps
            w *= trust * true + (1.0 - trust)
        total += w
        total_sq += w * w
        for p in range(npos):
            start[p][ri[deal[p]]] += w
            card = deal[src[p]]
            end[p][ri[card]] += w
            end_roles[p][ri[br.copy if card == DOPPELGANGER and br.copy else card]] += w
    ess = total * total / total_sq
    worst = 0.0
    for table in (start, end, end_roles):
        for row in table:
            for i in range(len(roles)):
                row[i] /= total
                worst = max(worst, sqrt(row[i] * (1 - row[i]) / ess))
    return Beliefs(roles, tuple(map(tuple, start)), tuple(map(tuple, end)), error=worst,
                   end_roles=tuple(map(tuple, end_roles)))


def _key(br: _Branch, n: int, roles: tuple[str, ...]
         ) -> tuple[tuple[int, ...], int, int, tuple[bool, ...]]:
    counts = tuple(br.remaining.get(r, 0) for r in roles)
    seats = sum(1 for s in range(n) if s not in br.fixed)
    center = sum(1 for p in range(n, n + 3) if p not in br.fixed)
    return counts, seats, center, tuple(r in br.excl for r in roles)


def _concrete(
    br: _Branch, root: _Branch, n: int, roles: tuple[str, ...], rng: random.Random
) -> tuple[list[str], list[int], set[tuple[int, int, int]]]:
    """One concrete deal and night for a scenario: relabel the interchangeable
    positions at random, then deal the free cards uniformly (banned ones to the center)."""
    npos = n + 3
    sigma = list(range(npos))
    for group in (root.anon_seats, root.anon_center):
        shuffled = list(group)
        rng.shuffle(shuffled)
        for a, b in zip(group, shuffled, strict=True):
            sigma[a] = b
    banned = [r for r in br.excl for _ in range(br.remaining.get(r, 0))]
    rest = [r for r in roles if r not in br.excl for _ in range(br.remaining.get(r, 0))]
    free_center = [p for p in range(n, npos) if p not in br.fixed]
    free_seats = [s for s in range(n) if s not in br.fixed]
    rng.shuffle(free_center)
    rng.shuffle(rest)
    leaf_deal = dict(br.fixed)
    for p, r in zip(free_center, banned, strict=False):
        leaf_deal[p] = r
    for p, r in zip(free_seats + free_center[len(banned):], rest, strict=True):
        leaf_deal[p] = r
    deal = [""] * npos
    src = [0] * npos
    for p in range(npos):
        deal[sigma[p]] = leaf_deal[p]
        src[sigma[p]] = sigma[br.src[p]]
    swaps = {(sigma[s], *sorted((sigma[a], sigma[b]))) for s, a, b in br.swaps}
    return deal, src, swaps  # type: ignore[return-value]
