"""Every role's name, in every language, fits the player's card on a 360 px phone
whole: a long word ("Troublemaker", "Dorfbewohner") shrinks instead of breaking in the
middle ("Troublem" above "aker", as the card showed until session 20), and stays large
enough to read at arm's length."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE_360, Table, stage, wait_for

pytestmark = pytest.mark.timeout(120)

LEAST_PX = 16.0  # the card's name, however long: no smaller than body text

# Each name put on the card as play.js puts it there (cardName), measured at once.
MEASURE = """async (names) => {
  const { cardName } = await import("/static/js/common.js");
  const card = document.querySelector("[data-testid=card]");
  const style = getComputedStyle(card);
  const room = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const out = [];
  for (const name of names) {
    const el = cardName("strong", name);
    card.querySelector("strong").replaceWith(el);
    // A word broken over two lines has two boxes (the old card: "Troublem" + "aker").
    const text = el.firstChild, range = document.createRange();
    let broken = 0, at = 0;
    for (const word of name.split(" ")) {
      at = name.indexOf(word, at);
      range.setStart(text, at); range.setEnd(text, at + word.length);
      if (range.getClientRects().length > 1) broken += 1;
      at += word.length;
    }
    out.push([name, el.scrollWidth, room, parseFloat(getComputedStyle(el).fontSize), broken]);
  }
  return out;
}"""


def test_every_role_name_fits_the_card_at_360_px(browser: Any, server: Any, shots: Any) -> None:
    rulesets = httpx.get(f"{server.url}/api/rulesets").json()
    names = sorted({name for rs in rulesets
                    for by_role in rs["role_names"].values() for name in by_role.values()})
    assert "Troublemaker" in names and len(names) > 100  # every game, every language
    table = Table(browser, server.url, ("Noa",), ruleset="onuw", seats=3, language="en",
                  call_seconds=30)
    phone = table.phones[0]
    phone.set_viewport_size(PHONE_360["viewport"])
    table.host.click("[data-testid=deal]")
    wait_for(lambda: stage(table.host) == "dusk", what="dusk")
    phone.click("[data-testid=card]")  # face up, as a player reads it
    measured = phone.evaluate(MEASURE, names)
    assert len(measured) == len(names)
    broken = [name for name, *_, words in measured if words]
    assert broken == []
    too_wide = [(name, width, room) for name, width, room, *_ in measured if width > room + 0.5]
    assert too_wide == [], sorted(measured, key=lambda m: -m[1])[:8]
    too_small = [(name, px) for name, _, _, px, _ in measured if px < LEAST_PX]
    assert too_small == [], sorted(measured, key=lambda m: m[3])[:8]
    # The longest name, as the player would see it.
    longest = max(names, key=lambda n: max(len(w) for w in n.replace("-", " ").split()))
    phone.evaluate(MEASURE, [longest])
    shots(phone, "card-longest-name-360")
    assert not table.errors, table.errors
