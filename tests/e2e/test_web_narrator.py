"""Table mode in the browser (/table, issue 19), for the three games: the setup with
its 52-card pulls, night order and warnings; the narrated night heard through a Web
Speech recorder (every line in order, the pause, the breath after "close your eyes",
the same time for every call, Wake Lock); the day; the judge's verdict; the Lupus
Master from the deal to the end. Every stage passes axe-core, at laptop and phone
sizes. The page runs its pauses at ``?scale=`` speed; the recorder's voice ends each
line after 20 ms, as a quick synthesizer would."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE, PHONE_360, axe_violations, small_targets, wait_for
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from nightcall.narration.locale import load

pytestmark = pytest.mark.timeout(240)

SCALE = 0.05
RECORDER = """
(() => {
  window.__spoken = [];
  window.__locks = [];
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; this.onend = null; }
  };
  const synth = {
    speak(u) {
      const said = { text: u.text, lang: u.lang, at: performance.now(), end: null };
      window.__spoken.push(said);
      setTimeout(() => { said.end = performance.now(); if (u.onend) u.onend(); }, 20);
    },
    cancel() {}, getVoices() { return [{ name: "Test voice", lang: "%s", default: true }]; },
    pause() {}, resume() {}, speaking: false, pending: false, paused: false,
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
  const lock = { released: false, addEventListener() {},
    release() { this.released = true; window.__locks.push("release"); return Promise.resolve(); } };
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
    request(kind) { window.__locks.push(kind); return Promise.resolve(lock); } } });
})();
"""
LOCALE = {"en": "en-US", "it": "it-IT", "de": "de-DE"}


def open_table(browser: Any, url: str, lang: str = "en", phone: Any = False,
               errors: list[str] | None = None) -> Any:
    size = PHONE_360 if phone == 360 else PHONE
    ctx = browser.new_context(**size) if phone else browser.new_context(
        viewport={"width": 1920, "height": 1080})
    ctx.add_init_script(RECORDER % LOCALE[lang])
    ctx.add_init_script(f"localStorage.setItem('nightcall:language', '{lang}');")
    page = ctx.new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/table?scale={SCALE}")
    page.wait_for_selector("[data-testid=start]", timeout=60000)  # (a busy CI machine)
    return page


def spoken(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__spoken"))


def choose(page: Any, game: str, players: int) -> None:
    page.select_option("[data-testid=game]", game)
    page.fill("[data-testid=players]", str(players))
    page.dispatch_event("[data-testid=players]", "change")
    wait_for(lambda: page.locator("[data-testid=start]").count() == 1, what="the setup")


def setup_of(url: str, body: dict[str, Any]) -> Any:
    r = httpx.post(f"{url}/api/narrator/setup", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def check_look(page: Any, shots: Any, name: str) -> None:
    assert axe_violations(page) == [], name
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (name, width)
    shots(page, f"narrator-{name}")


def test_the_setup_shows_the_cards_to_pull_the_order_and_the_warnings(
        browser: Any, server: Any, shots: Any) -> None:
    errors: list[str] = []
    front = browser.new_context().new_page()
    front.goto(server.url)
    front.click("[data-testid=table-mode]")
    front.wait_for_selector("[data-testid=start]")
    assert front.url.endswith("/table")

    page = open_table(browser, server.url, errors=errors)
    choose(page, "onuw", 5)
    api = setup_of(server.url, {"ruleset": "onuw", "players": 5, "lang": "en"})
    wait_for(lambda: page.locator("[data-testid=pcard]").count() == 8, what="the 8 cards")
    cards = page.locator("[data-testid=pcard] .sr-only").all_inner_texts()
    assert cards == api["cards"]  # drawn as cards, with their suits
    assert "♥" in page.inner_text("[data-testid=pull]")
    order = page.locator("[data-testid=order] li").all_inner_texts()
    assert [o.strip() for o in order] == [c["name"] for c in api["calls"]]
    # The role help sits with each card of the deck.
    assert "Seer" in page.inner_text("[data-testid=deck]")
    check_look(page, shots, "setup-1920")

    # Pick the roles: an Insomniac with nobody to change its card gets the rulebook's
    # warning; a Mason alone is refused with the reason.
    page.select_option("[data-testid=deck-mode]", "pick")
    wait_for(lambda: page.locator("[data-testid=more-insomniac]").count() == 1, what="picker")
    for role in ("robber", "troublemaker"):
        while page.inner_text(f"[data-testid=count-{role}]") != "0":
            page.click(f"[aria-label='One {role.title()} less']")
    # Each role's help is one tap from its name.
    page.click("[data-testid=help-insomniac]")
    assert "Insomniac" in page.inner_text("[data-testid=role-help]")
    page.click("[data-testid=more-insomniac]")
    page.click("[data-testid=more-villager]")
    wait_for(lambda: page.locator("[data-testid=warnings]").count() == 1, what="a warning")
    assert "Insomniac" in page.inner_text("[data-testid=warnings]")
    check_look(page, shots, "setup-warning")
    page.click("[aria-label='One Villager less']")
    page.click("[data-testid=more-mason]")
    # (one card short in between: that refusal shows first, then the Mason's)
    wait_for(lambda: page.locator("[data-testid=setup-error]").count() == 1
             and "Mason" in page.inner_text("[data-testid=setup-error]"), what="refusal")
    assert page.locator("[data-testid=start]").count() == 0

    # Epic names its scenario's cards and says the Epic box is needed.
    page.select_option("[data-testid=game]", "epic")
    wait_for(lambda: "Epic" in page.inner_text("[data-testid=pull]")
             if page.locator("[data-testid=pull]").count() else False, what="epic")
    assert not errors, errors


def test_the_cards_to_pull_keep_long_german_names_inside_on_a_small_phone(
        browser: Any, server: Any, shots: Any) -> None:
    """At 360 px "Unruhestifterin" and "Dorfbewohner" ran past the playing card's edges
    (a browser without hyphenation cannot break them), and "Ton" (the sound menu) was a
    28 px target."""
    errors: list[str] = []
    page = open_table(browser, server.url, lang="de", phone=360, errors=errors)
    choose(page, "onuw", 5)
    wait_for(lambda: page.locator("[data-testid=pcard]").count() == 8, what="the 8 cards")
    assert "Unruhestifterin" in page.inner_text("[data-testid=pull]")
    spill = page.evaluate("""() => [...document.querySelectorAll('[data-testid=pcard]')]
        .map((card) => [card, card.querySelector('.pcard-role')])
        .filter(([card, role]) => {
            const c = card.getBoundingClientRect(), r = role.getBoundingClientRect();
            return r.left < c.left - 0.5 || r.right > c.right + 0.5
                || role.scrollWidth > role.clientWidth + 1;
        }).map(([, role]) => role.textContent)""")
    assert spill == []
    # ...and no word is broken inside ("Unruhestifteri|n"): a name takes at most a line
    # a word.
    lines = page.evaluate("""() => [...document.querySelectorAll('.pcard-role')].map((role) => {
        const range = document.createRange();
        range.selectNodeContents(role);
        return [role.textContent, new Set([...range.getClientRects()].map((r) => r.top)).size];
    })""")
    assert all(n <= len(name.split()) for name, n in lines), lines
    assert small_targets(page) == []
    shots(page, "narrator-setup-de-360")
    assert not errors, errors


def test_the_one_night_narration_in_order_with_the_pause_and_the_gap_then_the_judge(
        browser: Any, server: Any, shots: Any) -> None:
    errors: list[str] = []
    page = open_table(browser, server.url, errors=errors)
    choose(page, "onuw", 3)
    page.select_option("[data-testid=deck-mode]", "recommended")
    api = setup_of(server.url, {"ruleset": "onuw", "players": 3, "lang": "en"})
    night = [s for s in api["steps"] if s["phase"] == "night"]
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=narration]")
    assert "screen" in page.evaluate("window.__locks")  # Wake Lock while narrating

    # Pause in the middle of the night: nothing more is said until the tap to go on.
    wait_for(lambda: len(spoken(page)) >= 3, what="three lines")
    page.click("[data-testid=pause]")
    held = len(spoken(page))
    check_look(page, shots, "night-paused")
    page.wait_for_timeout(1500)  # far longer than any pause at this scale
    assert len(spoken(page)) == held
    assert page.is_visible("[data-testid=paused]")
    page.click("[data-testid=pause]")
    wait_for(lambda: page.locator("[data-testid=day-timer]").count() == 1, timeout=60,
             what="the day")
    said = spoken(page)
    texts = [s["text"] for s in said]
    assert texts[:len(night)] == [s["text"] for s in night]  # every line, in order
    assert {s["lang"] for s in said} == {"en-US"}
    # After every "close your eyes", about a second and a half before the next line.
    for i, step in enumerate(night[:-1]):
        if step["key"].endswith(".sleep"):
            silence = said[i + 1]["at"] - said[i]["end"]
            assert silence >= 1.5 * 1000 * SCALE * 0.9, (step["key"], silence)
    # Every call gets the same time from "open" to "close", whichever role it is.
    spans = [said[i + 1]["at"] - said[i]["at"] for i, s in enumerate(night)
             if s["key"].endswith(".wake") and s["role"] not in (None, "werewolf")
             and said[i]["at"] > said[held - 1]["at"]]
    assert len(spans) >= 2, spans
    assert max(spans) - min(spans) < 250, spans

    # The day: the clock pauses, gets a minute more, ends on a tap.
    clock = page.inner_text("[data-testid=clock]")
    page.click("[data-testid=clock-pause]")
    stopped = page.inner_text("[data-testid=clock]")
    page.wait_for_timeout(400)  # eight "seconds" at this scale
    assert page.inner_text("[data-testid=clock]") == stopped
    page.click("[data-testid=clock-extend]")
    assert page.inner_text("[data-testid=clock]") not in (clock, stopped)
    check_look(page, shots, "day")
    page.click("[data-testid=clock-end]")
    page.click("[data-testid=point]")
    page.wait_for_selector("[data-testid=end-seat]", timeout=30000)
    texts = [s["text"] for s in spoken(page)]
    assert texts[-4:-1] == ["Three.", "Two.", "One."]  # the spoken 3-2-1

    # The end: names, cards and votes tapped; the same verdict as the judge's endpoint.
    seats = page.locator("[data-testid=end-seat]")
    for i, name in enumerate(("Ada", "Bruno", "Carla")):
        seats.nth(i).locator("[data-testid=name]").fill(name)
        seats.nth(i).locator("[data-testid=name]").dispatch_event("change")
    cards = ("werewolf", "seer", "villager")
    for i, role in enumerate(cards):
        page.locator("[data-testid=end-seat]").nth(i).locator(f"[data-testid=card-{role}]").click()
    for i, target in enumerate(("Bruno", "Ada", "Ada")):
        page.locator("[data-testid=end-seat]").nth(i).locator(
            "[data-testid=vote]", has_text=target).click()
    check_look(page, shots, "end")
    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    table = {"players": ["Ada", "Bruno", "Carla"],
             "cards": dict(zip(("Ada", "Bruno", "Carla"), cards, strict=True)),
             "votes": {"Ada": "Bruno", "Bruno": "Ada", "Carla": "Ada"}}
    v = httpx.post(f"{server.url}/api/narrator/judge",
                   json={"ruleset": "onuw", "lang": "en", "table": table}).json()
    assert page.locator("[data-testid=explanation] li").all_inner_texts() == v["explanation"]
    assert "Bruno" in page.inner_text("[data-testid=verdict] h2")
    check_look(page, shots, "verdict")

    # An impossible table is refused with the reason, and nothing typed is lost.
    page.click("[data-testid=change]")
    page.locator("[data-testid=end-seat]").nth(2).locator("[data-testid=card-werewolf]").click()
    page.locator("[data-testid=end-seat]").nth(1).locator("[data-testid=seat-summary]").click()
    page.locator("[data-testid=end-seat]").nth(1).locator("[data-testid=card-werewolf]").click()
    page.click("[data-testid=judge]")
    wait_for(lambda: page.inner_text("[data-testid=judge-error]").strip() != "", what="refusal")
    assert "Werewolf" in page.inner_text("[data-testid=judge-error]")
    assert page.locator("[data-testid=seat-summary]").nth(0).inner_text().split()[:2] == [
        "Ada", "Werewolf"]  # (folded, with its taps)
    assert page.locator("[data-testid=name]").nth(0).input_value() == "Bruno"
    assert not errors, errors


def test_epic_in_german_narrates_its_scenario_and_judges_on_a_phone(
        browser: Any, server: Any, shots: Any) -> None:
    errors: list[str] = []
    page = open_table(browser, server.url, lang="de", phone=True, errors=errors)
    choose(page, "epic", 3)
    api = setup_of(server.url, {"ruleset": "epic", "players": 3, "lang": "de"})
    wait_for(lambda: "Schachtel" in page.inner_text("[data-testid=pull]"), what="the box")
    check_look(page, shots, "epic-setup-390")
    page.click("[data-testid=start]")
    night = [s for s in api["steps"] if s["phase"] == "night"]
    wait_for(lambda: len(spoken(page)) >= len(night), timeout=90, what="the Epic night")
    assert [s["text"] for s in spoken(page)][:len(night)] == [s["text"] for s in night]
    assert {s["lang"] for s in spoken(page)} == {"de-DE"}
    check_look(page, shots, "epic-night-390")
    page.wait_for_selector("[data-testid=clock-end]", timeout=30000)
    page.click("[data-testid=clock-end]")
    page.click("[data-testid=point]")
    page.wait_for_selector("[data-testid=end-seat]", timeout=30000)
    deck = list(dict.fromkeys(api["deck"]))
    seats = page.locator("[data-testid=end-seat]")
    for i in range(3):
        seats.nth(i).locator(f"[data-testid=card-{deck[i]}]").click()
        seats.nth(i).locator("[data-testid=vote-nobody]").click()
    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    assert page.locator("[data-testid=explanation] li").count() > 0
    assert page.evaluate("document.documentElement.lang") == "de"
    check_look(page, shots, "epic-verdict-390")
    assert not errors, errors


def wait_for_master(page: Any) -> None:
    """Until the Master's page asks something, runs the day's clock or ends (never an
    error from the server)."""
    page.wait_for_function(
        "() => ['choice', 'defense', 'go_on', 'over'].includes("
        "(document.querySelector('[data-testid=question]') || {dataset: {}}).dataset.kind)"
        " || document.querySelector('[data-testid=day-timer], [data-testid=master-error]')",
        timeout=60000)
    assert page.locator("[data-testid=master-error]").count() == 0


def test_the_lupus_master_from_the_deal_to_the_end_in_italian(
        browser: Any, server: Any, shots: Any) -> None:
    errors: list[str] = []
    page = open_table(browser, server.url, lang="it", errors=errors)
    choose(page, "lupus", 8)
    api = setup_of(server.url, {"ruleset": "lupus", "players": 8, "lang": "it"})
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=deal-seat]")
    seats = page.locator("[data-testid=deal-seat]")
    names = ["Ada", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo"]
    for i, name in enumerate(names):  # (typed, then a tap: the names as typed are used)
        seats.nth(i).locator("[data-testid=name]").fill(name)
    # A deal with a card missing is refused with the reason.
    page.click("[data-testid=master-start]")
    assert "Ada" in page.inner_text("[data-testid=deal-error]")
    for i, role in enumerate(api["deck"]):
        page.locator("[data-testid=deal-seat]").nth(i).locator(f"[data-testid=card-{role}]").click()
    assert page.inner_text("[data-testid=deal-error]") == ""  # (a tap since mended it)
    # A dealt seat folds into a line once the next is tapped; a tap opens it again.
    summaries = page.locator("[data-testid=deal-seat] [data-testid=seat-summary]")
    assert summaries.count() == 7
    first = " ".join(summaries.nth(0).inner_text().split())
    assert first == f"1. Ada {load('it').role('lupus', api['deck'][0])} Modifica", first
    summaries.nth(0).click()
    # A role is used up once the deck's copies are dealt.
    assert page.locator("[data-testid=deal-seat]").nth(0).locator(
        "[data-testid=card-seer]").is_disabled()
    check_look(page, shots, "lupus-deal")
    page.click("[data-testid=master-start]")

    answered = 0
    saw_note = saw_echo = False
    while answered < 80:
        wait_for_master(page)
        kind = page.evaluate("(document.querySelector('[data-testid=day-timer]') && 'day')"
                             " || document.querySelector('[data-testid=question]')"
                             ".dataset.kind")
        if kind == "day":
            # (the discussion may run out on its own meanwhile)
            with contextlib.suppress(PlaywrightTimeout):
                page.click("[data-testid=clock-end]", timeout=2000)
            continue
        saw_note = saw_note or page.locator("[data-testid=notes] li").count() > 0
        echoes = page.locator("[data-testid=log] li").count()
        saw_echo = saw_echo or echoes > 0
        # (the accusations' panel shows once there is one: no empty box before)
        assert page.locator("section.log").is_visible() == (echoes > 0), echoes
        if kind == "over":
            break
        if answered == 1:
            check_look(page, shots, "lupus-question")
        if kind == "choice":
            page.locator("[data-testid=choice]").first.click()
        elif kind == "defense":
            page.locator("[data-testid=defense-done]").last.click()
        else:
            page.click("[data-testid=go-on]")
        answered += 1
    assert page.get_attribute("[data-testid=question]", "data-kind") == "over"
    assert saw_note and saw_echo
    # Every accusation of the game is echoed back, in the room's language.
    assert "accusa" in page.inner_text("[data-testid=log]")
    said = [s["text"] for s in spoken(page)]
    assert said[0].startswith("Sul villaggio scende la notte")
    assert any("sospettati" in s.lower() for s in said)
    assert page.locator("[data-testid=explanation] li").last.inner_text().startswith("Vincitori")
    check_look(page, shots, "lupus-over")
    kept = page.evaluate("localStorage.getItem('nightcall:table-mode:lupus')")
    assert kept is None  # the finished game is not offered again
    assert not errors, errors


def test_a_lupus_game_survives_a_reload_on_a_small_phone(browser: Any, server: Any,
                                                         shots: Any) -> None:
    page = open_table(browser, server.url, lang="de", phone=360)
    choose(page, "lupus", 8)
    api = setup_of(server.url, {"ruleset": "lupus", "players": 8, "lang": "de"})
    check_look(page, shots, "lupus-setup-360")
    page.click("[data-testid=start]")
    for i, role in enumerate(api["deck"]):
        page.locator("[data-testid=deal-seat]").nth(i).locator(f"[data-testid=card-{role}]").click()
    check_look(page, shots, "lupus-deal-360")
    page.click("[data-testid=master-start]")
    page.wait_for_selector("[data-testid=choice]", timeout=60000)
    check_look(page, shots, "lupus-question-360")
    first = page.locator("[data-testid=choice]").first.inner_text()
    page.locator("[data-testid=choice]").first.click()
    wait_for(lambda: json.loads(page.evaluate(
        "localStorage.getItem('nightcall:table-mode:lupus')"))["answers"] == ["1"],
        what="the answer kept")
    page.reload()
    page.click("[data-testid=lupus-resume]")
    page.wait_for_selector("[data-testid=question][data-kind]", timeout=60000)
    # The werewolves' answer is kept: the page goes on with the next question.
    assert page.locator("[data-testid=notes] li").count() >= 1
    assert first.split(". ")[1] in page.inner_text("[data-testid=notes]")


def master_now(url: str, kept: dict[str, Any]) -> Any:
    """The server's answer for the page's kept game (its deal and answers so far)."""
    body = {k: kept[k] for k in ("ruleset", "deck", "names", "cards", "answers")}
    r = httpx.post(f"{url}/api/narrator/master", json={**body, "lang": "en"})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("phone", [False, True], ids=["host-1920", "phone-390"])
def test_the_web_master_plays_a_lupus_night_on_the_engines_steps(
        browser: Any, server: Any, shots: Any, phone: bool) -> None:
    """Issue #13: the page's Master runs on the engine's clock. At every question the
    page shows the step the engine has open (``open`` of the server's state for the
    answers so far, in words), the night's calls in wake order, then the day's
    accusations; the page only sends the Master's answers."""
    errors: list[str] = []
    page = open_table(browser, server.url, lang="en", phone=phone, errors=errors)
    choose(page, "lupus", 8)
    api = setup_of(server.url, {"ruleset": "lupus", "players": 8, "lang": "en"})
    page.click("[data-testid=start]")
    for i, role in enumerate(api["deck"]):
        page.locator("[data-testid=deal-seat]").nth(i).locator(f"[data-testid=card-{role}]").click()
    page.click("[data-testid=master-start]")
    calls = [c["id"] for c in api["calls"]]
    opened: list[str] = []
    for _ in range(40):
        wait_for_master(page)
        if page.locator("[data-testid=day-timer]").count():
            with contextlib.suppress(PlaywrightTimeout):
                page.click("[data-testid=clock-end]", timeout=2000)
            continue
        question = page.locator("[data-testid=question]")
        kept = json.loads(page.evaluate("localStorage.getItem('nightcall:table-mode:lupus')"))
        now = master_now(server.url, kept)
        assert question.get_attribute("data-open") == now["open"]
        assert page.inner_text("[data-testid=step]") == now["step"]
        if not opened or opened[-1] != now["open"]:
            opened.append(now["open"])
            if len(opened) == 1:
                check_look(page, shots, f"master-step-{'390' if phone else '1920'}")
        if now["open"] == "accuse":
            check_look(page, shots, f"master-accuse-{'390' if phone else '1920'}")
            break
        kind = question.get_attribute("data-kind")
        if kind == "choice":
            page.locator("[data-testid=choice]").first.click()
        else:
            page.click("[data-testid=go-on]")
    # The night's calls came one by one in wake order (every one of the deck: a dead
    # or absent holder's call is still opened and ended), then the day's accusations.
    assert opened[-1] == "accuse", opened
    night = opened[:-1]
    assert night == [c for c in calls if c in night] and night, (night, calls)
    assert night[0] == calls[0]
    assert page.inner_text("[data-testid=step]").startswith("Day 1")
    assert not errors, errors


