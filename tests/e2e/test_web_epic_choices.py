"""Epic Battle's own choices on phones (360 px), in a room saved at dusk with a known
deal: Venus gives two players the Love tokens (a two-tap grid), the Instigator gives
one player the Traitor token (a list), the Goblin swaps two players' tokens (its
second grid, beside the card swap), the Curator puts an artifact on a card. Each phone
then tells its player what they did. By day a phone claims a role, as in One Night, and
the host's board shows it; at the end the host's TV shows, under each card, the token
(other than Certainty) and the artifact its player ended with, as the record has them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2ehelpers import axe_violations, save_at_dusk, seated_phone, sideways, stage, wait_for

pytestmark = pytest.mark.timeout(240)

NAMES = ["Ada", "Bea", "Cy", "Dan", "Eve", "Fay"]
ROLES = ["the_count", "the_master", "renfield", "venus", "goblin", "instigator", "villager",
         "werewolf", "curator"]


def saved_room(db: Path) -> tuple[str, str, list[str]]:
    """A 6-seat English Epic room at dusk, nobody connected yet: Ada is dealt the
    Goblin, Bea Venus, Cy the Instigator, Dan the Curator. Returns the code, host token,
    seat tokens."""
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.server.messages import CreateRoom

    epic = get_ruleset("epic")
    seed = next(s for s in range(100_000)
                if tuple(epic.deal(NAMES, ROLES, s, {}).start[:4])
                == ("goblin", "venus", "instigator", "curator"))
    settings = CreateRoom(ruleset="epic", seats=6, language="en", roles=ROLES,
                          call_seconds=8, discussion_seconds=120, vote_seconds=60)
    return ("EPIC", *save_at_dusk(db, settings, "EPIC", NAMES, ROLES, seed))


def pick_pair(page: Any, kind: str, first: str, second: str, shot: Any = None) -> None:
    """Two taps on a grid of names; between them (the first name picked, the names it
    cannot pair with disabled) the screen is photographed and checked."""
    grid = page.locator(f"[data-testid=pick][data-kind={kind}]")
    grid.filter(has_text=first).click()
    page.locator(f"[data-testid=pick][data-kind={kind}].picked").wait_for()
    if shot is not None:
        shot(page)
        assert sideways(page) == 0 and axe_violations(page) == []
    grid.filter(has_text=second).click()


def known(page: Any) -> str:
    return str(page.inner_text("[data-testid=known]"))


def test_venus_the_instigator_and_the_goblin_choose_on_their_phones(
        browser: Any, tmp_path: Path, shots: Any) -> None:
    from liveserver import LiveServer

    db = tmp_path / "rooms.sqlite3"
    code, host_token, tokens = saved_room(db)
    server = LiveServer(db).start()  # it picks the saved room up at dusk
    errors: list[str] = []
    try:
        host = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(f"{server.url}/host/{code}#{host_token}")
        ada, bea, cy, dan = (seated_phone(browser, server.url, code, tokens[i], errors)
                             for i in range(4))
        for page, role in ((ada, "Goblin"), (bea, "Venus"), (cy, "Instigator"), (dan, "Curator")):
            page.wait_for_selector("[data-testid=card]")
            page.click("[data-testid=card]")
            wait_for(lambda p=page, r=role: r in p.inner_text("[data-testid=card]"),
                     what=f"the {role} card")
            page.click("[data-testid=card]")  # face down again

        # Venus: two taps on the grid give Dan and Eve the Love tokens.
        bea.wait_for_selector("[data-testid=pick][data-kind=token_two]", timeout=40_000)
        assert bea.locator("[data-testid=pick][data-kind=token_two]").count() == 6
        pick_pair(bea, "token_two", "Dan", "Eve",
                  lambda p: shots(p, "epic-choices-01-venus-360"))
        wait_for(lambda: "You give the Love tokens to Dan and Eve." in known(bea),
                 what="Venus's own line")

        # The Instigator: one tap, one player gets the Traitor token.
        cy.wait_for_selector("[data-testid=choice][data-kind=token]", timeout=20_000)
        shots(cy, "epic-choices-02-instigator-360")
        cy.locator("[data-testid=choice][data-kind=token]").filter(has_text="Fay").click()
        wait_for(lambda: "You give Fay the Traitor token." in known(cy),
                 what="the Instigator's own line")

        # The Goblin: two grids (cards, tokens); it swaps Bea's and Cy's tokens.
        ada.wait_for_selector("[data-testid=pick][data-kind=swap_tokens]", timeout=90_000)
        assert ada.locator("[data-testid=pick][data-kind=swap_two]").count() == 6
        assert ada.locator("[data-testid=pick][data-kind=swap_tokens]").count() == 6
        pick_pair(ada, "swap_tokens", "Bea", "Cy",
                  lambda p: shots(p, "epic-choices-03-goblin-360"))
        wait_for(lambda: "You swap the tokens of Bea and Cy." in known(ada),
                 what="the Goblin's own line")

        # The Curator: one tap puts an artifact (drawn at random) on Eve's card.
        dan.wait_for_selector("[data-testid=choice][data-kind=artifact]", timeout=40_000)
        dan.locator("[data-testid=choice][data-kind=artifact]").filter(has_text="Eve").click()

        # By day, Ada claims a role with her phone and the host's board shows it.
        wait_for(lambda: stage(ada) == "discussion", what="the day", timeout=60)
        ada.wait_for_selector("#claim-role")
        options = ada.locator("#claim-role option").all_inner_texts()
        assert "Villager" in options and "Goblin" in options and "Seer" not in options
        ada.select_option("#claim-role", label="Villager")
        ada.click("[data-testid=claim]")
        wait_for(lambda: "Ada says: “I am the Villager.”" in host.inner_text("[data-testid=table]"),
                 what="the claim on the host's board")
        ada.select_option("#saw-pos", label="Bea")
        ada.select_option("#saw-role", label="Venus")
        ada.click("[data-testid=claim-saw]")
        wait_for(lambda: "Bea" in host.locator("[data-testid=table] li").first.inner_text(),
                 what="the second claim, newest first")
        shots(ada, "epic-choices-04-claims-360")
        assert sideways(ada) == 0 and axe_violations(ada) == []
        the_end(host, [ada, bea, cy, dan], server.url, code)
        shots(host, "epic-choices-05-host-end-1920")
        assert not errors, errors
    finally:
        server.stop()


def the_end(host: Any, phones: list[Any], url: str, code: str) -> None:
    """The vote, then the host's end: each seat's marks are those of the record's
    final table, Eve's artifact and the tokens given in the night among them."""
    import httpx

    from nightcall.engine.records import replay
    from nightcall.narration.locale import load
    from nightcall.rulesets.epic.record import counts_as

    host.click("[data-testid=open-vote]")
    for page in phones:
        page.wait_for_selector("[data-testid=vote] [data-testid=choice]")
        page.locator("[data-testid=vote] [data-testid=choice]").first.click()
    wait_for(lambda: stage(host) == "over", what="the end", timeout=60)
    host.wait_for_selector("[data-testid=faceup] .mini-card")
    _, final = replay(httpx.get(f"{url}/api/rooms/{code}/record").json())
    want = {}
    for seat, name in enumerate(NAMES):
        marks = [TOKENS[final.tokens[seat]]] if final.tokens[seat] != "certainty" else []
        if final.artifacts[seat]:
            marks.append(ARTIFACTS[final.artifacts[seat]])
        want[name] = marks
    assert want["Eve"][-1] in ARTIFACTS.values()  # the Curator's draw, whichever it was
    assert sum(map(len, want.values())) >= 3  # Love twice or Traitor survive the night
    seats = host.locator("[data-testid=faceup] [data-testid=seats] > li")
    shown = {seats.nth(i).locator(".name").inner_text():
             seats.nth(i).locator(".end-marks .chip").all_inner_texts()
             for i in range(seats.count())}
    assert shown == want, (shown, want)
    # Each card's title is what its player counts as; its caption, the card as dealt and
    # as it lies when they differ, else the card when the title is not the card.
    role = load("en").role
    for i in range(seats.count()):
        name = seats.nth(i).locator(".name").inner_text()
        seat = NAMES.index(name)
        dealt, card, counts = final.start[seat], final.cards[seat], counts_as(final)[seat]
        said = seats.nth(i).locator(".mini-card small").all_inner_texts()
        first = said[0].split(" · ")[0] if said else ""
        if dealt != card:
            assert first == f"{role('epic', dealt)} → {role('epic', card)}", (name, said)
        elif counts != card:
            assert first == f"card: {role('epic', card)}", (name, said)
        else:
            assert not first.startswith("card:") and "→" not in first, (name, said)


TOKENS = {"love": "Love", "bat": "Bat", "bounty": "Bounty", "panic": "Panic",
          "plague": "Plague", "vampire": "Vampire", "traitor": "Traitor"}
ARTIFACTS = {"claw_of_the_werewolf": "Claw of the Werewolf",
             "bite_of_the_vampire": "Bite of the Vampire",
             "brand_of_the_villager": "Brand of the Villager",
             "club_of_the_tanner": "Club of the Tanner", "mask_of_silence": "Mask of Silence",
             "cloak_of_shame": "Cloak of Shame"}
