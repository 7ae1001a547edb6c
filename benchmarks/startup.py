"""Start-up of the ``nightcall`` command: CPU seconds of ``nightcall CMD --help``.

Each command's ``--help`` runs in a fresh interpreter (``python -m nightcall.cli``),
this tree's code and, with ``--baseline DIR``, the code in ``DIR/src`` (PYTHONPATH),
alternately, ``--runs`` times each; the figure is the median CPU time (user +
system) of the child, which the load of a shared machine moves far less than
wall time. ``python -c pass`` is measured the same way as the floor.

    python benchmarks/startup.py [--runs 9] [--baseline /work/base] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

COMMANDS = ["", "agent", "agent play", "deck", "judge", "narrate", "play", "replay",
            "scenarios", "serve", "simulate"]
HERE = Path(__file__).resolve().parent.parent / "src"


def cpu_seconds(argv: list[str], pythonpath: Path | None) -> float:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a checkout whose src/ is the code to compare with")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees: dict[str, Path] = {"new": HERE}
    if args.baseline is not None:
        trees["old"] = args.baseline / "src"
    floor = [cpu_seconds([sys.executable, "-c", "pass"], None) for _ in range(args.runs)]
    rows = {}
    for command in COMMANDS:
        argv = [sys.executable, "-m", "nightcall.cli", *command.split(), "--help"]
        times: dict[str, list[float]] = {k: [] for k in trees}
        for _ in range(args.runs):
            for key, src in trees.items():  # alternate old and new
                times[key].append(cpu_seconds(argv, src))
        row = {k: round(statistics.median(v), 4) for k, v in times.items()}
        if "old" in row:
            row["new_over_old"] = round(row["new"] / row["old"], 3)
        rows[command or "(root)"] = row
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    out = {"python_c_pass": round(statistics.median(floor), 4), "load_average": load,
           "help_cpu_seconds": rows}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"python -c pass: {out['python_c_pass']:.3f} s CPU; load average {load}")
    for name, row in rows.items():
        line = f"nightcall {name} --help: {row['new']:.3f} s"
        if "old" in row:
            line += f" (old {row['old']:.3f} s, ratio {row['new_over_old']:.2f})"
        print(line)


if __name__ == "__main__":
    main()
