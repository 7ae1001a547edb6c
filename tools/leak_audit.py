"""Issue #8's leak audit at full size: 10,000 random games across every ruleset, bots in
every seat, every seat's and the spectator's view checked after every step against the
rules' knowledge model (nightcall.audit). Zero leaks is the only pass.

    .venv/bin/python tools/leak_audit.py                 # 10,000 games, 2 processes
    .venv/bin/python tools/leak_audit.py --games 900 --jobs 1
    .venv/bin/python tools/leak_audit.py --games 0 --wire 60   # over real websockets

Exit status 1 if anything was found; the first findings are printed in full.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from nightcall.audit.core import AuditResult, run_audit

RULESETS = ("onuw", "epic", "lupus")
CHUNK = 250  # games per task: small enough to spread the slow Lupus games over workers


def run_chunk(ruleset: str, games: int, seed: int) -> AuditResult:
    result = run_audit({ruleset: games}, seed=seed)
    result.findings = result.findings[:50]  # keep what crosses the process boundary small
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="total, split evenly")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--wire", type=int, default=0,
                        help="also play this many rooms on a live server over websockets")
    parser.add_argument("--redis-url", default=None,
                        help="store the wire rooms in Redis (default: a temp SQLite file)")
    args = parser.parse_args()
    status = 0
    if args.games:
        status |= engine_audit(args)
    if args.wire:
        status |= wire_audit(args)
    return status


def wire_audit(args: argparse.Namespace) -> int:
    import random
    import tempfile
    from pathlib import Path

    from nightcall.audit.wire import run_wire_audit
    from nightcall.rulesets.epic import scenarios

    rng = random.Random(args.seed)
    epic = [(s.id, p) for s in (*scenarios.SCENARIOS, scenarios.ANARCHY)
            for p in range(s.min_players, s.max_players + 1)]
    plan: list[tuple[str, int, str | None]] = []
    for i in range(args.wire):
        ruleset = RULESETS[i % len(RULESETS)]
        if ruleset == "onuw":
            plan.append(("onuw", rng.randint(3, 10), None))
        elif ruleset == "epic":
            sid, players = rng.choice(epic)
            plan.append(("epic", players, sid))
        else:
            plan.append(("lupus", rng.randint(7, 12), rng.choice(["base", "extra"])))
    with tempfile.TemporaryDirectory() as d:
        if args.redis_url:
            from nightcall.server.store_redis import RedisStore

            store: object = RedisStore.from_url(args.redis_url, prefix=f"audit{args.seed}")
        else:
            from nightcall.server.store import SQLiteStore

            store = SQLiteStore(Path(d) / "rooms.sqlite3")
        total = run_wire_audit(store, plan, seed=args.seed)
    return report(total, ("wire rooms", "wire moves applied", "wire messages checked",
                          "wire leaks found", "wire other findings"),
                  f"wire time: {total.seconds:.1f} s")


def engine_audit(args: argparse.Namespace) -> int:
    share = [args.games // len(RULESETS)] * len(RULESETS)
    for i in range(args.games % len(RULESETS)):
        share[i] += 1
    tasks = []
    for ruleset, count in zip(RULESETS, share, strict=True):
        for k, start in enumerate(range(0, count, CHUNK)):
            tasks.append((ruleset, min(CHUNK, count - start), args.seed * 1000 + k))

    total = AuditResult()
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_chunk, *t) for t in tasks]
        for future in futures:
            total.merge(future.result())
    wall = time.perf_counter() - started

    return report(total, ("games", "actions applied", "messages checked", "leaks found",
                          "other findings (facts missing from a view)"),
                  f"time: {wall:.1f} s wall, {total.seconds:.1f} s in games, "
                  f"{args.jobs} process(es)")


def report(total: AuditResult, labels: tuple[str, str, str, str, str], took: str) -> int:
    """The summary (games by ruleset, actions, messages, leaks, other findings under
    ``labels``, then ``took``) and the first findings; 1 when there is any finding."""
    split = ", ".join(f"{r}: {total.per_ruleset[r]}" for r in RULESETS)
    counts = (f"{total.games}  ({split})", total.actions, total.messages, len(total.leaks),
              len(total.findings) - len(total.leaks))
    for label, count in zip(labels, counts, strict=True):
        print(f"{label}: {count}")
    print(took)
    for finding in total.findings[:20]:
        print(" ", finding)
    return 1 if total.findings else 0


if __name__ == "__main__":
    sys.exit(main())
