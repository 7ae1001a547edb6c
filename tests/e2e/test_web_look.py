"""A One Night game seen at the sizes people use: the host on a 1920×1080 TV, phones
of 360 and 390 px (touch). At every stage every page passes axe-core, nothing scrolls
sideways, the host's words are at least 28 px, the phone's targets at least 44 px; the
phone still fits at 200 % text. Screenshots of each stage go to test-artifacts/e2e/."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from e2ehelpers import (
    HOST_TV,
    PHONE,
    PHONE_360,
    act_if_called,
    axe_violations,
    hurry,
    open_phone,
    sideways,
    small_targets,
    small_text,
    stage,
    take_seat,
    wait_for,
)

from nightcall.engine.records import replay
from nightcall.narration.locale import load

pytestmark = pytest.mark.timeout(240)

# What the host screen shows that a room must read from the sofa.
HOST_WORDS = ("#stage, #timer, .narration, .code, .seats li .name, .deck-list b, .deck-list small, "
              ".board li, .outcome p, .outcome li, .outcome h2, .vote-count .count, main button, "
              ".call-name, .mini-card span, .mini-card small, .panel h2, .board h2")


def check(page: Any, name: str, shots: Any, *, host: bool = False) -> None:
    """The page as it stands: axe-clean, no sideways scroll, big enough; and a screenshot."""
    shots(page, name)
    assert axe_violations(page) == [], name
    assert sideways(page) == 0, name
    if host:
        assert small_text(page, HOST_WORDS) == [], name
    else:
        assert small_targets(page) == [], name


def test_a_game_at_tv_and_phone_sizes(browser: Any, server: Any, shots: Any) -> None:
    errors: list[str] = []
    # The front page on both phones: it fits (the language menu used to be cut off).
    for size, label in ((PHONE_360, "360"), (PHONE, "390")):
        front = browser.new_context(**size).new_page()
        front.on("pageerror", lambda e: errors.append(str(e)))
        front.goto(server.url + "/")
        front.wait_for_selector("#ruleset option", state="attached")
        front.wait_for_selector("[data-testid=deck-icons-list] li")
        check(front, f"look-01-front-{label}", shots)
        front.context.close()

    r = httpx.post(f"{server.url}/api/rooms", json={
        "ruleset": "onuw", "seats": 3, "call_seconds": 1.5, "discussion_seconds": 120,
        "vote_seconds": 60, "language": "en"})
    code, token = r.json()["room"], r.json()["host_token"]
    host = browser.new_context(**HOST_TV).new_page()
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{server.url}/host/{code}#{token}")
    host.wait_for_selector("[data-testid=deal]")
    host.wait_for_selector(".deck-list li")  # the deck, with icons, in the lobby

    phones = []
    for size, name in ((PHONE_360, "Noa"), (PHONE, "Ines")):
        page = open_phone(browser, server.url, code, errors, size)
        page.wait_for_selector("#name")
        if not phones:
            check(page, "look-02-phone-join", shots)
        phones.append(take_seat(page, name))
    host.click("text=Add a bot")
    wait_for(lambda: host.locator("[data-testid=seats] li").count() == 3, what="three seats")
    # A bot has a plain name (issue 15) and the page tags it once ("Ada (bot) bot" before).
    bot = host.locator("[data-testid=seats] li").nth(2)
    assert "(bot)" not in bot.inner_text(), bot.inner_text()
    assert bot.locator("[aria-label=bot]").count() == 1
    # The host's lobby: Deal above the fold, the table as a circle, nothing small.
    box = host.locator("[data-testid=deal]").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080
    # One Night has no accusations: the seats' order only makes the circles match.
    assert host.inner_text("[data-testid=order-hint]").endswith(
        "so that the circle on every screen matches your table.")
    check(host, "look-03-host-lobby", shots, host=True)
    check(phones[0], "look-04-phone-lobby-360", shots)

    host.click("[data-testid=deal]")
    # Dusk: time to look at the card and hear the opening before any call.
    wait_for(lambda: stage(host) == "dusk", what="dusk")
    assert host.inner_text("[data-testid=narration]").startswith("Look at your card")
    for page in phones:
        page.wait_for_selector("[data-testid=dusk]")
        assert page.locator("[data-testid=choices]").count() == 0
    phones[0].click("[data-testid=card]")
    phones[0].click("[data-testid=help-button]")
    phones[0].wait_for_selector("[data-testid=role-help]")
    check(phones[0], "look-05-phone-dusk-card-help", shots)
    check(host, "look-06-host-dusk", shots, host=True)
    phones[0].click("[data-testid=card]")  # hidden again

    wait_for(lambda: stage(host) == "night", what="night")
    # The night fills the screen to the bottom on the phone.
    bottom = phones[1].evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert bottom == "rgb(2, 3, 9)", bottom
    check(host, "look-07-host-night", shots, host=True)
    shot = False
    while stage(host) == "night":
        for i, page in enumerate(phones):
            if not shot and page.locator("[data-testid=choices]").count():
                check(page, f"look-08-phone-turn-{i}", shots)
                shot = True
            act_if_called(page)
        time.sleep(0.15)

    wait_for(lambda: stage(host) == "discussion", what="day")
    for page in phones:
        page.wait_for_selector("[data-testid=claim]")
    phones[1].select_option("#claim-role", label="Seer")
    phones[1].click("[data-testid=claim]")
    wait_for(lambda: "Ines says: “I am the Seer.”" in host.inner_text("[data-testid=table]"),
             what="the claim on the board")
    check(host, "look-09-host-day", shots, host=True)
    check(phones[1], "look-10-phone-day", shots)

    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "vote", what="vote")
    for page in phones:
        page.wait_for_selector("[data-testid=vote] [data-kind=vote]")
    check(phones[0], "look-11-phone-vote-360", shots)
    for page in phones:
        page.locator("[data-testid=vote] [data-kind=vote]").first.click()
    # (the bot votes at a random moment of the minute)
    wait_for(lambda: stage(host) == "over", what="the end", timeout=70)
    host.wait_for_selector("[data-testid=faceup] .mini-card")
    host.wait_for_selector("[data-testid=timeline] li")
    check(host, "look-12-host-end", shots, host=True)
    # The center's cards as they lie at the end, replayed from the room's record.
    _, final = replay(httpx.get(f"{server.url}/api/rooms/{code}/record").json())
    host.wait_for_selector("[data-testid=center-cards] .mini-card")
    shown = host.locator("[data-testid=center-cards] .mini-card > span").all_inner_texts()
    assert shown == [load("en").role("onuw", r) for r in final.center], shown
    for i, page in enumerate(phones):
        page.wait_for_selector("[data-testid=verdict]")
        verdict = page.inner_text("[data-testid=verdict]")
        assert ("You won" in verdict) != ("You lost" in verdict)
        assert "as the " in verdict
        check(page, f"look-13-phone-end-{i}", shots)

    # 200 % text on the small phone: still no sideways scroll, nothing clipped away.
    phones[0].evaluate("document.documentElement.style.fontSize = '200%'")
    assert sideways(phones[0]) == 0
    shots(phones[0], "look-14-phone-end-200-percent")
    assert not errors, errors


def seat_phones(browser: Any, url: str, code: str, names: tuple[str, ...],
                errors: list[str]) -> list[Any]:
    return [take_seat(open_phone(browser, url, code, errors, PHONE_360 if i % 2 == 0 else PHONE),
                      name) for i, name in enumerate(names)]


@pytest.mark.parametrize(("prefix", "settings", "names"), [
    ("epic", {"ruleset": "epic", "seats": 5, "scenario": "nightfall", "language": "de",
              "call_seconds": 1.5, "discussion_seconds": 60, "vote_seconds": 20},
     ("Uta", "Vera", "Wim")),
    ("lupus", {"ruleset": "lupus", "seats": 8, "language": "it", "call_seconds": 1.5,
               "discussion_seconds": 60, "vote_seconds": 6, "defense_seconds": 30},
     ("Ada", "Ben", "Cleo")),
])
def test_every_stage_of_epic_and_lupus_passes_axe(browser: Any, server: Any, shots: Any,
                                                   prefix: str, settings: dict[str, Any],
                                                   names: tuple[str, ...]) -> None:
    """Epic ("Nightfall", German) and Lupus (Italian, eight seats) played to the end:
    each new stage is checked once on the host and on every phone."""
    errors: list[str] = []
    r = httpx.post(f"{server.url}/api/rooms", json=settings)
    assert r.status_code == 201, r.text
    code, token = r.json()["room"], r.json()["host_token"]
    host = browser.new_context(**HOST_TV).new_page()
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{server.url}/host/{code}#{token}")
    host.wait_for_selector("[data-testid=deal]")
    phones = seat_phones(browser, server.url, code, names, errors)
    host.wait_for_selector(".deck-list li")
    if prefix == "epic":  # the scenario, named in the room's language
        assert host.inner_text("[data-testid=lobby-scenario]") == "Szenario „Einbruch der Nacht“"
    check(host, f"{prefix}-look-01-host-lobby", shots, host=True)
    host.click("[data-testid=deal]")
    seen: set[str] = set()
    deadline = time.monotonic() + 170
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        now = stage(host)
        if now and now not in seen and now != "lobby":
            seen.add(now)
            n = len(seen) + 1
            check(host, f"{prefix}-look-{n:02d}-host-{now}", shots, host=True)
            for i, page in enumerate(phones):
                if stage(page) == now:
                    check(page, f"{prefix}-look-{n:02d}-phone{i}-{now}", shots)
        if now == "over":
            break
        hurry(host, phones)
    assert {"dusk", "night", "over"} <= seen, seen
    host.wait_for_selector("[data-testid=faceup] .mini-card")
    check(host, f"{prefix}-look-99-host-end", shots, host=True)
    for i, page in enumerate(phones):
        page.wait_for_selector("[data-testid=verdict]")
        check(page, f"{prefix}-look-99-phone{i}-end", shots)
    # A phone's end folds its long lists (session 25: a Lupus phone's end ran to 4,900
    # CSS px, the player's own story repeating the whole game): the whole game is open
    # only while short, the player's view of it is closed; a tap opens each.
    page = phones[0]
    page.wait_for_selector("[data-testid=timeline] li", state="attached")
    steps = page.locator("[data-testid=timeline] li").count()
    assert page.eval_on_selector("[data-testid=timeline]", "e => e.open") == (steps <= 16)
    assert page.eval_on_selector("[data-testid=known]", "e => e.open") is False
    assert not page.locator("[data-testid=known] li").first.is_visible()
    folded = page.evaluate("document.documentElement.scrollHeight")
    if prefix == "lupus":
        assert steps > 16 and folded < 2600, (steps, folded)
    for part in ("timeline", "known"):
        if not page.eval_on_selector(f"[data-testid={part}]", "e => e.open"):
            page.click(f"[data-testid={part}] summary")
        assert page.locator(f"[data-testid={part}] li").last.is_visible()
    assert page.evaluate("document.documentElement.scrollHeight") > folded
    check(page, f"{prefix}-look-99-phone0-end-open", shots)
    assert not errors, errors


RECORDER = """
window.__buzz = [];
window.__awake = 0;
window.__said = [];
Object.defineProperty(navigator, "vibrate", { configurable: true,
  value: (ms) => { window.__buzz.push(ms); return true; } });
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async () => {
    window.__awake += 1;
    return { addEventListener() {}, release() {} };
  } } });
