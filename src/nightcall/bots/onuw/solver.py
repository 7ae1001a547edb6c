"""The exact belief solver: P(role) for every card position, at the deal and at dawn.

The model (docs/rulings.md (Beliefs, bots), "Belief model"): the deal is uniform; every
seat the solver does not know about acts uniformly at random among its legal
choices; what the seat saw is certain; claims are evidence with a trust weight.

How it stays fast instead of enumerating deals:

1. Only the night's *movers* (Doppelgänger, Robber, Troublemaker, Drunk) change
   cards, so only their positions and choices are enumerated ("scenarios").
   Every other unknown is summed in closed form.
2. Inside a scenario each card seen is a fixed start position (the seen
   position traced back through the scenario's swaps), and the rest is a
   multiset filling free seats and free center cards: a sum over the few ways
   to fill the center, each a product of two multinomials, cached by the vector
   of remaining counts.
3. Positions nobody mentioned are interchangeable, so a scenario picks the
   first one of them as representative and counts how many it stands for;
   their beliefs are averaged at the end (exact by symmetry, see ``solve``).
   So are the seats of one Werewolf, Mason or thumbs list that nothing else
   names (a Minion's two Werewolves): a class of its own (``_alike``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import factorial, lcm
from typing import TypedDict, Unpack

from nightcall.bots.onuw.knowledge import Claim, Knowledge, Observation
from nightcall.rulesets.onuw.roles import (
    DOPPELGANGER,
    DRUNK,
    MASON,
    ROBBER,
    TROUBLEMAKER,
    WEREWOLF,
)

MOVERS = frozenset({ROBBER, TROUBLEMAKER, DRUNK})
# The observations that name exactly who holds a role: (role, event kind).
EXACT_LISTS = {"wolves": WEREWOLF, "thumbs": WEREWOLF, "masons": MASON}
DEFAULT_TRUST = 0.7
DEFAULT_SAMPLES = 4000  # deals sampled where the solve is not exact
SEATS, CENTER = 0, 1  # the pools of unnamed seats and center cards (``_Branch.pools``)


class Inconsistent(ValueError):
    """The knowledge cannot happen under the rules (no deal and choices explain it)."""


@dataclass(frozen=True, slots=True)
class Beliefs:
    """``start[p][i]`` / ``end[p][i]``: probability that position p holds ``roles[i]``
    at the deal / at dawn. The Doppelgänger card stays "doppelganger" here."""

    roles: tuple[str, ...]
    start: tuple[tuple[float, ...], ...]
    end: tuple[tuple[float, ...], ...]
    # 0 when exact; for the sampling fallback, the largest standard error of an entry.
    error: float = 0.0
    # Like ``end``, but the Doppelgänger card counts as the role it copied (role table:
    # "Whoever receives the Doppelgänger card ... is the role the Doppelgänger copied").
    end_roles: tuple[tuple[float, ...], ...] = ()

    def relabelled(self, to: Sequence[int]) -> Beliefs:
        """The beliefs about position ``to[p]`` as those about position p (the renaming
        of ``knowledge.canonical``)."""
        def pick(rows: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, ...], ...]:
            return tuple(rows[t] for t in to) if rows else rows

        return Beliefs(self.roles, pick(self.start), pick(self.end), self.error,
                       pick(self.end_roles))

    def p_start(self, pos: int, role: str) -> float:
        return self.start[pos][self.roles.index(role)] if role in self.roles else 0.0

    def p_end(self, pos: int, role: str) -> float:
        return self.end[pos][self.roles.index(role)] if role in self.roles else 0.0

    def p_end_role(self, pos: int, role: str) -> float:
        """P(position ``pos`` counts as ``role`` at dawn), the Doppelgänger resolved."""
        table = self.end_roles or self.end
        return table[pos][self.roles.index(role)] if role in self.roles else 0.0


class _Branch:
    """A partial scenario: fixed start cards, the swaps so far, who is still anonymous."""

    __slots__ = (
        "copy", "count", "doppel", "excl", "fixed", "pools", "remaining", "src", "swaps",
        "weight",
    )

    def __init__(self) -> None:
        self.fixed: dict[int, str] = {}
        self.remaining: dict[str, int] = {}
        self.src: list[int] = []  # current position -> start position of the card there
        # Classes of interchangeable positions not walked yet, each walked through its
        # first member, counted: the unnamed seats, the unnamed center cards, then the
        # classes of seats named alike (``_alike``).
        self.pools: tuple[tuple[int, ...], ...] = ((), ())
        self.excl: dict[str, frozenset[int]] = {}  # role -> the only seats that may hold it
        self.doppel = -1
        self.copy = ""
        self.swaps: tuple[tuple[int, int, int], ...] = ()  # (actor, a, b) with a < b
        self.weight = 1.0
        # The same weight as an integer, times a constant per call (see ``_act``): sums
        # of integers do not depend on their order, so the beliefs without claims are
        # exact fractions, whatever the seats are called (``solve``).
        self.count = 1

    def clone(self) -> _Branch:
        b = _Branch.__new__(_Branch)  # every slot is set below: no __init__ to undo
        b.fixed = self.fixed.copy()
        b.remaining = self.remaining.copy()
        b.src = self.src.copy()
        b.pools = self.pools
        b.excl = self.excl
        b.doppel = self.doppel
        b.copy = self.copy
        b.swaps = self.swaps
        b.weight = self.weight
        b.count = self.count
        return b

    @property
    def anon_seats(self) -> tuple[int, ...]:
        return self.pools[SEATS]

    @property
    def anon_center(self) -> tuple[int, ...]:
        return self.pools[CENTER]

    def fix(self, pos: int, role: str, n: int) -> bool:
        """Constrain the start card at ``pos``; False if that contradicts the branch."""
        have = self.fixed.get(pos)
        if have is not None:
            return have == role
        if self.remaining.get(role, 0) <= 0:
            return False
        allowed = self.excl.get(role)
        if pos < n and allowed is not None and pos not in allowed:
            return False
        self.fixed[pos] = role
        self.remaining[role] -= 1
        return True

    def swap(self, actor: int, a: int, b: int) -> None:
        self.src[a], self.src[b] = self.src[b], self.src[a]
        self.swaps += ((actor, a, b) if a < b else (actor, b, a),)


# --- symmetric choices: named positions one by one, each pool once, counted ---------


def _pooled(br: _Branch) -> set[int]:
    return set().union(*br.pools)


def _seat_pools(br: _Branch) -> list[int]:
    """The indices of the pools of seats that are not empty."""
    return [i for i, pool in enumerate(br.pools) if pool and i != CENTER]


def _from_pool(br: _Branch, i: int) -> tuple[_Branch, int]:
    """A child in which pool ``i``'s first position stands for any of the pool's."""
    pool = br.pools[i]
    child = br.clone()
    child.pools = (*br.pools[:i], pool[1:], *br.pools[i + 1:])
    child.weight *= len(pool)
    child.count *= len(pool)
    return child, pool[0]


def _named_seats(br: _Branch, n: int) -> list[int]:
    pooled = _pooled(br)
    return [s for s in range(n) if s not in pooled]


def _pick_seat(br: _Branch, n: int, exclude: int) -> Iterator[tuple[_Branch, int]]:
    """Each seat other than ``exclude``, each pool of seats as one representative."""
    for s in _named_seats(br, n):
        if s != exclude:
            yield br.clone(), s
    for i in _seat_pools(br):
        yield _from_pool(br, i)


def _pick_pair(br: _Branch, n: int, exclude: int) -> Iterator[tuple[_Branch, int, int]]:
    named = [s for s in _named_seats(br, n) if s != exclude]
    for a, b in combinations(named, 2):
        yield br.clone(), a, b
    pools = _seat_pools(br)
    for i in pools:
        for a in named:
            child, rep = _from_pool(br, i)
            yield child, a, rep
    for i, j in combinations(pools, 2):
        child, r1 = _from_pool(br, i)
        child, r2 = _from_pool(child, j)
        yield child, r1, r2
    for i in pools:
        pool = br.pools[i]
        k = len(pool)
        if k >= 2:
            child = br.clone()
            child.pools = (*br.pools[:i], pool[2:], *br.pools[i + 1:])
            child.weight *= k * (k - 1) / 2
            child.count *= k * (k - 1) // 2
            yield child, pool[0], pool[1]


def _pick_center(br: _Branch, n: int) -> Iterator[tuple[_Branch, int]]:
    anon = set(br.anon_center)
    for p in range(n, n + 3):
        if p not in anon:
            yield br.clone(), p
    if br.anon_center:
        yield _from_pool(br, CENTER)


def _pick_holder(br: _Branch, n: int, role: str) -> Iterator[tuple[_Branch, int]]:
    """Where the single ``role`` card was dealt: each possible position."""
    for pos, r in br.fixed.items():
        if r == role:
            yield br.clone(), pos
            return
    if br.remaining.get(role, 0) <= 0:
        return
    pooled = _pooled(br)
    for p in range(n + 3):
        if p in pooled or p in br.fixed:
            continue
        child = br.clone()
        if child.fix(p, role, n):
            yield child, p
    for i, pool in enumerate(br.pools):
        if pool and pool[0] not in br.fixed:  # a pool of listed Werewolves holds no other
            child, rep = _from_pool(br, i)
            if child.fix(rep, role, n):
                yield child, rep


# --- what an unseen actor may have done -------------------------------------------


def _options(role: str, n: int) -> int:
    """How many equally likely choices a seat acting as ``role`` has (1: nothing moves)."""
    if role == ROBBER:
        return n  # n-1 other players, or skip
    if role == TROUBLEMAKER:
        return (n - 1) * (n - 2) // 2 + 1
    if role == DRUNK:
        return 3
    return 1


def _act(br: _Branch, n: int, role: str, actor: int, scale: int) -> Iterator[_Branch]:
    """The swaps ``actor`` may have made as ``role``, each with its probability.

    ``count`` is multiplied by ``scale`` times that probability, an integer: ``scale`` is
    the same for every branch of a call, so it cancels out when the beliefs are normed.
    """
    each = scale // _options(role, n)
    if role == ROBBER:
        p = 1.0 / n  # n-1 other players, or skip
        skip = br.clone()
        skip.weight *= p
        skip.count *= each
        yield skip
        for child, x in _pick_seat(br, n, actor):
            child.weight *= p
            child.count *= each
            child.swap(actor, actor, x)
            yield child
    elif role == TROUBLEMAKER:
        p = 1.0 / ((n - 1) * (n - 2) // 2 + 1)
        skip = br.clone()
        skip.weight *= p
        skip.count *= each
        yield skip
        for child, a, b in _pick_pair(br, n, actor):
            child.weight *= p
            child.count *= each
            child.swap(actor, a, b)
            yield child
    elif role == DRUNK:
        for child, c in _pick_center(br, n):
            child.weight *= 1.0 / 3
            child.count *= each
            child.swap(actor, actor, c)
            yield child
    elif scale == 1:  # looks only: nothing moves, and the seat's choice sums to one
        yield br
    else:
        child = br.clone()
        child.count *= scale
        yield child


@lru_cache(maxsize=16)
def _doppel_scale(n: int) -> int:
    """The Doppelgänger call's constant: its 1/(n-1) look times any copied role's choice."""
    return (n - 1) * lcm(*(_options(r, n) for r in (ROBBER, TROUBLEMAKER, DRUNK)))


def _unseen_call(br: _Branch, n: int, call: str) -> Iterator[_Branch]:
    """A call this seat did not take part in."""
    if call == DOPPELGANGER:
        scale = _doppel_scale(n)
        for held, h in _pick_holder(br, n, DOPPELGANGER):
            if h >= n:
                held.count *= scale
                yield held
                continue
            held.doppel = h
            for child, x in _pick_seat(held, n, h):
                child.weight *= 1.0 / (n - 1)
                yield from _copy_from(child, n, h, x, scale // (n - 1))
    elif call in MOVERS:
        scale = _options(call, n)
        for held, h in _pick_holder(br, n, call):
            if h >= n:
                held.count *= scale
                yield held
            else:
                yield from _act(held, n, call, h, scale)
    else:
        yield br


def _copy_from(br: _Branch, n: int, h: int, x: int, scale: int) -> Iterator[_Branch]:
    """The Doppelgänger at ``h`` looks at seat ``x`` (its card at the deal) and copies it."""
    options = [br.fixed[x]] if x in br.fixed else [r for r, c in br.remaining.items() if c > 0]
    for role in options:
        child = br.clone()
        if not child.fix(x, role, n):
            continue
        child.copy = role
        yield from _act(child, n, role, h, scale)


# --- this seat's own observations ---------------------------------------------------


def _observe(br: _Branch, n: int, me: int, obs: Observation) -> bool:
    if obs.kind == "saw":
        return br.fix(br.src[obs.pos], obs.role, n)
    if obs.kind == "swapped":
        br.swap(me, obs.pos, obs.other)
        return True
    if obs.kind == "became":
        br.doppel, br.copy = me, obs.role
        return True
    return _exact_list(br, n, EXACT_LISTS[obs.kind], obs.seats)


def _exact_list(br: _Branch, n: int, role: str, seats: Sequence[int]) -> bool:
    """``seats`` are exactly the seats that woke as ``role`` (dealt it, or copied it)."""
    copied = br.doppel if br.copy == role else -1
    if copied >= 0 and copied not in seats:
        return False
    for s in seats:
        if s != copied and not br.fix(s, role, n):
            return False
    allowed = frozenset(seats)
    for pos, r in br.fixed.items():
        if pos < n and r == role and pos not in allowed:
            return False
    br.excl = {**br.excl, role: allowed}
    return True


# --- closed-form filling of the free positions -------------------------------------


Fill = tuple[int, tuple[float, ...], tuple[float, ...], tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=65536)
def _fill(counts: tuple[int, ...], seats: int, center: int, seat_ban: tuple[bool, ...]) -> Fill:
    """Ways to deal ``counts`` to ``seats`` free seats and ``center`` free center cards
    with no banned role on a seat, and each free seat's and center card's role
    probabilities, then the same as numbers of ways (probability times ways, whole
    numbers). Banned cards must all go to the center; the rest are exchangeable."""
    banned = sum(c for c, ban in zip(counts, seat_ban, strict=True) if ban)
    if banned > center:
        return 0, (), (), (), ()
    open_slots = seats + center - banned  # where the unbanned cards go, in any order
    ways = factorial(center) // factorial(center - banned) * factorial(open_slots)
    for c in counts:
        ways //= factorial(c)
    share = (center - banned) / center if center else 0.0
    if not open_slots:
        seat_p = tuple(0.0 for _ in counts)
        center_p = tuple(
            c / center if ban and c else 0.0 for c, ban in zip(counts, seat_ban, strict=True)
        )
        center_n = tuple(ways * c // center if ban and c else 0
                         for c, ban in zip(counts, seat_ban, strict=True))
        return ways, seat_p, center_p, (0,) * len(counts), center_n
    seat_p = tuple(0.0 if ban else c / open_slots for c, ban in zip(counts, seat_ban, strict=True))
    center_p = tuple(
        (c / center if ban else share * c / open_slots) if c else 0.0
        for c, ban in zip(counts, seat_ban, strict=True)
    )
    seat_n = tuple(0 if ban else ways * c // open_slots
                   for c, ban in zip(counts, seat_ban, strict=True))
    center_n = tuple(0 if not c or not center else ways * c // center if ban else
                     ways * (center - banned) * c // (center * open_slots)
                     for c, ban in zip(counts, seat_ban, strict=True))
    return ways, seat_p, center_p, seat_n, center_n


# --- claims as evidence --------------------------------------------------------------


def _claim_weights(
    br: _Branch, n: int, claims: Sequence[Claim], trust: float
) -> tuple[float, dict[int, dict[str, float]]]:
    """A scenario-level factor (swap claims) and per start position role weights."""
    factor = 1.0
    per_pos: dict[int, dict[str, float]] = {}

    def on(pos: int, role: str) -> None:
        w = per_pos.setdefault(pos, {})
        w[role] = w.get(role, 1.0) * (1.0 / (1.0 - trust) if trust < 1 else 1e300)

    for c in claims:
        if c.kind == "claim":
            on(c.seat, c.role)
        elif c.kind == "claim_saw":
            on(br.src[c.seat] if c.pos == c.seat else c.pos, c.role)
        else:
            done = (c.seat, min(c.pos, c.other), max(c.pos, c.other)) in br.swaps
            factor *= trust * done + (1.0 - trust)
    return factor, per_pos


def _claim_scale(claims: Sequence[Claim], trust: float) -> float:
    """Role claims are weighted ``1/(1-trust)`` when true; this rescales to trust*T + 1-trust."""
    k = sum(1 for c in claims if c.kind != "claim_swap")
    return (1.0 - trust) ** k


# --- the solver ------------------------------------------------------------------------


def _root(k: Knowledge, claims: Sequence[Claim], alike: bool = False) -> _Branch:
    n = k.n
    br = _Branch()
    for r in sorted(k.deck):  # in the order of the roles' names (``_plain_leaves``)
        br.remaining[r] = br.remaining.get(r, 0) + 1
    br.src = list(range(n + 3))
    named = {k.seat}
    for o in k.night:
        named.update(p for p in (o.pos, o.other) if p >= 0)
        named.update(o.seats)
    for c in claims:
        named.update(p for p in (c.seat, c.pos, c.other) if p >= 0)
    br.pools = (tuple(s for s in range(n) if s not in named),
                tuple(p for p in range(n, n + 3) if p not in named),
                *(_alike(k, claims) if alike else ()))
    if not br.fix(k.seat, k.card, n):
        raise Inconsistent(f"{k.card!r} is not in the deck")
    return br


def _alike(k: Knowledge, claims: Sequence[Claim]) -> list[tuple[int, ...]]:
    """The classes of two or more seats that only Werewolf, Mason or thumbs lists name,
    each the same lists: swapping two seats of a class maps the knowledge to itself
    (a list is a set), so one of them stands for all, like an unnamed seat."""
    named = {k.seat}
    for o in k.night:
        named.update(p for p in (o.pos, o.other) if p >= 0)
    for c in claims:
        named.update(p for p in (c.seat, c.pos, c.other) if p >= 0)
    lists: dict[int, list[int]] = {}  # seat -> the observations listing it
    for i, o in enumerate(k.night):
        for s in o.seats:
            if s not in named:
                lists.setdefault(s, []).append(i)
    classes: dict[tuple[int, ...], list[int]] = {}
    for s in sorted(lists):
        classes.setdefault(tuple(lists[s]), []).append(s)
    return [tuple(c) for c in classes.values() if len(c) > 1]


def scenarios(k: Knowledge, claims: Sequence[Claim] = ()) -> list[_Branch]:
    """Every scenario consistent with the seat's own observations (the leaves)."""
    return list(iter_scenarios(k, claims))


