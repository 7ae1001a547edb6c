"""Arena games per second against the simulator in the same run, and the cost of stdio agents.

- baseline: the simulator (``nightcall.sim.runner.run_games``) with reasoning bots on every
  seat, five-player One Night, one core;
- arena: a whole tournament of the same bots (five entrants, all ``reasoning``, so the
  games are as hard as the baseline's), one worker: the duplicate schedule, the games,
  the results file written line by line, and the openskill ratings at the end;
- arena, mixed levels: the built-in bots ``reasoning:easy`` and ``reasoning`` with the
  random bot, as a tournament of the built-in bots would be;
- stdio agents: the round trip of one move through the protocol to ``examples/agent.py``
  (observation out, action back, over pipes), the cost of starting an agent process (one
  per seat and game), and whole games with one stdio seat against the same games with
  that seat an in-process bot.

Bot figures are CPU seconds of this process, best of alternating rounds (the machine is
shared); the stdio figures are wall time, because the agent is another process.

    python benchmarks/arena_games.py [--games N] [--json]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from report import print_figures

from nightcall.agents.table import Table
from nightcall.arena.config import Entrant, Tournament
from nightcall.arena.ratings import rate
from nightcall.arena.results import ResultsFile
from nightcall.arena.run import play_games, run
from nightcall.arena.seats import Context
from nightcall.protocol import decode_agent, encode_line
from nightcall.rulesets.onuw.game import ONUW
from nightcall.sim.runner import Setup, run_games

DECK5 = tuple(ONUW.recommended_deck(5))
AGENT = [sys.executable, str(Path(__file__).resolve().parents[1] / "examples" / "agent.py")]


def cpu(fn: Any) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def arena_tournament(entrants: tuple[Entrant, ...], games: int, seed: int) -> Tournament:
    return Tournament("onuw", 5, DECK5, entrants, max(1, games // 5), seed)


def arena_once(t: Tournament) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        results = ResultsFile(Path(tmp) / "results.jsonl", t)
        run(t, results, workers=1)
        results.close()
        rate(t, results.ordered())


def bots(games: int, rounds: int) -> dict[str, Any]:
    sim_setup = Setup("onuw", 5, DECK5, "reasoning", "reasoning")
    same = tuple(Entrant(f"r{i}", "bot", bot="reasoning") for i in range(5))
    mixed = (Entrant("easy", "bot", bot="reasoning:easy"),
             Entrant("normal", "bot", bot="reasoning"), Entrant("random", "bot", bot="random"))
    # Warm the reasoning bot's belief cache, as any long run does.
    run_games(sim_setup, 7, 0, 500)
    arena_once(arena_tournament(same, 500, 7))
    best = {"simulator": 0.0, "arena": 0.0, "arena_mixed": 0.0}
    for r in range(rounds):  # alternate, so that the load falls on all alike
        seed = 100 + r
        sim_t = cpu(lambda s=seed: run_games(sim_setup, s, 0, games))
        best["simulator"] = max(best["simulator"], games / sim_t)
        t = arena_tournament(same, games, seed)
        best["arena"] = max(best["arena"], t.games / cpu(lambda t=t: arena_once(t)))
        t = arena_tournament(mixed, games, seed)
        best["arena_mixed"] = max(best["arena_mixed"], t.games / cpu(lambda t=t: arena_once(t)))
    out: dict[str, Any] = {k: round(v) for k, v in best.items()}
    out["ratio_arena_to_simulator"] = round(best["arena"] / best["simulator"], 3)
    return out


def round_trip(moves: int) -> float:
    """Microseconds per move: an observation to examples/agent.py and its action back."""
    table = Table.deal("onuw", 5, 1, roles=list(DECK5))
    proc = subprocess.Popen(AGENT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    seat = table.to_act()[0]
    proc.stdin.write(encode_line(table.welcome(seat)))
    observation = table.observe(seat)
    for _ in range(50):  # warm up
        proc.stdin.write(encode_line(observation))
        proc.stdin.flush()
        decode_agent(proc.stdout.readline())
    t0 = time.perf_counter()
    for _ in range(moves):
        proc.stdin.write(encode_line(observation))
        proc.stdin.flush()
        decode_agent(proc.stdout.readline())
    seconds = time.perf_counter() - t0
    proc.stdin.close()
    proc.wait()
    return seconds / moves * 1e6


def spawn_ms(times: int) -> float:
    t0 = time.perf_counter()
    for _ in range(times):
        subprocess.run(AGENT, input="", capture_output=True, check=True)
    return (time.perf_counter() - t0) / times * 1e3


def stdio_games(deals: int) -> dict[str, Any]:
    """Whole games: the example agent on its seats against the same games with a bot there."""
    other = Entrant("random", "bot", bot="random")
    agent = Tournament("onuw", 5, DECK5, (Entrant("agent", "stdio", command=tuple(AGENT)),
                                          other, *(Entrant(f"b{i}", "bot", bot="random")
                                                   for i in range(3))), deals, 1)
    bot = Tournament("onuw", 5, DECK5, (Entrant("agent", "bot", bot="random"),
                                        *agent.entrants[1:]), deals, 1)
    t0 = time.perf_counter()
    results = play_games(agent, range(agent.games), Context())
    with_agent = time.perf_counter() - t0
    t0 = time.perf_counter()
    play_games(bot, range(bot.games), Context())
    bots_only = time.perf_counter() - t0
    moves = sum(s["moves"] for r in results for s in r["seats"].values())
    return {
        "games": agent.games,
        "agent_moves": moves,
        "ms_per_game_with_one_stdio_seat": round(with_agent / agent.games * 1e3, 2),
        "ms_per_game_all_bots": round(bots_only / bot.games * 1e3, 3),
        "ms_extra_per_stdio_seat_and_game": round((with_agent - bots_only) / agent.games * 1e3,
                                                  2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {"cpu_games_per_second": bots(args.games, args.rounds)}
    out["stdio"] = {
        "us_per_move_round_trip": round(round_trip(2000)),
        "ms_per_agent_process": round(spawn_ms(20), 1),
        **stdio_games(20),
    }
    print_figures(out, args.json)


if __name__ == "__main__":
    main()
