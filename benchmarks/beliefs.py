"""The belief solver against brute-force enumeration, measured in the same run.

- 10 players (13 cards, the recommended deck): all start and dawn marginals from
  one seat's knowledge, for every seat of many random games; median, 95th
  percentile and worst time, with the solver's small cache cleared before each
  solve ("cold") and kept ("warm", as in a bot that plays many games).
- The baseline: enumerating every deal and every choice of the other seats
  through the engine (nightcall.bots.onuw.enumeration), measured on 4- and
  5-player decks where it finishes, and extrapolated to 10 players from its
  measured cost per explored deal.
- Claims as evidence: exact at 5 players, sampled (with its error bar) at 10.

    python benchmarks/beliefs.py [--games N] [--repeat K] [--json]

(``--repeat 3`` also times every cold solve three times and keeps each solve's fastest
run: on a busy machine a single timing also carries other jobs' cache and scheduler
effects, and the fastest of three is the solve's own cost. The single-timing figures,
collections included, are always reported next to it.)

(``--games 100``: 1,000 solves of each kind. ``--baseline /work/base --runs 3`` runs this
script as a fresh process per run, alternating this tree and the other one (its code
through PYTHONPATH=DIR/src, the script the same), and prints each run's 10-player figures
side by side.)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from math import factorial
from typing import Any

from nightcall.bots.onuw import solver
from nightcall.bots.onuw.enumeration import distinct_deals, enumerate_beliefs, night_events
from nightcall.bots.onuw.knowledge import Knowledge, knowledge_from_view
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.state import NIGHT, OneNightState


def random_game(players: int, seed: int, claims: float = 0.0) -> OneNightState:
    rng = random.Random(seed)
    st = ONUW.deal([f"P{i}" for i in range(players)], ONUW.recommended_deck(players), seed)
    while st.phase == NIGHT:
        ONUW.apply(st, st.actor, rng.choice(list(ONUW.legal_actions(st, st.actor))))
    for s in range(players):
        if rng.random() < claims:
            ONUW.apply(st, s, rng.choice(list(ONUW.legal_claims(st, s))))
    return st


def knowledge_set(players: int, games: int, claims: float = 0.0) -> list[Knowledge]:
    out = []
    for g in range(games):
        st = random_game(players, g, claims)
        out.extend(knowledge_from_view(ONUW.view(st, s)) for s in range(players))
    return out


# CPU time of this process: on a shared machine, wall time also counts other jobs.
clock = time.process_time


def timings(ks: list[Knowledge], cold: bool, **kw: Any) -> list[float]:
    """CPU seconds of each solve, garbage collections included (the collector is on)."""
    out = []
    for k in ks:
        if cold:
            solver._fill.cache_clear()
        t0 = clock()
        solver.solve(k, **kw)
        out.append(clock() - t0)
    return out


class Collections:
    """The collector's runs while it is installed: how many, per generation, the
    longest and all of them together (CPU seconds)."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.longest = 0.0
        self.total = 0.0
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = clock()
            return
        self.count[info["generation"]] += 1
        pause = clock() - self._t0
        self.longest = max(self.longest, pause)
        self.total += pause

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def fastest_of(ks: list[Knowledge], repeat: int) -> list[float]:
    """Each cold solve timed ``repeat`` times; its fastest run (collector on)."""
    out = []
    for k in ks:
        best = float("inf")
        for _ in range(repeat):
            solver._fill.cache_clear()
            t0 = clock()
            solver.solve(k)
            best = min(best, clock() - t0)
        out.append(best)
    return out


def summary(ts: list[float]) -> dict[str, float]:
    ts = sorted(ts)
    return {
        "median_ms": round(statistics.median(ts) * 1000, 3),
        "p95_ms": round(ts[int(0.95 * (len(ts) - 1))] * 1000, 3),
        "p99_ms": round(ts[int(0.99 * (len(ts) - 1))] * 1000, 3),
        "max_ms": round(ts[-1] * 1000, 3),
    }