def iter_scenarios(
    k: Knowledge, claims: Sequence[Claim] = (), alike: bool = False
) -> Iterator[_Branch]:
    """The scenarios of :func:`scenarios`, in the same order, one at a time; with
    ``alike``, each class of :func:`_alike` walked once (the solve without claims:
    its integer sums do not depend on how they are grouped).

    Depth first: a call's branches are expanded one by one down to the last call,
    and the leaf order is the same as expanding call after call over whole lists
    (children follow their parent's order). Only one path of branches is alive at a
    time instead of every leaf, so a solve leaves the garbage collector next to
    nothing to count, and the collections (a full one costs more than a solve) stay
    rare. No level changes a branch it was given: it clones it or passes it on.
    """
    n = k.n
    me = k.seat
    by_call: dict[int, list[Observation]] = {}
    for o in k.night:
        by_call.setdefault(o.call, []).append(o)
    # Calls this seat neither saw nor has to guess at (its own call, a call that moves
    # no card) pass every branch on unchanged: only the others are walked.
    steps: list[tuple[str, list[Observation] | None]] = []
    for i, call in enumerate(k.schedule):
        guess = call != k.card and (call in MOVERS or call == DOPPELGANGER)
        if guess or i in by_call:
            steps.append((call if guess else "", by_call.get(i)))
    last = len(steps)

    def kids(br: _Branch, depth: int) -> Iterator[_Branch]:
        call, observed = steps[depth]
        options = _unseen_call(br, n, call) if call else iter((br,))
        for kid in options:
            if observed:
                kid = kid.clone()
                if not all(_observe(kid, n, me, o) for o in observed):
                    continue
            yield kid

    root = _root(k, claims, alike)
    if not last:
        yield root
        return
    stack = [kids(root, 0)]
    while stack:
        kid = next(stack[-1], None)
        if kid is None:
            stack.pop()
        elif len(stack) == last:
            yield kid
        else:
            stack.append(kids(kid, len(stack)))