def test_the_players_are_moved_into_the_games_range_and_the_page_says_so(
        browser: Any, server: Any) -> None:
    """Table mode took a player count outside the game's range in silence (5 became 7
    on picking Lupus); the line under the count now says the range, or what it did."""
    errors: list[str] = []
    page = open_table(browser, server.url, lang="de", phone=360, errors=errors)
    hint = page.locator("[data-testid=players-hint]")
    wait_for(lambda: hint.inner_text() == "Für 3 bis 10 Spieler.", what="One Night's range")
    page.select_option("[data-testid=game]", "lupus")
    wait_for(lambda: page.input_value("[data-testid=players]") == "7", what="7 players")
    assert hint.inner_text() == "Lupus in Tabula ist für 7 bis 23 Spieler: auf 7 gesetzt."
    page.fill("[data-testid=players]", "40")
    page.dispatch_event("[data-testid=players]", "change")
    wait_for(lambda: page.input_value("[data-testid=players]") == "23", what="23 players")
    assert hint.inner_text() == "Lupus in Tabula ist für 7 bis 23 Spieler: auf 23 gesetzt."
    page.fill("[data-testid=players]", "9")
    page.dispatch_event("[data-testid=players]", "change")
    wait_for(lambda: hint.inner_text() == "Für 7 bis 23 Spieler.", what="the range again")
    assert page.get_attribute("[data-testid=players-hint]", "role") == "status"
    assert not errors, errors
