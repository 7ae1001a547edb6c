"""Many games on many cores: chunks of game indices, tallies merged as they arrive.

Each game depends only on the run's seed and the game's index (its block's seed,
:func:`nightcall.sim.runner.game_seed`, and its place in the block), and tallies
are counts, so the result is the same for any number of workers and any arrival
order.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from nightcall.sim.runner import BLOCK, Setup, run_games
from nightcall.sim.tally import Tally


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def chunks(games: int, workers: int, smallest: int = 1) -> list[tuple[int, int]]:
    """(first, count) pieces: several per worker, for balance and a lively progress bar;
    whole blocks of games (:data:`nightcall.sim.runner.BLOCK`), since a block is played
    from its first game."""
    size = max(smallest, min(2000, games // max(1, workers * 8)))
    size = -(-size // BLOCK) * BLOCK
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def _work(args: tuple[Setup, int, int, int]) -> Tally:
    setup, seed, first, count = args
    return run_games(setup, seed, first, count)


def simulate(
    setup: Setup,
    games: int,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Tally, float]:
    """Play ``games`` games; return the merged tally and the wall-clock seconds."""
    workers = workers or default_workers()
    jobs = [(setup, seed, first, count) for first, count in chunks(games, workers)]
    total = Tally()
    t0 = time.perf_counter()
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            tally = _work(job)
            total.merge(tally)
            if progress:
                progress(tally.games)
    else:
        import multiprocessing

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(workers) as pool:
            for tally in pool.imap_unordered(_work, jobs):
                total.merge(tally)
                if progress:
                    progress(tally.games)
    return total, time.perf_counter() - t0
