"""Issue 17's last pieces on the pages: the seat circle dragged with a finger on a
360 px screen, a missing room said in the visitor's language, one name for a center
card on every page, and the host's night ambience really sounding in Chromium."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from e2ehelpers import HOST_TV, PHONE_360, ambience_is_heard, axe_violations, sideways, wait_for

from nightcall.narration.locale import load
from nightcall.narration.render import Renderer

pytestmark = pytest.mark.timeout(120)


def touch_drag(page: Any, frm: Any, to: Any, steps: int = 8) -> None:
    """A finger's drag from the middle of one element to the middle of another, as
    touch events through the debugging protocol (Playwright's touchscreen only taps)."""
    a, b = frm.bounding_box(), to.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 4  # the name, not the arrows
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 4
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_finger_drags_a_seat_round_the_circle_on_a_small_screen(
        browser: Any, server: Any, shots: Any) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={"ruleset": "onuw", "seats": 4})
    code, token = r.json()["room"], r.json()["host_token"]
    host = browser.new_context(**PHONE_360).new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{server.url}/host/{code}#{token}")
    host.wait_for_selector("[data-testid=deal]")
    for _ in range(4):
        host.click("text=Add a bot")
    seat = "[data-testid=seats] li[data-seat='{}']".format
    wait_for(lambda: host.locator(seat(3)).count() == 1, what="four seats")
    names = lambda: host.locator("[data-testid=seats] li .name").all_inner_texts()  # noqa: E731
    before = names()
    host.locator(seat(0)).scroll_into_view_if_needed()
    touch_drag(host, host.locator(seat(0)), host.locator(seat(2)))
    # The first seat's player now sits where the third was; the others close up.
    want = [before[1], before[2], before[0], before[3]]
    wait_for(lambda: names() == want, what=f"the order {want}, not {names()}")
    lobby = httpx.get(f"{server.url}/api/rooms/{code}").json()
    assert [s["name"] for s in lobby["seats"]] == want  # the server's order, not a picture
    # A tap that hardly moves changes nothing (a finger resting on a name).
    touch_drag(host, host.locator(seat(1)), host.locator(seat(1)))
    host.wait_for_timeout(400)
    assert names() == want
    assert sideways(host) == 0
    assert axe_violations(host) == []
    shots(host, "finish-01-host-360-dragged")
    assert not errors, errors


@pytest.mark.parametrize(("locale", "picked", "words"), [
    ("it-IT", None, "La stanza ZZZZ non esiste"),
    ("de-DE", None, "Den Raum ZZZZ gibt es nicht"),
    ("en-US", "it", "La stanza ZZZZ non esiste"),  # the front page's choice wins
    ("fr-FR", None, "There is no room ZZZZ"),      # a language we lack: English
])
def test_a_missing_room_is_said_in_the_visitors_language(
        browser: Any, server: Any, locale: str, picked: str | None, words: str) -> None:
    ctx = browser.new_context(locale=locale, **PHONE_360)
    if picked:
        ctx.add_init_script(f"localStorage.setItem('nightcall:language', {json.dumps(picked)})")
    page = ctx.new_page()
    page.goto(f"{server.url}/play/ZZZZ")
    wait_for(lambda: words in page.inner_text("[data-testid=join-error]"),
             what=f"{words!r} on the page")
    assert page.locator("#join-form").is_hidden()  # no name asked for a room that is not
    lang = (picked or locale.split("-")[0]) if words[:5] != "There" else "en"
    assert page.evaluate("document.documentElement.lang") == lang
    back = page.locator("#join-back a")
    assert back.is_visible() and back.inner_text().strip() not in ("", "join.back")
    assert axe_violations(page) == []
    ctx.close()


def front_page(browser: Any, server: Any) -> Any:
    page = browser.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#ruleset option", state="attached")
    return page


