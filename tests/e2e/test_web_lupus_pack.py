"""Lupus on phones: two werewolves agree on their victim, and one changes its pick
after seeing its partner's (rulebook: the werewolves "point at one victim" together).
Each wolf's phone shows the pack's picks as they stand; a villager's phone never does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2ehelpers import PHONE_360, axe_violations, save_at_dusk, seated_phone, sideways, wait_for

pytestmark = pytest.mark.timeout(180)

NAMES = ["Ada", "Bice", "Carlo", "Dario", "Elsa", "Fabio", "Gina", "Ivo"]


def saved_room(db: Path) -> tuple[str, list[str]]:
    """An 8-seat Italian Lupus room at dusk where Ada and Bice are the werewolves."""
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.server.messages import CreateRoom

    lupus = get_ruleset("lupus")
    roles = lupus.default_deck(8)
    seed = next(s for s in range(5000)
                if [lupus.view(st, i)["role"] for st in [lupus.deal(NAMES, roles, s)]
                    for i in (0, 1)] == ["werewolf", "werewolf"])
    settings = CreateRoom(ruleset="lupus", seats=8, language="it", call_seconds=25,
                          discussion_seconds=120, vote_seconds=60)
    return "LUPI", save_at_dusk(db, settings, "LUPI", NAMES, roles, seed)[1]


def pack(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("[data-testid=pack-pick]").all_inner_texts()]


def kill(page: Any, name: str) -> None:
    page.locator("[data-testid=choice][data-kind=kill]").filter(has_text=name).click()


def test_a_werewolf_changes_its_pick_until_the_pack_agrees(
        browser: Any, tmp_path: Path, shots: Any) -> None:
    from liveserver import LiveServer

    db = tmp_path / "rooms.sqlite3"
    code, tokens = saved_room(db)
    server = LiveServer(db).start()
    errors: list[str] = []
    try:
        ada, bice, carlo = (seated_phone(browser, server.url, code, tokens[i], errors,
                                         {"locale": "it-IT", **PHONE_360}) for i in range(3))
        for page in (ada, bice):
            page.wait_for_selector("[data-testid=pack]", timeout=40_000)
        assert pack(ada) == ["Tu: non ancora", "Bice: non ancora"]
        hint = ada.inner_text("[data-testid=pack]")
        assert "Potete cambiare scelta" in hint
        kill(ada, "Carlo")
        wait_for(lambda: pack(bice) == ["Ada: Carlo", "Tu: non ancora"], what="Bice sees Ada")
        kill(bice, "Dario")  # they disagree: both phones still choose
        wait_for(lambda: pack(ada) == ["Tu: Carlo", "Bice: Dario"], what="Ada sees Bice")
        picked = ada.locator("[data-testid=choice][data-kind=kill].picked")
        assert picked.count() == 1 and "Carlo" in picked.inner_text()
        assert picked.get_attribute("aria-pressed") == "true"
        shots(ada, "lupus-pack-01-disagree-360")
        assert sideways(ada) == 0 and axe_violations(ada) == []
        # Carlo, a villager, sees nothing of it: no picks, no choices.
        assert carlo.locator("[data-testid=pack]").count() == 0
        assert carlo.locator("[data-testid=choices]").count() == 0
        assert "Carlo" not in carlo.inner_text("[data-testid=known]").replace("Carlo:", "")
        kill(ada, "Dario")  # Ada changes her mind: now they agree
        for page in (ada, bice):
            wait_for(lambda p=page: p.locator("[data-testid=pack]").count() == 0,
                     what="the pack's call done once they agree")
        wait_for(lambda: "Dario" in ada.inner_text("[data-testid=known]"),
                 what="the victim in what Ada knows")
        assert not errors, errors
    finally:
        server.stop()
