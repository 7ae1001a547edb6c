"""Reasoning-bot games per CPU second at 10 (and 5) players, against a baseline tree.

Every seat is the One Night reasoning bot (``normal`` or ``hard``); each run first
plays ``--warm`` games (seed 7) so that the belief caches hold what a long
simulation would, then times the next games (seed 1) in CPU seconds of the process.
With ``--baseline DIR`` the same runs are made on the code in ``DIR/src`` (PYTHONPATH),
alternating with this tree, ``--repeat`` times each.

    python benchmarks/reasoning_bots.py [--baseline /work/base] [--repeat 3] [--json]

``--win-rates N`` plays N games per case instead (seed 3, every seat the same bot) and
prints each team's win rate with its 95% interval, for each tree: the faster bots must
not play worse.

    python benchmarks/reasoning_bots.py --baseline /work/base --win-rates 2000 --players 10
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# (bot, players, warm-up games, timed games)
CASES = [("reasoning", 10, 300, 300), ("reasoning:hard", 10, 10, 20),
         ("reasoning", 5, 300, 600), ("reasoning:hard", 5, 10, 40)]


def child(spec: str, players: int, warm: int, games: int) -> float:
    from nightcall.rulesets.onuw.game import ONUW
    from nightcall.sim.runner import Setup, run_games

    setup = Setup("onuw", players, tuple(ONUW.recommended_deck(players)), spec, spec)
    run_games(setup, 7, 0, warm)
    t0 = time.process_time()
    run_games(setup, 1, 10_000, games)
    return games / (time.process_time() - t0)


def win_rates(spec: str, players: int, games: int) -> dict[str, Any]:
    """Game g is seeded with ``game_seed(3, g)`` alone, as d0d9ad4's simulator did (the
    current one seeds blocks of games): both trees play the same deals."""
    from nightcall.rulesets.onuw.game import ONUW
    from nightcall.sim.runner import Setup, game_seed, play_game
    from nightcall.sim.tally import Tally

    setup = Setup("onuw", players, tuple(ONUW.recommended_deck(players)), spec, spec)
    tally = Tally()
    for g in range(games):
        state, dealt = play_game(setup, game_seed(3, g))
        outcome = ONUW.outcome(state)
        assert outcome is not None
        tally.add(dealt, outcome.teams, outcome.winners, len(outcome.deaths))
    teams: dict[str, Any] = tally.win_rates()["teams"]
    return teams


def run(src: Path, case: tuple[str, int, int, int], mode: str = "--child") -> Any:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, __file__, mode, *map(str, case)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def show_win_rates(trees: dict[str, Path], games: int, players: int | None) -> None:
    """Each tree's win rates per team, the cases one after another."""
    for spec, n, _, _ in CASES:
        if players and n != players:
            continue
        print(f"{spec}, {n} players, {games} games (seed 3):")
        for key, src in trees.items():
            teams = run(src, (spec, n, games, 0), "--rates-child")
            line = ", ".join(f"{team} {t['rate']:.3f} [{t['low']:.3f}, {t['high']:.3f}]"
                             for team, t in teams.items())
            print(f"  {key}: {line}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=None, help="only this table size")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--win-rates", type=int, default=0, metavar="GAMES")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--rates-child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        spec, players, warm, games = args.child
        print(child(spec, int(players), int(warm), int(games)))
        return
    if args.rates_child:
        spec, players, games, _ = args.rates_child
        print(json.dumps(win_rates(spec, int(players), int(games))))
        return
    trees = {"new": HERE.parent / "src"}
    if args.baseline is not None:
        trees["old"] = args.baseline / "src"
    if args.win_rates:
        show_win_rates(trees, args.win_rates, args.players)
        return
    rows: dict[str, Any] = {}
    for case in CASES:
        if args.players and case[1] != args.players:
            continue
        rates: dict[str, list[float]] = {k: [] for k in trees}
        for _ in range(args.repeat):
            for key, src in trees.items():  # alternate the trees
                rates[key].append(run(src, case))
        row: dict[str, Any] = {k: [round(x, 1) for x in v] for k, v in rates.items()}
        if "old" in rates:
            row["new_over_old_median"] = round(
                statistics.median(rates["new"]) / statistics.median(rates["old"]), 2)
        rows[f"{case[0]} {case[1]} players"] = row
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.json:
        print(json.dumps({"load_average": load, "games_per_cpu_second": rows}, indent=2))
        return
    print(f"load average {load}; games per CPU second")
    for name, row in rows.items():
        print(f"{name}: {row}")


if __name__ == "__main__":
    main()
