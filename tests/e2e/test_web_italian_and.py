"""The pages' Italian says "ed" before a word that starts with e, as the server's
Italian does (narration/locale.py): "Carla, Dario ed Elena"."""

from __future__ import annotations

from typing import Any

import pytest
from e2ehelpers import Table, wait_for

pytestmark = pytest.mark.timeout(60)

SAY = """async () => {
  const m = await import("/static/js/text.js");
  const said = () => [m.list(["Carla", "Dario", "Elena"]), m.list(["Ada", "Bruno"]),
                      m.t("list.and", { rest: "Ugo", last: "Èrica" })];
  const english = said();
  m.setLanguage("it");
  while (m.t("nobody") === "nobody") await new Promise((r) => setTimeout(r, 50));
  return [english, said()];
}"""


def test_the_pages_italian_says_ed_before_e(browser: Any, server: Any) -> None:
    page = browser.new_page()
    # (a page of the site that runs no script of its own: the front page sets its own
    # language while this one is loading, and the last word wins)
    page.goto(f"{server.url}/static/locales/en.json")
    english, italian = page.evaluate(SAY)
    assert english == ["Carla, Dario and Elena", "Ada and Bruno", "Ugo and Èrica"]
    assert italian == ["Carla, Dario ed Elena", "Ada e Bruno", "Ugo ed Èrica"]
    page.close()


def test_the_phones_swap_claim_says_ed_before_the_card_picked(browser: Any, server: Any,
                                                              shots: Any) -> None:
    """The claim form's "e" between two drop-downs follows the second card picked."""
    table = Table(browser, server.url, ("Ada", "Bruno", "Elena"), ruleset="onuw", seats=3,
                  call_seconds=1.0, discussion_seconds=300, language="it")
    host, ada = table.host, table.phones[0]
    table.deal_to_day()
    ada.wait_for_selector("[data-testid=claim-swap]")
    said = ada.locator("[data-testid=claim-and]")
    assert ada.input_value("#swap-b") == "1" and said.inner_text() == "e"  # e Bruno
    ada.select_option("#swap-b", label="Elena")
    wait_for(lambda: said.inner_text() == "ed", what="ed before Elena")
    shots(ada, "claim-swap-ed-it")
    ada.select_option("#swap-b", label="Bruno")
    wait_for(lambda: said.inner_text() == "e", what="e before Bruno")
    # The pick and its word survive another player's claim, which redraws the form.
    ada.select_option("#swap-b", label="Elena")
    table.phones[1].click("[data-testid=claim]")
    wait_for(lambda: "Bruno dice: «Sono" in host.inner_text("#main"), what="Bruno's claim")
    assert ada.input_value("#swap-b") == "2" and said.inner_text() == "ed"
    ada.click("[data-testid=claim-swap]")
    wait_for(lambda: "Ada dice: «Ho scambiato" in host.inner_text("#main"), what="Ada's claim")
    assert "Ada dice: «Ho scambiato la mia carta e la carta di Elena.»" in host.inner_text("#main")
    assert table.errors == []
