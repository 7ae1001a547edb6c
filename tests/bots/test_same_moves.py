"""Issue 21: the faster One Night bots make the moves the old ones made.

The fixture (tests/bots/onuw_moves.py) holds the deal, night moves, claims and votes
of games played by the bots of the issue's starting commit; the same seeds are played
here with the current bots and must give the same games, step by step.

One difference, on purpose (session 6, docs/benchmarks.md "Reasoning bots, session 6"):
the hard bot at tables above six players estimates P(Werewolf) for its vote from 300
sampled deals instead of 1,000, drawn under the canonical names of the seats. Its
night moves and claims are the old ones; its votes are another sample's, so only the
vote step of those games may differ (win rates old and new are in the benchmark doc).
Everything else, the normal bots' votes included, is the same step for step: the
exact integer sums of the solver and the cache per renaming changed no decision.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from nightcall.bots.onuw.solver import EXACT_CLAIMS_MAX_PLAYERS

from .onuw_moves import CASES, FIXTURE, steps


@pytest.fixture(scope="module")
def old_games() -> dict[str, list[Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        games: dict[str, list[Any]] = json.load(f)
    return games


@pytest.mark.parametrize(("spec", "players", "count"), CASES)
def test_same_moves_as_the_starting_commit(old_games: dict[str, list[Any]], spec: str,
                                           players: int, count: int) -> None:
    old = old_games[f"{spec} {players}"]
    assert len(old) == count
    for seed, (cards, center, old_steps) in enumerate(old):
        new_cards, new_center, new_steps = steps(spec, players, seed)
        assert (new_cards, new_center) == (cards, center), f"seed {seed}: another deal"
        assert any("votes" in step for step in old_steps)  # the games reach the vote
        for i, (a, b) in enumerate(zip(old_steps, new_steps, strict=True)):
            if resampled(spec, players) and "votes" in a:
                assert "votes" in b and set(a["votes"]) == set(b["votes"])
                continue
            assert a == b, f"{spec} at {players} players, seed {seed}, step {i}"


def resampled(spec: str, players: int) -> bool:
    """The one case whose votes come from another estimator (see the module doc)."""
    return spec == "reasoning:hard" and players > EXACT_CLAIMS_MAX_PLAYERS
