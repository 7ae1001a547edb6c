"""Small helpers shared by the end-to-end tests."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

# A phone-sized browser context (an iPhone 12-ish screen).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
# The sizes the issue names: a small phone, a common phone (PHONE), and a TV for the host.
PHONE_360 = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}


def wait_for(pred: Any, timeout: float = 30, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def stage(page: Any) -> str:
    """The clock's stage as the page shows it (``night``, ``discussion``, ``vote``, ...;
    the label itself is in the room's language)."""
    return str(page.evaluate("document.body.dataset.stage || ''"))


def act_if_called(page: Any) -> bool:
    """Tap the first choice on a phone that has choices to make (two taps for a pair).

    A call lasts only a second or two in these tests: the choices may vanish between
    seeing them and tapping, so a tap that finds nothing gives up quickly (the server
    then plays the seat's default) instead of waiting 30 s for a button that is gone."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    prompt = page.locator("[data-testid=choices], [data-testid=vote]")
    if prompt.count() == 0:
        return False
    try:
        picks = page.locator("[data-testid=pick]")
        if picks.count() >= 2:
            picks.nth(0).click(timeout=2000)
            page.locator("[data-testid=pick]").nth(1).click(timeout=2000)
            return True
        choices = prompt.locator("[data-testid=choice]")
        if choices.count():
            choices.first.click(timeout=2000)
            return True
    except PlaywrightTimeout:
        return False
    return False


def open_phone(browser: Any, url: str, code: str, errors: list[str],
               context: dict[str, Any] | None = None, init_script: str = "") -> Any:
    """A phone (``context``: PHONE unless told) on the room's player page; its uncaught
    script errors go to ``errors``."""
    ctx = browser.new_context(**(PHONE if context is None else context))
    if init_script:
        ctx.add_init_script(init_script)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/play/{code}")
    return page


def holding_seat(code: str, token: str) -> str:
    """An init script: the phone already holds this seat (as after joining once)."""
    return f"localStorage.setItem('nightcall:seat:{code}', {json.dumps(token)})"


def save_at_dusk(db: Path, settings: Any, code: str, names: list[str], roles: list[str],
                 seed: int) -> tuple[str, list[str]]:
    """A room saved as playing, at dusk of the first night with nobody connected yet, so
    that the server loads it as after a restart. The host token and the seat tokens."""
    from webhelpers import save_playing

    from nightcall.server.room import Seat

    tokens = [f"seat-token-{i:08d}" for i in range(len(names))]
    seats = [Seat(name, token) for name, token in zip(names, tokens, strict=True)]
    room = save_playing(db, code, settings, seats, roles, seed)
    return room.host_token, tokens


def take_seat(page: Any, name: str) -> Any:
    """The phone joins under ``name`` and waits until it is seated."""
    page.fill("#name", name)
    page.click("[data-testid=join]")
    page.wait_for_selector("[data-testid=seats]")
    return page


def hurry(host: Any, phones: list[Any]) -> None:
    """One look round a table in a hurry: the host opens the vote when it may, and every
    phone that is called taps its first choice."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    button = host.locator("[data-testid=open-vote]")
    if button.count():
        with contextlib.suppress(PlaywrightTimeout):  # the stage moved on under it
            button.click(timeout=1000)
    for page in phones:
        act_if_called(page)
    time.sleep(0.15)


def seated_phone(browser: Any, url: str, code: str, token: str, errors: list[str],
                 context: dict[str, Any] = PHONE_360) -> Any:
    """A phone (360 px unless told) that already holds the seat of ``token``."""
    return open_phone(browser, url, code, errors, context, holding_seat(code, token))


