"""Issue 21: the faster sampler gives the old sampler's beliefs to the last bit, and
the one-column version (what the hard bot's vote reads) the same column."""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import pytest

from nightcall.bots.onuw import solver
from nightcall.bots.onuw.knowledge import Knowledge
from nightcall.bots.onuw.sampling import _steps
from nightcall.rulesets.onuw.roles import WEREWOLF

from .onuw_sampled import FIXTURE, SAMPLES, beliefs, knowledge


@pytest.fixture(scope="module")
def cases() -> list[tuple[int, Knowledge, dict[str, Any] | None]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        old = json.load(f)
    ks = knowledge()
    assert len(ks) == len(old)
    return [(seed, k, row) for seed, (k, row) in enumerate(zip(ks, old, strict=True))]


def as_lists(x: Any) -> Any:
    return json.loads(json.dumps(x))


def test_same_beliefs_as_the_starting_commit(
    cases: list[tuple[int, Knowledge, dict[str, Any] | None]],
) -> None:
    solved = 0
    for seed, k, old in cases:
        assert k.claims  # every case is sampled: claims at ten players
        new = beliefs(k, seed)
        assert as_lists(new) == old, f"case {seed}"
        solved += new is not None
    assert solved >= len(cases) // 2


def test_one_column_is_that_column_of_the_tables(
    cases: list[tuple[int, Knowledge, dict[str, Any] | None]],
) -> None:
    for seed, k, old in cases:
        if old is None:
            with pytest.raises(solver.Inconsistent):
                solver.p_end_role(k, WEREWOLF, samples=SAMPLES, seed=seed)
            continue
        b = solver.solve(k, samples=SAMPLES, seed=seed)
        for role in (WEREWOLF, "doppelganger", "seer", "not_in_the_deck"):
            column = solver.p_end_role(k, role, samples=SAMPLES, seed=seed)
            assert column == tuple(b.p_end_role(p, role) for p in range(k.n + 3))


def test_a_true_claim_weighs_exactly_one() -> None:
    """The sampler counts false claims instead of multiplying by 1.0 for true ones."""
    rng = random.Random(3)
    for trust in [0.0, 0.5, 0.7, 0.999999, *(rng.random() for _ in range(10_000))]:
        assert trust * True + (1.0 - trust) == 1.0


def test_inline_draws_are_random_shuffle() -> None:
    for size in range(15):
        for seed in range(20):
            mine, theirs = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            for i, k in _steps(size):
                j = a.getrandbits(k)
                while j > i:
                    j = a.getrandbits(k)
                mine[i], mine[j] = mine[j], mine[i]
            b.shuffle(theirs)
            assert mine == theirs
            assert a.random() == b.random()
