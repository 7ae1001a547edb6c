"""A Lupus in Tabula night and day in a real browser: three phones and four bots.

The host screen narrates the night, announces the dawn, runs the accusations
in seat order, the Suspects' defense and the execution, then the next nights until
a side wins; the end screen explains why in Italian."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from e2ehelpers import Table, act_if_called, hurry, stage, wait_for

pytestmark = pytest.mark.timeout(300)


def test_lupus_night_and_day(browser: Any, server: Any, shots: Any) -> None:
    table = Table(browser, server.url, ("Ada", "Ben", "Cleo"),
                  ruleset="lupus", seats=7, call_seconds=1.5, discussion_seconds=60,
                  vote_seconds=6, defense_seconds=60, language="it")
    host, phones, errors = table.host, table.phones, table.errors
    # The seats' order decides who accuses first in Lupus, and the lobby says so.
    wait_for(lambda: "chi accusa per primo" in host.inner_text("[data-testid=order-hint]"),
             what="the order's hint")
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    assert host.inner_text("[data-testid=stage]").strip() == "Notte"  # an Italian room
    assert phones[0].inner_text("[data-testid=card]").startswith("Tocca")
    shots(host, "lupus-01-host-night")
    while stage(host) == "night":
        for page in phones:
            act_if_called(page)
        time.sleep(0.15)
    wait_for(lambda: stage(host) in ("discussion", "over"), what="dawn")
    if stage(host) == "over":  # a one-night game is possible but rare
        italian_end(host, shots)
        assert not errors, errors
        return
    table = host.inner_text("#main")
    assert "Alba:" in table and "Dawn:" not in table  # the event sentences are Italian too
    assert host.inner_text("[data-testid=open-vote]").strip() == "Apri subito il voto"
    shots(host, "lupus-02-host-dawn")
    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "accuse", what="accusations")
    accused = False
    # Whose turn it is to accuse: named on the board and ringed on the table.
    host.wait_for_selector("[data-testid=accuser]")
    assert host.locator("[data-testid=seats] li.marked").count() == 1
    while stage(host) == "accuse":
        for i, page in enumerate(phones):
            if page.locator("[data-testid=vote]").count():
                if not accused:
                    shots(page, f"lupus-03-phone-accuse-{i}")
                accused = act_if_called(page) or accused
        time.sleep(0.15)
    wait_for(lambda: stage(host) in ("defense", "night", "over"), what="defense")
    if stage(host) == "defense":
        assert "Sospettati:" in host.inner_text("#main")
        shots(host, "lupus-04-host-defense")
        host.click("[data-testid=open-vote]")
        wait_for(lambda: stage(host) in ("execute", "night", "over"), what="execution")
        if stage(host) == "execute":  # only the living who are not Suspects vote
            count = re.search(r"(\d+)/(\d+)", host.inner_text("[data-testid=voted-list]"))
            seats = host.locator("[data-testid=seats] li")
            living = seats.count() - host.locator("[data-testid=seats] li[data-ghost=yes]").count()
            suspects = host.locator("[data-testid=seats] li.suspect").count()
            assert count and suspects >= 2 and int(count.group(2)) == living - suspects, count
        while stage(host) == "execute":
            for page in phones:
                act_if_called(page)
            time.sleep(0.15)
    wait_for(lambda: stage(host) in ("night", "over"), what="the next night")
    text = host.inner_text("#main")
    assert "va al rogo." in text or stage(host) == "over"
    shots(host, "lupus-05-host-next-night")
    if stage(host) == "night":
        earlier_nights_fold(phones[0], shots)
    # A phone shows the ghost's screen exactly when the table lists that player as a ghost.
    ghosts = host.locator("[data-testid=seats] li[data-ghost=yes]").all_inner_texts()
    assert ghosts, "somebody died in the night or the day"
    for page in phones:
        ghost = page.locator("[data-testid=ghost]").count() > 0
        listed = any(g.startswith(page.inner_text("#me")) and "(bot)" not in g for g in ghosts)
        assert ghost == listed
        if ghost and stage(host) == "night":  # (not "your phone lights up when called")
            page.wait_for_selector("[data-testid=sleep] >> text=Di notte i fantasmi non vengono "
                                   "più chiamati.")
    play_to_the_end(host, phones)
    italian_end(host, shots)
    assert not errors, errors


def earlier_nights_fold(page: Any, shots: Any) -> None:
    """On a phone, night 1 and its day fold under their first line once night 2 falls:
    the phone opens on the night in play, and a tap opens the earlier one, which stays
    open while the phone redraws."""
    wait_for(lambda: "Scende la notte 2." in page.inner_text("[data-testid=known] > ol"),
             what="night 2 on the phone")
    rounds = page.locator("[data-testid=known-round]")
    assert rounds.count() == 1 and not rounds.first.evaluate("d => d.open")
    assert rounds.first.locator("summary").inner_text().strip() == "Scende la notte 1."
    assert page.locator("[data-testid=known] > ol").get_attribute("start") != "1"
    rounds.first.locator("summary").click()
    wait_for(lambda: rounds.first.evaluate("d => d.open"), what="night 1 opened")
    assert "Alba:" in rounds.first.inner_text()
    shots(page, "lupus-05-phone-night-2")
    time.sleep(2)  # the next call redraws the page
    assert rounds.first.evaluate("d => d.open")


def play_to_the_end(host: Any, phones: list[Any]) -> None:
    """The host cuts every talk short, the phones act when called, bots and the clock
    do the rest, until one side has won."""

    deadline = time.monotonic() + 150
    while stage(host) != "over":
        assert time.monotonic() < deadline, "the game did not end"
        hurry(host, phones)


def italian_end(host: Any, shots: Any) -> None:
    """The end screen of an Italian room gives the judge's reasoning in Italian."""
    host.wait_for_selector("[data-testid=explanation] li")
    why = host.locator("[data-testid=explanation] li").all_inner_texts()
    assert "Ognuno vince o perde con il proprio schieramento, da vivo o da morto." in why
    assert why[-1].startswith("Vincitori:") or why[-1] == "Non vince nessuno.", why
    assert not any("Everyone wins" in line or "Winners:" in line for line in why), why
    assert host.get_attribute("[data-testid=explanation]", "lang") is None
    narration = host.inner_text("[data-testid=narration]")
    assert "vincono" in narration or "vince" in narration  # the closing line, spoken too
    shots(host, "lupus-06-host-end")


