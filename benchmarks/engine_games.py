"""Random legal One Night games end to end, through the full rules engine.

Prints games per second on one core for 5- and 10-player decks, next to a
baseline measured in the same run: the bare minimum of Python for one random
game (shuffle a deck, a few random choices, count votes), so the ratio is
comparable across machines.

    python benchmarks/engine_games.py [--games N] [--json] [--instructions]

``--instructions`` also counts the machine instructions per game with valgrind
(callgrind): run N games and 0 games under it, and divide the difference by N.
Unlike games/s this does not depend on the load of the machine, so it is the
figure to compare changes with (docs/benchmarks.md, One Night engine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable

from nightcall.rulesets.onuw.game import ONUW

DECKS = {
    5: ONUW.recommended_deck(5),
    10: ONUW.recommended_deck(10),
}
# The seats' names are an input, like the deck: made once, not counted in every game.
NAMES = {players: tuple(f"P{i}" for i in range(players)) for players in DECKS}


def play_random(players: int, deck: list[str], seed: int, rng: random.Random) -> None:
    st = ONUW.deal(NAMES[players], deck, rng)
    legal = ONUW.legal_actions
    apply = ONUW.apply
    waiting = ONUW.waiting_for
    pick = rng.random
    while st.phase != 2:
        for seat in waiting(st):
            options = legal(st, seat)
            apply(st, seat, options[int(pick() * len(options))])
    assert st.outcome is not None


def bare_minimum(players: int, deck: list[str], seed: int, rng: random.Random) -> None:
    """What any random game must at least do: deal, a few choices, count the votes."""
    cards = list(deck)
    rng.shuffle(cards)
    pick = rng.random
    for _ in range(4):  # a few night choices
        i, j = int(pick() * players), int(pick() * players)
        cards[i], cards[j] = cards[j], cards[i]
    tally = [0] * players
    for s in range(players):
        tally[(s + 1 + int(pick() * (players - 1))) % players] += 1
    top = max(tally)
    dead = [s for s in range(players) if tally[s] == top] if top > 1 else []
    _ = any(cards[s] == "werewolf" for s in dead)


Game = Callable[[int, list[str], int, random.Random], None]
GAMES: dict[str, Game] = {"engine": play_random, "baseline": bare_minimum}


def rate(fn: Game, players: int, games: int) -> float:
    deck = DECKS[players]
    rng = random.Random(1)
    t0 = time.perf_counter()
    for g in range(games):
        fn(players, deck, g, rng)
    return games / (time.perf_counter() - t0)


def play(fn: Game, players: int, games: int) -> None:
    """Warm up, then play ``games`` games: what --instructions counts under valgrind."""
    rng = random.Random(1)
    for g in range(200):
        fn(players, DECKS[players], g, rng)
    for g in range(games):
        fn(players, DECKS[players], g, rng)


def instructions(kind: str, players: int, games: int) -> int | None:
    """Instructions per game, counted by callgrind (None without valgrind)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    counts = []
    for n in (0, games):
        out = subprocess.run(
            [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
             sys.executable, __file__, "--play", kind, str(players), str(n)],
            capture_output=True, text=True, check=True,
        ).stderr
        found = re.search(r"Collected : (\d+)", out)
        if found is None:
            return None
        counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) // games


def interpreter() -> str:
    version = f"{platform.python_implementation()} {platform.python_version()}"
    return f"{version} ({sys.executable}, built {platform.python_build()[1]})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per game with valgrind (slow: about a minute)")
    parser.add_argument("--ir-games", type=int, default=2000,
                        help="games per valgrind run for --instructions")
    parser.add_argument("--play", nargs=3, metavar=("KIND", "PLAYERS", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:  # one counted run under valgrind
        kind, players, n = args.play
        play(GAMES[kind], int(players), int(n))
        return
    results: dict[int, dict[str, object]] = {}
    for players in (5, 10):
        rate(play_random, players, 500)  # warm caches
        engine = rate(play_random, players, args.games)
        base = rate(bare_minimum, players, args.games)
        r: dict[str, object] = {
            "engine_games_per_second": round(engine),
            "baseline_games_per_second": round(base),
            "engine_over_baseline": round(engine / base, 3),
        }
        if args.instructions:
            r["engine_instructions_per_game"] = instructions("engine", players, args.ir_games)
            r["baseline_instructions_per_game"] = instructions("baseline", players, args.ir_games)
        results[players] = r
    load = " ".join(f"{x:.2f}" for x in _loadavg())
    if args.json:
        print(json.dumps({"interpreter": interpreter(), "load_average": load,
                          "players": results}, indent=2))
        return
    print(f"interpreter: {interpreter()}; load average {load}")
    for players, r in results.items():
        line = (
            f"{players:2d} players: {r['engine_games_per_second']:>8,} games/s through the engine; "
            f"baseline {r['baseline_games_per_second']:>8,} games/s; "
            f"ratio {r['engine_over_baseline']:.3f}"
        )
        if "engine_instructions_per_game" in r:
            line += (f"; {_count(r['engine_instructions_per_game'])} instructions per game "
                     f"(baseline {_count(r['baseline_instructions_per_game'])})")
        print(line)


def _count(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else "?"


def _loadavg() -> tuple[float, float, float]:
    try:
        return os.getloadavg()
    except (AttributeError, OSError):  # not on every platform
        return (0.0, 0.0, 0.0)


if __name__ == "__main__":
    main()
