"""The Lupus in Tabula reasoning bot: night kills, Seer checks, accusations and
executions from beliefs, read from the seat's view alone.

Beliefs: each living player's probability of being a Werewolf. Hard facts are
the seat's own card, the pack (a Werewolf sees the others), the Freemasons, and
the Seer's and Medium's answers; the Werewolves nobody has placed are spread
evenly over the players nobody has placed, living or dead (the exact posterior
when nothing else is known, as every deal is equally likely). On top, at
``normal`` and ``hard``, who accused or voted against a player known to be human
is held slightly more suspect. Rulings in docs/rulings.md (Beliefs, bots).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightcall.bots.reasoning import ReasoningBot
from nightcall.engine.actions import Action

WOLF = "werewolf"
POSSESSED = "possessed"
SUSPICION_BUMP = 0.15  # per accusation or vote against a player known to be human
ACCUSED_BUMP = 0.05  # per accusation or vote by someone else


class LupusBot(ReasoningBot):
    careless_odds = 0.3

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> Action:
        me = int(view["seat"])
        table = Table(view)
        wolf, human = table.wolf, table.human
        p = table.beliefs(me, self.difficulty != "easy")
        # The Possessed wins with the pack without knowing it (role table): it plays
        # like a Werewolf that has no packmates to spare.
        i_am_wolf = view.get("role") in (WOLF, POSSESSED)
        kinds = {a.kind for a in legal}
        targets = [a for a in legal if a.a >= 0 and a.a != me]
        if not targets:
            return self.rng.choice(legal)
        if "kill" in kinds:
            # A victim who lived was guarded or is the Werehamster: not again.
            return self._pick(targets, table.threat, avoid=wolf | table.spared)
        if i_am_wolf and kinds & {"accuse", "execute"}:
            # First a victim who lived (the Werehamster, who must die for the pack to
            # win, or whoever the Bodyguard keeps alive), then a human the village
            # already doubts; never the pack.
            return self._pick(targets, table.wolf_suspect, avoid=wolf)
        if kinds & {"see", "mark", "accuse", "execute"}:
            unknown = [a for a in targets if a.a not in human] or targets
            if "see" in kinds:
                unknown = [a for a in unknown if a.a not in wolf] or unknown
            return self._pick(unknown, lambda s: p.get(s, 0.0), avoid=set())
        # Bodyguard, Harlot, Mythomaniac: a player believed human, at random.
        low = min(p.values(), default=0.0)
        safe = [a for a in targets if p.get(a.a, 0.0) <= low + 1e-9]
        return self.rng.choice(safe or targets)

    def _pick(self, options: list[Action], score: Any, avoid: set[int]) -> Action:
        allowed = [a for a in options if a.a not in avoid] or options
        best = max(score(a.a) for a in allowed)
        return self.rng.choice([a for a in allowed if score(a.a) >= best - 1e-9])


class Table:
    """What the seat's events say, read in one pass."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        me = int(view["seat"])
        self.wolf: set[int] = set()
        self.human: set[int] = set()
        (self.wolf if view.get("role") == WOLF else self.human).add(me)
        self.accusations: list[tuple[int, int]] = []
        self.votes: list[tuple[int, int]] = []
        # The pack's victims still alive at the next dawn (a Werewolf sees "victim").
        self.spared: set[int] = set()
        victim = -1
        for e in view.get("events", []):
            kind = e["kind"]
            if kind == "victim":
                victim = int(e["seat"])
            elif kind == "dawn":
                if victim >= 0 and victim not in e["dead"]:
                    self.spared.add(victim)
                victim = -1
            elif kind == "accuse":
                if e.get("target") is not None:
                    self.accusations.append((int(e["seat"]), int(e["target"])))
            elif kind == "votes":
                self.votes.extend((int(v), int(t)) for v, t in e["votes"] if t is not None)
            elif kind == "wolves":
                self.wolf.update(int(s) for s in e["seats"])
            elif kind == "freemasons":
                self.human.update(int(s) for s in e["seats"])
            elif kind in ("seen", "medium"):
                (self.wolf if e.get("werewolf") else self.human).add(int(e["seat"]))

    def beliefs(self, me: int, read_table: bool) -> dict[int, float]:
        """P(Werewolf) for every living player but ``me``."""
        view = self.view
        players = view["players"]
        alive = {players.index(name) for name in view.get("alive", players)}
        wolves = list(view.get("roles_in_play", [])).count(WOLF)
        placed = self.wolf | self.human
        unplaced = [s for s in range(len(players)) if s not in placed]
        share = max(0, wolves - len(self.wolf)) / len(unplaced) if unplaced else 0.0
        p = {s: 1.0 if s in self.wolf else 0.0 if s in self.human else share
             for s in alive if s != me}
        if read_table:
            # Accusing or voting against a known human is suspect; being accused by
            # others is a weak sign (a Seer accuses what it saw).
            for voter, target in self.accusations + self.votes:
                if target in self.human and voter in p:
                    _bump(p, voter, SUSPICION_BUMP)
                if target in p and voter != me:
                    _bump(p, target, ACCUSED_BUMP)
        return p

    def accused(self, seat: int) -> float:
        return float(sum(1 for _, t in self.accusations if t == seat))

    def wolf_suspect(self, seat: int) -> float:
        """Whom a Werewolf points at by day: a spared victim first, then the accused."""
        return self.accused(seat) + (1000.0 if seat in self.spared else 0.0)

    def threat(self, seat: int) -> float:
        """To the pack: players who accused a Werewolf are the dangerous ones."""
        return float(sum(1 for s, t in self.accusations if s == seat and t in self.wolf))


def _bump(p: dict[int, float], seat: int, amount: float) -> None:
    if 0.0 < p[seat] < 1.0:
        p[seat] = min(0.99, p[seat] + amount * (1 - p[seat]))
