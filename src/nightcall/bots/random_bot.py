"""The random legal bot: picks uniformly among the legal moves listed in its view."""

from __future__ import annotations

import random
from typing import Any

from nightcall.engine.actions import Action


class RandomBot:
    """Chooses uniformly among ``view["legal"]``; seeded, so games replay exactly."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal = view.get("legal") or []
        if not legal:
            return None
        return Action.from_json(self.rng.choice(legal))
