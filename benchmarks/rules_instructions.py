"""Machine instructions per round of random games, this checkout against another (callgrind).

The games are those of the engine benchmarks: One Night on its recommended 5- and
10-player decks (engine_games.py), every Epic Battle scenario of epic_games.py, and
Lupus at 8 and 12 seats on the table deck (lupus_games.py), every seat choosing at
random. A round is one game of each case of a ruleset; each figure is (instructions
for N rounds - instructions for 0 rounds) / N, under valgrind, so it does not depend
on the machine's load: a shared machine can compare two checkouts exactly
(docs/benchmarks.md).

    python benchmarks/rules_instructions.py [--games N] [--baseline SRC] [--json]

``--baseline SRC`` (e.g. /work/base/src, the starting commit) counts the same games
on that checkout's ``src`` and prints this one's ratio to it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
KINDS = ("onuw", "epic", "lupus")


def play(kind: str, games: int) -> None:
    """``games`` rounds: that many random games of each case of ``kind`` (the code on
    sys.path)."""
    sys.path.insert(0, str(HERE))
    rng = random.Random(1)
    if kind == "onuw":
        from engine_games import DECKS, play_random

        for players, deck in DECKS.items():
            for seed in range(games):
                play_random(players, deck, seed, rng)
    elif kind == "epic":
        from epic_games import CASES, epic_game

        from nightcall.rulesets.epic.game import EPIC

        for scenario, players in CASES:
            game = epic_game(EPIC.scenario_deck(scenario, players, seed=1))
            for _ in range(games):
                game(players, rng)
    else:
        from nightcall.rulesets.lupus.game import LUPUS
        from nightcall.rulesets.lupus.state import OVER

        for players in (8, 12):
            names = tuple(f"P{i}" for i in range(players))
            deck = LUPUS.default_deck(players)
            for _ in range(games):
                cards = list(deck)
                rng.shuffle(cards)
                st = LUPUS.new_game(names, cards)
                while st.phase != OVER:
                    for seat in LUPUS.waiting_for(st):
                        options = LUPUS.legal_actions(st, seat)
                        if options:
                            LUPUS.apply(st, seat, options[int(rng.random() * len(options))])


def instructions(src: Path, kind: str, games: int) -> int:
    """Instructions for ``games`` games of ``kind`` on the checkout ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, "--play", kind, str(games)],
        env=env, check=True, capture_output=True, text=True,
    ).stderr
    found = re.search(r"Collected : (\d+)", out)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{out}")
    return int(found.group(1))


def per_game(src: Path, kind: str, games: int) -> float:
    return (instructions(src, kind, games) - instructions(src, kind, 0)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--baseline", metavar="SRC", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--play", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play[0], int(args.play[1]))
        return
    results: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        r = results[kind] = {"instructions_per_round": round(per_game(SRC, kind, args.games))}
        if args.baseline is not None:
            base = per_game(args.baseline, kind, args.games)
            r["baseline_instructions_per_round"] = round(base)
            r["ratio"] = round(r["instructions_per_round"] / base, 4)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for kind, r in results.items():
        line = f"{kind:6s} {r['instructions_per_round']:>12,.0f} instructions per round"
        if "ratio" in r:
            line += f"; baseline {r['baseline_instructions_per_round']:>12,.0f}; " \
                    f"ratio {r['ratio']:.4f}"
        print(line)


if __name__ == "__main__":
    main()
