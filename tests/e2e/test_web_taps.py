"""What a group trips over when tapping fast or opening a page directly: a double tap on a
vote is one vote and no false "the game moved on"; two different claims in a row both
count; the phone's hidden connection status speaks the room's language; an empty room
code on the front page says what to do."""

from __future__ import annotations

import time
from typing import Any

import pytest
from e2ehelpers import PHONE, Table, stage, wait_for

pytestmark = pytest.mark.timeout(120)


def test_a_double_tap_is_one_vote_and_no_false_error(browser: Any, server: Any) -> None:
    table = Table(browser, server.url, ("Ada", "Bruno", "Carla"), ruleset="onuw", seats=3,
                  call_seconds=1.0, discussion_seconds=300, language="de")
    host, ada, bruno = table.host, table.phones[0], table.phones[1]
    # The host's status in its header was English in a German room until the end.
    wait_for(lambda: host.text_content("#conn") == "Verbunden", what="the host's status")
    # The phone's hidden status for screen readers, after a reload too (it kept the page's first
    # language, English, when the room's arrived after it).
    for _ in range(2):
        wait_for(lambda: ada.text_content("#conn") == "Verbunden", what="the German status")
        ada.reload()
        ada.wait_for_selector("[data-testid=seats]")

    def headings() -> None:  # the shared screen speaks to the table, a phone to one
        wait_for(lambda: host.inner_text("#stage") == "Seht euch eure Karten an",
                 what="the host's heading")
        assert ada.inner_text("#stage") == "Schau deine Karte an"

    table.deal_to_day(at_dusk=headings)
    # Two different claims in quick succession: both reach the table.
    bruno.wait_for_selector("[data-testid=claim]")
    bruno.click("[data-testid=claim]")
    bruno.click("[data-testid=claim-saw]")
    wait_for(lambda: host.inner_text("#main").count("Bruno sagt:") == 2, what="both claims")
    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "vote", what="vote")
    vote = ada.locator("[data-testid=vote] [data-kind=vote]").first
    vote.wait_for()
    vote.dblclick()
    ada.wait_for_selector("[data-testid=voted]")
    time.sleep(1.0)  # (the server's answer to a second tap would have come by now)
    assert not ada.is_visible("#toast"), ada.inner_text("#toast")
    assert table.errors == []


def test_an_empty_room_code_says_what_to_type(browser: Any, server: Any) -> None:
    page = browser.new_context(**PHONE, locale="it-IT").new_page()
    page.goto(server.url)
    wait_for(lambda: page.get_attribute("#join-code", "placeholder") == "Codice della stanza",
             what="the Italian page")
    page.click("#join-form button")
    error = page.locator("#join-error")
    wait_for(lambda: error.inner_text() != "", what="the refusal")
    assert error.inner_text() == ("Scrivi il codice della stanza: è sullo schermo condiviso, "
                                  "sotto il codice QR.")
    assert page.evaluate("document.activeElement.id") == "join-code"
    assert page.url.rstrip("/") == server.url.rstrip("/")
