"""An Epic Battle game in a real browser: three phones and two bots, to the end.

The night's calls (with symbol tokens when the deck has them) pace the phones;
at dawn a phone holding an artifact shows it with its instruction; the end screen
gives the judge's reasoning in the room's German, and every phone shows the cards face
up as the host does."""

from __future__ import annotations

import time
from typing import Any

import pytest
from e2ehelpers import Table, act_if_called, stage, wait_for

pytestmark = pytest.mark.timeout(180)


def test_epic_game_to_the_end(browser: Any, server: Any, shots: Any) -> None:
    table = Table(browser, server.url, ("Uta", "Vera", "Wim"),
                  ruleset="epic", seats=5, call_seconds=1.5, discussion_seconds=60,
                  vote_seconds=30, language="de")
    host, phones, errors = table.host, table.phones, table.errors
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    assert host.inner_text("[data-testid=stage]").strip() == "Nacht"  # a German room
    narration = host.inner_text("[data-testid=narration]")
    assert narration.strip() and "wake up" not in narration  # German lines, not the fallback
    while stage(host) == "night":
        for page in phones:
            act_if_called(page)
        time.sleep(0.15)
    wait_for(lambda: stage(host) == "discussion", what="day")
    shots(host, "epic-01-host-day")
    for i, page in enumerate(phones):
        if page.locator("[data-testid=artifact]").count():
            shots(page, f"epic-02-phone-artifact-{i}")
    assert host.inner_text("[data-testid=open-vote]").strip() == "Abstimmung jetzt eröffnen"
    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "vote", what="vote")
    for page in phones:
        page.wait_for_selector("[data-testid=vote] [data-testid=choice]")
        page.locator("[data-testid=vote] [data-testid=choice]").first.click()
    wait_for(lambda: stage(host) == "over", what="the end", timeout=40)
    host.wait_for_selector("[data-testid=timeline] li")
    outcome = host.inner_text("[data-testid=outcome]")
    assert "Gewonnen haben:" in outcome or "Niemand gewinnt" in outcome
    # The judge's reasoning, in German too (it ends with who won, or that nobody did).
    why = host.locator("[data-testid=explanation] li").all_inner_texts()
    assert why[-1].startswith("Gewinner:") or why[-1] == "Niemand gewinnt.", why
    assert not any(line.startswith(("Winners:", "Nobody", "The vote")) for line in why), why
    assert host.get_attribute("[data-testid=explanation]", "lang") is None
    timeline = host.inner_text("[data-testid=timeline]")
    assert why[-1] not in timeline  # shown once, under the winners
    assert "Ausgeteilt:" in timeline and "Dealt:" not in timeline  # the account, in German
    # A phone's event sentence (the phone hears of the end as the host does, not before).
    # (folded at the end: its text, open or not)
    wait_for(lambda: "Die Abstimmung:" in phones[0].text_content("[data-testid=known]"),
             what="the vote on the phone")
    assert "The vote:" not in phones[0].text_content("[data-testid=known]")
    # Every card face up on the phones too (a table with no shared screen), as the host
    # shows them: each seat's card and caption, then the center.
    cards = "[data-testid=faceup] [data-testid=seats] .mini-card"
    center = "[data-testid=center-cards] .mini-card > span"
    host.wait_for_selector(center)
    seen = host.locator(cards).all_inner_texts()
    assert len(seen) == 5 and host.locator(center).count() == 3, seen
    for page in phones:
        page.wait_for_selector("[data-testid=outcome]")
        assert page.inner_text("[data-testid=outcome]") == outcome
        page.wait_for_selector(center)
        wait_for(lambda p=page: p.locator(cards).all_inner_texts() == seen,
                 what="the phone's cards as the host's")
        assert page.locator(center).all_inner_texts() == host.locator(center).all_inner_texts()
    shots(phones[0], "epic-03-phone-end")
    assert not errors, errors
