"""Table mode (/table, issue 19), the rest of it: a One Night table kept across reloads
at every stage (the line of the night, the day's clock, the end's taps, the verdict);
the end asking what a copying card became (Epic's Mimic) and taking the center cards,
both used by the judge; Epic's tokens held to what the box has at the tap, and its one
artifact asked once; the page's night ambience heard through an AnalyserNode."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from e2ehelpers import ambience_is_heard, wait_for
from test_web_finish import LOUDNESS, PROBE
from test_web_narrator import check_look, choose, open_table, setup_of, spoken

pytestmark = pytest.mark.timeout(240)

PLACE = "nightcall:table-mode:place"


def place(page: Any) -> Any:
    kept = page.evaluate(f"localStorage.getItem('{PLACE}')")
    return json.loads(kept)["place"] if kept else None


def line_no(page: Any) -> int:
    """The line the page shows, counted from 0 ("Line 4 of 13" is 3)."""
    m = re.search(r"\d+", page.inner_text("[data-testid=progress]"))
    assert m, page.inner_text("[data-testid=progress]")
    return int(m.group()) - 1


def table_for(browser: Any, url: str, body: dict[str, Any], phone: Any = False
              ) -> tuple[Any, Any, list[str]]:
    """The table page set up as ``body`` asks, the same setup from the API, the page's
    errors (a list that fills as they happen)."""
    errors: list[str] = []
    page = open_table(browser, url, lang=body["lang"], phone=phone, errors=errors)
    choose(page, body["ruleset"], body["players"])
    if "scenario" in body:
        page.select_option("[data-testid=scenario]", body["scenario"])
    wait_for(lambda: page.locator("[data-testid=start]").count() == 1, what="the setup")
    return page, setup_of(url, body), errors


def to_the_end(page: Any, names: tuple[str, ...]) -> Any:
    """From the setup through the night and the day to the end's taps, the seats named
    ``names``; the seats' ``nth``."""
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=clock-end]", timeout=60000)
    page.click("[data-testid=clock-end]")
    page.click("[data-testid=point]")
    page.wait_for_selector("[data-testid=end-seat]", timeout=30000)
    seat = page.locator("[data-testid=end-seat]").nth
    for i, name in enumerate(names):  # (typed: no change event, as a tap elsewhere ends it)
        seat(i).locator("[data-testid=name]").fill(name)
    return seat


def test_a_one_night_table_survives_a_reload_at_every_stage(
        browser: Any, server: Any, shots: Any) -> None:
    page, api, errors = table_for(browser, server.url,
                                  {"ruleset": "onuw", "players": 3, "lang": "en"})
    night = [s for s in api["steps"] if s["phase"] == "night"]
    page.click("[data-testid=start]")
    wait_for(lambda: len(spoken(page)) >= 4, what="four lines of the night")

    # Mid-night: the page comes back on the line it was saying, held until a tap
    # (a browser speaks only after one), then says the rest of the night in order.
    page.reload()
    page.wait_for_selector("[data-testid=narration]")
    at = line_no(page)
    assert 3 <= at < len(night) - 1, at
    assert page.inner_text("[data-testid=narration]") == night[at]["text"]
    assert page.is_visible("[data-testid=paused]")
    assert page.get_attribute("[data-testid=pause]", "aria-pressed") == "true"
    check_look(page, shots, "keep-night-reloaded")
    page.wait_for_timeout(1000)
    assert spoken(page) == []
    page.click("[data-testid=pause]")
    wait_for(lambda: page.locator("[data-testid=day-timer]").count() == 1, timeout=60,
             what="the day")
    assert [s["text"] for s in spoken(page)][:len(night) - at] == \
        [s["text"] for s in night[at:]]

    # The discussion: a paused clock comes back paused at the same time.
    page.click("[data-testid=clock-pause]")
    stopped = page.inner_text("[data-testid=clock]")
    page.reload()
    page.wait_for_selector("[data-testid=clock]")
    assert page.inner_text("[data-testid=clock]") == stopped
    assert page.get_attribute("[data-testid=clock-pause]", "aria-pressed") == "true"
    assert place(page)["part"] == "talk"
    # A running clock goes on counting across the reload.
    page.click("[data-testid=clock-pause]")
    page.wait_for_timeout(300)
    page.reload()
    page.wait_for_selector("[data-testid=clock]")
    assert page.get_attribute("[data-testid=clock-pause]", "aria-pressed") == "false"
    wait_for(lambda: page.inner_text("[data-testid=clock]") != stopped, what="the clock")
    page.click("[data-testid=clock-end]")
    page.wait_for_selector("[data-testid=point]")
    page.reload()
    page.click("[data-testid=point]")
    page.wait_for_selector("[data-testid=end-seat]", timeout=30000)
    assert [s["text"] for s in spoken(page)][-4:-1] == ["Three.", "Two.", "One."]

    # The end: names and taps survive a reload; so does the verdict.
    seats = page.locator("[data-testid=end-seat]")
    for i, name in enumerate(("Ada", "Bruno", "Carla")):
        seats.nth(i).locator("[data-testid=name]").fill(name)
        seats.nth(i).locator("[data-testid=name]").dispatch_event("change")
    page.locator("[data-testid=end-seat]").nth(0).locator("[data-testid=card-werewolf]").click()
    page.locator("[data-testid=end-seat]").nth(1).locator("[data-testid=vote]",
                                                          has_text="Ada").click()
    page.click("[data-testid=center-open]")  # (optional: folded until opened)
    page.locator("[data-testid=center-card]").nth(2).locator(
        "[data-testid=card-villager]").click()
    page.reload()
    page.wait_for_selector("[data-testid=end-seat]")
    seats = page.locator("[data-testid=end-seat]")
    assert seats.nth(0).locator("[data-testid=name]").input_value() == "Ada"
    assert seats.nth(0).locator("[data-testid=card-werewolf]").get_attribute(
        "aria-pressed") == "true"
    assert seats.nth(1).locator("[data-testid=vote]", has_text="Ada").get_attribute(
        "aria-pressed") == "true"
    assert page.locator("[data-testid=center-card]").nth(2).locator(
        "[data-testid=card-villager]").get_attribute("aria-pressed") == "true"
    seats.nth(1).locator("[data-testid=card-seer]").click()
    page.locator("[data-testid=end-seat]").nth(2).locator("[data-testid=card-robber]").click()
    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    verdict = page.inner_text("[data-testid=verdict]")
    page.reload()
    page.wait_for_selector("[data-testid=verdict]")
    assert page.inner_text("[data-testid=verdict]") == verdict
    # A new game forgets the table.
    page.get_by_role("button", name="New game").click()
    page.wait_for_selector("[data-testid=start]")
    assert place(page) is None
    page.reload()
    page.wait_for_selector("[data-testid=start]")
    assert not errors, errors


