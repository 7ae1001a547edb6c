"""The bot's vote: whom to point at, from its beliefs, its party and its tokens.

- Village: the likeliest monster (a probable Tanner counts against a seat: his
  death alone wins only for him); a Bodyguard points at the likeliest villager,
  whom his vote protects.
- Werewolves / vampires: in a classic game a likely villager; in an Epic Battle
  a likely member of the other monster party (their death is what a monster
  party needs). Never a known ally.
- The Tanner abstains (every vote he gives makes someone else likelier to die than
  him) unless he is a suspect of the plan below, then he keeps its tie; the
  Assassin points at the Bounty when he knows where it is.
- Nobody points at the seat known to hold the Plague token: that vote cannot win.

When the Village knows nothing sure, it splits its doubt, as tables do by
talking ("half of us on Anna, half on Bruno: a tie kills both, and one dead
monster is enough"): a *public order* every seat computes alike from the public
part of the view (the names, the roles in play, the cards turned face up) names
n // 2 suspects, and a plan every seat derives from that order gives each of
them two votes. A seat that knows better (a monster it saw, a suspect it knows is
innocent) votes its beliefs instead. When the deck makes it likelier that no
monster is among the players at all, the plan is to kill nobody instead
(:func:`spare`). Bots cannot talk yet; the plan reads nothing secret.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from math import comb
from typing import Any

from nightcall.bots.epic.beliefs import Beliefs
from nightcall.bots.epic.knowledge import Knowledge
from nightcall.engine.actions import Action
from nightcall.rulesets.epic.roles import (
    ARTIFACT_ROLE,
    ASSASSIN_TEAM,
    BODYGUARD,
    TANNER_TEAM,
    VAMPIRE_CARDS,
    VAMPIRES,
    VILLAGE,
    WEREWOLVES,
    WOLF_CARDS,
)

TIE = 0.02  # beliefs this close count as equal
SURE = 0.5  # a seat this likely a monster gets the vote, whatever the plan says
DOUBT = 0.15  # the planned suspect is dropped when another is this much likelier
TANNER_WEIGHT = 0.5


def public_order(view: Mapping[str, Any]) -> list[int]:
    """A seat order from public facts only, the same for every seat of the table;
    the cards turned face up by the Enlightener (never a monster's) go last."""
    salt = ",".join(view.get("roles_in_play", []))
    names = list(view["players"])
    face_up = set(view.get("face_up") or {})

    def key(seat: int) -> tuple[bool, str]:
        digest = hashlib.sha256(f"{salt}|{names[seat]}".encode()).hexdigest()
        return names[seat] in face_up, digest

    return sorted(range(len(names)), key=key)


def plan(order: Sequence[int]) -> dict[int, int]:
    """Voter -> suspect: the first n // 2 seats of the order get two votes each, from
    the seats in order (no one points at themselves); a seat left over is free."""
    n = len(order)
    suspects = list(order[: max(1, n // 2)])
    left = dict.fromkeys(suspects, 2)
    out: dict[int, int] = {}
    for voter in order:
        target = next((t for t in suspects if t != voter and left[t] > 0), None)
        if target is not None:
            out[voter] = target
            left[target] -= 1
    return out


def spare(k: Knowledge) -> bool:
    """Whether the Village's plan is to kill nobody: with one monster party in the
    deck, when it is likelier (from the deck alone, so every seat agrees) that no
    monster card was dealt to a player than that a suspect of :func:`plan` got one.
    Then everyone points at the next seat in the public order and each player gets
    exactly one vote (the rulebook's "all of you point at your left neighbour")."""
    wolves = sum(c for r, c in k.deck.items() if r in WOLF_CARDS)
    vamps = sum(c for r, c in k.deck.items() if r in VAMPIRE_CARDS)
    if wolves and vamps:
        return False
    places = k.n + 3
    monsters = wolves + vamps - (1 if sum(k.deck.values()) > places else 0)  # extra card
    suspects = max(1, k.n // 2)
    p_none = comb(places - monsters, k.n) / comb(places, k.n)
    p_hit = 1 - comb(places - monsters, suspects) / comb(places, suspects)
    return p_none > p_hit


def epic_deck(k: Knowledge) -> bool:
    """Both monster parties in the deck (public)."""
    return any(r in WOLF_CARDS for r in k.deck) and any(r in VAMPIRE_CARDS for r in k.deck)


def choose_vote(legal: Sequence[Action], k: Knowledge, b: Beliefs,
                order: Sequence[int], split: bool = True) -> Action:
    """The vote; ``split=False`` (easy) ignores the plans and votes beliefs alone."""
    votes = [a for a in legal if a.kind == "vote"]
    abstain = next((a for a in legal if a.kind != "vote"), None)
    if not votes:
        return legal[0]
    planned = plan(order) if split else {}
    sparing = split and spare(k)
    loner = _loner_vote(k, b, votes, abstain, planned, sparing)
    if loner is not None:
        return loner
    allowed = [a for a in votes if a.a != k.plague] or votes
    if b.party not in (VILLAGE, ASSASSIN_TEAM, TANNER_TEAM):
        allies = b.allies()
        allowed = [a for a in allowed if a.a not in allies] or allowed
    score = _score(k, b)
    guards = _guards(k, b)
    if guards and not sparing:
        # The Bodyguard's vote shields: never one the plan wants dead, the likeliest
        # villager among the rest.
        allowed = [a for a in allowed if a.a not in planned.values()] or allowed
    top = max(score(a.a) for a in allowed)
    # In an Epic Battle one sure monster is not enough (the Village needs a werewolf
    # and a vampire dead) and the plan's ties kill more: a seat leaves the plan only
    # when its suspect is much less likely than another seat (DOUBT below).
    sure = 1.01 if epic_deck(k) else SURE
    if split and b.party in (VILLAGE, ASSASSIN_TEAM) and top < sure:
        if sparing:
            after = order[(order.index(k.seat) + 1) % len(order)]
            pick = next((a for a in allowed if a.a == after), None)
            return pick or abstain or allowed[0]
        mine = planned.get(k.seat)
        if mine is None and not guards:
            # Left over: a vote off the suspects, so as not to break their tie.
            allowed = [a for a in allowed if a.a not in planned.values()] or allowed
            top = max(score(a.a) for a in allowed)
        elif not guards:
            pick = next((a for a in allowed if a.a == mine), None)
            if pick is not None and score(mine) >= top - DOUBT:
                return pick
    rank = {s: i for i, s in enumerate(order)}
    near = [a for a in allowed if score(a.a) >= top - TIE]
    return min(near, key=lambda a: rank.get(a.a, 0))


def _loner_vote(k: Knowledge, b: Beliefs, votes: list[Action], abstain: Action | None,
                planned: dict[int, int], sparing: bool) -> Action | None:
    """The Tanner's and the Assassin's votes, who play for themselves (None: vote as
    the others do)."""
    if b.party == TANNER_TEAM:
        # He wins by dying: a suspect of the plan keeps its tie by voting his part;
        # anyone else abstains, since each vote he gives saves him a little.
        pick = next((a for a in votes if a.a == planned.get(k.seat)), None)
        if pick is not None and not sparing and k.seat in planned.values():
            return pick
        return abstain
    bounty = k.bounty
    if b.party != ASSASSIN_TEAM or bounty is None:
        return None
    if not sparing and bounty in planned.values():
        return None  # the Bounty is a suspect: it dies with the plan's tie
    if bounty == k.seat:
        return abstain
    return next((a for a in votes if a.a == bounty), None)


def _guards(k: Knowledge, b: Beliefs) -> bool:
    """A village Bodyguard whose vote still protects (no artifact took his role)."""
    return b.party == VILLAGE and k.my_card() == BODYGUARD and k.artifact not in ARTIFACT_ROLE


def _score(k: Knowledge, b: Beliefs) -> Any:
    if _guards(k, b):
        return b.same_party
    if b.party == WEREWOLVES:
        return b.vampire.__getitem__ if b.epic else lambda s: -b.wolf[s]
    if b.party == VAMPIRES:
        return b.wolf.__getitem__ if b.epic else lambda s: -b.vampire[s]
    return lambda s: b.monster(s) - TANNER_WEIGHT * b.tanner[s]
