"""The One Night reasoning bots' moves on fixed seeds, kept as a fixture.

Issue 21 made the bots faster with the same decisions. The fixture holds, for each
case below, the record steps (night moves, claims, votes) of games that every seat
plays with the reasoning bot, written by the code of the issue's starting commit:

    PYTHONPATH=/work/base/src python tests/bots/onuw_moves.py

(``/work/base`` is a checkout of that commit). tests/bots/test_same_moves.py plays
the same games with the current code and compares them step by step.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from nightcall.rulesets.onuw.game import ONUW
from nightcall.sim.runner import Setup, play_game

FIXTURE = Path(__file__).parent / "fixtures" / "onuw_moves.json.gz"
# (bot, players, games): easy and normal are cheap, hard solves with every claim
# (exact up to six players, sampled above).
CASES = [
    ("reasoning:easy", 10, 60),
    ("reasoning", 5, 80),
    ("reasoning", 10, 150),
    ("reasoning:hard", 5, 40),
    ("reasoning:hard", 6, 30),
    ("reasoning:hard", 10, 30),
]


def steps(spec: str, players: int, seed: int) -> list[Any]:
    setup = Setup("onuw", players, tuple(ONUW.recommended_deck(players)), spec, spec)
    state, _ = play_game(setup, seed)
    record: dict[str, Any] = ONUW.to_record(state)
    return [record["cards"], record["center"], record["steps"]]


def main() -> None:
    games = {f"{spec} {players}": [steps(spec, players, seed) for seed in range(count)]
             for spec, players, count in CASES}
    FIXTURE.parent.mkdir(exist_ok=True)
    with gzip.open(FIXTURE, "wt", encoding="utf-8") as f:
        json.dump(games, f, separators=(",", ":"))
    print(f"wrote {FIXTURE} from {sys.modules['nightcall'].__file__}", file=sys.stderr)


if __name__ == "__main__":
    main()
