"""Bot games per second through the full rules engine, against baselines of the same run.

- baseline: the bare random-bot engine loop (deal, legal_actions, apply: the loop of
  benchmarks/engine_games.py), 5 players;
- the simulator with random bots (its fast path: no views), one core;
- the simulator with reasoning bots (views, beliefs, claims, votes), one core, for
  each difficulty, after a warm-up that fills the belief cache as a long run would;
- scaling: random-bot games/s with 1 and with 2 worker processes.

Times are CPU seconds of this process for the one-core figures (the machine is
shared), wall seconds for the scaling run.

    python benchmarks/bots_games.py [--games N] [--json]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from report import print_figures

from nightcall.rulesets.onuw.game import ONUW
from nightcall.sim.parallel import simulate
from nightcall.sim.runner import Setup, run_games

DECK5 = tuple(ONUW.recommended_deck(5))
NAMES = ("P1", "P2", "P3", "P4", "P5")


def engine_loop(games: int) -> None:
    rng = random.Random(1)
    legal, apply, waiting = ONUW.legal_actions, ONUW.apply, ONUW.waiting_for
    for g in range(games):
        st = ONUW.deal(NAMES, DECK5, g)
        while not ONUW.is_over(st):
            for seat in waiting(st):
                apply(st, seat, rng.choice(legal(st, seat)))


def rate(fn: Any, games: int, rounds: int = 3) -> float:
    """Best of a few rounds, in games per CPU second."""
    best = 0.0
    for _ in range(rounds):
        t0 = time.process_time()
        fn(games)
        best = max(best, games / (time.process_time() - t0))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    g = args.games
    out: dict[str, Any] = {}
    engine_loop(300)
    out["baseline_engine_loop"] = round(rate(engine_loop, g))
    random_setup = Setup("onuw", 5, DECK5)
    out["simulator_random"] = round(rate(lambda n: run_games(random_setup, 1, 0, n), g))
    for spec, games in (("reasoning:easy", g // 3), ("reasoning", g // 3),
                        ("reasoning:hard", max(10, g // 300))):
        setup = Setup("onuw", 5, DECK5, spec, spec)
        run_games(setup, 7, 0, min(500, games))  # warm the belief cache
        out[f"simulator_{spec.replace(':', '_')}"] = round(
            rate(lambda n, s=setup: run_games(s, 1, 10_000, n), games, rounds=2), 1)
    base = out["baseline_engine_loop"]
    out["ratios_to_baseline"] = {
        k: round(v / base, 3) for k, v in out.items() if k.startswith("simulator")
    }
    scaling = {}
    for workers in (1, 2):
        tally, seconds = simulate(random_setup, g * 4, seed=3, workers=workers)
        scaling[workers] = round(tally.games / seconds)
    out["wall_games_per_second_by_workers"] = scaling
    print_figures(out, args.json)


if __name__ == "__main__":
    main()
