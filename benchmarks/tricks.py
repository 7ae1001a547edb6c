"""What each trick of the rules core buys, against the whole benchmark it serves.

Each trick is switched off in a fresh process (by swapping in the plain code it
replaces) and the same games are played as with it on, alternating on and off runs
so that a busy machine weighs on both alike. The figure is CPU seconds per game,
with the trick off over on: 1.10 means the trick saves 10% of that whole benchmark.

    python benchmarks/tricks.py [--games N] [--rounds R] [--json] [--src DIR]
                                [--instructions] [--only TRICK ...]

``--src`` is the source tree to measure (default: this one's). Issue #13 removed the
shuffle and ``new_event``: measure them on a tree that has them (``--src
/work/main/src`` before the merge of issue #13 has all four, ``/work/base/src`` all but
the draws).
``--instructions`` counts machine instructions per game
with valgrind (callgrind) instead of CPU time: a busy machine does not move it.

The tricks (issue #13):

- ``shuffle``: One Night's deal draws ``random.shuffle``'s numbers inline
  (rulesets/onuw/game.py ``_inlined_shuffle``); off: ``rng.shuffle``.
- ``randbelow``: the simulator's random seats draw ``rng.choice``'s numbers inline
  (sim/runner.py ``play_random``); off: ``rng.choice`` (the same draws).
- ``new_event``: events built with ``tuple.__new__`` (engine/events.py); off: the
  NamedTuple's own constructor, ``Event(kind, audience, data)``.
- ``caches``: One Night's remembered deck verdicts, schedules and sorted decks
  (``OneNight._valid``, ``_schedules``, ``_sorted``) and Epic's schedules
  (``EpicBattle._decks``: deck checks and schedules); off: worked out every deal.

Workloads: random One Night games at 5 and 10 players (benchmarks/engine_games.py),
Epic Battle's Hours of Despair at 10 (epic_games.py) and Lupus at 12 (lupus_games.py),
and the simulator's random games (``sim.runner.play_game``, 5 players).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRICKS = ("shuffle", "randbelow", "new_event", "new_event_frame", "caches")
WORKLOADS = ("onuw5", "onuw10", "epic10", "lupus12", "sim5")


def switch_off(trick: str) -> None:
    """Put the plain code back in place of ``trick`` (in this process only)."""
    import random

    if trick == "shuffle":
        from nightcall.rulesets.onuw import game

        if not hasattr(game, "_SAME_AS_RANDOM"):
            raise SystemExit("this tree has no inlined shuffle: use --src /work/base/src")
        game._SAME_AS_RANDOM = False
    elif trick == "randbelow":
        from nightcall.sim import runner

        if "getrandbits" not in runner.play_random.__code__.co_names:
            raise SystemExit("this tree draws with rng.choice: use --src /work/main/src")

        def plain(rs, state, rng):  # type: ignore[no-untyped-def]
            legal, apply, waiting_for, is_over = (rs.legal_actions, rs.apply,
                                                  rs.waiting_for, rs.is_over)
            choice = rng.choice
            while not is_over(state):
                for seat in waiting_for(state):
                    options = legal(state, seat)
                    if options:
                        apply(state, seat, choice(options))

        runner.play_random = plain
    elif trick in ("new_event", "new_event_frame"):
        import importlib

        def plain_new(cls, fields):  # type: ignore[no-untyped-def]
            return cls(*fields)

        def framed_new(cls, fields):  # type: ignore[no-untyped-def]
            return tuple.__new__(cls, fields)

        # "off" calls the constructor through one Python frame more than the plain
        # ``Event(...)`` at each call site would; "new_event_frame" is that frame alone
        # (the trick's own work behind it), so off minus frame is the plain code's cost.
        plain = plain_new if trick == "new_event" else framed_new
        from nightcall.engine import events

        if not hasattr(events, "new_event"):
            raise SystemExit("this tree builds events plainly: use --src /work/main/src")
        for name in ("nightcall.rulesets.onuw.night", "nightcall.rulesets.onuw.day",
                     "nightcall.rulesets.onuw.game"):
            importlib.import_module(name).new_event = plain
    elif trick == "caches":
        from nightcall.rulesets.epic.game import EPIC
        from nightcall.rulesets.onuw.game import ONUW

        class Forgets(dict):  # type: ignore[type-arg]
            def __setitem__(self, key, value):  # type: ignore[no-untyped-def]
                pass

        ONUW._valid, ONUW._schedules, ONUW._sorted = Forgets(), Forgets(), Forgets()
        EPIC._decks = Forgets()
    else:
        raise SystemExit(f"unknown trick {trick!r}")
    del random


def workload(name: str, games: int) -> float:
    """CPU seconds per game of ``name`` (the code as it stands in this process)."""
    import random
    import time

    from nightcall.engine.ruleset import get_ruleset

    rng = random.Random(7)
    if name == "sim5":
        from nightcall.sim.runner import Setup, play_game

        rs = get_ruleset("onuw")
        setup = Setup("onuw", 5, rs.default_deck(5), "random", "random")
        t0 = time.process_time()
        for _ in range(games):
            play_game(setup, rng, rs)
        return (time.process_time() - t0) / games
    rid, players = {"onuw5": ("onuw", 5), "onuw10": ("onuw", 10), "epic10": ("epic", 10),
                    "lupus12": ("lupus", 12)}[name]
    rs = get_ruleset(rid)
    deck = rs.default_deck(players)
    names = tuple(f"P{i}" for i in range(players))
    legal, apply, waiting, over = rs.legal_actions, rs.apply, rs.waiting_for, rs.is_over
    t0 = time.process_time()
    for _ in range(games):
        st = rs.deal(names, deck, rng)
        while not over(st):
            for seat in waiting(st):
                options = legal(st, seat)
                if options:
                    apply(st, seat, options[int(rng.random() * len(options))])
    return (time.process_time() - t0) / games


def child(trick: str | None, name: str, games: int, src: str) -> float:
    cmd = [sys.executable, __file__, "--child", name, "--games", str(games)]
    if trick:
        cmd += ["--off", trick]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": src})
    return float(out.stdout)


def counted(trick: str | None, name: str, games: int, src: str) -> float:
    """Instructions per game under callgrind: ``games`` games less none (the imports,
    the warm-up), divided by ``games``."""
    counts = []
    for n in (0, games):
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--child", name, "--games", str(n)]
        if trick:
            cmd += ["--off", trick]
        err = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": "0",
                                  "PYTHONPATH": src}).stderr
        found = re.search(r"Collected : (\d+)", err)
        if found is None:
            raise SystemExit(f"callgrind gave no count:\n{err[-2000:]}")
        counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / games


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--off", help=argparse.SUPPRESS)
    p.add_argument("--only", nargs="*", default=None, help="these tricks only")
    p.add_argument("--workloads", nargs="*", default=None, help="these workloads only")
    p.add_argument("--src", default=str(HERE.parent / "src"), help="the source tree")
    p.add_argument("--instructions", action="store_true", help="count with callgrind")
    args = p.parse_args()
    if args.child:
        if args.off:
            switch_off(args.off)
        workload(args.child, 100)  # warm the caches and the imports
        if args.games:
            print(workload(args.child, args.games))
        return
    # Which workloads each trick is on the path of.
    serves = {"shuffle": ("onuw5", "onuw10", "sim5"), "randbelow": ("sim5",),
              "new_event": ("onuw5", "onuw10", "sim5"),
              "new_event_frame": ("onuw5", "onuw10", "sim5"),
              "caches": ("onuw5", "onuw10", "epic10", "sim5")}
    results: dict[str, dict[str, float]] = {}
    base: dict[str, float] = {}
    for trick in args.only or TRICKS:
        results[trick] = {}
        for name in serves[trick]:
            if args.workloads and name not in args.workloads:
                continue
            if args.instructions:  # exact: one count each
                if name not in base:
                    base[name] = counted(None, name, args.games, args.src)
                results[trick][name] = counted(trick, name, args.games, args.src) / base[name]
            else:
                ratios = []
                for _ in range(args.rounds):  # on, off, on, off: the load weighs on both
                    on = child(None, name, args.games, args.src)
                    off = child(trick, name, args.games, args.src)
                    ratios.append(off / on)
                results[trick][name] = statistics.median(ratios)
            if not args.json:
                print(f"{trick:10} {name:8} off/on = {results[trick][name]:.3f}", flush=True)
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