FillKey = tuple[tuple[int, ...], int, int, tuple[bool, ...]]


# Claims name seats, so they break the symmetry that keeps the scenarios few; beyond
# this many players the solver samples instead (measured in benchmarks/beliefs.py).
EXACT_CLAIMS_MAX_PLAYERS = 6


def _evidence(
    k: Knowledge, use_claims: bool, trust: float, method: str
) -> tuple[list[Claim], float, bool]:
    """The claims that count, the trust clamped, and whether to sample (see ``solve``)."""
    claims = [c for c in k.claims if c.seat != k.seat] if use_claims else []
    sampled = method == "sample" or (
        method == "auto" and bool(claims) and k.n > EXACT_CLAIMS_MAX_PLAYERS
    )
    return claims, min(max(trust, 0.0), 0.999999), sampled


class Options(TypedDict, total=False):
    """The keyword options of :func:`solve` (and :func:`p_end_role`)."""

    use_claims: bool
    trust: float
    method: str
    samples: int
    seed: int


def p_end_role(k: Knowledge, role: str, **options: Unpack[Options]) -> tuple[float, ...]:
    """``solve(k, **options).p_end_role(p, role)`` for every position p, the same numbers.

    When the beliefs are sampled only this column is added up (the hard bot's vote
    needs no more, and the three tables cost three times as much).
    """
    claims, clamped, sampled = _evidence(
        k, options.get("use_claims", True), options.get("trust", DEFAULT_TRUST),
        options.get("method", "auto"))
    if sampled:
        from nightcall.bots.onuw.sampling import sample_end_role

        return sample_end_role(k, role, claims, clamped, options.get("samples", DEFAULT_SAMPLES),
                               options.get("seed", 0))
    b = solve(k, **options)
    return tuple(b.p_end_role(p, role) for p in range(k.n + 3))


