"""The simulator against the engine benchmark, one core, both measured in the same run.

- engine: the random-game loop of benchmarks/engine_games.py (one generator for all
  games, no bots, no tally): what the rules engine allows;
- simulator: ``nightcall.sim.parallel.simulate(setup, games, seed, workers=1)``, what
  ``nightcall simulate --workers 1`` runs: seeded blocks of games, random bots, tally.

Rates are games per CPU second of the process (best of ``--rounds``, engine and
simulator alternating), for 5 and 10 players. ``--baseline DIR`` runs the same
measurement on the code in ``DIR/src`` too (PYTHONPATH), alternating with this tree.

    python benchmarks/simulate.py [--games 20000] [--rounds 5] [--baseline /work/base]
        [--instructions] [--json]

``--instructions`` also counts instructions per game with valgrind (N games minus 0,
divided by N), which the load of the machine does not move: engine / simulator
instructions is the load-free form of the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def child(games: int, rounds: int) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    from engine_games import DECKS, play_random

    from nightcall.sim.parallel import simulate
    from nightcall.sim.runner import Setup

    out: dict[str, Any] = {}
    for players in (5, 10):
        deck = DECKS[players]
        setup = Setup("onuw", players, tuple(deck))

        def engine(n: int, players: int = players, deck: list[str] = deck) -> None:
            rng = random.Random(1)
            for g in range(n):
                play_random(players, deck, g, rng)

        def simulator(n: int, setup: Setup = setup) -> None:
            tally, _ = simulate(setup, n, seed=1, workers=1)
            assert tally.games == n

        engine(500)
        simulator(500)
        best = {"engine": 0.0, "simulator": 0.0}
        for _ in range(rounds):
            for name, fn in (("engine", engine), ("simulator", simulator)):
                t0 = time.process_time()
                fn(games)
                best[name] = max(best[name], games / (time.process_time() - t0))
        out[str(players)] = {"engine_games_per_second": round(best["engine"]),
                             "simulator_games_per_second": round(best["simulator"]),
                             "simulator_over_engine": round(best["simulator"] / best["engine"], 3)}
    return out


def play(kind: str, players: int, games: int) -> None:
    """Warm up, then ``games`` games of one kind: what --instructions counts."""
    sys.path.insert(0, str(HERE))
    from engine_games import DECKS, play_random

    from nightcall.sim.parallel import simulate
    from nightcall.sim.runner import Setup

    rng = random.Random(1)
    setup = Setup("onuw", players, tuple(DECKS[players]))
    for g in range(200):
        play_random(players, DECKS[players], g, rng)
    simulate(setup, 200, seed=2, workers=1)
    if kind == "engine":
        for g in range(games):
            play_random(players, DECKS[players], g, rng)
    elif games:
        simulate(setup, games, seed=1, workers=1)


def instructions(src: Path, kind: str, players: int, games: int) -> int | None:
    """Instructions per game, counted by valgrind's callgrind (None without valgrind)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    env = {**os.environ, "PYTHONPATH": str(src)}
    counts = []
    for n in (0, games):
        err = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
                              sys.executable, __file__, "--play", kind, str(players), str(n)],
                             env=env, capture_output=True, text=True, check=True).stderr
        found = re.search(r"Collected : (\d+)", err)
        if found is None:
            return None
        counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) // games


def run_tree(src: Path, games: int, rounds: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, __file__, "--child", "--games", str(games),
                           "--rounds", str(rounds)], env=env, capture_output=True, text=True,
                          check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each tree, alternating")
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions per game with valgrind (a few minutes)")
    parser.add_argument("--ir-games", type=int, default=2000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--play", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.games, args.rounds)))
        return
    if args.play:
        play(args.play[0], int(args.play[1]), int(args.play[2]))
        return
    trees = {"new": HERE.parent / "src"}
    if args.baseline is not None:
        trees["old"] = args.baseline / "src"
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in trees}
    for _ in range(args.repeat):
        for key, src in trees.items():
            runs[key].append(run_tree(src, args.games, args.rounds))
    counted: dict[str, dict[str, Any]] = {}
    if args.instructions:
        for key, src in trees.items():
            for players in (5, 10):
                ir = {kind: instructions(src, kind, players, args.ir_games)
                      for kind in ("engine", "simulator")}
                if ir["engine"] and ir["simulator"]:
                    ir["engine_over_simulator"] = round(ir["engine"] / ir["simulator"], 3)
                counted[f"{key} {players}"] = ir
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    out = {"load_average": load, "runs": runs, "instructions_per_game": counted}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"load average {load}; games per CPU second, best of {args.rounds} rounds")
    for key, results in runs.items():
        for r in results:
            for players, row in r.items():
                print(f"{key} {players:>2} players: engine {row['engine_games_per_second']:>7,}"
                      f"  simulator {row['simulator_games_per_second']:>7,}"
                      f"  ratio {row['simulator_over_engine']:.3f}")
    for name, ir in counted.items():
        print(f"{name} players, instructions per game: {ir}")


if __name__ == "__main__":
    main()
