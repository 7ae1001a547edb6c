"""Random legal Epic Battle games end to end, per scenario, through the full rules engine.

For each scenario below, prints games per CPU second on one core, next to two figures
measured in the same run: the One Night engine on its recommended deck for the
same player count (benchmarks/engine_games.py's game), and the bare minimum of
Python for one random game (deal, a few choices, count votes). Ratios against
both are comparable across machines.

Epic Battle lives in its own modules and only imports from One Night, so the
One Night figure here is the plain One Night engine: tokens and artifacts never
run in a One Night game.

    python benchmarks/epic_games.py [--games N] [--rounds R] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.onuw.game import ONUW

# (scenario, players): a beginner deck, token-heavy twilights, three-party battles.
CASES = (
    ("the_first_night", 5),
    ("hours_of_despair", 10),
    ("werewolf_night", 8),
    ("tokens_on_special_offer", 8),
    ("epic_battle_blood_moon", 8),
    ("epic_battle_final_boss", 10),
    ("anarchy", 7),
)


def random_game(rs: Any, deck: list[str]) -> Callable[[int, random.Random], None]:
    """One random game of ``rs`` with ``deck``. Both rulesets get their deck built once,
    before the clock starts (until session 8 One Night built its deck in every game,
    which cost it ~9% of a game at 8 players and flattered Epic's ratio)."""
    def play(players: int, rng: random.Random) -> None:
        names = tuple(f"P{i}" for i in range(players))
        st = rs.deal(names, deck, rng)
        legal, apply, waiting = rs.legal_actions, rs.apply, rs.waiting_for
        while st.phase != 2:
            for seat in waiting(st):
                apply(st, seat, rng.choice(legal(st, seat)))
        assert st.outcome is not None

    return play


def bare_minimum(players: int, rng: random.Random) -> None:
    """What any random game must at least do: deal, a few choices, count the votes."""
    cards = ["werewolf", "seer", "robber"] + ["villager"] * players
    rng.shuffle(cards)
    for _ in range(4):
        i, j = rng.randrange(players), rng.randrange(players)
        cards[i], cards[j] = cards[j], cards[i]
    tally = [0] * players
    for s in range(players):
        tally[(s + 1 + rng.randrange(players - 1)) % players] += 1
    top = max(tally)
    dead = [s for s in range(players) if tally[s] == top] if top > 1 else []
    _ = any(cards[s] == "werewolf" for s in dead)


def rate(fn: Callable[[int, random.Random], None], players: int, games: int) -> float:
    rng = random.Random(1)
    t0 = time.process_time()  # CPU time: the machine is shared
    for _ in range(games):
        fn(players, rng)
    return games / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds; each figure is its best round "
                             "(the machine is shared, so the best is the least disturbed)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for scenario, players in CASES:
        deck = EPIC.scenario_deck(scenario, players, seed=1)
        play = random_game(EPIC, deck)
        onuw_game = random_game(ONUW, ONUW.recommended_deck(players))
        rate(play, players, 200)  # warm caches
        epic = onuw = base = 0.0
        for _ in range(args.rounds):
            epic = max(epic, rate(play, players, args.games))
            onuw = max(onuw, rate(onuw_game, players, args.games))
            base = max(base, rate(bare_minimum, players, args.games))
        results[f"{scenario}-{players}"] = {
            "epic_games_per_second": round(epic),
            "onuw_games_per_second": round(onuw),
            "baseline_games_per_second": round(base),
            "epic_over_onuw": round(epic / onuw, 3),
            "epic_over_baseline": round(epic / base, 4),
        }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for case, r in results.items():
        print(
            f"{case:30s} epic {r['epic_games_per_second']:>7,} games/s; "
            f"onuw {r['onuw_games_per_second']:>7,}; baseline "
            f"{r['baseline_games_per_second']:>8,}; epic/onuw {r['epic_over_onuw']:.3f}; "
            f"epic/baseline {r['epic_over_baseline']:.4f}"
        )


if __name__ == "__main__":
    main()
