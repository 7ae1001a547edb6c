"""The fast night in a real browser (issue 18): phones of 360 and 390 px and a
1920x1080 host screen play a fast night in each ruleset.

The issue's sentences: "Every phone gets its night task at once"; "every phone, the
Villagers' included, has a task of the same shape and the same minimum length ...,
shows 'done' at the same time, and the host screen shows one countdown for everyone";
"no frame reveals a role" (every websocket frame a phone receives in a round has the
round's one width)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from e2ehelpers import HOST_TV, PHONE, PHONE_360, stage, wait_for

pytestmark = pytest.mark.timeout(300)

FAST_SECONDS = 20.0
FLOOR = 0.4 * FAST_SECONDS  # server/fast.py FAST_FLOOR


class FastTable:
    def __init__(self, browser: Any, url: str, phones: int, **settings: Any) -> None:
        r = httpx.post(f"{url}/api/rooms", json={**settings, "fast_night": True,
                                                  "fast_seconds": FAST_SECONDS})
        assert r.status_code == 201, r.text
        self.code, token = r.json()["room"], r.json()["host_token"]
        self.errors: list[str] = []
        self.host = browser.new_context(**HOST_TV).new_page()
        self.host.on("pageerror", lambda e: self.errors.append(str(e)))
        self.host.goto(f"{url}/host/{self.code}#{token}")
        self.pages: list[Any] = []
        self.frames: list[list[tuple[float, int, Any]]] = []
        for i in range(phones):
            page = browser.new_context(**(PHONE_360 if i % 2 else PHONE)).new_page()
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            frames: list[tuple[float, int, Any]] = []
            page.on("websocket", lambda ws, frames=frames: ws.on(
                "framereceived", lambda data, frames=frames: frames.append(
                    (time.monotonic(), len(data.encode() if isinstance(data, str) else data),
                     data))))
            page.goto(f"{url}/play/{self.code}")
            page.fill("#name", f"P{i}")
            page.click("[data-testid=join]")
            page.wait_for_selector("[data-testid=seats]")
            self.pages.append(page)
            self.frames.append(frames)
        wait_for(lambda: self.host.locator("[data-testid=seats] li.on").count() == phones,
                 what="phones online")

    def shape(self, page: Any) -> tuple[Any, ...]:
        """What a stranger sees of the task screen: its structure, not its labels."""
        task = page.locator("[data-testid=fast-task]")
        return (task.get_attribute("data-stage"),
                page.locator("[data-testid=fast-cell]").count(),
                page.locator("[data-testid=fast-cell][disabled]").count(),
                page.locator("[data-testid=fast-none]").count(),
                page.locator("[data-testid=fast-glimpse]").count(),
                task.locator(".call").inner_text(), task.locator(".hint").first.inner_text())

    def tap_stage(self, page: Any) -> None:
        """Answer the stage on screen: a card that fits (two for a pair), else "no card"."""
        stage_now = page.locator("[data-testid=fast-task]").get_attribute("data-stage")
        for _ in range(3):
            task = page.locator("[data-testid=fast-task]")
            if not task.count() or task.get_attribute("data-stage") != stage_now:
                return
            cells = page.locator("[data-testid=fast-cell][aria-disabled=false]:not(.picked)")
            if cells.count():
                cells.first.click()
            else:
                page.click("[data-testid=fast-none]")
            page.wait_for_timeout(150)


def play_fast_rounds(table: FastTable, shots: Any, name: str, rounds: int) -> None:
    played = 0
    fresh = "[data-testid=fast-task][data-stage='0']"  # a round's first screen
    for r in range(4):
        wait_for(lambda: stage(table.host) != "night" or all(
            p.locator(fresh).count() for p in table.pages), timeout=30, what="a round")
        if stage(table.host) != "night":
            break
        played += 1
        started = round_started(table)
        marks = [len(frames) for frames in table.frames]  # this round's frames start here
        host_line = table.host.inner_text("[data-testid=narration]")
        assert "night task" in host_line  # one line, no role called
        shapes = {table.shape(p) for p in table.pages}
        assert len(shapes) == 1, shapes  # the same screen whatever the role
        if r == 0:
            shots(table.pages[0], f"fast-{name}-phone-task-390")
            shots(table.pages[1], f"fast-{name}-phone-task-360")
            shots(table.host, f"fast-{name}-host-countdown")
        for page in table.pages:
            table.tap_stage(page)
        for page in table.pages:
            page.wait_for_selector("[data-testid=fast-task][data-stage='1'], "
                                   "[data-testid=fast-done]", timeout=5000)
        assert len({table.shape(p) for p in table.pages}) == 1
        if r == 0:
            shots(table.pages[0], f"fast-{name}-phone-second-stage")
        for i, page in enumerate(table.pages):
            table.tap_stage(page)
            try:
                if i < len(table.pages) - 1:
                    page.wait_for_selector("[data-testid=fast-done]", timeout=5000)
                else:
                    # The last tap ends the round at once when the floor has already
                    # passed (a slow machine), so its done screen may be gone before it
                    # is looked at: the frame that said done must have come (below).
                    wait_for(lambda p=page: p.locator("[data-testid=fast-done]").count() or not
                             p.locator("[data-testid=fast-task][data-stage='1']").count(),
                             timeout=5, what="the last phone done")
            except Exception:
                shots(page, f"fast-{name}-stuck-{i}")  # to see which phone, and why
                raise
        assert all(any(fast_done(data) for _, _, data in frames[mark:])
                   for frames, mark in zip(table.frames, marks, strict=True))
        if r == 0:
            shots(table.pages[1], f"fast-{name}-phone-done")
        # Every phone shows done until the round ends, for everyone at once, never
        # before the floor.
        wait_for(lambda: not table.pages[0].locator("[data-testid=fast-done]").count(),
                 timeout=FAST_SECONDS + 10, what="the round's end")
        assert time.monotonic() - started >= FLOOR - 0.5
    assert played == rounds
    check_frames(table)


def fast_done(data: Any) -> bool:
    """A frame that shows this phone its task is done."""
    msg = json.loads(data)
    return bool(msg.get("type") == "observation"
                and (msg.get("view", {}).get("fast") or {}).get("done"))


def fast_round(data: Any) -> tuple[Any, Any] | None:
    """The round a frame belongs to (its night and deadline), if it shows a fast task."""
    msg = json.loads(data)
    if msg.get("type") == "observation" and "fast" in msg.get("view", {}):
        return msg["clock"]["night"], msg["clock"]["ends_at"]
    return None


def round_started(table: FastTable) -> float:
    """When the round on the phones reached the first of them: its first frame's arrival.
    (The moment the test noticed it can be seconds later on a loaded machine.)"""
    now = next(key for _, _, data in reversed(table.frames[0])
               if (key := fast_round(data)) is not None)
    return min(t for frames in table.frames for t, _, data in frames if fast_round(data) == now)


def check_frames(table: FastTable) -> None:
    """Every frame a phone received during a fast round has that round's one width."""
    by_round: dict[Any, set[int]] = {}
    for frames in table.frames:
        for _, size, data in frames:
            if (key := fast_round(data)) is not None:
                by_round.setdefault(key, set()).add(size)
    assert by_round
    for key, sizes in by_round.items():
        assert len(sizes) == 1, (key, sizes)


