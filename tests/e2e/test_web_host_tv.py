"""The host screen on a 1920x1080 TV shows each stage without scrolling: a TV cannot
scroll, what is below 1080 px is never seen. Big rooms in German (the longest words):
Epic Battle at 10 seats with a long scenario, Lupus at 17 seats, played by bots from
the lobby to the end; and an 8-seat Italian Epic room on a laptop's 1366x768. At the
end a wide TV gives the cards most of its width (two rows of five for ten seats, the
center below them; three rows of six for seventeen); what is still longer (Lupus's
story) rolls inside its column.
Screenshots of each stage go to test-artifacts/e2e/."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from e2ehelpers import HOST_TV, stage

from nightcall.engine.records import replay
from nightcall.narration.locale import load

pytestmark = pytest.mark.timeout(600)

ROOMS = {
    "epic-10": {"ruleset": "epic", "seats": 10, "scenario": "epic_battle_the_last_showdown"},
    "lupus-17": {"ruleset": "lupus", "seats": 17},
    # A laptop as the shared screen (1366x768), in Italian.
    "epic-8-laptop": {"ruleset": "epic", "seats": 8, "scenario": "werewolf_night",
                      "language": "it"},
}
SCREENS = {"epic-8-laptop": {"viewport": {"width": 1366, "height": 768}}}


def page_height(page: Any) -> int:
    return int(page.evaluate("document.scrollingElement.scrollHeight"))


@pytest.mark.parametrize("room", ROOMS)
def test_every_stage_fits_a_tv(browser: Any, server: Any, shots: Any, room: str) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={
        "language": "de", **ROOMS[room], "call_seconds": 1.2, "discussion_seconds": 600,
        "vote_seconds": 4, "defense_seconds": 3})
    assert r.status_code == 201, r.text
    code, token = r.json()["room"], r.json()["host_token"]
    errors: list[str] = []
    screen = SCREENS.get(room, HOST_TV)
    height = screen["viewport"]["height"]
    host = browser.new_context(**screen).new_page()
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{server.url}/host/{code}#{token}")
    host.wait_for_selector("[data-testid=deal]")
    host.wait_for_selector(".deck-list li")
    host.wait_for_selector("[data-testid=table-keep] h2")  # (it arrives after the lobby)
    heights: dict[str, int] = {}

    def look(name: str) -> None:
        time.sleep(0.3)  # (the page settles: fonts, the fit steps)
        heights[name] = page_height(host)
        shots(host, f"host-tv-{room}-{len(heights):02d}-{name}")
        assert seats_apart(host), (name, seats_apart(host, which=True))
        if name == "over":
            assert host.evaluate(END_WHOLE) == [], name


    look("lobby")
    host.click("[data-testid=deal]")
    deadline = time.monotonic() + 500
    while time.monotonic() < deadline:
        now = stage(host)
        # A night with a role called (the deck, the call and the circle all on screen).
        if now == "night" and not host.locator(".call-name").count():
            now = ""
        if now and now not in heights:
            if now == "over":
                host.wait_for_selector("[data-testid=faceup] .mini-card")
                host.wait_for_selector("[data-testid=timeline] li")
            look(now)
            if now == "over":
                break
        button = host.locator("[data-testid=open-vote]")
        # (only in the discussion: a click while the night still runs would skip it)
        if now == "discussion" and now in heights and button.count():
            button.click()
        time.sleep(0.1)
    assert "over" in heights, f"the game did not end: {list(heights)}"
    for must in ("lobby", "dusk", "night", "discussion", "over"):
        assert must in heights, (must, list(heights))
    assert {name: h for name, h in heights.items() if h > height} == {}, heights
    # Ten seats on a TV in two rows of five, seventeen in three rows of six; eight on a
    # laptop in two rows of four.
    xs = host.evaluate("[...document.querySelectorAll("
                       "'[data-testid=faceup] [data-testid=seats] > li')]"
                       ".map((li) => Math.round(li.getBoundingClientRect().x))")
    assert len(set(xs)) == {"epic-10": 5, "lupus-17": 6, "epic-8-laptop": 4}[room], xs
    if room == "lupus-17":
        end_columns_roll(host)
    if room == "epic-10":  # the center's cards show below the seats', without rolling
        host.wait_for_selector("[data-testid=center-cards] .mini-card")
        bottom = host.evaluate("Math.max(...[...document.querySelectorAll("
                               "'[data-testid=center-cards] .mini-card')]"
                               ".map((c) => c.getBoundingClientRect().bottom))")
        panel = host.locator("[data-testid=faceup]").bounding_box()
        assert bottom <= panel["y"] + panel["height"], (bottom, panel)
    # The cards nobody holds, as they lie (replayed from the record): Epic's center and
    # the extra werewolf card beside it; Lupus has none.
    _, final = replay(httpx.get(f"{server.url}/api/rooms/{code}/record").json())
    rid = ROOMS[room]["ruleset"]
    left = [*getattr(final, "center", [])]
    if getattr(final, "extra_pos", -1) >= 0:
        left.append(final.cards[final.extra_pos])
    if left:
        host.wait_for_selector("[data-testid=center-cards] .mini-card")
    names = host.locator("[data-testid=center-cards] .mini-card > span").all_inner_texts()
    assert names == [load(ROOMS[room].get("language", "de")).role(rid, r) for r in left], names
    assert errors == []


# The seats around the table whose boxes cover each other's (their round corners may
# touch: 16 px each way is more than a corner).
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('.table-circle .seats.circle > li')]
    .map((li) => [li.innerText.replace(/\\s+/g, ' '), li.getBoundingClientRect()]);
  const out = [];
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    if (w > 16 && h > 16) out.push([a, b, Math.round(w), Math.round(h)]);
  }));
  return out;
}"""


