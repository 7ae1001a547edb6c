"""Small helpers shared by the bot tests: random One Night games to a chosen point."""

from __future__ import annotations

import random

from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.state import NIGHT, OneNightState


def random_night(deck: list[str], n: int, seed: int, claims: float = 0.0) -> OneNightState:
    """Deal ``deck``, play the night with uniformly random choices, then let each seat
    make one random claim with probability ``claims``."""
    rng = random.Random(seed)
    st = ONUW.deal([f"P{i}" for i in range(n)], deck, seed)
    while st.phase == NIGHT:
        ONUW.apply(st, st.actor, rng.choice(list(ONUW.legal_actions(st, st.actor))))
    for s in range(n):
        if rng.random() < claims:
            ONUW.apply(st, s, rng.choice(list(ONUW.legal_claims(st, s))))
    return st