@pytest.mark.parametrize(("ruleset", "seats", "phones", "settings", "rounds"), [
    ("onuw", 5, 5, {"roles": ["doppelganger", "werewolf", "werewolf", "seer", "robber",
                              "troublemaker", "drunk", "villager"]}, 2),
    # The Mimic, the vampires and the Count: three twilight rounds, then the night's.
    ("epic", 5, 5, {"roles": ["mimic", "vampire", "the_count", "werewolf", "seer", "robber",
                              "villager", "witch"]}, 4),
    ("lupus", 8, 5, {}, 1),
])
def test_a_fast_night_in_the_browser(browser: Any, server: Any, shots: Any, ruleset: str,
                                     seats: int, phones: int, settings: dict[str, Any],
                                     rounds: int) -> None:
    table = FastTable(browser, server.url, phones, ruleset=ruleset, seats=seats,
                      discussion_seconds=2, vote_seconds=5, defense_seconds=1,
                      bots="random", **settings)
    table.host.click("[data-testid=deal]")
    wait_for(lambda: stage(table.host) == "night", what="night")
    play_fast_rounds(table, shots, ruleset, rounds)
    wait_for(lambda: stage(table.host) != "night", timeout=FAST_SECONDS + 10, what="dawn")
    shots(table.pages[0], f"fast-{ruleset}-phone-dawn")
    # At dawn each phone lists what its role saw, at its own moment in the order, or says
    # it saw nothing; and at every one of these tables some role did see something.
    for page in table.pages:
        page.wait_for_selector("[data-testid=known]")
        assert page.locator("[data-testid=known] li, [data-testid=known] p.hint").count()
    assert sum(p.locator("[data-testid=known] li").count() for p in table.pages)
    assert not table.errors, table.errors


