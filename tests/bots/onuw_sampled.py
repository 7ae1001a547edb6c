"""Sampled beliefs (claims at a 10-player table) from the issue-21 starting commit.

    PYTHONPATH=/work/base/src python tests/bots/onuw_sampled.py

writes the fixture that tests/bots/test_sampling.py compares the current sampler
with, number for number (floats kept exactly by their JSON repr).
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

from nightcall.bots.onuw import solver
from nightcall.bots.onuw.knowledge import Knowledge, knowledge_from_view
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.state import NIGHT

FIXTURE = Path(__file__).parent / "fixtures" / "onuw_sampled.json.gz"
PLAYERS, GAMES, SAMPLES = 10, 4, 300


def knowledge() -> list[Knowledge]:
    """Every seat of a few random games in which every seat made one random claim."""
    out = []
    for g in range(GAMES):
        rng = random.Random(g)
        st = ONUW.deal([f"P{i}" for i in range(PLAYERS)], ONUW.recommended_deck(PLAYERS), g)
        while st.phase == NIGHT:
            ONUW.apply(st, st.actor, rng.choice(list(ONUW.legal_actions(st, st.actor))))
        for s in range(PLAYERS):
            ONUW.apply(st, s, rng.choice(list(ONUW.legal_claims(st, s))))
        out += [knowledge_from_view(ONUW.view(st, s)) for s in range(PLAYERS)]
    return out


def beliefs(k: Knowledge, seed: int) -> dict[str, Any] | None:
    try:
        b = solver.solve(k, samples=SAMPLES, seed=seed)
    except solver.Inconsistent:
        return None
    return {"roles": b.roles, "start": b.start, "end": b.end, "end_roles": b.end_roles,
            "error": b.error}


def main() -> None:
    rows = [beliefs(k, seed) for seed, k in enumerate(knowledge())]
    with gzip.open(FIXTURE, "wt", encoding="utf-8") as f:
        json.dump(rows, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