def solve(
    k: Knowledge,
    *,
    use_claims: bool = True,
    trust: float = DEFAULT_TRUST,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> Beliefs:
    """Beliefs for one seat; claims by other seats count as evidence if ``use_claims``.

    ``method`` is "exact", "sample" (importance sampling, seeded) or "auto": exact,
    except with claims at tables above :data:`EXACT_CLAIMS_MAX_PLAYERS`.
    """
    claims, trust, sampled = _evidence(k, use_claims, trust, method)
    if sampled:
        from nightcall.bots.onuw.sampling import sample_beliefs

        return sample_beliefs(k, claims, trust, samples, seed)
    n = k.n
    npos = n + 3
    roles = tuple(sorted(set(k.deck)))
    ri = {r: i for i, r in enumerate(roles)}
    nr = len(roles)
    # Without claims the seats named alike are pooled too: integer sums, the same
    # whatever their grouping; claims keep the float sums' order of additions.
    alike = not claims
    root = _root(k, claims, alike)
    # Interchangeable positions (see the module doc): each class of them shares one
    # accumulator "slot" and gets the class average at the end.
    slot_of = list(range(npos))
    for group in root.pools:
        for p in group:
            slot_of[p] = group[0]
    slots = sorted(set(slot_of))
    size = {sl: slot_of.count(sl) for sl in slots}
    # Without claims the weights are integers (``_Branch.count``) and so are the sums:
    # the beliefs are exact fractions, rounded once, the same whatever the seats' names.
    # Claims weigh with the trust, in floating point.
    zero: float = 0.0 if claims else 0
    start = {sl: [zero] * nr for sl in slots}
    end = {sl: [zero] * nr for sl in slots}
    # Free positions are summed per way of filling them, then expanded once: fill key ->
    # (start weight per slot, end weight per slot from a free seat, ... a free center card).
    free: dict[FillKey, tuple[list[float], list[float], list[float]]] = {}
    total = zero
    if claims:
        leaves = _weighted_leaves(iter_scenarios(k, claims), n, roles, claims, trust)
    else:
        leaves = _plain_leaves(iter_scenarios(k, alike=alike), n, roles)
    # Where the Doppelgänger card ends, it counts as its copy: a correction to ``end``.
    copied: dict[int, list[float]] = {}
    # Each position with its slot and the slot's rows (fewer lookups per leaf).
    positions = [(p, sl, start[sl], end[sl]) for p, sl in enumerate(slot_of)]
    for w, chosen, key, src, copy in leaves:
        if copy:
            for p in range(npos):
                if chosen.get(src[p]) == DOPPELGANGER:
                    row = copied.setdefault(slot_of[p], [zero] * nr)
                    row[ri[DOPPELGANGER]] -= w
                    row[ri[copy]] += w
        total += w
        acc = free.get(key)
        if acc is None:
            acc = free[key] = ([zero] * npos, [zero] * npos, [zero] * npos)
        fs, fe_seat, fe_center = acc
        # The role index dealt at each position, -1 where free (a list beats dict gets).
        dealt = [-1] * npos
        for p, r in chosen.items():
            dealt[p] = ri[r]
        for p, sl, srow, erow in positions:  # the same additions, in the same order
            i = dealt[p]
            if i < 0:
                fs[sl] += w
            else:
                srow[i] += w
            q = src[p]
            i = dealt[q]
            if i >= 0:
                erow[i] += w
            elif q < n:
                fe_seat[sl] += w
            else:
                fe_center[sl] += w
    if total <= 0:
        raise Inconsistent("no deal and no choices of the others explain what this seat saw")
    for key, (fs, fe_seat, fe_center) in free.items():
        ways, seat_p, center_p, seat_n, center_n = _fill(*key)
        if not claims:  # exact: the weights' share per filling times its number of ways
            fs, fe_seat, fe_center = ([x // ways for x in xs] for xs in (fs, fe_seat, fe_center))
            seat_p, center_p = seat_n, center_n
        for sl in slots:
            dist = seat_p if sl < n else center_p
            a, b, c = fs[sl], fe_seat[sl], fe_center[sl]
            srow, erow = start[sl], end[sl]
            if a:
                for i in range(nr):
                    srow[i] += a * dist[i]
            if b or c:
                for i in range(nr):
                    erow[i] += b * seat_p[i] + c * center_p[i]
    rows_start = []
    rows_end = []
    rows_roles = []
    for p in range(npos):
        sl = slot_of[p]
        norm = total * size[sl]
        rows_start.append(tuple(x / norm for x in start[sl]))
        rows_end.append(tuple(x / norm for x in end[sl]))
        fix = copied.get(sl)
        rows_roles.append(rows_end[-1] if fix is None else
                          tuple((x + d) / norm for x, d in zip(end[sl], fix, strict=True)))
    return Beliefs(roles, tuple(rows_start), tuple(rows_end), 0.0, tuple(rows_roles))


Leaf = tuple[float, dict[int, str], FillKey, list[int], str]


def _plain_leaves(branches: Iterable[_Branch], n: int, roles: tuple[str, ...]) -> Iterator[Leaf]:
    """Without claims each scenario is one closed-form term."""
    # Keyed by id, holding the dict itself: a freed dict's id could come back.
    bans: dict[int, tuple[dict[str, frozenset[int]], tuple[bool, ...]]] = {}
    for br in branches:
        fixed = br.fixed
        excl = br.excl
        seen = bans.get(id(excl))
        if seen is None:
            seen = bans[id(excl)] = (excl, tuple(r in excl for r in roles))
        ban = seen[1]
        center_fixed = len([p for p in fixed if p >= n])
        # ``remaining`` has every role of the deck, in the order of ``roles`` (``_root``).
        key = (tuple(br.remaining.values()), n - len(fixed) + center_fixed, 3 - center_fixed,
               ban)
        ways = _fill(*key)[0]
        if ways:
            yield br.count * ways, fixed, key, br.src, br.copy


def _weighted_leaves(
    branches: Iterable[_Branch], n: int, roles: tuple[str, ...], claims: Sequence[Claim],
    trust: float,
) -> Iterator[Leaf]:
    scale = _claim_scale(claims, trust)
    for br in branches:
        factor, per_pos = _claim_weights(br, n, claims, trust)
        for w, chosen, key in _leaf(br, n, roles, per_pos):
            w *= br.weight * factor * scale
            if w:
                yield w, chosen, key, br.src, br.copy


def _leaf(
    br: _Branch, n: int, roles: tuple[str, ...], per_pos: dict[int, dict[str, float]]
) -> Iterator[tuple[float, dict[int, str], FillKey]]:
    """The weighted ways to complete a scenario's deal: (weight, the start card of every
    position that is not free, the key of the free positions' filling).

    Without claims this is one closed-form term. A claim weighs a position
    ``w(x) = 1 + beta[x]``; expanding the product over claimed positions gives, per
    position, "free" (weight 1) or "holds r" (weight beta[r]): every term is again
    closed-form, and there are only prod(1 + roles claimed there) of them.
    """
    npos = n + 3
    factor = 1.0
    singles: list[tuple[int, list[tuple[str, float]]]] = []
    for p, w in per_pos.items():
        if p in br.fixed:
            factor *= w.get(br.fixed[p], 1.0)
        else:
            singles.append((p, [(r, x - 1.0) for r, x in w.items() if x != 1.0]))
    ban = tuple(r in br.excl for r in roles)
    index = {r: i for i, r in enumerate(roles)}
    counts = [br.remaining.get(r, 0) for r in roles]
    free_n = [sum(1 for s in range(n) if s not in br.fixed),
              sum(1 for p in range(n, npos) if p not in br.fixed)]
    chosen = dict(br.fixed)

    def walk(j: int, w: float) -> Iterator[tuple[float, dict[int, str], FillKey]]:
        if j == len(singles):
            key = (tuple(counts), free_n[0], free_n[1], ban)
            ways = _fill(*key)[0]
            if ways:
                yield w * ways, chosen, key
            return
        yield from walk(j + 1, w)
        p, betas = singles[j]
        side = 0 if p < n else 1
        for role, beta in betas:
            i = index[role]
            if counts[i] == 0 or (side == 0 and ban[i]):
                continue
            counts[i] -= 1
            free_n[side] -= 1
            chosen[p] = role
            yield from walk(j + 1, w * beta)
            del chosen[p]
            free_n[side] += 1
            counts[i] += 1

    yield from walk(0, factor)
