"""A tournament over worker processes, its results written as they come.

Games are handed out in chunks of game indices (whole chunks of bot games, one
game at a time when a program or an LLM plays, so that an interruption loses
little); each game depends only on the tournament and its index
(:mod:`nightcall.arena.schedule`), so the results are the same for any number of
workers and any order of arrival.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from pathlib import Path
from typing import IO

from nightcall.arena.config import Tournament
from nightcall.arena.results import ResultsFile
from nightcall.arena.schedule import games
from nightcall.arena.seats import Context, GameResult, play_game
from nightcall.engine.ruleset import get_ruleset

BOT_CHUNK = 100

_worker_ctx: Context | None = None


def pending(t: Tournament, done: Container[int]) -> list[int]:
    return [g for g in range(t.games) if g not in done]


def chunks(indices: list[int], size: int) -> list[list[int]]:
    return [indices[i:i + size] for i in range(0, len(indices), size)]


def play_games(t: Tournament, indices: Sequence[int], ctx: Context) -> list[GameResult]:
    rs = get_ruleset(t.ruleset)
    return [play_game(t, g, ctx, rs) for g in games(t, indices)]


def _init_worker(workers: int, log_path: str | None) -> None:
    global _worker_ctx
    import signal

    # Ctrl-C reaches the whole process group: the parent saves what it has and stops
    # the workers; they need not each print a traceback. A handler that does nothing,
    # not SIG_IGN: an ignored signal stays ignored in the agent programs a worker starts.
    signal.signal(signal.SIGINT, _ignore)
    log = open(log_path, "a", encoding="utf-8", buffering=1) if log_path else None  # noqa: SIM115
    _worker_ctx = Context(workers, log)


def _ignore(signum: int, frame: object) -> None:
    pass


def _work(args: tuple[Tournament, list[int]]) -> list[GameResult]:
    t, indices = args
    assert _worker_ctx is not None
    return play_games(t, indices, _worker_ctx)


def run(
    t: Tournament,
    results: ResultsFile,
    workers: int = 1,
    log_path: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Play every game the results file does not hold yet; return how many were played."""
    todo = pending(t, results.done)
    if not todo:
        return 0
    size = BOT_CHUNK if t.all_bots else 1
    if t.all_bots and workers > 1:
        size = max(1, min(BOT_CHUNK, len(todo) // (workers * 4)))
    jobs = chunks(todo, size)
    played = 0
    for batch in _results(t, jobs, workers, log_path):
        results.append(batch)
        played += len(batch)
        if progress:
            progress(len(batch))
    return played


def _results(t: Tournament, jobs: list[list[int]], workers: int, log_path: Path | None
             ) -> Iterator[list[GameResult]]:
    if workers <= 1 or len(jobs) == 1:
        log: IO[str] | None = None
        if log_path is not None:
            log = log_path.open("a", encoding="utf-8", buffering=1)
        try:
            ctx = Context(1, log)
            for job in jobs:
                yield play_games(t, job, ctx)
        finally:
            if log is not None:
                log.close()
        return
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(
        workers, _init_worker, (workers, str(log_path) if log_path else None))
    try:
        yield from pool.imap_unordered(_work, [(t, job) for job in jobs])
        pool.close()
    finally:
        pool.terminate()
        pool.join()
