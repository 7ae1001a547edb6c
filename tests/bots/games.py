"""Small helpers shared by the bot tests: random One Night games to a chosen point."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from nightcall.rulesets.onuw import roles as r
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.state import NIGHT, OneNightState

# Every card a One Night deck may hold (the Masons come as a pair).
POOL = [[r.WEREWOLF], [r.WEREWOLF], [r.MASON, r.MASON], [r.DOPPELGANGER], [r.MINION],
        [r.SEER], [r.ROBBER], [r.TROUBLEMAKER], [r.DRUNK], [r.INSOMNIAC], [r.HUNTER],
        [r.TANNER], [r.VILLAGER], [r.VILLAGER], [r.VILLAGER]]


@st.composite
def decks(draw: st.DrawFn, low: int = 3, high: int = 10) -> tuple[int, list[str]]:
    """A table size and any deck the rules allow for it (cards drawn from POOL)."""
    n = draw(st.integers(low, high))
    deck: list[str] = []
    for i in draw(st.permutations(range(len(POOL)))):
        if len(deck) + len(POOL[i]) <= n + 3:
            deck += POOL[i]
    ONUW.validate_deck(n, deck)
    return n, deck


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
