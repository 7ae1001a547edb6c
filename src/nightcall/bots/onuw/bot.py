"""The One Night reasoning bot: sensible night choices, claims, and a vote from beliefs.

Everything it decides comes from its seat's view (``choose(view)``, ``talk(view)``),
read with :func:`knowledge_from_view`; it never sees the state. Difficulty:

- ``easy``: its own beliefs only, and a noisy vote (often a random one);
- ``normal``: its own beliefs, weighed against the claims with cheap rules
  (a claim it knows is false marks a liar; a Seer's sighting or a
  Troublemaker's swap moves suspicion), so that simulations stay fast;
- ``hard``: the solver with every claim as evidence (exact up to six players,
  sampled above), and a werewolf cover story picked from its beliefs.

Sides are decided by the card the bot believes it holds at dawn: a Robber that
took a Werewolf lies like one. Rulings in docs/rulings.md (Beliefs, bots).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from nightcall.bots.onuw.knowledge import (
    Knowledge,
    canonical,
    claim_from_event,
    knowledge_from_view,
    renamed,
)
from nightcall.bots.onuw.solver import (
    EXACT_CLAIMS_MAX_PLAYERS,
    Beliefs,
    Inconsistent,
    p_end_role,
    solve,
)
from nightcall.bots.reasoning import ReasoningBot
from nightcall.engine.actions import Action
from nightcall.rulesets.onuw import roles

WOLF_SIDE = frozenset({roles.WEREWOLF, roles.MINION})
# Village roles a werewolf may pretend to be, most convincing first (no night action
# to describe, or one that is hard to contradict).
COVER_ROLES = (roles.VILLAGER, roles.HUNTER, roles.INSOMNIAC, roles.DRUNK, roles.TROUBLEMAKER,
               roles.SEER, roles.ROBBER, roles.MASON)
LIAR_ODDS = 6.0  # how much more likely a seat caught in a false claim is a werewolf
SIGHTING_ODDS = 4.0  # what a believed Seer's "I saw a Werewolf" does to the odds
HARD_SAMPLES = 300  # deals sampled for a hard vote with claims above six players


@lru_cache(maxsize=200_000)
def _own_beliefs(k: Knowledge) -> Beliefs | None:
    """Beliefs from the seat's own knowledge (no claims), None if it is inconsistent.
    Cached as they are (the renaming costs a tenth of a game) and per canonical form."""
    same, to = canonical(k)
    b = _canonical_beliefs(same)
    return None if b is None else b.relabelled(to)


@lru_cache(maxsize=200_000)
def _canonical_beliefs(k: Knowledge) -> Beliefs | None:
    """The same few knowledge states, up to the names of the seats, recur across
    simulated games: their beliefs are cached. The solve is exact (integer sums), so
    renamed knowledge gets the very same numbers as a solve of its own."""
    try:
        return solve(k, use_claims=False)
    except Inconsistent:
        return None


class OneNightBot(ReasoningBot):
    hears_claims = True  # its vote weighs the claims (solve, use_claims)

    def __init__(self, seed: int | None = 0, difficulty: str = "normal") -> None:
        super().__init__(seed, difficulty)
        self._said = False
        self._night_k: Knowledge | None = None

    # --- the interface every bot has ------------------------------------------------
    def choose(self, view: Mapping[str, Any]) -> Action | None:
        raw = view.get("legal") or []
        if not raw:
            return None
        if view.get("phase") == "night":
            return Action.from_json(self._night(raw))
        return self._vote(view, raw)

    def talk(self, view: Mapping[str, Any]) -> list[Action]:
        """What the bot says at dawn, once: claims as actions (``ONUW.apply``)."""
        if self._said or view.get("phase") != "day":
            return []
        self._said = True
        k = self._knowledge(view)
        return self._claims(k)

    def _knowledge(self, view: Mapping[str, Any]) -> Knowledge:
        """The seat's knowledge; the night part is read once per game (it is over at dawn),
        after that only the claims are read again."""
        night = self._night_k
        if night is None or night.seat != view.get("seat") or view.get("phase") == "night":
            k = knowledge_from_view(view)
            if view.get("phase") != "night":
                self._night_k = k.without_claims()
            return k
        claims = tuple(claim_from_event(e) for e in view["events"] if e["kind"] == "claim")
        return night.with_claims(claims)

    # --- the night ------------------------------------------------------------------
    def _night(self, legal: list[Any]) -> Any:
        """One of the legal moves (as listed in the view): act rather than skip."""
        rng = self.rng
        # A Seer learns more about the players from a player than from the center.
        if self.difficulty != "easy" and legal[0]["kind"] == "look" and rng.random() < 0.75:
            return rng.choice([a for a in legal if a["kind"] == "look"])
        moves = [a for a in legal if a["kind"] != "skip"]
        if moves and (self.difficulty != "easy" or rng.random() < 0.8):
            return rng.choice(moves)
        return rng.choice(legal)

    # --- the day: what to say -----------------------------------------------------------
    def _claims(self, k: Knowledge) -> list[Action]:
        now = self._my_card_now(k)
        if k.card == roles.TANNER:
            return self._tanner_story(k)
        if now in WOLF_SIDE or (now is None and k.card in WOLF_SIDE):
            return self._cover_story(k)
        return self._truth(k)

    def _my_card_now(self, k: Knowledge) -> str | None:
        """The card this seat last saw as its own (Robber, Insomniac), if any."""
        card: str | None = k.card
        for o in k.night:
            if o.kind == "swapped" and k.seat in (o.pos, o.other):
                card = None
            if o.kind == "saw" and o.pos == k.seat:
                card = o.role
        if k.card == roles.DOPPELGANGER:
            became = next((o.role for o in k.night if o.kind == "became"), None)
            return became if card == roles.DOPPELGANGER else card
        return card

    def _truth(self, k: Knowledge) -> list[Action]:
        say = [Action("claim", roles.ROLE_IDS.index(k.card))]
        for o in k.night:
            if o.kind == "saw":
                say.append(Action("claim_saw", o.pos, roles.ROLE_IDS.index(o.role)))
            elif o.kind == "swapped":
                say.append(Action("claim_swap", min(o.pos, o.other), max(o.pos, o.other)))
        return say

    def _cover_story(self, k: Knowledge) -> list[Action]:
        """A village role unlikely to be counter-claimed: one seen in the center if any,
        else (hard) the role most likely to be in the center, else a Villager."""
        in_deck = set(k.deck)
        seen_center = [o.role for o in k.night
                       if o.kind == "saw" and o.pos >= k.n and o.role not in WOLF_SIDE]
        role = roles.VILLAGER if roles.VILLAGER in in_deck else None
        if seen_center:
            role = seen_center[0]
        elif self.difficulty == "hard":
            b = _own_beliefs(k.without_claims())
            if b is not None:
                options = [r for r in COVER_ROLES if r in in_deck]
                role = max(options, key=lambda r: sum(b.p_start(p, r) for p in
                                                      range(k.n, k.n + 3)), default=role)
        if role is None:
            # No Villager in this deck: another village role, else (a deck of wolves and
            # a Tanner) the seat's own card, the only claim always in the deck.
            options = ([r for r in COVER_ROLES if r in in_deck]
                       or sorted(in_deck - WOLF_SIDE) or [k.card])
            role = self.rng.choice(options)
        return [Action("claim", roles.ROLE_IDS.index(role))]

    def _tanner_story(self, k: Knowledge) -> list[Action]:
        """A Tanner wants votes: claim a role someone else will contradict, else one that
        draws suspicion. Only roles in the deck may be claimed."""
        for role in (roles.SEER, roles.ROBBER, roles.TROUBLEMAKER, roles.WEREWOLF, roles.MINION):
            if role in k.deck:
                return [Action("claim", roles.ROLE_IDS.index(role))]
        return [Action("claim", roles.ROLE_IDS.index(roles.TANNER))]

    # --- the day: the vote ----------------------------------------------------------------
    def _vote(self, view: Mapping[str, Any], raw: list[Any]) -> Action:
        votes = {int(a["a"]): Action("vote", int(a["a"])) for a in raw if a["kind"] == "vote"}
        if not votes:
            return Action.from_json(raw[0])
        k = self._knowledge(view)
        rng = self.rng
        if self.difficulty == "easy" and rng.random() < 0.35:
            return rng.choice(list(votes.values()))
        if k.card == roles.TANNER:  # whatever it believes (so it need not work it out)
            return rng.choice(list(votes.values()))
        suspicion = self._suspicion(k)
        if suspicion is None:
            return rng.choice(list(votes.values()))
        now = self._my_card_now(k)
        wolf_side = (now in WOLF_SIDE) if now is not None else k.card in WOLF_SIDE
        if wolf_side:
            return votes[self._scapegoat(k, suspicion, votes)]
        if sum(suspicion.values()) < 0.35 and self.difficulty != "easy":
            # Probably both Werewolves are in the center: the village wins only if nobody
            # dies, so everyone pointing at a neighbour is the best vote (rulebook FAQ).
            nxt = (k.seat + 1) % k.n
            return votes.get(nxt, rng.choice(list(votes.values())))
        best = max(suspicion[s] for s in votes)
        top = [s for s in votes if suspicion[s] >= best - 1e-9]
        return votes[rng.choice(top)]

    def _scapegoat(self, k: Knowledge, suspicion: Mapping[int, float],
                   votes: Mapping[int, Action]) -> int:
        """A werewolf votes for the non-werewolf the village is most likely to doubt,
        never for a werewolf it knows about."""
        friends = {s for o in k.night if o.kind in ("wolves", "thumbs") for s in o.seats}
        accusers = {c.seat for c in k.claims if c.kind == "claim_saw" and c.pos == k.seat}
        choices = [s for s in votes if s not in friends] or list(votes)
        if accusers & set(choices):
            return self.rng.choice(sorted(accusers & set(choices)))
        return max(choices, key=lambda s: (suspicion.get(s, 0.0), self.rng.random()))

    def _suspicion(self, k: Knowledge) -> dict[int, float] | None:
        """P(seat holds a Werewolf at dawn), from beliefs and claims."""
        if self.difficulty == "hard" and k.claims:
            try:
                if k.n <= EXACT_CLAIMS_MAX_PLAYERS:  # exact: solved as the seats are named
                    wolf = p_end_role(k, roles.WEREWOLF)
                    return {s: wolf[s] for s in range(k.n) if s != k.seat}
                # Sampled under the canonical names, whose scenarios are prepared once
                # for the many renamings of the same knowledge (docs/benchmarks.md,
                # "Reasoning bots, session 6", for the number of samples).
                same, to = canonical(k.without_claims())
                wolf = p_end_role(same.with_claims(renamed(k.claims, to)), roles.WEREWOLF,
                                  samples=HARD_SAMPLES)
                return {s: wolf[to[s]] for s in range(k.n) if s != k.seat}
            except Inconsistent:
                pass
        b = _own_beliefs(k.without_claims())
        if b is None:
            return None
        p = {s: b.p_end_role(s, roles.WEREWOLF) for s in range(k.n) if s != k.seat}
        if self.difficulty == "normal":
            p = _weigh_claims(k, b, p)
        return p


def _odds_times(p: float, factor: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return p
    o = p / (1 - p) * factor
    return o / (1 + o)


def _weigh_claims(k: Knowledge, b: Beliefs, p: dict[int, float]) -> dict[int, float]:
    """Cheap rules standing in for claims as evidence (the ``hard`` bot solves instead)."""
    liars: set[int] = set()
    claimed: dict[str, list[int]] = {}
    for c in k.claims:
        if c.seat == k.seat:
            continue
        if c.kind == "claim":
            claimed.setdefault(c.role, []).append(c.seat)
            if b.p_start(c.seat, c.role) == 0.0:
                liars.add(c.seat)  # this seat cannot have been dealt what it says
        elif (c.kind == "claim_saw" and c.pos != c.seat and c.pos < k.n
              and b.p_start(c.pos, c.role) == 0.0):
            liars.add(c.seat)
    for role, seats in claimed.items():
        if role not in (roles.VILLAGER, roles.MASON, roles.WEREWOLF) and len(seats) > 1:
            for s in seats:  # two claim the same single card: at least one lies
                p[s] = _odds_times(p[s], 2.0) if s in p else p.get(s, 0.0)
    for s in liars:
        if s in p:
            p[s] = _odds_times(max(p[s], 0.05), LIAR_ODDS)
    # Believed sightings and swaps, in the order of the night.
    seers = set(claimed.get(roles.SEER, ())) - liars
    for c in k.claims:
        if c.seat in seers and c.kind == "claim_saw" and c.role == roles.WEREWOLF and c.pos in p:
            p[c.pos] = _odds_times(max(p[c.pos], 0.05), SIGHTING_ODDS)
    makers = set(claimed.get(roles.TROUBLEMAKER, ())) - liars
    for c in k.claims:
        if c.seat in makers and c.kind == "claim_swap" and c.pos < k.n and c.other < k.n:
            a, b_ = c.pos, c.other
            pa, pb = p.get(a), p.get(b_)
            if pa is not None and pb is not None:
                p[a], p[b_] = (pa + pb) / 2 + (pb - pa) / 4, (pa + pb) / 2 + (pa - pb) / 4
    return p
