"""Random legal Lupus in Tabula games end to end, through the full rules engine.

Prints games per second on one core (CPU time, ``time.process_time``) for a
table of 12 (and 8) on the table deck, every seat choosing uniformly among its
legal actions until the game ends. ``--baseline SRC`` also runs the same games
on another checkout's ``src`` (e.g. /work/base/src, the starting commit) in a
child process, alternating rounds with this one, and prints the ratio: the
machine is shared, so only figures measured in the same run compare.

    python benchmarks/lupus_games.py [--games N] [--rounds R] [--baseline SRC] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

PLAYERS = (8, 12)


def rate(players: int, games: int) -> float:
    """Random games per CPU second at ``players`` seats (the code on sys.path)."""
    from nightcall.rulesets.lupus.game import LUPUS
    from nightcall.rulesets.lupus.state import OVER

    names = tuple(f"P{i}" for i in range(players))
    deck = LUPUS.default_deck(players)
    rng = random.Random(1)
    legal, apply, waiting = LUPUS.legal_actions, LUPUS.apply, LUPUS.waiting_for
    t0 = time.process_time()
    for _ in range(games):
        cards = list(deck)
        rng.shuffle(cards)
        st = LUPUS.new_game(names, cards)
        while st.phase != OVER:
            for seat in waiting(st):
                options = legal(st, seat)
                if options:
                    apply(st, seat, options[int(rng.random() * len(options))])
        assert st.outcome is not None
    return games / (time.process_time() - t0)


def child_rate(src: str, players: int, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(players), "--games", str(games)],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    return float(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds; each figure is its best round")
    parser.add_argument("--baseline", metavar="SRC",
                        help="another checkout's src directory, run in the same rounds")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        rate(args.child, 100)  # warm caches
        print(rate(args.child, args.games))
        return
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    results: dict[str, dict[str, float]] = {}
    for players in PLAYERS:
        new = old = 0.0
        for _ in range(args.rounds):
            new = max(new, child_rate(os.path.abspath(here), players, args.games))
            if args.baseline:
                old = max(old, child_rate(args.baseline, players, args.games))
        r: dict[str, float] = {"games_per_cpu_second": round(new)}
        if args.baseline:
            r["baseline_games_per_cpu_second"] = round(old)
            r["ratio"] = round(new / old, 2)
        results[f"{players}-players"] = r
    results["load_average"] = {"1min": round(os.getloadavg()[0], 2)}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for case, r in results.items():
        print(case, " ".join(f"{k} {v}" for k, v in r.items()))


if __name__ == "__main__":
    main()
