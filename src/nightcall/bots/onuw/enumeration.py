"""Beliefs by brute force: every deal, every choice of the other seats, through the engine.

This is the reference the exact solver is tested against and the baseline its
benchmark is measured against. It plays each deal through the real ruleset,
so it also checks that the solver's reading of the rules matches the engine.
Choices that only look at cards (Seer, lone Werewolf, a Doppelgänger-Seer)
move nothing the seat can observe, so one of them stands for all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any

from nightcall.bots.onuw.knowledge import Claim
from nightcall.bots.onuw.solver import Beliefs, Inconsistent
from nightcall.engine.actions import Action
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.roles import DOPPELGANGER, SEER, WEREWOLF
from nightcall.rulesets.onuw.state import NIGHT, OneNightState

LOOK_ONLY_CALLS = frozenset({SEER, WEREWOLF})


def distinct_deals(deck: Sequence[str]) -> list[tuple[str, ...]]:
    return sorted(set(permutations(sorted(deck))))


def night_events(st: OneNightState, seat: int) -> list[dict[str, Any]]:
    """What ``seat``'s view shows of the night (its card, the calls, what it saw)."""
    out = []
    for e in ONUW.view(st, seat)["events"]:
        if e["kind"] == "dawn":
            break
        out.append(e)
    return out


def _looks_only(st: OneNightState) -> bool:
    call = st.schedule[st.call_i]
    if call in LOOK_ONLY_CALLS:
        return True
    return call == DOPPELGANGER and st.stage == 2 and st.copy == SEER


def _play(deal: tuple[str, ...], n: int, prefix: list[Action]) -> OneNightState:
    st = ONUW.new_game([f"P{i}" for i in range(n)], list(deal))
    for a in prefix:
        ONUW.apply(st, st.actor, a)
    return st


def enumerate_beliefs(
    deck: Sequence[str],
    n: int,
    seat: int,
    my_actions: Sequence[Action],
    seen: Sequence[dict[str, Any]],
    claims: Sequence[Claim] = (),
    trust: float = 0.7,
) -> Beliefs:
    """P(role) per position given that ``seat`` played ``my_actions`` and saw ``seen``."""
    roles = tuple(sorted(set(deck)))
    ri = {r: i for i, r in enumerate(roles)}
    npos = n + 3
    start = [[0.0] * len(roles) for _ in range(npos)]
    end = [[0.0] * len(roles) for _ in range(npos)]
    end_roles = [[0.0] * len(roles) for _ in range(npos)]
    total = 0.0
    target = [_comparable(e) for e in seen]
    claims = [c for c in claims if c.seat != seat]

    def leaf(st: OneNightState, weight: float, deal: tuple[str, ...]) -> None:
        nonlocal total
        if [_comparable(e) for e in night_events(st, seat)] != target:
            return
        weight *= _likelihood(st, deal, claims, trust)
        if weight == 0.0:
            return
        total += weight
        for p in range(npos):
            start[p][ri[deal[p]]] += weight
            end[p][ri[st.cards[p]]] += weight
            end_roles[p][ri[st.final_role(p)]] += weight

    for deal in distinct_deals(deck):
        _explore(deal, n, seat, list(my_actions), [], 1.0, leaf)
    if total == 0.0:
        raise Inconsistent("no deal explains what this seat saw")
    return Beliefs(
        roles,
        tuple(tuple(x / total for x in row) for row in start),
        tuple(tuple(x / total for x in row) for row in end),
        end_roles=tuple(tuple(x / total for x in row) for row in end_roles),
    )


def _comparable(e: dict[str, Any]) -> dict[str, Any]:
    """An event as the seat experiences it: who opened their eyes is a set, not a list
    (the engine lists a Doppelgänger after the others, which a seat cannot see)."""
    if e["kind"] in ("wolves", "thumbs", "masons"):
        return {**e, "seats": sorted(e["seats"])}
    return e


def _explore(
    deal: tuple[str, ...],
    n: int,
    seat: int,
    mine: list[Action],
    prefix: list[Action],
    weight: float,
    leaf: Callable[[OneNightState, float, tuple[str, ...]], None],
) -> None:
    st = _play(deal, n, prefix)
    used = sum(1 for s, _, _ in st.history if s == seat)
    while st.phase == NIGHT:
        legal = list(ONUW.legal_actions(st, st.actor))
        if st.actor == seat:
            if used >= len(mine) or mine[used] not in legal:
                return
            action = mine[used]
            used += 1
        elif _looks_only(st):
            action = legal[-1]
        else:
            p = weight / len(legal)
            for a in legal:
                _explore(deal, n, seat, mine, [*prefix, a], p, leaf)
            return
        prefix = [*prefix, action]
        ONUW.apply(st, st.actor, action)
    if used == len(mine):
        leaf(st, weight, deal)


def _likelihood(
    st: OneNightState, deal: tuple[str, ...], claims: Sequence[Claim], trust: float
) -> float:
    out = 1.0
    n = st.n
    for c in claims:
        if c.kind == "claim":
            true = st.start[c.seat] == c.role
        elif c.kind == "claim_saw":
            true = (st.cards[c.seat] if c.pos == c.seat else deal[c.pos]) == c.role
        else:
            true = (c.seat, min(c.pos, c.other), max(c.pos, c.other)) in _swaps(st, n)
        out *= trust * true + (1.0 - trust)
    return out


def _swaps(st: OneNightState, n: int) -> set[tuple[int, int, int]]:
    done = set()
    for s, a, _ in st.history:
        if a.kind == "swap":
            done.add((s, min(s, a.a), max(s, a.a)))
        elif a.kind == "swap_two":
            done.add((s, min(a.a, a.b), max(a.a, a.b)))
        elif a.kind == "take_center":
            done.add((s, s, n + a.a))
    return done
