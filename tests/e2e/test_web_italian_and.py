"""The pages' Italian says "ed" before a word that starts with e, as the server's
Italian does (narration/locale.py): "Carla, Dario ed Elena"."""

from __future__ import annotations

from typing import Any

import pytest

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
