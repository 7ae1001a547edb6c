"""Random legal One Night games end to end, through the full rules engine.

Prints games per second on one core for 5- and 10-player decks, next to a
baseline measured in the same run: the bare minimum of Python for one random
game (shuffle a deck, a few random choices, count votes), so the ratio is
comparable across machines.

    python benchmarks/engine_games.py [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from nightcall.rulesets.onuw.game import ONUW

DECKS = {
    5: ONUW.recommended_deck(5),
    10: ONUW.recommended_deck(10),
}


def play_random(players: int, deck: list[str], seed: int, rng: random.Random) -> None:
    names = tuple(f"P{i}" for i in range(players))
    st = ONUW.deal(names, deck, rng)
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


def rate(fn: Game, players: int, games: int) -> float:
    deck = DECKS[players]
    rng = random.Random(1)
    t0 = time.perf_counter()
    for g in range(games):
        fn(players, deck, g, rng)
    return games / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for players in (5, 10):
        rate(play_random, players, 500)  # warm caches
        engine = rate(play_random, players, args.games)
        base = rate(bare_minimum, players, args.games)
        results[players] = {
            "engine_games_per_second": round(engine),
            "baseline_games_per_second": round(base),
            "engine_over_baseline": round(engine / base, 3),
        }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for players, r in results.items():
        print(
            f"{players:2d} players: {r['engine_games_per_second']:>8,} games/s through the engine; "
            f"baseline {r['baseline_games_per_second']:>8,} games/s; "
            f"ratio {r['engine_over_baseline']:.3f}"
        )


if __name__ == "__main__":
    main()