def test_epic_asks_what_the_mimic_copied_and_takes_the_center_cards(
        browser: Any, server: Any, shots: Any) -> None:
    page, api, errors = table_for(browser, server.url, {
        "ruleset": "epic", "players": 3, "lang": "de", "scenario": "horror_awakens"},
        phone=True)
    assert "mimic" in api["deck"]
    to_the_end(page, ("Ada", "Bruno", "Carla"))
    seats = page.locator("[data-testid=end-seat]")
    # The Mimic card is one of the cards to tap; holding it asks what it copied.
    assert page.locator("[data-testid=copy-mimic]").count() == 0
    assert seats.nth(0).locator("[data-testid=card-seer]").count() == 0  # (not in this deck)
    page.locator("[data-testid=end-seat]").nth(0).locator("[data-testid=card-enlightener]").click()
    page.locator("[data-testid=end-seat]").nth(1).locator("[data-testid=card-mimic]").click()
    page.locator("[data-testid=end-seat]").nth(2).locator("[data-testid=card-villager]").click()
    for i, target in enumerate(("Bruno", "Ada", "Bruno")):
        page.locator("[data-testid=end-seat]").nth(i).locator(
            "[data-testid=vote]", has_text=target).click()
    question = page.locator("[data-testid=copy-mimic]")
    assert "Bruno" in question.inner_text() and "Nachahmer" in question.inner_text()
    # Where the deck has a Ghost Hunter, the Mimic may have taken him on and turned.
    assert ("Geisterjäger nachgeahmt" in question.inner_text()) == ("ghost_hunter" in api["deck"])
    # Unanswered, the judge refuses with the reason.
    page.click("[data-testid=judge]")
    wait_for(lambda: "Bruno" in page.inner_text("[data-testid=judge-error]"), what="refusal")
    page.locator("[data-testid=copy-mimic] [data-testid=copied-werewolf]").click()
    assert page.inner_text("[data-testid=judge-error]") == ""  # (the tap mended it)
    # The center: two Werewolves in the middle and a Werewolf copied is fine, but the
    # deck has one Werewolf card: a second one in the middle is refused.
    center = page.locator("[data-testid=center-card]")
    assert center.count() == 3 and not center.first.is_visible()
    page.click("[data-testid=center-open]")
    for k, role in enumerate(("werewolf", "sight_wolf", "werewolf")):
        center.nth(k).locator(f"[data-testid=card-{role}]").click()
    page.click("[data-testid=judge]")
    wait_for(lambda: "Mitte" in page.inner_text("[data-testid=judge-error]"), what="refusal")
    assert "Werwolf" in page.inner_text("[data-testid=judge-error]")
    check_look(page, shots, "epic-end-mimic-390")
    center.nth(2).locator("[data-testid=card-witch]").click()
    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    # The same verdict as the judge's of the table with Bruno as the Werewolf he copied.
    table = {"players": ["Ada", "Bruno", "Carla"],
             "cards": {"Ada": "enlightener", "Bruno": "werewolf", "Carla": "villager"},
             "votes": {"Ada": "Bruno", "Bruno": "Ada", "Carla": "Bruno"}}
    v = httpx.post(f"{server.url}/api/narrator/judge",
                   json={"ruleset": "epic", "lang": "de", "table": table}).json()
    assert page.locator("[data-testid=explanation] li").all_inner_texts() == v["explanation"]
    assert v["dead"] == ["Bruno"] and "Ada" in page.inner_text("[data-testid=verdict] h2")
    check_look(page, shots, "epic-verdict-mimic-390")
    assert not errors, errors


