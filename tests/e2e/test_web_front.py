"""The front page speaks the browser's language (Italian, German, else English), has a
language picker that it remembers, and a new room starts in the page's language."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.timeout(90)


def open_front(browser: Any, url: str, locale: str, errors: list[str], title: str) -> Any:
    """The front page in a browser speaking ``locale``, once its words are in (they
    arrive after the page: until then it reads in English), its heading ``title``."""
    page = browser.new_context(locale=locale, viewport={"width": 1100, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    page.wait_for_function("(title) => document.querySelector(\"[data-t='front.host']\")"
                           ".textContent.trim() === title", arg=title)
    return page


def heading(page: Any) -> str:
    return str(page.inner_text("[data-t='front.host']")).strip()


def test_the_front_page_follows_the_browser_and_the_picker(
        browser: Any, server: Any, shots: Any) -> None:
    errors: list[str] = []
    german = open_front(browser, server.url, "de-DE", errors,
                        "Ein Spiel auf diesem Bildschirm leiten")
    assert german.input_value("[data-testid=page-language]") == "de"
    assert german.input_value("[data-testid=room-language]") == "de"  # preset for the room
    assert german.evaluate("document.documentElement.lang") == "de"
    assert german.inner_text("[data-testid=create]").strip() == "Raum erstellen"
    assert german.inner_text("[data-testid=deck-preview]").startswith("Karten:")
    assert "Seherin" in german.inner_text("[data-testid=deck-preview]")  # role names too
    assert german.get_attribute("#join-code", "placeholder") == "Raumcode"
    shots(german, "front-01-german")

    # The picker switches the page and the new room's language, and is remembered.
    german.select_option("[data-testid=page-language]", "it")
    german.wait_for_function(
        "() => document.querySelector(\"[data-t='front.host']\").textContent.startsWith('Ospita')")
    assert german.input_value("[data-testid=room-language]") == "it"
    assert german.inner_text("[data-testid=deck-preview]").startswith("Mazzo:")
    assert "Veggente" in german.inner_text("[data-testid=deck-preview]")
    # A scenario picked from the list stays picked (a rebuild used to drop it).
    german.select_option("#ruleset", "epic")
    german.select_option("#scenario", "the_first_night")
    assert german.input_value("#scenario") == "the_first_night"
    assert german.inner_text("[data-testid=deck-preview]") == "Il mazzo dello scenario."
    # named in the page's language, not the rulebook's English
    assert german.eval_on_selector("#scenario", "e => e.selectedOptions[0].textContent") \
        == "La prima notte"
    german.select_option("#ruleset", "lupus")
    assert german.is_visible("#defense-row") and not german.is_visible("#scenario-row")
    # The seats' range is said; a number typed outside it is moved in, and said so.
    hint = german.locator("[data-testid=seats-hint]")
    # (the 5 seats of the game before are too few for Lupus)
    assert german.input_value("#seats") == "7" and hint.inner_text() == \
        "Lupus in Tabula si gioca da 7 a 23 giocatori: numero portato a 7."
    german.fill("#seats", "30")
    german.press("#seats", "Tab")
    assert german.input_value("#seats") == "23"
    assert hint.inner_text() == "Lupus in Tabula si gioca da 7 a 23 giocatori: numero portato a 23."
    assert hint.get_attribute("role") == "status"  # (read out when it changes)
    shots(german, "front-02-seats-moved")
    german.fill("#seats", "12")
    german.press("#seats", "Tab")
    assert hint.inner_text() == "Da 7 a 23 giocatori, bot compresi."
    german.select_option("#ruleset", "onuw")
    assert not german.is_visible("#defense-row")  # only Lupus has a defense
    german.fill("#seats", "3")
    german.press("#seats", "Tab")  # the deck preview follows the seats when they change
    # 3 + 3 in the center, each role once with its count
    assert german.inner_text("[data-testid=deck-preview]") == \
        "Mazzo: 2 × Lupo, Veggente, Ladro, Combinaguai, Villico"
    german.click("[data-testid=create]")
    german.wait_for_url("**/host/*")
    german.wait_for_selector("[data-testid=code]")
    code = german.inner_text("[data-testid=code]").strip()
    room = httpx.get(f"{server.url}/api/rooms/{code}").json()
    assert room["settings"]["language"] == "it"
    assert german.inner_text("[data-testid=stage]").strip() != "Waiting for players"
    german.goto(server.url + "/")
    german.wait_for_selector("#ruleset option", state="attached")
    german.wait_for_function("() => document.documentElement.lang === 'it'")
    # (the words arrive after the language is set: wait for them, as open_front does)
    german.wait_for_function(
        "() => document.querySelector(\"[data-t='front.host']\").textContent.startsWith('Ospita')")
    assert heading(german).startswith("Ospita")  # this browser said German: the pick wins

    # A language we have no words for: English.
    french = open_front(browser, server.url, "fr-FR", errors, "Host a game on this screen")
    assert french.input_value("[data-testid=page-language]") == "en"
    # Italian second in the browser's list, after one we lack: Italian.
    swiss = browser.new_context(locale="fr-CH", extra_http_headers={}).new_page()
    swiss.add_init_script(
        "Object.defineProperty(navigator, 'languages', { get: () => ['fr-CH', 'it-CH', 'en'] });")
    swiss.goto(server.url + "/")
    swiss.wait_for_selector("#ruleset option", state="attached")
    swiss.wait_for_function("() => document.documentElement.lang === 'it'")
    assert swiss.input_value("[data-testid=room-language]") == "it"
    assert not errors, errors
