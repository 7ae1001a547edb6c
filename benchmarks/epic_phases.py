"""Where an Epic Battle game's instructions go, next to One Night at the same table (callgrind).

For one scenario and One Night's recommended deck at the same player count, counts the
machine instructions per random game of: the deal (to the first seat that chooses),
the deal and the night (to the dawn), the whole game, the whole game with the garbage
collector off, and the who-has-won check alone (Epic's `judge.decide`, quiet, on the
end-of-night tables of the same games). Each figure is (instructions for N games -
instructions for 0 games) / N under valgrind, so the machine's load does not change it.

With ``--warm W`` both runs first play W games of the same kind: the caches (the option
tuples of ``common.each_seat``, the judge's identities, ...) are then full, as they are
in epic_games.py's timed rounds, and a figure is a game's steady cost. Without it a
figure also carries the caches' one-off filling, spread over the N games.

    python benchmarks/epic_phases.py [--scenario werewolf_night] [--players 8] [--games 40]
                                     [--warm 0] [--phases deal,night,full,full_gc_off,judge]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import subprocess
import sys
from typing import Any

PHASES = ("deal", "night", "full", "full_gc_off", "judge")


def play(kind: str, scenario: str, players: int, phase: str, games: int, warm: int) -> None:
    """``games`` random games of ``kind``, stopped after ``phase``, after ``warm`` whole
    games (in both runs, so they cancel out)."""
    from nightcall.rulesets.epic import day as epic_day
    from nightcall.rulesets.epic import judge
    from nightcall.rulesets.epic.game import EPIC
    from nightcall.rulesets.onuw.game import ONUW

    rules: Any = EPIC if kind == "epic" else ONUW
    deck = EPIC.scenario_deck(scenario, players, seed=1) if kind == "epic" \
        else ONUW.recommended_deck(players)
    names = tuple(f"P{i}" for i in range(players))
    rng = random.Random(1)
    for _ in range(warm):
        st = rules.deal(names, deck, rng)
        while st.phase != 2:
            for seat in rules.waiting_for(st):
                rules.apply(st, seat, rng.choice(rules.legal_actions(st, seat)))
    if phase == "judge":  # the tables of 40 games, in both runs; then `games` checks each
        ends: list[judge.EndOfNight] = []
        decide = epic_day.decide

        def spy(end: judge.EndOfNight, explain_now: bool = True) -> Any:
            ends.append(end)
            return decide(end, explain_now)

        epic_day.decide = spy  # type: ignore[assignment]
        for _ in range(40):
            st = rules.deal(names, deck, rng)
            while st.phase != 2:
                for seat in rules.waiting_for(st):
                    rules.apply(st, seat, rng.choice(rules.legal_actions(st, seat)))
        gc.disable()
        for _ in range(games):
            for end in ends:
                decide(end, False)
        return
    if phase == "full_gc_off":
        gc.disable()
    for _ in range(games):
        st = rules.deal(names, deck, rng)
        if phase == "deal":
            continue
        while st.phase != 2 and not (phase == "night" and st.phase == 1):
            for seat in rules.waiting_for(st):
                rules.apply(st, seat, rng.choice(rules.legal_actions(st, seat)))


def instructions(kind: str, scenario: str, players: int, phase: str, games: int,
                 warm: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--play", kind, scenario, str(players), phase, str(games), str(warm)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", default="werewolf_night")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--warm", type=int, default=0,
                        help="whole games played first in both runs (steady-state figures)")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--play", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        kind, scenario, players, phase, games, warm = args.play
        play(kind, scenario, int(players), phase, int(games), int(warm))
        return
    phases = args.phases.split(",")
    unknown = set(phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))} (known: {', '.join(PHASES)})")
    for kind in ("epic", "onuw"):
        for phase in phases:
            if kind == "onuw" and phase == "judge":
                continue
            count = [instructions(kind, args.scenario, args.players, phase, games, args.warm)
                     for games in (args.games, 0)]
            per_game = (count[0] - count[1]) \
                // (args.games * (40 if phase == "judge" else 1))
            print(f"{kind:5s} {phase:12s} {per_game:>9,} instructions per game")


if __name__ == "__main__":
    main()
