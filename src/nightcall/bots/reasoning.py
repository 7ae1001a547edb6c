"""What every reasoning bot starts from: a seeded random source and a difficulty."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from nightcall.engine.actions import Action

DIFFICULTIES = ("easy", "normal", "hard")


class ReasoningBot:
    name = "reasoning"
    careless_odds = 0.0  # how often the easy bot plays any legal move (``choose``)

    def __init__(self, seed: int | None = 0, difficulty: str = "normal") -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        self.rng = random.Random(seed)
        self.difficulty = difficulty

    def choose(self, view: Mapping[str, Any]) -> Action | None:
        """None without a legal move; on ``easy`` a random legal one ``careless_odds``
        of the time (the random source is drawn from only on easy); else ``decide``."""
        legal = [Action.from_json(a) for a in view.get("legal") or []]
        if not legal:
            return None
        if self.difficulty == "easy" and self.rng.random() < self.careless_odds:
            return self.rng.choice(legal)
        return self.decide(view, legal)

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> Action:
        """The bot's considered move among ``legal`` (not empty)."""
        raise NotImplementedError
