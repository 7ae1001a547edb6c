"""The role help the pages show comes from each ruleset's own locales (issue #13), served
with the pages' words: a real server and a real browser."""

from __future__ import annotations

from typing import Any

from nightcall.narration.locale import load


def test_the_page_reads_each_rulesets_role_help_in_its_language(browser: Any,
                                                                  server: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#ruleset option", state="attached")
    for lang in ("en", "it", "de"):
        got = page.evaluate("""async (lang) => {
            const text = await import("/static/js/text.js");
            await new Promise((done) => { text.setLanguage(lang, done); setTimeout(done, 2000); });
            const keys = ["help.onuw.seer", "help.epic.the_thing", "help.lupus.owl"];
            return keys.map((k) => text.t(k));
        }""", lang)
        lines = load(lang).lines
        assert got == [lines["help.onuw.seer"], lines["help.epic.the_thing"],
                       lines["help.lupus.owl"]], (lang, got)
    page.close()