NAMES = ["Ada", "Bice", "Carlo", "Dario", "Elsa", "Fabio", "Gina", "Ivo", "Lea", "Mino",
         "Nora", "Olga", "Piero", "Rita", "Sara", "Tito"]


def room_after_a_double_death(db: Path) -> tuple[str, str, tuple[int, ...]]:
    """A saved 16-seat Italian room (every seat a bot) at the talk after a first dawn
    with two or more dead: the first seed whose random night gives one. Returns the
    room code, the host token and that dawn's dead."""
    from webhelpers import save_playing, two_dead_at_dawn

    from nightcall.engine.ruleset import get_ruleset
    from nightcall.server.messages import CreateRoom
    from nightcall.server.room import Seat

    roles = get_ruleset("lupus").default_deck(16, "extra")
    seed, actions, dead = two_dead_at_dawn(NAMES, roles)
    settings = CreateRoom(ruleset="lupus", seats=16, language="it", call_seconds=1,
                          discussion_seconds=300, vote_seconds=300, defense_seconds=300)
    seats = [Seat(name, f"bot-token-{i:08d}", bot=True) for i, name in enumerate(NAMES)]
    room = save_playing(db, "DUEM", settings, seats, roles, seed, actions, "discussion")
    return room.code, room.host_token, dead


