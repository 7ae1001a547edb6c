"""How long a One Night night lasts, call by call against the fast night (issue 18).

The night is measured on the room's own clock, from the first call (or the first fast
round) opening to the dawn, the dusk left out (it is the same in both modes):

- bots: a room of bots only, run by the server's clock in this process with every
  timer scaled by ``--scale`` (the figures are divided by it back into the seconds a
  real table waits). Sequential calls never end early ("a silence tells nobody
  anything"); a fast round ends when every phone is done, never before its floor.
- phones (``--phones``): a real ``nightcall serve`` at ``--phone-scale`` and
  Playwright phones (Debian's chromium) that tap as soon as their screen asks; every
  seat is a phone. Playwright's taps are not scaled, so the fast figures are an upper
  bound of what the scale would give.

Both modes run in the same run, alternating, with the same decks: the sequential night
is the baseline the ratio is against.

    python benchmarks/night_length.py [--games N] [--phones] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nightcall.engine.ruleset import get_ruleset  # noqa: E402
from nightcall.server.hub import Hub  # noqa: E402
from nightcall.server.messages import CreateRoom  # noqa: E402
from nightcall.server.store import SQLiteStore  # noqa: E402

OPTIONAL = ["doppelganger", "minion", "drunk", "insomniac", "hunter", "tanner"]


def deck(rng: random.Random, n: int) -> list[str]:
    """The recommended deck with a random pick of the optional roles (the Doppelgänger
    in about half the games: it makes the fast night two rounds)."""
    onuw: Any = get_ruleset("onuw")
    extras = rng.sample(OPTIONAL, len(OPTIONAL))  # in a random order: the deck takes
    roles: list[str] = onuw.recommended_deck(n, extras[: max(0, n - 5) + rng.randint(0, 1)])
    onuw.validate_deck(n, roles)
    return roles


async def bot_night(hub: Hub, n: int, roles: list[str], fast: bool, scale: float) -> float:
    room = hub.create(CreateRoom(ruleset="onuw", seats=n, roles=roles, bots="random",
                                 fast_night=fast, discussion_seconds=0.01))
    hub.start(room)
    start = end = None
    while end is None:
        stage = room.clock.stage
        now = time.perf_counter()
        if start is None and stage == "night":
            start = now
        elif start is not None and stage != "night":
            end = now
        await asyncio.sleep(0.0005)
    hub.clocks[room.code].stop()
    return (end - start) / scale


def bots(games: int, scale: float) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {}
        with tempfile.TemporaryDirectory() as tmp:
            hub = Hub(SQLiteStore(Path(tmp) / "rooms.sqlite3"), scale=scale, dusk_scale=0.01)
            for n in (5, 10):
                rng = random.Random(n)
                times: dict[str, list[float]] = {"sequential": [], "fast": []}
                for _ in range(games):
                    roles = deck(rng, n)
                    for mode in ("sequential", "fast"):  # alternating, same deck
                        times[mode].append(await bot_night(hub, n, roles, mode == "fast",
                                                           scale))
                out[str(n)] = summary(times)
            hub.stop()
        return out

    return asyncio.run(main())


def summary(times: dict[str, list[float]]) -> dict[str, Any]:
    seq, fst = statistics.median(times["sequential"]), statistics.median(times["fast"])
    return {"sequential_median_s": round(seq, 1), "fast_median_s": round(fst, 1),
            "fast_over_sequential": round(fst / seq, 3), "games": len(times["fast"]),
            "fast_max_s": round(max(times["fast"]), 1)}


def phone_night(browser: Any, url: str, n: int, roles: list[str], fast: bool,
                scale: float) -> float:
    import httpx

    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    from e2ehelpers import PHONE, stage

    r = httpx.post(f"{url}/api/rooms", json={"ruleset": "onuw", "seats": n, "roles": roles,
                                             "fast_night": fast, "discussion_seconds": 30})
    code, token = r.json()["room"], r.json()["host_token"]
    host_ctx = browser.new_context()
    host = host_ctx.new_page()
    host.goto(f"{url}/host/{code}#{token}")
    contexts, pages = [], []
    for i in range(n):
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.goto(f"{url}/play/{code}")
        page.fill("#name", f"P{i}")
        page.click("[data-testid=join]")
        page.wait_for_selector("[data-testid=seats]")
        contexts.append(ctx)
        pages.append(page)
    host.click("[data-testid=deal]")
    while stage(host) != "night":
        time.sleep(0.01)
    start = time.monotonic()
    while stage(host) == "night":
        for page in pages:  # tap the first card that fits, or "no card"
            for sel in ("[data-testid=fast-cell][aria-disabled=false]:not(.picked)",
                        "[data-testid=fast-none][aria-disabled=false]",
                        "[data-testid=choices] [data-testid=choice]",
                        "[data-testid=choices] [data-testid=pick]:not([disabled])"):
                loc = page.locator(sel)
                if loc.count():
                    with contextlib.suppress(Exception):  # the screen moved on meanwhile
                        loc.first.click(timeout=500)
                    break
        time.sleep(0.05)
    night = (time.monotonic() - start) / scale
    for ctx in (*contexts, host_ctx):
        ctx.close()
    return night


def phones(games: int, scale: float) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests" / "server"))
    from liveserver import LiveServer

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        server = LiveServer(Path(tmp) / "rooms.sqlite3", time_scale=scale).start()
        try:
            for n in (5, 10):
                rng = random.Random(n)
                times: dict[str, list[float]] = {"sequential": [], "fast": []}
                for _ in range(games):
                    roles = deck(rng, n)
                    for mode in ("sequential", "fast"):
                        times[mode].append(phone_night(browser, server.url, n, roles,
                                                       mode == "fast", scale))
                out[str(n)] = summary(times)
        finally:
            server.stop()
            browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=9)
    parser.add_argument("--scale", type=float, default=0.02)
    parser.add_argument("--phones", action="store_true")
    parser.add_argument("--phone-games", type=int, default=2)
    parser.add_argument("--phone-scale", type=float, default=1.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"bots": bots(args.games, args.scale)}
    if args.phones:
        result["phones"] = phones(args.phone_games, args.phone_scale)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for kind, by_n in result.items():
        for n, s in by_n.items():
            print(f"{kind:6} {n:>2} players: sequential {s['sequential_median_s']:6.1f} s, "
                  f"fast {s['fast_median_s']:5.1f} s (max {s['fast_max_s']:.1f}), "
                  f"fast/sequential {s['fast_over_sequential']:.3f} over {s['games']} games")


if __name__ == "__main__":
    main()
