"""The pages' one toast (dom.js): the phone's and the shared screens' refusals show in
the page's #toast for a few seconds, then it hides again."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE, wait_for

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize("page_of", ["play", "watch", "host"])
def test_the_toast_shows_a_text_then_hides(browser: Any, server: Any, page_of: str) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={})
    code, token = r.json()["room"], r.json()["host_token"]
    errors: list[str] = []
    page = browser.new_context(**PHONE).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/{page_of}/{code}" + (f"#{token}" if page_of == "host" else ""))
    toast = page.locator("#toast")
    toast.wait_for(state="attached")
    assert toast.is_hidden()
    page.evaluate("async () => (await import('/static/js/dom.js')).toast('Not now', 700)")
    assert toast.is_visible() and toast.inner_text() == "Not now"
    wait_for(toast.is_hidden, timeout=5, what="the toast to hide")
    assert not errors, errors