# The page's words module in a language: ``text`` in the function's body.
IN_LANGUAGE = """async (lang) => {
    const text = await import("/static/js/text.js");
    await new Promise((done) => { text.setLanguage(lang, done); setTimeout(done, 2000); });
    %s
}"""


def test_the_page_reads_each_rulesets_role_help_in_its_language(browser: Any,
                                                                  server: Any) -> None:
    """The role help comes from each ruleset's own locales (issue #13), served with the
    pages' words."""
    page = front_page(browser, server)
    keys = ["help.onuw.seer", "help.epic.the_thing", "help.lupus.owl"]
    for lang in ("en", "it", "de"):
        got = page.evaluate(IN_LANGUAGE % f"return {keys!r}.map((k) => text.t(k));", lang)
        assert got == [load(lang).lines[k] for k in keys], (lang, got)
    page.close()


def test_a_center_card_has_the_accounts_name_on_every_page(browser: Any, server: Any) -> None:
    page = front_page(browser, server)
    for lang in ("en", "it", "de"):
        got = page.evaluate(IN_LANGUAGE % """
            const players = ["Ada", "Bea", "Cy"];
            return {
              names: [0, 1, 2].map((i) => text.centerName(i)),
              claim: text.positionName(players, 4),
              look: text.actionLabel({ kind: "look_center", a: 2 }, players),
              two: text.actionLabel({ kind: "look_center", a: 2, b: 0 }, players),
            };""", lang)
        words = load(lang)
        # the account's word for a center card (event.word.center since issue #13)
        account = [words.line("event.word.center", n=i) for i in (1, 2, 3)]
        assert got["names"] == account, (lang, got)  # the end's account says the same
        assert got["claim"] == account[1]
        assert account[2] in got["look"]
        # the timeline's sentences are the server's renderer's: the same word there
        saw = Renderer("onuw", ["Ada", "Bea", "Cy"], 0, lang).event(
            {"kind": "saw", "center": 1, "card": "seer"})
        assert saw is not None and account[1] in saw
        assert "1" in got["two"] and "3" in got["two"]
        for old in ("left", "middle", "right", "sinistra", "mezzo", "destra", "linke",
                    "mittlere", "rechte"):
            assert old not in json.dumps(got), (lang, old, got)


PROBE = """
// Every node connected to the speakers is also connected to one analyser, so the
// test hears what the page sends out (headless Chromium has a silent audio sink).
(() => {
  const connect = AudioNode.prototype.connect;
  AudioNode.prototype.connect = function (target, ...rest) {
    if (target instanceof AudioDestinationNode) {
      const ctx = target.context;
      if (!ctx.__probe) {
        ctx.__probe = ctx.createAnalyser();
        ctx.__probe.fftSize = 2048;
        window.__probe = ctx.__probe;
        window.__ctx = ctx;
      }
      connect.call(this, ctx.__probe);
    }
    return connect.call(this, target, ...rest);
  };
})();
"""

LOUDNESS = """() => {
  const a = window.__probe;
  if (!a) return { state: "none", rms: 0 };
  const buf = new Float32Array(a.fftSize);
  a.getFloatTimeDomainData(buf);
  let sum = 0;
  for (const x of buf) sum += x * x;
  return { state: window.__ctx.state, rms: Math.sqrt(sum / buf.length) };
}"""


def test_the_night_ambience_is_heard(browser: Any, server: Any) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={"ruleset": "onuw", "seats": 3})
    code, token = r.json()["room"], r.json()["host_token"]
    ctx = browser.new_context(**HOST_TV)
    ctx.add_init_script(PROBE)
    page = ctx.new_page()
    page.goto(f"{server.url}/host/{code}#{token}")
    page.wait_for_selector("[data-testid=deal]")
    assert page.evaluate(LOUDNESS)["state"] == "none"  # no sound before anyone asks
    page.click(".sound-panel summary")  # the host's sound settings, folded away
    ambience_is_heard(page, LOUDNESS)
    ctx.close()
