"""Issue 15 in a real browser: after someone behind the same address mistyped many
room codes, a seated phone that reloads gets its seat back at once, and a new player's
page waits and tries again rather than taking the refusal as final. Every page runs
under the Content-Security-Policy without a single violation."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE, wait_for

pytestmark = pytest.mark.timeout(120)


def test_a_lockout_of_code_guessing_keeps_players_in(browser: Any, server: Any) -> None:
    errors: list[str] = []
    csp: list[str] = []

    def watch(page: Any) -> Any:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: csp.append(m.text)
                if "Content Security Policy" in m.text else None)
        return page

    made = httpx.post(f"{server.url}/api/rooms", json={"seats": 4}).json()
    code, token = made["room"], made["host_token"]
    host = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    host.goto(f"{server.url}/host/{code}#{token}")
    ann = watch(browser.new_context(**PHONE).new_page())
    ann.goto(f"{server.url}/play/{code}")
    ann.fill("#name", "Ann")
    ann.click("[data-testid=join]")
    ann.wait_for_selector("[data-testid=seats]")
    wait_for(lambda: host.locator("[data-testid=seats] li.on").count() == 1, what="Ann seated")

    # Someone at this address (a school's, a café's) mistypes ten codes.
    for i in range(10):
        assert httpx.get(f"{server.url}/api/rooms/ZZZ{'ABCDEFGHJK'[i]}").status_code == 404
    assert httpx.get(f"{server.url}/api/rooms/{code}").status_code == 429

    # Ann's Wi-Fi drops (a reload): her token brings her back to her seat at once.
    ann.reload()
    ann.wait_for_selector("[data-testid=seats]", timeout=10_000)
    assert ann.is_hidden("#join")
    assert ann.inner_text("#me").strip() == "Ann"

    # Bea is new: her name is a guess like any other for now. Her page says nothing
    # final and tries again; once the address may look rooms up again, she is in.
    bea = watch(browser.new_context(**PHONE).new_page())
    bea.goto(f"{server.url}/play/{code}")
    bea.fill("#name", "Bea")
    bea.click("[data-testid=join]")
    wait_for(lambda: bea.evaluate("document.body.dataset.connection") == "waiting",
             timeout=10, what="Bea's page waiting")
    assert bea.inner_text("#join-error").strip() == ""
    bea.wait_for_selector("[data-testid=seats]", timeout=40_000)
    wait_for(lambda: host.locator("[data-testid=seats] li.on").count() == 2, what="Bea seated")
    assert not errors, errors
    assert not csp, csp
