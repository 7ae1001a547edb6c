"""A seat is played from one browser. When the same phone opens its seat again (the QR
code scanned a second time, the link opened twice), or another phone opens it with the
seat's own link ("Move to another phone"), the newcomer plays and the old one pauses
with a button to take the seat back; only the one that plays is connected, and the host
sees the seat connected throughout. The first test is in Italian, to check the pause
speaks the room's language."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from e2ehelpers import (
    PHONE_360,
    Table,
    axe_violations,
    small_targets,
    small_text,
    stage,
    take_seat,
    wait_for,
)

pytestmark = pytest.mark.timeout(120)


def seats_connected(server: Any, code: str) -> int:
    """How many of the room's players have a phone connected, as the lobby says."""
    lobby = httpx.get(f"{server.url}/api/rooms/{code}").json()
    return sum(1 for s in lobby["seats"] if s.get("connected") and not s.get("bot"))


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
    assert "un altro schermo" in first.inner_text("[data-testid=elsewhere] h2")
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


def test_a_player_moves_their_seat_to_another_phone_in_the_night(
        browser: Any, server: Any, shots: Any) -> None:
    table = Table(browser, server.url, ("Ann", "Bea"), ruleset="onuw", seats=4,
                  call_seconds=600.0, language="en")
    code, errors = table.code, table.errors
    ann, bea = table.phones
    table.host.click("[data-testid=deal]")
    wait_for(lambda: stage(ann) in ("dusk", "night"), what="the night")
    ann.click("[data-testid=card]")
    card = ann.inner_text("[data-testid=card]")

    # Ann's battery is low: her phone shows the code and the link that move her seat.
    ann.click("[data-testid=move] summary")
    ann.wait_for_selector("[data-testid=move-qr]")
    link = ann.input_value("[data-testid=move-link]")
    assert link.startswith(f"{server.url}/play/{code}#seat=")
    assert ann.evaluate("document.querySelector('[data-testid=move-qr]').naturalWidth") > 100
    ann.wait_for_timeout(300)  # (the fold opens)
    shots(ann, "move-seat-390")
    assert axe_violations(ann) == []
    assert small_targets(ann) == []

    # The other phone opens the link: it is Ann, sees her card, and the first pauses.
    other = browser.new_context(**PHONE_360).new_page()
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(link)
    other.wait_for_selector("#game", state="visible")
    assert other.inner_text("#me").strip() == "Ann"
    assert "#seat=" not in other.url  # out of the address bar (a reload, a screenshot)
    other.click("[data-testid=card]")
    # (the card's side line follows the ruleset's facts, which may arrive after the tap)
    wait_for(lambda: other.inner_text("[data-testid=card]") == card, what="Ann's card")
    ann.wait_for_selector("[data-testid=elsewhere]", state="visible")
    assert "another screen" in ann.inner_text("[data-testid=elsewhere] h2")
    shots(ann, "move-seat-first-phone-paused-390")
    wait_for(lambda: seats_connected(server, code) == 2, what="Ann and Bea connected")
    assert other.is_hidden("[data-testid=elsewhere]")

    # Bea's phone opens Ann's link by mistake: it keeps its own seat and says why.
    mistake = bea.context.new_page()
    mistake.on("pageerror", lambda e: errors.append(str(e)))
    mistake.goto(link)
    mistake.wait_for_selector("[data-testid=move-clash]", state="visible")
    shots(mistake, "move-seat-clash-390")
    mistake.click("[data-testid=clash-ok]")
    mistake.wait_for_selector("#game", state="visible")
    assert mistake.inner_text("#me").strip() == "Bea"
    assert other.is_hidden("[data-testid=elsewhere]")  # Ann's seat stayed on the other phone

    # Ann's own phone takes the seat back.
    ann.click("[data-testid=use-here]")
    ann.wait_for_selector("#game", state="visible")
    other.wait_for_selector("[data-testid=elsewhere]", state="visible")
    assert ann.inner_text("#me").strip() == "Ann"
    assert errors == []


def test_a_dead_phone_is_replaced_when_the_host_lets_the_new_one_in(
        browser: Any, server: Any, shots: Any) -> None:
    table = Table(browser, server.url, ("Ann", "Bea"), ruleset="onuw", seats=4,
                  call_seconds=600.0, language="en")
    code, errors, host = table.code, table.errors, table.host
    host.set_viewport_size({"width": 1920, "height": 1080})
    ann, bea = table.phones
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(ann) in ("dusk", "night"), what="the night")
    ann.click("[data-testid=card]")
    card = ann.inner_text("[data-testid=card]")
    ann.context.close()  # Ann's battery is flat

    # A borrowed phone: the game is on, so a name asks the host instead of sitting down.
    other = browser.new_context(**PHONE_360).new_page()
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(f"{server.url}/play/{code}")
    other.wait_for_selector("[data-testid=join-hint]", state="visible")
    other.fill("#name", "ann")
    other.click("[data-testid=join]")
    other.wait_for_selector("[data-testid=asking]", state="visible")
    assert "play as Ann" in other.inner_text("[data-testid=asking]")
    assert other.is_hidden("#game")
    shots(other, "ask-back-phone-360")
    assert axe_violations(other) == []

    ask = host.wait_for_selector("[data-testid=ask]")
    assert "A new phone asks to play as Ann" in ask.inner_text()
    shots(host, "ask-back-host-1920")
    assert axe_violations(host) == []
    assert small_text(host, ".ask h2, .ask p, .ask button") == []  # read from the sofa
    host.click("[data-testid=let-in]")
    other.wait_for_selector("#game", state="visible")
    assert other.inner_text("#me").strip() == "Ann"
    other.click("[data-testid=card]")
    # (the card's side line follows the ruleset's facts, which may arrive after the tap)
    wait_for(lambda: other.inner_text("[data-testid=card]") == card, what="Ann's card")
    wait_for(lambda: host.locator("[data-testid=ask]").count() == 0, what="the ask answered")
    wait_for(lambda: seats_connected(server, code) == 2, what="Ann and Bea connected")

    # Somebody types Bea's name on yet another phone; the host says no.
    stranger = browser.new_context(**PHONE_360).new_page()
    stranger.goto(f"{server.url}/play/{code}")
    stranger.fill("#name", "Bea")
    stranger.click("[data-testid=join]")
    host.wait_for_selector("[data-testid=ask][data-seat='1']")
    host.click("[data-testid=keep-out]")
    stranger.wait_for_selector("#join", state="visible")
    wait_for(lambda: "did not let this phone in" in stranger.inner_text("[data-testid=join-error]"),
             what="the refusal said")
    assert bea.is_hidden("[data-testid=elsewhere]")  # Bea's own phone plays on
    assert errors == []
