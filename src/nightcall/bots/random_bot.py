"""The random legal bot: picks uniformly among the legal moves listed in its view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from nightcall.engine.actions import Action


class RandomBot:
    """Chooses uniformly among ``view["legal"]``; seeded, so games replay exactly.

    :meth:`choose_from` is the same choice from a list of actions: the simulator's
    fast path hands it ``legal_actions`` directly instead of building a view, and
    since the view lists the same moves in the same order, the game is identical.
    """

    name = "random"

    def __init__(self, seed: int | random.Random | None = 0) -> None:
        # A generator is used as it is (the simulator shares one with the deal).
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> Action | None:
        legal = view.get("legal") or []
        if not legal:
            return None
        return Action.from_json(self.rng.choice(legal))

    def choose_from(self, legal: Any) -> Action | None:
        if not legal:
            return None
        action: Action = self.rng.choice(legal)
        return action