document.addEventListener("DOMContentLoaded", () => {
  const el = document.querySelector("#announce");
  new MutationObserver(() => { if (el.textContent) window.__said.push(el.textContent); })
    .observe(el, { childList: true, characterData: true, subtree: true });
});
"""


def test_every_phone_buzzes_at_every_call_and_stays_awake(browser: Any, server: Any) -> None:
    """Whoever is called, every phone buzzes once per call (nothing to tell from whose
    phone buzzed), asks to keep the screen on, and the called one is told in words."""
    errors: list[str] = []
    r = httpx.post(f"{server.url}/api/rooms", json={
        "ruleset": "onuw", "seats": 3, "call_seconds": 1.5, "discussion_seconds": 60,
        "vote_seconds": 30})
    code, token = r.json()["room"], r.json()["host_token"]
    host = browser.new_context(**HOST_TV).new_page()
    host.goto(f"{server.url}/host/{code}#{token}")
    phones = [take_seat(open_phone(browser, server.url, code, errors, size, RECORDER), name)
              for size, name in ((PHONE_360, "Noa"), (PHONE, "Ines"))]
    host.wait_for_selector("[data-testid=deal]")
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    calls = 0
    last = ""
    while stage(host) == "night":
        now = host.inner_text("[data-testid=narration]")
        if now != last:
            calls, last = calls + 1, now
        for page in phones:
            act_if_called(page)
        time.sleep(0.1)
    wait_for(lambda: stage(host) == "discussion", what="day")
    buzzes = [len(page.evaluate("window.__buzz")) for page in phones]
    assert buzzes[0] == buzzes[1] >= 3, buzzes  # the same on every phone, once per call
    assert buzzes[0] >= calls - 1, (buzzes, calls)  # (a call may pass between two looks)
    assert all(page.evaluate("window.__awake") >= 1 for page in phones)
    said = [line for page in phones for line in page.evaluate("window.__said")]
    assert any(line.startswith("A new call.") for line in said), said
    # A spectator's page passes axe too.
    watch = browser.new_context(**PHONE).new_page()
    watch.goto(f"{server.url}/watch/{code}")
    watch.wait_for_selector("[data-testid=seats]")
    assert axe_violations(watch) == []
    assert sideways(watch) == 0
    assert not errors, errors
