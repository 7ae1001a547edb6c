"""Web Speech on the host screen, with the browser's speech replaced by a recorder.

Headless Chromium has no voices, so an init script swaps ``speechSynthesis`` and
``SpeechSynthesisUtterance`` for a recorder (it never reports the end of a line, as
a stuck synthesizer would not). Three host screens watch one Italian room: one with
an Italian voice (it is muted and unmuted mid-night), one with no voice at all, one
with no speech API at all. Each must show the narration at the clock's pace; the
ones that can speak say exactly the lines shown, in order, as ``it-IT``."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from e2ehelpers import stage, wait_for

from nightcall.engine.ruleset import get_ruleset
from nightcall.server.narration import call_line, dusk_line, stage_line

pytestmark = pytest.mark.timeout(120)

RECORDER = """
(() => {
  const voices = %s;
  window.__spoken = [];
  window.__cancels = 0;
  window.__shown = [];
  if (voices === null) {  // no speech API in this browser at all
    try { delete window.speechSynthesis; } catch (e) {}
    Object.defineProperty(window, "speechSynthesis", { value: undefined, configurable: true });
    return;
  }
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; }
  };
  const synth = {
    speak(u) {
      window.__spoken.push({ text: u.text, lang: u.lang, voice: u.voice ? u.voice.name : null });
    },
    cancel() { window.__cancels += 1; },
    getVoices() { return voices; },
    pause() {}, resume() {}, speaking: false, pending: false, paused: false,
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
})();
// Every narration the page shows, in order (to compare with what it says).
document.addEventListener("DOMContentLoaded", () => {
  const el = document.querySelector("[data-testid=narration]");
  new MutationObserver(() => {
    const text = el.textContent;
    const shown = window.__shown;
    if (text && shown[shown.length - 1] !== text) shown.push(text);
  }).observe(el, { childList: true, characterData: true, subtree: true });
});
"""

ITALIAN_VOICE = [{"name": "Voce italiana", "lang": "it-IT", "default": True}]


def host_page(browser: Any, url: str, voices: list[dict[str, Any]] | None,
              errors: list[str]) -> Any:
    ctx = browser.new_context(viewport={"width": 1100, "height": 760})
    ctx.add_init_script(RECORDER % json.dumps(voices))
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("[data-testid=deal]")  # the host's lobby
    return page


def spoken(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__spoken"))


def shown(page: Any) -> list[str]:
    return list(page.evaluate("window.__shown"))


def test_the_host_screen_speaks_the_narration_in_the_rooms_language(
        browser: Any, server: Any, shots: Any) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={
        "ruleset": "onuw", "seats": 3, "call_seconds": 2, "discussion_seconds": 120,
        "vote_seconds": 30, "language": "it"})
    assert r.status_code == 201, r.text
    code, token = r.json()["room"], r.json()["host_token"]
    url = f"{server.url}/host/{code}#{token}"
    errors: list[str] = []
    voiced = host_page(browser, url, ITALIAN_VOICE, errors)
    silent = host_page(browser, url, [], errors)  # a browser without any voice
    bare = host_page(browser, url, None, errors)  # a browser without speech at all
    mute = voiced.locator("[data-testid=mute]")
    assert mute.get_attribute("aria-pressed") == "false"
    assert mute.inner_text().strip() == "Zittisci il narratore"  # the room's words

    voiced.click("[data-testid=deal]")  # the bots take the three seats
    # Dusk: everyone looks at their card while the opening is read, before any call.
    wait_for(lambda: stage(voiced) == "dusk", what="dusk")
    wait_for(lambda: len(spoken(voiced)) >= 1 and spoken(voiced)[-1]["text"].startswith(
        "Guardate ora la vostra carta") and "Le carte in gioco" in spoken(voiced)[-1]["text"],
        what="the opening spoken")
    wait_for(lambda: stage(voiced) == "night", what="night")
    wait_for(lambda: spoken(voiced)[-1]["text"].startswith("Lupi"), what="the first call spoken")
    before = len(spoken(voiced))
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    assert voiced.evaluate("window.__cancels") >= 1  # the line being said stops at once
    assert mute.inner_text().strip() == "Ridai la voce al narratore"
    # The next call comes and is shown, but a muted host says nothing.
    wait_for(lambda: len(shown(voiced)) >= 2 and shown(voiced)[-1].startswith("Veggente"),
             what="the next call shown", timeout=15)
    assert len(spoken(voiced)) == before
    mute.click()
    wait_for(lambda: stage(voiced) == "discussion", what="the day", timeout=40)
    wait_for(lambda: stage(silent) == "discussion" and stage(bare) == "discussion",
             what="the day on every screen")
    day = voiced.inner_text("[data-testid=narration]").strip()
    wait_for(lambda: spoken(voiced)[-1]["text"] == day, what="the day spoken after unmuting")
    shots(voiced, "speech-01-host-day")

    # What the narrator should say: the script's Italian lines for this deck, in order.
    rs = get_ruleset("onuw")
    roles = httpx.get(f"{server.url}/api/rooms/{code}").json()["settings"]["roles"]
    calls = rs.night_calls(roles)
    expected = [dusk_line("onuw", "it", roles)]
    expected += [call_line("onuw", c, "it", roles, 1) for c in calls]
    expected.append(stage_line("onuw", "discussion", "it", {}, 120))
    assert expected[-1] == day

    # No voice at all: every line is still handed over, as it-IT, in the order shown,
    # and the text advanced although the recorder never reported a line as finished.
    said = spoken(silent)
    assert all(u["lang"] == "it-IT" and u["voice"] is None for u in said)
    texts = [u["text"] for u in said]
    assert texts[-len(expected):] == expected, texts
    assert texts == [line for line in shown(silent) if line in texts]
    assert shown(silent)[-len(expected):] == expected
    # The Italian voice spoke the same lines, as it-IT, minus those said while muted.
    voiced_said = spoken(voiced)
    assert all(u["lang"] == "it-IT" and u["voice"] == "Voce italiana" for u in voiced_said)
    voiced_texts = [u["text"] for u in voiced_said]
    assert expected[0] in voiced_texts and expected[1] in voiced_texts
    assert expected[2] not in voiced_texts  # the call shown while muted
    assert voiced_texts[-1] == expected[-1]
    assert [t for t in texts if t in voiced_texts] == voiced_texts  # same order
    # No speech API: the same lines shown, nothing broken.
    assert bare.evaluate("window.speechSynthesis") is None
    assert shown(bare)[-len(expected):] == expected
    # The choice is kept on this screen for the next game.
    mute.click()
    voiced.reload()
    voiced.wait_for_selector("[data-testid=seats]")
    assert voiced.get_attribute("[data-testid=mute]", "aria-pressed") == "true"
    assert not errors, errors
