"""A Lupus in Tabula night and day in a real browser: three phones and four bots.

The host screen narrates the night, announces the dawn, runs the accusations
in seat order, the Suspects' defense and the execution, then the next night."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE, act_if_called, stage, wait_for

pytestmark = pytest.mark.timeout(180)


def test_lupus_night_and_day(browser: Any, server: Any, shots: Any) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={
        "ruleset": "lupus", "seats": 7, "call_seconds": 1.5, "discussion_seconds": 60,
        "vote_seconds": 6, "defense_seconds": 60, "language": "it"})
    assert r.status_code == 201, r.text
    code, token = r.json()["room"], r.json()["host_token"]
    host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{server.url}/host/{code}#{token}")
    phones = []
    for name in ("Ada", "Ben", "Cleo"):
        page = browser.new_context(**PHONE).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/play/{code}")
        page.fill("#name", name)
        page.click("[data-testid=join]")
        page.wait_for_selector("[data-testid=seats]")
        phones.append(page)
    wait_for(lambda: host.locator("[data-testid=seats] li.on").count() == 3, what="3 phones")
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    assert host.inner_text("[data-testid=stage]").strip() == "Notte"  # an Italian room
    assert phones[0].inner_text("[data-testid=card]").startswith("Tocca")
    shots(host, "lupus-01-host-night")
    while stage(host) == "night":
        for page in phones:
            act_if_called(page)
        time.sleep(0.15)
    wait_for(lambda: stage(host) in ("discussion", "over"), what="dawn")
    if stage(host) == "over":  # a one-night game is possible but rare
        return
    table = host.inner_text("#main")
    assert "Alba:" in table and "Dawn:" not in table  # the event sentences are Italian too
    assert host.inner_text("[data-testid=open-vote]").strip() == "Apri subito il voto"
    shots(host, "lupus-02-host-dawn")
    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "accuse", what="accusations")
    accused = False
    while stage(host) == "accuse":
        for i, page in enumerate(phones):
            if page.locator("[data-testid=vote]").count():
                if not accused:
                    shots(page, f"lupus-03-phone-accuse-{i}")
                accused = act_if_called(page) or accused
        time.sleep(0.15)
    wait_for(lambda: stage(host) in ("defense", "night", "over"), what="defense")
    if stage(host) == "defense":
        assert "Sospettati:" in host.inner_text("#main")
        shots(host, "lupus-04-host-defense")
        host.click("[data-testid=open-vote]")
        wait_for(lambda: stage(host) in ("execute", "night", "over"), what="execution")
        while stage(host) == "execute":
            for page in phones:
                act_if_called(page)
            time.sleep(0.15)
    wait_for(lambda: stage(host) in ("night", "over"), what="the next night")
    text = host.inner_text("#main")
    assert "va al rogo." in text or stage(host) == "over"
    shots(host, "lupus-05-host-next-night")
    # A phone shows the ghost's screen exactly when the table lists that player as a ghost.
    ghosts = host.locator("[data-testid=seats] li[data-ghost=yes]").all_inner_texts()
    assert ghosts, "somebody died in the night or the day"
    for page in phones:
        ghost = page.locator("[data-testid=ghost]").count() > 0
        listed = any(g.startswith(page.inner_text("#me")) and "(bot)" not in g for g in ghosts)
        assert ghost == listed
    assert not errors, errors