def enumeration_vs_solver(players: int, seats: int) -> dict[str, Any]:
    """Both methods on the same knowledge; the enumeration's cost per deal explored."""
    deck = ONUW.recommended_deck(players)
    st = random_game(players, 1)
    enum_t, solve_t = 0.0, 0.0
    for seat in range(seats):
        k = knowledge_from_view(ONUW.view(st, seat))
        mine = [a for s, a, _ in st.history if s == seat]
        t0 = clock()
        enumerate_beliefs(deck, players, seat, mine, night_events(st, seat))
        enum_t += clock() - t0
        solver._fill.cache_clear()
        t0 = clock()
        solver.solve(k)
        solve_t += clock() - t0
    deals = len(distinct_deals(deck))
    return {
        "players": players,
        "distinct_deals": deals,
        "enumeration_ms": round(enum_t / seats * 1000, 1),
        "solver_ms": round(solve_t / seats * 1000, 3),
        "speedup": round(enum_t / solve_t),
        "enumeration_us_per_deal": enum_t / seats / deals * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100,
                        help="random 10-player games; every seat of each is solved")
    parser.add_argument("--repeat", type=int, default=1,
                        help="also time each cold solve this many times, keep its fastest")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--baseline", metavar="DIR",
                        help="another checkout (its src/): run it and this tree alternately")
    parser.add_argument("--runs", type=int, default=3, help="with --baseline: runs of each")
    args = parser.parse_args()
    if args.baseline:
        side_by_side(args.baseline, args.runs, args.games)
        return
    ks10 = knowledge_set(10, args.games)
    assert gc.isenabled()
    with Collections() as collected:
        cold = summary(timings(ks10, cold=True))
        warm = summary(timings(ks10, cold=False))
    gc_runs = {"per_generation": collected.count,
               "longest_ms": round(collected.longest * 1000, 3),
               "total_ms": round(collected.total * 1000, 3)}
    own_knowledge: dict[str, Any] = {"solves": len(ks10), "cold": cold, "warm": warm,
                                     "garbage_collections": gc_runs}
    if args.repeat > 1:
        own_knowledge[f"cold_fastest_of_{args.repeat}"] = summary(fastest_of(ks10, args.repeat))
    small = [enumeration_vs_solver(4, 4), enumeration_vs_solver(5, 2)]
    per_deal = small[-1]["enumeration_us_per_deal"]
    deck10 = ONUW.recommended_deck(10)
    counts = [deck10.count(r) for r in set(deck10)]
    deals10 = factorial(13)
    for c in counts:
        deals10 //= factorial(c)
    enum10_s = deals10 * per_deal / 1e6  # a floor: bigger tables also branch on more choices
    claims5 = summary(timings(knowledge_set(5, 6, claims=1.0), cold=True))
    ks10c = knowledge_set(10, 2, claims=1.0)[:8]
    errors = []
    t_sample = []
    for k in ks10c:
        t0 = clock()
        b = solver.solve(k, samples=4000)
        t_sample.append(clock() - t0)
        errors.append(b.error)
    result = {
        "ten_players_own_knowledge": own_knowledge,
        "enumeration_measured": small,
        "ten_players_enumeration_estimate": {
            "distinct_deals": deals10,
            "seconds_at_least": round(enum10_s),
            "speedup_over_cold_median_at_least": round(enum10_s / (cold["median_ms"] / 1000)),
        },
        "five_players_all_claim_exact": claims5,
        "ten_players_all_claim_sampled_4000": {
            **summary(t_sample), "max_standard_error": round(max(errors), 4),
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"10 players, own knowledge, {len(ks10)} solves: cold {cold}, warm {warm}; "
          f"garbage collections during them {gc_runs}")
    if args.repeat > 1:
        print(f"each cold solve's fastest of {args.repeat}: "
              f"{own_knowledge[f'cold_fastest_of_{args.repeat}']}")
    for row in small:
        print(f"{row['players']} players: enumeration {row['enumeration_ms']} ms "
              f"({row['distinct_deals']} deals), solver {row['solver_ms']} ms, "
              f"speedup {row['speedup']:,}x")
    est = result["ten_players_enumeration_estimate"]
    print(f"10 players: enumeration >= {est['seconds_at_least']:,} s for {deals10:,} deals; "
          f"speedup >= {est['speedup_over_cold_median_at_least']:,}x")
    print(f"5 players, every seat claims, exact: {claims5}")
    print(f"10 players, every seat claims, sampled: {result['ten_players_all_claim_sampled_4000']}")


def side_by_side(baseline: str, runs: int, games: int) -> None:
    """Fresh processes, this tree then the baseline, ``runs`` times: the 10-player cold
    solves (collections included) of each run."""
    trees = {"this tree": os.environ.get("PYTHONPATH", ""),
             "baseline": os.path.join(baseline, "src")}
    rows = []
    for run in range(1, runs + 1):
        for label, path in trees.items():
            env = {**os.environ, "PYTHONPATH": path} if path else dict(os.environ)
            out = subprocess.run([sys.executable, __file__, "--games", str(games), "--json"],
                                 env=env, check=True, capture_output=True, text=True).stdout
            own = json.loads(out)["ten_players_own_knowledge"]
            cold, gcs = own["cold"], own["garbage_collections"]
            rows.append((run, label, cold, own["warm"], gcs, os.getloadavg()[0]))
    print("| run | tree | cold median / p99 / worst ms | warm worst ms "
          "| collections (gen 0/1/2), longest, total ms | load |")
    print("| --- | --- | --- | --- | --- | --- |")
    for run, label, cold, warm, gcs, load in rows:
        print(f"| {run} | {label} | {cold['median_ms']} / {cold['p99_ms']} / {cold['max_ms']} "
              f"| {warm['max_ms']} | {'/'.join(map(str, gcs['per_generation']))}, "
              f"{gcs['longest_ms']}, {gcs['total_ms']} | {load:.1f} |")


if __name__ == "__main__":
    main()