class Table:
    """A room made through the API, its host screen open, and phones seated by name;
    ``errors`` collects every page's uncaught script errors."""

    def __init__(self, browser: Any, url: str, names: tuple[str, ...],
                 **settings: Any) -> None:
        import httpx

        r = httpx.post(f"{url}/api/rooms", json=settings)
        assert r.status_code == 201, r.text
        self.code, self.token = r.json()["room"], r.json()["host_token"]
        self.errors: list[str] = []
        self.host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        self.host.on("pageerror", lambda e: self.errors.append(str(e)))
        self.host.goto(f"{url}/host/{self.code}#{self.token}")
        self.phones = [take_seat(open_phone(browser, url, self.code, self.errors), name)
                       for name in names]
        wait_for(lambda: self.host.locator("[data-testid=seats] li.on").count() == len(names),
                 what=f"{len(names)} phones")

    def deal_to_day(self, at_dusk: Any = None) -> None:
        """Deal, play the night (every called phone taps its first choice) and wait for
        the day's discussion; ``at_dusk()`` runs while the cards are being looked at."""
        self.host.click("[data-testid=deal]")
        if at_dusk is not None:
            wait_for(lambda: stage(self.host) == "dusk", what="dusk")
            at_dusk()
        wait_for(lambda: stage(self.host) == "night", what="night")
        while stage(self.host) == "night":
            for page in self.phones:
                act_if_called(page)
            time.sleep(0.15)
        wait_for(lambda: stage(self.host) == "discussion", what="day")

HOST_TV = {"viewport": {"width": 1920, "height": 1080}}
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it stands (the rule, then the nodes)."""
    import os

    import pytest

    if not AXE.exists():
        if os.environ.get("NIGHTCALL_REQUIRE_BROWSER"):
            raise RuntimeError("axe-core is missing: npm ci --prefix tests/e2e")
        pytest.skip("axe-core is not installed (npm ci --prefix tests/e2e)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the browser's debugging protocol, which the pages' CSP does
        # not govern (a <script> tag, as add_script_tag makes, would be refused).
        page.evaluate(AXE.read_text() + "\n;undefined")
    found = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map((v) => `${v.id}: ${v.help} @ ` +
            v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
    }""")
    return [str(v) for v in found]


def sideways(page: Any) -> int:
    """How many pixels the page would scroll sideways (0: none)."""
    return int(page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def small_targets(page: Any, least: float = 44) -> list[str]:
    """Visible buttons, selects, text inputs and summaries shorter or narrower than
    ``least`` CSS pixels (a thumb's target)."""
    return list(page.evaluate("""(least) => [...document.querySelectorAll(
        'button, select, input:not([type=checkbox]):not([type=range]), summary, label.toggle')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.height < least - 0.5 || r.width < least - 0.5)
        .map(([el, r]) => `${el.tagName} ${(el.textContent || '').trim().slice(0, 30)} `
            + `${r.width}x${r.height}`)
    """, least))


def small_text(page: Any, selector: str, least: float = 28) -> list[str]:
    """Visible elements matching ``selector`` whose text is under ``least`` px."""
    return list(page.evaluate("""([sel, least]) => [...document.querySelectorAll(sel)]
        .filter((el) => el.offsetParent !== null && el.textContent.trim())
        .map((el) => [el, parseFloat(getComputedStyle(el).fontSize)])
        .filter(([, size]) => size < least - 0.5)
        .map(([el, size]) => `${el.tagName}.${el.className} ${size}px: `
            + el.textContent.trim().slice(0, 30))
    """, [selector, least]))


def ambience_is_heard(page: Any, loudness: str) -> None:
    """Switch the page's night ambience on and hear it (``loudness``: a script reading
    the analyser the page's audio graph was tapped with), then the volume at zero and
    the ambience off each silence it. The sound panel must be open."""
    page.locator("#ambience").check()
    loud: list[float] = []

    def heard() -> bool:
        level = page.evaluate(loudness)
        loud.append(level["rms"])
        return bool(level["state"] == "running" and level["rms"] > 0.002)

    wait_for(heard, timeout=10, what="the ambience's sound")
    # The volume slider at zero silences it (the master gain glides down in ~0.2 s).
    page.locator("#volume").fill("0")
    page.wait_for_timeout(800)
    assert page.evaluate(loudness)["rms"] < max(loud) / 20
    page.locator("#volume").fill("60")
    page.locator("#ambience").uncheck()
    page.wait_for_timeout(800)
    quiet = page.evaluate(loudness)["rms"]
    assert quiet < 1e-4, quiet  # switched off: silence (a cricket at most fading out)