def test_epic_refuses_a_token_the_box_lacks_at_the_tap_and_asks_for_one_artifact(
        browser: Any, server: Any, shots: Any) -> None:
    """A real box holds one Bat token and two Love tokens (docs/rulings.md): a tap asking
    for more is refused at that seat, naming who holds them, and changes nothing. The
    Curator places one artifact a night, so the table is asked once which and on whose
    card. The table then judges with its tokens and artifact."""
    from nightcall.rulesets.epic.roles import TOKEN_SUPPLY

    page, api, errors = table_for(browser, server.url, {
        "ruleset": "epic", "players": 3, "lang": "en", "scenario": "unstable_alliances"},
        phone=True)
    assert api["tokens"] == TOKEN_SUPPLY and "curator" in api["deck"]
    names = ("Ada", "Bruno", "Carla")
    seat = to_the_end(page, names)
    pressed = lambda i, what: seat(i).locator(  # noqa: E731
        f"[data-testid={what}]").get_attribute("aria-pressed") == "true"
    refusal = lambda i: seat(i).locator("[data-testid=seat-refused]")  # noqa: E731

    seat(0).locator("[data-testid=token-bat]").click()
    assert pressed(0, "token-bat") and refusal(0).count() == 0
    seat(1).locator("[data-testid=token-bat]").click()  # the box has one
    assert refusal(1).inner_text() == ("The box has only one Bat token, and Ada has it. "
                                       "Tap another token, or change theirs first.")
    assert pressed(1, "token-certainty") and not pressed(1, "token-bat")
    check_look(page, shots, "epic-end-token-refused-390")
    seat(1).locator("[data-testid=token-love]").click()  # a tap that counts clears it
    assert page.locator("[data-testid=seat-refused]").count() == 0
    seat(2).locator("[data-testid=token-love]").click()  # two Love tokens: both fit
    seat(0).locator("[data-testid=token-love]").click()
    assert "2 Love tokens, and Bruno and Carla have them" in refusal(0).inner_text()
    assert pressed(0, "token-bat")

    cards = {"Ada": "enlightener", "Bruno": "assassin", "Carla": "witch"}
    votes = {"Ada": "Bruno", "Bruno": "Carla", "Carla": "Bruno"}
    for i, name in enumerate(names):
        seat(i).locator(f"[data-testid=card-{cards[name]}]").click()
        seat(i).locator("[data-testid=vote]", has_text=votes[name]).click()
    # One artifact a night: the table is asked once which one, then on whose card.
    first = api["artifacts"][0]
    assert seat(0).locator("[data-testid^=artifact]").count() == 0
    artifact = page.locator("[data-testid=artifact]")
    artifact.locator(f"[data-testid=artifact-{first}]").click()
    page.click("[data-testid=judge]")
    wait_for(lambda: page.inner_text("[data-testid=judge-error]")
             == "Tap whose card the Claw of the Werewolf lies on.", what="whose card")
    artifact.locator("[data-testid=artifact-on]", has_text="Ada").click()
    # The middle's cards are named on a line of their own, above their chips.
    page.click("[data-testid=center-open]")
    middle = page.locator("[data-testid=center-card]").first
    label = middle.locator(".seat-name").bounding_box()
    chips = middle.locator(".chips").bounding_box()
    assert label["y"] + label["height"] <= chips["y"] + 1, (label, chips)
    artifact.scroll_into_view_if_needed()
    check_look(page, shots, "epic-end-artifact-390")

    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    table = {"players": list(names), "cards": cards, "votes": votes,
             "tokens": {"Ada": "bat", "Bruno": "love", "Carla": "love"},
             "artifacts": {"Ada": first}}
    v = httpx.post(f"{server.url}/api/narrator/judge",
                   json={"ruleset": "epic", "lang": "en", "table": table}).json()
    assert page.locator("[data-testid=explanation] li").all_inner_texts() == v["explanation"]
    # The artifact and the lovers' tokens were counted: the account speaks of both.
    assert "the Claw of the Werewolf makes them a Werewolf" in v["explanation"][0]
    assert any("Love token" in line for line in v["explanation"]), v["explanation"]
    assert not errors, errors


