"""Lighthouse on the phone page: accessibility and performance scores.

Starts ``nightcall serve`` on a free port with a fresh database, makes a room, and
runs Lighthouse (npm, pinned to 12.2.3 in benchmarks/lighthouse/package.json, since
13 wants Node 22) with Debian's chromium against ``/play/CODE`` (the page a player
opens from the QR code) and the front page, with Lighthouse's mobile settings.

    npm ci --prefix benchmarks/lighthouse
    python benchmarks/lighthouse.py [--runs 3]

Prints one line per run and page, then the median of each score. A score is 0..100.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "nightcall.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", str(db), "--public-url", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            if httpx.get(f"{url}/api/rulesets", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def run(url: str) -> dict[str, float]:
    out = subprocess.run(
        [str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output-path=stdout",
         "--only-categories=accessibility,performance",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
        capture_output=True, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
    report = json.loads(out.stdout)
    return {k: round(100 * v["score"]) for k, v in report["categories"].items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is missing: npm ci --prefix benchmarks/lighthouse")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = serve(Path(tmp) / "rooms.sqlite3", port)
        try:
            base = f"http://127.0.0.1:{port}"
            room = httpx.post(f"{base}/api/rooms", json={"ruleset": "onuw", "seats": 5}).json()
            pages = {"phone": f"{base}/play/{room['room']}", "front": f"{base}/"}
            scores: dict[str, list[dict[str, float]]] = {k: [] for k in pages}
            for i in range(args.runs):
                for name, url in pages.items():
                    got = run(url)
                    scores[name].append(got)
                    print(f"run {i + 1} {name}: {got}")
            for name, runs in scores.items():
                med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(f"median {name} over {args.runs}: {med}")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
