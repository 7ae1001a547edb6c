"""The sampling fallback: importance sampling for claims at big tables.

Proposal: the exact posterior from the seat's own knowledge (the solver's
scenarios, a uniform relabelling of the interchangeable positions, a uniform
filling of the free ones). Weight: the claims' likelihood. Seeded, so the same
knowledge gives the same beliefs; the standard error is reported.

Speed (issue 21): a hard bot samples 1,000 deals for every vote at a big table, so
each sample is made from lists prepared once per scenario, cards are role indices,
and the shuffles draw inline. The draws and the order of every addition are those
of the first version, so the beliefs are the same to the last bit.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator, Sequence
from functools import cache, lru_cache
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
    nr = len(roles)
    doppel = roles.index(DOPPELGANGER) if DOPPELGANGER in roles else -1
    start = [[0.0] * nr for _ in range(npos)]
    end = [[0.0] * nr for _ in range(npos)]
    end_roles = [[0.0] * nr for _ in range(npos)]
    total = 0.0
    total_sq = 0.0
    deal = [0] * npos
    src = [0] * npos
    sigma = [0] * npos
    for w, leaf, cards, back in _samples(k, roles, claims, trust, samples, seed):
        total += w
        total_sq += w * w
        for q, p in enumerate(back):
            sigma[p] = q  # scenario position -> table position
        leaf_src = leaf.src
        for q, p in enumerate(back):
            deal[q] = cards[p]
            src[q] = sigma[leaf_src[p]]
        copy = leaf.copy
        for p in range(npos):
            start[p][deal[p]] += w
            card = deal[src[p]]
            end[p][card] += w
            end_roles[p][copy if card == doppel and copy >= 0 else card] += w
    ess = total * total / total_sq
    worst = 0.0
    for table in (start, end, end_roles):
        for row in table:
            for i in range(nr):
                row[i] /= total
                worst = max(worst, sqrt(row[i] * (1 - row[i]) / ess))
    return Beliefs(roles, tuple(map(tuple, start)), tuple(map(tuple, end)), error=worst,
                   end_roles=tuple(map(tuple, end_roles)))


def sample_end_role(
    k: Knowledge, role: str, claims: Sequence[Claim], trust: float, samples: int, seed: int
) -> tuple[float, ...]:
    """``sample_beliefs(...).p_end_role(p, role)`` for every position p, computed alone:
    the same samples and the same additions, for one column instead of three tables."""
    npos = k.n + 3
    roles = tuple(sorted(set(k.deck)))
    if role not in roles:
        return (0.0,) * npos
    want = roles.index(role)
    copies = k.deck.count(role)
    doppel = roles.index(DOPPELGANGER) if DOPPELGANGER in roles else -1
    column = [0.0] * npos
    total = 0.0
    for w, leaf, cards, back in _samples(k, roles, claims, trust, samples, seed):
        total += w
        # The start positions of the cards that count as ``role`` at dawn, then where
        # those cards are at dawn: each cell gets at most one addition per sample.
        dst = leaf.dst
        if want != doppel or leaf.copy < 0:  # a copying Doppelgänger card is its copy
            x = -1
            for _ in range(copies):
                x = cards.index(want, x + 1)
                column[back.index(dst[x])] += w
        if leaf.copy == want:
            column[back.index(dst[cards.index(doppel)])] += w
    return tuple(x / total for x in column)


class _Leaf:
    """What every sample of one scenario starts from.

    ``order`` is one list to shuffle in place: the interchangeable seats, the
    interchangeable center cards, the free center cards and the free cards, in this
    order (the order of the draws); ``steps`` are its Fisher-Yates steps (i, bits,
    offset), four shuffles in a row.
    """

    __slots__ = ("center_slots", "copy", "dst", "gather", "order", "parts", "pool", "src",
                 "steps", "swaps")

    def __init__(self, br: _Branch, root: _Branch, n: int, roles: tuple[str, ...]) -> None:
        ri = {r: i for i, r in enumerate(roles)}
        # Cards that may not lie on a seat go to the center first, the rest anywhere free.
        banned = [ri[r] for r in br.excl for _ in range(br.remaining.get(r, 0))]
        rest = [ri[r] for r in roles if r not in br.excl for _ in range(br.remaining.get(r, 0))]
        free_center = [p for p in range(n, n + 3) if p not in br.fixed]
        free_seats = [s for s in range(n) if s not in br.fixed]
        lists = (list(root.anon_seats), list(root.anon_center), free_center, rest)
        self.order = [x for part in lists for x in part]
        self.parts = tuple(accumulate((len(part) for part in lists), initial=0))
        self.steps = tuple((i, bits, off) for part, off in zip(lists, self.parts, strict=False)
                           for i, bits in _steps(len(part)))
        # A sample's card at scenario position p is pool[gather[p]], the pool being the
        # fixed cards, the banned ones, then the free cards as shuffled: the free seats
        # take the first free cards in order; the free center cards, in their shuffled
        # order, the banned cards, then the last free cards (``center_slots``).
        fixed = sorted(br.fixed)
        self.pool = [ri[br.fixed[p]] for p in fixed] + banned
        self.gather = [0] * (n + 3)
        for i, p in enumerate(fixed):
            self.gather[p] = i
        for i, s in enumerate(free_seats):
            self.gather[s] = len(self.pool) + i
        self.center_slots = [len(fixed) + t if t < len(banned)
                             else len(self.pool) + len(free_seats) + t - len(banned)
                             for t in range(len(free_center))]
        self.src = br.src
        self.dst = [0] * (n + 3)  # where the card dealt at p lies at dawn
        for p, q in enumerate(br.src):
            self.dst[q] = p
        self.copy = ri[br.copy] if br.copy else -1
        self.swaps = br.swaps


Sample = tuple[float, _Leaf, list[int], list[int]]


@lru_cache(maxsize=4096)
def _prepared(k: Knowledge) -> tuple[list[_Leaf], list[float], list[int]]:
    """The scenarios of a seat's own knowledge (no claims), ready to sample, with their
    cumulative weights and the interchangeable positions: a bot meets the same few
    knowledge states again and again, with other claims each time."""
    n = k.n
    roles = tuple(sorted(set(k.deck)))
    root = _root(k, ())
    branches = scenarios(k)
    weights = [br.weight * _fill(*_key(br, n, roles))[0] for br in branches]
    if not branches or sum(weights) <= 0:
        raise Inconsistent("no deal and no choices of the others explain what this seat saw")
    leaves = [_Leaf(br, root, n, roles) for br in branches]
    return leaves, list(accumulate(weights)), list(root.anon_seats) + list(root.anon_center)


def _samples(
    k: Knowledge, roles: tuple[str, ...], claims: Sequence[Claim], trust: float,
    samples: int, seed: int,
) -> Iterator[Sample]:
    """The weighted samples, in order: each a scenario drawn by its weight, the
    interchangeable positions relabelled at random (``back``: table position ->
    scenario position), the free cards dealt at random (``cards``: the index of the
    card dealt to each scenario position)."""
    npos = k.n + 3
    leaves, cum_weights, anon = _prepared(k.without_claims())
    rng = random.Random(seed)
    chosen = rng.choices(leaves, cum_weights=cum_weights, k=samples)
    bits = rng.getrandbits
    ri = {r: i for i, r in enumerate(roles)}
    # A true claim weighs trust + (1 - trust), which is exactly 1.0 in floating point
    # for any trust in [0, 1]; a false one 1 - trust. So a sample's weight is that of
    # its number of false claims (the same product, factor by factor, as claim by claim).
    no = trust * False + (1.0 - trust)
    weight = list(accumulate([no] * len(claims), operator.mul, initial=1.0))
    # Claims about the card dealt at a position ("I am the Seer", "P3 is a Werewolf"),
    # about a seat's own card at dawn ("I looked: still the Robber"), and swaps.
    dealt_at, dealt_role, own, swaps = [], [], [], []
    for c in claims:
        if c.kind == "claim" or (c.kind == "claim_saw" and c.pos != c.seat):
            dealt_at.append(c.seat if c.kind == "claim" else c.pos)
            dealt_role.append(ri.get(c.role, -1))
        elif c.kind == "claim_saw":
            own.append((c.seat, ri.get(c.role, -1)))
        else:
            swaps.append((c.seat, min(c.pos, c.other), max(c.pos, c.other)))
    identity = list(range(npos))
    ne = operator.ne
    for leaf in chosen:
        x = leaf.order[:]
        for i, nbits, off in leaf.steps:  # random.shuffle's draws, inline
            j = bits(nbits)
            while j > i:
                j = bits(nbits)
            x[off + i], x[off + j] = x[off + j], x[off + i]
        back = identity[:]
        for p, q in zip(anon, x, strict=False):
            back[q] = p
        _, _, o2, o3, _ = leaf.parts
        pool = leaf.pool + x[o3:]
        gather = leaf.gather[:]
        for p, g in zip(x[o2:o3], leaf.center_slots, strict=True):
            gather[p] = g
        cards = list(map(pool.__getitem__, gather))  # the card dealt at each scenario position
        deal = list(map(cards.__getitem__, back))  # the card dealt at each table position
        false = sum(map(ne, map(deal.__getitem__, dealt_at), dealt_role))
        src = leaf.src
        for s, r in own:
            false += cards[src[back[s]]] != r
        for seat, lo, hi in swaps:
            a, b = back[lo], back[hi]
            false += (back[seat], min(a, b), max(a, b)) not in leaf.swaps
        yield weight[false], leaf, cards, back


def _key(br: _Branch, n: int, roles: tuple[str, ...]
         ) -> tuple[tuple[int, ...], int, int, tuple[bool, ...]]:
    counts = tuple(br.remaining.get(r, 0) for r in roles)
    seats = sum(1 for s in range(n) if s not in br.fixed)
    center = sum(1 for p in range(n, n + 3) if p not in br.fixed)
    return counts, seats, center, tuple(r in br.excl for r in roles)


@cache
def _steps(size: int) -> tuple[tuple[int, int], ...]:
    return tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size)))
