"""A One Night game in a real browser: a host screen and five phones play to the end.

Covers the front page's form, the QR lobby, tap-to-show cards, night choices,
a structured claim, the host opening the vote, the secret vote, the outcome and
the timeline; a phone reloaded mid-game rejoins its seat; a player's name made
of HTML stays text."""

from __future__ import annotations

import time
from typing import Any

import pytest
from e2ehelpers import PHONE, act_if_called, open_phone, stage, take_seat, wait_for

pytestmark = pytest.mark.timeout(180)

EVIL = "<img src=x onerror=p=1>"  # sets window.p if it ever runs as markup
NAMES = ["Anna", "Bruno", "Carla", EVIL, "Elena"]


def test_five_phones_play_one_night_to_the_end(browser: Any, server: Any, shots: Any) -> None:
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    host = host_ctx.new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(server.url + "/")
    host.wait_for_selector("#ruleset option", state="attached")
    host.select_option("#ruleset", "onuw")
    host.fill("#seats", "5")
    host.fill("#call-seconds", "2")
    host.uncheck("#fast-night")  # this game plays the night call by call
    host.fill("#discussion-minutes", "5")
    host.fill("#vote-seconds", "60")
    shots(host, "01-front-page")
    host.click("[data-testid=create]")
    host.wait_for_url("**/host/*")
    code = host.inner_text("[data-testid=code]").strip()
    assert len(code) == 4
    qr = host.locator("[data-testid=qr]")
    qr.wait_for()
    host.wait_for_function(
        "() => document.querySelector('[data-testid=qr]').complete && "
        "document.querySelector('[data-testid=qr]').naturalWidth > 100")

    phones = [take_seat(open_phone(browser, server.url, code, errors), name)
              for name in NAMES]
    wait_for(lambda: host.locator("[data-testid=seats] li").count() == 5, what="five seats")
    wait_for(lambda: host.locator("[data-testid=seats] li.on").count() == 5, what="all online")
    assert EVIL in host.inner_text("[data-testid=seats]")  # shown as text, not markup
    shots(host, "02-host-lobby")
    shots(phones[0], "03-phone-lobby")

    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    # Tap to see the card; tap again to hide it.
    card = phones[0].locator("[data-testid=card]")
    card.click()
    role = card.inner_text()
    assert "Your card" in role
    shots(phones[0], "04-phone-card")
    card.click()
    assert "?" in card.inner_text()
    assert host.inner_text("[data-testid=narration]").strip()
    shots(host, "05-host-night")

    # A phone reloaded in the middle of the night rejoins its seat.
    phones[1].reload()
    phones[1].wait_for_selector("[data-testid=card]")
    assert phones[1].inner_text("#me") == "Bruno"

    acted = 0
    shot_choices = False
    while stage(host) == "night":
        for i, page in enumerate(phones):
            if page.locator("[data-testid=choices]").count() and not shot_choices:
                shots(page, f"06-phone-night-choices-{i}")
                shot_choices = True
            if act_if_called(page):
                acted += 1
        time.sleep(0.15)
    wait_for(lambda: stage(host) == "discussion", what="day")
    shots(host, "07-host-day")

    # A structured claim reaches the table.
    claimer = phones[2]
    claimer.wait_for_selector("[data-testid=claim]")
    claimer.select_option("#claim-role", label="Seer")
    claimer.click("[data-testid=claim]")
    wait_for(lambda: "Carla says: “I am the Seer.”" in host.inner_text("#main"), what="claim")
    # The same claim again (a double tap) is not sent twice: the phone says so.
    claimer.click("[data-testid=claim]")
    wait_for(lambda: claimer.is_visible("#toast"), what="the refusal")
    assert claimer.inner_text("#toast") == "You have said that already."
    time.sleep(0.5)
    assert host.inner_text("#main").count("Carla says: “I am the Seer.”") == 1
    shots(claimer, "08-phone-day-claims")

    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "vote", what="vote")
    for i, page in enumerate(phones):
        page.wait_for_selector("[data-testid=vote] [data-kind=vote]")
        if i == 0:
            shots(page, "09-phone-vote")
        page.locator("[data-testid=vote] [data-kind=vote]").first.click()
        page.wait_for_selector("[data-testid=voted], [data-testid=outcome]")
    wait_for(lambda: stage(host) == "over", what="the end")
    host.wait_for_selector("[data-testid=timeline] li")
    shots(host, "10-host-end")
    outcome = host.inner_text("[data-testid=outcome]")
    assert "Winners" in outcome or "Nobody wins" in outcome
    timeline = host.inner_text("[data-testid=timeline]")
    assert "Dealt:" in timeline and "Vote:" in timeline
    for page in phones:
        page.wait_for_selector("[data-testid=timeline] li", state="attached")
        assert page.inner_text("[data-testid=outcome]") == outcome
    shots(phones[3], "11-phone-end")
    # The evil name never ran as markup anywhere.
    for page in (host, *phones):
        assert page.evaluate("window.p") is None
        assert page.locator("img[src=x]").count() == 0
    assert not errors, errors
    # A spectator sees the same public end.
    watch = browser.new_context(**PHONE).new_page()
    watch.goto(f"{server.url}/watch/{code}")
    watch.wait_for_selector("[data-testid=outcome]")
    assert watch.inner_text("[data-testid=outcome]") == outcome

    # Play again: the host starts the next game; every page moves to the new room by
    # itself and the five players sit down again under their own names.
    host.click("[data-testid=play-again]")
    host.wait_for_url(lambda url: "/host/" in url and not url.endswith(f"/host/{code}"))
    new = host.url.rstrip("/").rsplit("/", 1)[1]
    host.wait_for_selector("[data-testid=deal]")  # the new room's lobby, as its host
    for page in (*phones, watch):
        page.wait_for_url(f"**/{new}")
    wait_for(lambda: host.locator("[data-testid=seats] li.on").count() == 5,
             what="the table in the new room")
    seated = host.inner_text("[data-testid=seats]")
    assert all(name in seated for name in NAMES)
    for page, name in zip(phones, NAMES, strict=True):
        page.wait_for_selector("[data-testid=seats]")
        assert page.inner_text("#me") == name
    watch.wait_for_selector("[data-testid=seats]")
    shots(host, "12-host-play-again")
    assert not errors, errors
    print(f"night choices made by phones: {acted}")