def seats_apart(host: Any, which: bool = False) -> Any:
    """No seat on the table covers another (session 26: a tagged Suspect's seat, widened
    by its tag, covered its neighbour's at seventeen seats)."""
    found = host.evaluate(OVERLAPS)
    return found if which else not found


COLUMNS = ("[...document.querySelectorAll("
           "'.end-grid > *, .end-grid .outcome, .end-grid .timeline ol')]")

# The end's faults: who won and why cut (below the window, or scrolled in its box); a
# role's name with no room on its card; the whole game's list out of its box.
END_WHOLE = """() => {
  const out = [];
  const o = document.querySelector('.end-grid .outcome');
  const r = o.getBoundingClientRect();
  const cut = o.scrollHeight > o.clientHeight + 1;
  if (r.top < 0 || r.bottom > innerHeight || cut) out.push('outcome');
  for (const s of document.querySelectorAll('.faceup-grid .mini-card > span')) {
    const c = s.parentNode.getBoundingClientRect(), q = s.getBoundingClientRect();
    if (q.left < c.left + 2 || q.right > c.right - 2) out.push(s.textContent);
  }
  const tl = document.querySelector('.end-grid > .timeline');
  const ol = tl.querySelector('ol').getBoundingClientRect();
  if (ol.bottom > tl.getBoundingClientRect().bottom) out.push('timeline');
  return out;
}"""


def end_columns_roll(host: Any) -> None:
    """Seventeen seats' cards and story are longer than a TV: their columns roll by
    themselves, even under a cursor left parked on one; with reduced motion they stay."""
    longer = host.evaluate(f"{COLUMNS}.filter((el) => el.scrollHeight - el.clientHeight > 40)"
                           ".map((el) => el.getBoundingClientRect().toJSON())")
    assert longer, "nothing on this end screen is longer than the TV"
    box = longer[0]
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.wait_for_function(f"() => {COLUMNS}.some((el) => el.scrollTop > 20)",
                           timeout=20_000)
    host.emulate_media(reduced_motion="reduce")
    time.sleep(0.2)
    before = host.evaluate(f"{COLUMNS}.map((el) => el.scrollTop)")
    time.sleep(1.5)
    assert host.evaluate(f"{COLUMNS}.map((el) => el.scrollTop)") == before
