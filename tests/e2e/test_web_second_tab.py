"""A seat is played from one tab. When the same phone opens its seat again (the QR code
scanned a second time, the link opened twice), the new tab plays and the old one pauses
with a button to take the seat back; only the tab that plays is connected, and the host
sees the seat connected throughout. In Italian, to check the pause speaks the room's
language."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE_360, take_seat, wait_for

pytestmark = pytest.mark.timeout(120)


def seats_connected(server: Any, code: str) -> int:
    """How many of the room's seats have a phone connected, as the lobby says."""
    lobby = httpx.get(f"{server.url}/api/rooms/{code}").json()
    return sum(1 for s in lobby["seats"] if s.get("connected"))


def test_a_second_tab_takes_the_seat_and_the_first_can_take_it_back(
        browser: Any, server: Any, shots: Any) -> None:
    made = httpx.post(f"{server.url}/api/rooms", json={"seats": 4, "language": "it"}).json()
    code = made["room"]
    errors: list[str] = []
    phone = browser.new_context(**PHONE_360)  # one phone: its tabs share the seat's token
    first = phone.new_page()
    first.on("pageerror", lambda e: errors.append(str(e)))
    first.goto(f"{server.url}/play/{code}")
    take_seat(first, "Ann")
    assert first.is_hidden("[data-testid=elsewhere]")

    second = phone.new_page()
    second.on("pageerror", lambda e: errors.append(str(e)))
    second.goto(f"{server.url}/play/{code}")
    second.wait_for_selector("[data-testid=seats]")  # seated by its token, no name asked
    assert second.inner_text("#me").strip() == "Ann"
    first.wait_for_selector("[data-testid=elsewhere]", state="visible")
    assert first.is_hidden("#game")
    assert "un'altra scheda" in first.inner_text("[data-testid=elsewhere] h2")
    assert first.inner_text("[data-testid=use-here]").strip() == "Gioca da qui"
    shots(first, "second-tab-paused-it-360")
    # The paused tab has let go of its connection; the seat stays connected by the other.
    wait_for(lambda: first.evaluate("document.body.dataset.connection") != "online",
             what="the paused tab's socket closed")
    assert seats_connected(server, code) == 1
    assert second.is_hidden("[data-testid=elsewhere]")

    # Back to the first tab: it plays again, and the second pauses.
    first.click("[data-testid=use-here]")
    first.wait_for_selector("#game", state="visible")
    second.wait_for_selector("[data-testid=elsewhere]", state="visible")
    assert first.is_hidden("[data-testid=elsewhere]")
    wait_for(lambda: first.evaluate("document.body.dataset.connection") == "online",
             what="the first tab online again")
    assert seats_connected(server, code) == 1
    assert first.inner_text("#me").strip() == "Ann"

    # Another phone (its own browser) is another player, not a second tab.
    bea = browser.new_context(**PHONE_360).new_page()
    bea.goto(f"{server.url}/play/{code}")
    take_seat(bea, "Bea")
    wait_for(lambda: seats_connected(server, code) == 2, what="Bea connected")
    assert first.is_hidden("[data-testid=elsewhere]")
    assert errors == []
