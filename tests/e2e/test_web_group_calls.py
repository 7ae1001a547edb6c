"""A night call that wakes a group (Epic's vampires, werewolves, Freemasons...) has no
role's name: the phone said "Vampires: du bist dran" and the host "Werewolves" in a
German room. Both now say the call's own sentence in the room's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2ehelpers import save_at_dusk, seated_phone, sideways, stage, wait_for

pytestmark = pytest.mark.timeout(180)

LOCALES = Path(__file__).resolve().parents[2] / "src" / "nightcall" / "web" / "locales"
NAMES = ["Ada", "Bea", "Cy", "Dan", "Eve"]
ROLES = ["vampire", "werewolf", "villager", "villager", "villager", "seer", "robber", "villager"]


def group_calls() -> set[tuple[str, str]]:
    """Every (ruleset, call) that no role is called by, over every deck of one role and
    the whole box, on the first two nights."""
    from nightcall.engine.ruleset import all_rulesets, get_ruleset

    found = set()
    for rid in all_rulesets():
        rs = get_ruleset(rid)
        for night in (1, 2):
            for deck in ([*rs.role_ids], *([r] for r in rs.role_ids)):
                found |= {(rid, c) for c in rs.night_calls(deck, night) if c not in rs.role_ids}
    return found


def test_every_group_call_has_its_sentence_in_every_language() -> None:
    calls = group_calls()
    assert ("epic", "vampires") in calls  # (the search finds them at all)
    for lang in ("en", "it", "de"):
        words = json.loads((LOCALES / f"{lang}.json").read_text())
        missing = sorted(c for _, c in calls if not words.get(f"ev.call.{c}"))
        assert missing == [], (lang, missing)
        assert "{call}" in words["turn.group"], lang


def test_a_german_phone_and_host_name_the_vampires_and_werewolves_calls(
        browser: Any, tmp_path: Path, shots: Any) -> None:
    from liveserver import LiveServer

    from nightcall.engine.ruleset import get_ruleset
    from nightcall.server.messages import CreateRoom

    epic = get_ruleset("epic")
    seed = next(s for s in range(5000)
                if tuple(epic.deal(NAMES, ROLES, s, {}).start[:2]) == ("vampire", "werewolf"))
    settings = CreateRoom(ruleset="epic", seats=5, language="de", roles=ROLES,
                          call_seconds=8, discussion_seconds=120, vote_seconds=60)
    db = tmp_path / "rooms.sqlite3"
    host_token, tokens = save_at_dusk(db, settings, "GRUP", NAMES, ROLES, seed)
    server = LiveServer(db).start()
    errors: list[str] = []
    try:
        host = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(f"{server.url}/host/GRUP#{host_token}")
        ada, bea = (seated_phone(browser, server.url, "GRUP", tokens[i], errors)
                    for i in range(2))
        for page, want, shot in ((ada, "Die Vampire wachen auf. Du bist dran.", "vampires"),
                                 (bea, "Die Werwölfe wachen auf. Du bist dran.", "werewolves")):
            page.wait_for_selector("[data-testid=choices] .call", timeout=40_000)
            heading = page.inner_text("[data-testid=choices] .call").strip()
            assert heading == want, heading
            assert "Vampires" not in heading and "Werewolves" not in heading
            assert sideways(page) == 0
            shots(page, f"group-call-{shot}-de-360")
            if shot == "werewolves":
                assert stage(host) == "night"
                wait_for(lambda: host.inner_text(".call-name").strip()
                         == "Die Werwölfe wachen auf.", what="the host's call name")
                shots(host, "group-call-werewolves-de-host")
            page.locator("[data-testid=choices] [data-testid=choice]").first.click()
        assert not errors, errors
    finally:
        server.stop()