def test_a_finished_seat_folds_to_one_line_and_opens_again_on_a_phone(
        browser: Any, server: Any, shots: Any) -> None:
    """Six players on a 360 px phone: a seat with its card and vote folds into one line
    once another seat is tapped (the page stays short), the seat being tapped stays
    where it was on the screen, a folded seat opens again at a tap, and the folds
    survive the verdict's "change" and a reload."""
    page, api, errors = table_for(browser, server.url,
                                  {"ruleset": "onuw", "players": 6, "lang": "en"}, phone=360)
    assert api["deck"].count("werewolf") == 2 and {"robber", "troublemaker"} <= set(api["deck"])
    names = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Franco")
    seat = to_the_end(page, names)
    tall = page.evaluate("document.documentElement.scrollHeight")
    summary = lambda i: seat(i).locator("[data-testid=seat-summary]")  # noqa: E731
    cards = ("werewolf", "seer", "robber", "troublemaker", "villager", "werewolf")
    votes = ("Bruno", "Ada", "Ada", "Bruno", "Ada", "Ada")

    # The first tap after typing a name lands (a redraw on the name's blur once lost it).
    seat(5).locator("[data-testid=card-werewolf]").click()
    assert seat(5).locator("[data-testid=card-werewolf]").get_attribute("aria-pressed") == "true"
    seat(0).locator("[data-testid=card-werewolf]").click()
    seat(0).locator("[data-testid=vote]", has_text="Bruno").click()
    assert summary(0).count() == 0  # done, but still the seat being tapped
    chip = seat(1).locator("[data-testid=card-seer]")
    chip.scroll_into_view_if_needed()
    top = chip.bounding_box()["y"]
    chip.click()
    # Seat 0 folded above it, and the seer chip did not move under the finger.
    assert summary(0).inner_text().split() == ["Ada", "Werewolf", "→", "Bruno", "Change"]
    assert abs(seat(1).locator("[data-testid=card-seer]").bounding_box()["y"] - top) <= 1
    seat(1).locator("[data-testid=vote]", has_text="Ada").click()
    for i in range(2, 6):
        seat(i).locator(f"[data-testid=card-{cards[i]}]").click()
        seat(i).locator("[data-testid=vote]", has_text=votes[i]).click()
    assert [summary(i).count() for i in range(6)] == [1, 1, 1, 1, 1, 0]
    short = page.evaluate("document.documentElement.scrollHeight")
    assert short < tall * 0.6, (short, tall)
    # The optional center is folded too, until opened.
    assert not page.locator("[data-testid=center-card]").first.is_visible()
    check_look(page, shots, "end-folded-360")

    # A folded seat opens at a tap, with its taps; the one open before folds.
    summary(2).click()
    assert seat(2).locator("[data-testid=card-robber]").get_attribute("aria-pressed") == "true"
    assert [summary(i).count() for i in range(6)] == [1, 1, 0, 1, 1, 1]
    seat(2).locator("[data-testid=card-villager]").click()
    page.reload()
    page.wait_for_selector("[data-testid=end-seat]")
    assert [summary(i).count() for i in range(6)] == [1, 1, 0, 1, 1, 1]
    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    page.click("[data-testid=change]")
    assert [summary(i).count() for i in range(6)] == [1, 1, 0, 1, 1, 1]
    assert summary(4).inner_text().split()[:2] == ["Elena", "Villager"]
    table = {"players": list(names),
             "cards": dict(zip(names, ("werewolf", "seer", "villager", "troublemaker",
                                       "villager", "werewolf"), strict=True)),
             "votes": dict(zip(names, votes, strict=True))}
    v = httpx.post(f"{server.url}/api/narrator/judge",
                   json={"ruleset": "onuw", "lang": "en", "table": table}).json()
    page.click("[data-testid=judge]")
    page.wait_for_selector("[data-testid=verdict]")
    assert page.locator("[data-testid=explanation] li").all_inner_texts() == v["explanation"]
    assert not errors, errors


def test_the_table_pages_night_ambience_is_heard(browser: Any, server: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    ctx.add_init_script(PROBE)
    page = ctx.new_page()
    page.goto(f"{server.url}/table")
    page.wait_for_selector("[data-testid=start]", timeout=60000)
    assert page.evaluate(LOUDNESS)["state"] == "none"  # no sound before anyone asks
    page.click(".sound-panel summary")
    ambience_is_heard(page, LOUDNESS)
    ctx.close()