def test_a_lupus_ghost_has_no_night_task(browser: Any, server: Any, shots: Any) -> None:
    """A user's report (an Italian room, 8 seats): on night 2 the dead got "Il tuo compito
    notturno" with the whole grid, the living could pick the dead, and the button below
    said "Nessuna carta". Rules 19 and 22: one task for every *living* player, one ghost
    screen for every ghost, which tells nothing; the dead are not pickable (the same on
    every phone: being dead is public), and Lupus' "nobody" is "Nessuno" (the Harlot
    "stays home by pointing at nobody"). A ghost never taps, and the round still ends at
    the floor once the living are done. Rule 20: the host line names no "Fatto" button,
    since a phone has none: the last stage's tap is the phone's "done"."""
    from e2ehelpers import hurry

    table = FastTable(browser, server.url, 8, ruleset="lupus", seats=8, language="it",
                      discussion_seconds=1, vote_seconds=4, defense_seconds=1, bots="random")
    pages, host = table.pages, table.host
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    fresh = "[data-testid=fast-task][data-stage='0']"
    wait_for(lambda: all(p.locator(fresh).count() for p in pages), what="night 1's tasks")
    assert "Fatto" not in host.inner_text("[data-testid=narration]")
    for page in pages:
        table.tap_stage(page)
    for page in pages:
        table.tap_stage(page)
    wait_for(lambda: stage(host) != "night", timeout=FAST_SECONDS + 10, what="dawn")
    deadline = time.monotonic() + 120
    while stage(host) not in ("night", "over"):
        assert time.monotonic() < deadline, "night 2 never came"
        hurry(host, pages)
    assert stage(host) == "night", "the game ended on day 1"
    ghost_pages = [p for p in pages if p.locator("[data-testid=ghost]").count()]
    living = [p for p in pages if p not in ghost_pages]
    assert ghost_pages, "nobody died on night 1 or day 1"
    wait_for(lambda: all(p.locator(fresh).count() for p in living), what="night 2's tasks")
    started = round_started(table)
    shots(ghost_pages[0], "fast-lupus-ghost-night-2")
    shots(living[0], "fast-lupus-living-night-2")
    # The ghosts: no task, the same ghost screen on each.
    for page in ghost_pages:
        assert not page.locator("[data-testid=fast-task], [data-testid=fast-grid]").count()
    screens = {tuple(p.locator("[data-testid=sleep] p").all_inner_texts()) for p in ghost_pages}
    assert screens == {("Occhi chiusi.", "Di notte i fantasmi non vengono più chiamati.",
                        "Ogni telefono vibra a ogni chiamata: nessuno capisce chi si è "
                        "svegliato.")}, screens
    # The living: one grid where the dead are greyed out, and "Nessuno" below.
    dead = sorted(p.inner_text("#me") for p in ghost_pages)
    for page in living:
        off = page.locator("[data-testid=fast-cell][disabled]")
        assert sorted(t.split(" ·")[0] for t in off.all_inner_texts()) == dead
        assert page.inner_text("[data-testid=fast-none]") == "Nessuno"
    assert len({table.shape(p) for p in living}) == 1
    for page in living:
        table.tap_stage(page)
    assert "«Nessuno»" in living[0].inner_text("[data-testid=fast-task] .hint")
    shots(living[0], "fast-lupus-living-second-stage")
    for page in living:
        table.tap_stage(page)
    # Only the living tapped: the round ends after the floor, long before the countdown.
    wait_for(lambda: not living[0].locator("[data-testid=fast-done]").count(),
             timeout=FAST_SECONDS + 10, what="night 2's end")
    took = time.monotonic() - started
    assert FLOOR - 0.5 <= took < FAST_SECONDS - 4, took
    assert not table.errors, table.errors