def test_the_host_names_the_last_to_die(browser: Any, tmp_path: Path, shots: Any) -> None:
    from liveserver import LiveServer

    db = tmp_path / "rooms.sqlite3"
    code, token, dead = room_after_a_double_death(db)
    server = LiveServer(db).start()  # it picks the saved room up where it stood
    try:
        host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(f"{server.url}/host/{code}#{token}")
        host.wait_for_selector("[data-testid=last-choice]")
        buttons = host.locator("[data-testid=last]")
        assert buttons.all_inner_texts() == [NAMES[s] for s in dead]
        default, chosen = dead[-1], dead[0]
        assert "picked" in (buttons.nth(len(dead) - 1).get_attribute("class") or "")
        # Italian words, once the room's word table is in (the page re-renders then).
        wait_for(lambda: f"Se non scegli, l'ultima vittima è {NAMES[default]}." in
                 host.inner_text("[data-testid=last-choice]"), what="the Italian hint")
        shots(host, "lupus-07-host-last-choice")

        buttons.nth(0).click()
        host.wait_for_function(
            "() => document.querySelector('[data-testid=last]').classList.contains('picked')")
        assert "picked" not in (buttons.nth(len(dead) - 1).get_attribute("class") or "")
        assert f"{NAMES[chosen]} conta come l'ultima vittima." in \
            host.inner_text("[data-testid=last-choice]")
        # The narrator says it, and the accusations now start at the chosen one's left.
        # (said without a gender: "l'ultima morte è quella di ...", issue 17 item 8)
        wait_for(lambda: f"l'ultima morte è quella di {NAMES[chosen]}" in
                 host.inner_text("[data-testid=narration]"), what="the narration")
        table = host.locator("[data-testid=table] li").all_inner_texts()
        # The board lists the newest first: the order as it stands now is the first one.
        order = next(line for line in table if "le accuse partono da" in line)
        assert f"le accuse partono da {NAMES[(chosen + 1) % 16]}." in order, order
        shots(host, "lupus-08-host-last-chosen")

        host.click("[data-testid=open-vote]")  # the accusations begin: no more choosing
        wait_for(lambda: stage(host) == "accuse", what="the accusations")
        assert host.locator("[data-testid=last-choice]").count() == 0
        assert not errors, errors
    finally:
        server.stop()


def test_a_suspects_and_a_ghosts_phone_say_why_they_do_not_vote(browser: Any, server: Any,
                                                                shots: Any) -> None:
    """Seven phones: everyone accuses the first living player, who accuses the second,
    so those two are the Suspects. A Suspect's phone says with whom it stands and that
    Suspects do not vote (the defense, then the execution); the night's ghost's phone
    says ghosts do not vote in the execution; the voters' phones only ask."""
    names = ("Ada", "Bea", "Cleo", "Dan", "Eva", "Fede", "Gio")
    table = Table(browser, server.url, names, ruleset="lupus", seats=7, call_seconds=1.5,
                  discussion_seconds=300, vote_seconds=300, defense_seconds=300,
                  language="it")
    host, phones = table.host, table.phones
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    while stage(host) == "night":
        for page in phones:
            act_if_called(page)
        time.sleep(0.15)
    wait_for(lambda: stage(host) == "discussion", what="dawn")
    ghosts = {page.inner_text("#me").strip(): page for page in phones
              if page.locator("[data-testid=ghost]").count()}
    first, second = [n for n in names if n not in ghosts][:2]
    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "accuse", what="the accusations")
    while stage(host) == "accuse":
        for page in phones:
            target = second if page.inner_text("#me").strip() == first else first
            button = page.locator("[data-testid=vote] [data-testid=choice]", has_text=target)
            if button.count():
                button.click()
        time.sleep(0.15)
    wait_for(lambda: stage(host) == "defense", what="the defense")

    def waiting(page: Any, now: str) -> str:
        wait_for(lambda: stage(page) == now, what=f"{now} on the phone")
        said = page.locator("[data-testid=waiting]")
        return said.inner_text() if said.count() else ""

    by_name = {page.inner_text("#me").strip(): page for page in phones}
    assert waiting(by_name[first], "defense") == (
        f"Tu e {second} siete i Sospettati. Ora ciascuno di voi ha un breve discorso per "
        "difendersi.")
    assert waiting(by_name[second], "defense").startswith(f"Tu e {first} siete i Sospettati.")
    shots(by_name[second], "lupus-suspect-defense-360")
    assert all(waiting(page, "defense") == "" for name, page in by_name.items()
               if name not in (first, second))
    host.click("[data-testid=open-vote]")
    wait_for(lambda: stage(host) == "execute", what="the execution")
    assert waiting(by_name[first], "execute") == (
        f"Tu e {second} siete i Sospettati: ora gli altri scelgono chi mandare al rogo. "
        "I Sospettati non votano.")
    assert by_name[first].locator("[data-testid=vote]").count() == 0
    for ghost in ghosts.values():
        assert waiting(ghost, "execute") == (
            f"I fantasmi non votano nell'esecuzione: i vivi scelgono tra {first} e {second}.")
        shots(ghost, "lupus-ghost-execute-360")
    voters = [page for name, page in by_name.items() if name not in (first, second, *ghosts)]
    for page in voters:
        page.wait_for_selector("[data-testid=vote] [data-testid=choice]")
        assert waiting(page, "execute") == ""
    assert not table.errors, table.errors
