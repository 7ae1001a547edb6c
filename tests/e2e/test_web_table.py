"""The defects a new group ran into, each checked through the pages: a sixth player in
a five-seat room, claim forms that reset, a night that starts before anyone looked at
their card, a card that forgets what its owner learnt, the seat order lost on play
again, a mistyped room code found out too late, and the missing favicon."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from e2ehelpers import PHONE, PHONE_360, Table, stage, wait_for

pytestmark = pytest.mark.timeout(180)


def phone(browser: Any, url: str, code: str, name: str, errors: list[str]) -> Any:
    page = browser.new_context(**PHONE).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/play/{code}")
    page.fill("#name", name)
    page.click("[data-testid=join]")
    return page


def test_a_full_room_refuses_one_more_player_in_its_language(browser: Any, server: Any) -> None:
    table = Table(browser, server.url, ("Ada", "Bruno", "Carla"), ruleset="onuw", seats=3,
                  language="it")
    extra = phone(browser, server.url, table.code, "Dario", table.errors)
    extra.wait_for_function("() => document.querySelector('[data-testid=join-error]').textContent")
    assert extra.inner_text("[data-testid=join-error]").startswith("Il tavolo è al completo")
    assert extra.locator("[data-testid=seats]").count() == 0  # not seated
    lobby = httpx.get(f"{server.url}/api/rooms/{table.code}").json()
    assert [s["name"] for s in lobby["seats"]] == ["Ada", "Bruno", "Carla"]
    # The host cannot overfill it with a bot either.
    assert table.host.locator("text=Aggiungi un bot").is_disabled()
    assert not table.errors, table.errors


def test_a_taken_name_is_refused_without_saying_the_phone_is_offline(
        browser: Any, server: Any, shots: Any) -> None:
    """A name already taken closes the socket for good: the phone said "Offline:
    reconnecting…" in red (nothing was reconnecting) and its header "Room CODE ·"."""
    table = Table(browser, server.url, ("Anna",), ruleset="onuw", seats=3)
    page = browser.new_context(**PHONE_360).new_page()
    page.on("pageerror", lambda e: table.errors.append(str(e)))
    page.goto(f"{server.url}/play/{table.code}")
    page.wait_for_selector("#name")
    assert page.inner_text("header .room").strip() == f"Room {table.code}"  # no dangling dot
    assert not page.locator(".conn").is_visible()  # no red ring before any connection
    page.fill("#name", "anna")
    page.click("[data-testid=join]")
    wait_for(lambda: "already has that name" in page.inner_text("[data-testid=join-error]"),
             what="the refusal")
    page.wait_for_timeout(600)  # (the socket's close comes after the refusal)
    shots(page, "table-name-taken-360")
    assert "Offline" not in page.inner_text("header")
    assert page.evaluate("document.body.dataset.connection") is None
    page.fill("#name", "Bruno")  # another name seats the phone, now online
    page.click("[data-testid=join]")
    page.wait_for_selector("[data-testid=seats]")
    wait_for(lambda: page.evaluate("document.body.dataset.connection") == "online",
             what="online")
    assert page.locator(".conn").is_visible()
    assert page.inner_text("header .room").strip() == f"Room {table.code} · Bruno"
    assert not table.errors, table.errors


def test_dusk_then_claims_that_keep_their_choices(browser: Any, server: Any, shots: Any) -> None:
    table = Table(browser, server.url, ("Ada", "Bruno"), ruleset="onuw", seats=3,
                  call_seconds=1, discussion_seconds=120, vote_seconds=60)
    host, (ada, bruno) = table.host, table.phones
    host.click("[data-testid=deal]")
    # The cards are dealt, but no call runs yet: everyone looks at their card while the
    # host reads the opening, and that has its own timer.
    wait_for(lambda: stage(host) == "dusk", what="dusk")
    assert host.inner_text("[data-testid=narration]").startswith("Look at your card")
    assert host.inner_text("[data-testid=timer]").strip()
    for page in (ada, bruno):
        page.wait_for_selector("[data-testid=dusk]")
        assert page.locator("[data-testid=choices]").count() == 0
        assert "Night:" not in page.inner_text("[data-testid=known]")  # no call yet
    wait_for(lambda: stage(host) == "night", what="the first call")
    wait_for(lambda: stage(host) == "discussion", what="day", timeout=60)

    # Ada picks a claim without saying it; Bruno's claims re-render her page.
    ada.wait_for_selector("[data-testid=claim]")
    ada.select_option("#claim-role", label="Troublemaker")
    ada.select_option("#swap-a", label="Bruno")
    bruno.select_option("#claim-role", label="Seer")
    bruno.click("[data-testid=claim]")
    wait_for(lambda: "Bruno says: “I am the Seer.”" in ada.inner_text("[data-testid=known]"),
             what="Bruno's claim on Ada's phone")
    bruno.select_option("#claim-role", label="Robber")
    bruno.click("[data-testid=claim]")
    wait_for(lambda: "Bruno says: “I am the Robber.”" in ada.inner_text("[data-testid=known]"),
             what="the second claim")
    picked = "(id) => document.getElementById(id).selectedOptions[0].text"
    assert ada.evaluate(picked, "claim-role") == "Troublemaker"
    assert ada.evaluate(picked, "swap-a") == "Bruno"
    # The host's board: newest first, so the latest claim leads.
    wait_for(lambda: host.locator("[data-testid=table] li").count() >= 2, what="the board")
    first = host.locator("[data-testid=table] li").first.inner_text()
    assert first == "Bruno says: “I am the Robber.”", first
    shots(host, "table-01-host-board-newest-first")
    assert not table.errors, table.errors


def test_the_seat_order_is_the_tables_and_play_again_keeps_it(browser: Any, server: Any,
                                                              shots: Any) -> None:
    table = Table(browser, server.url, ("Ada", "Bruno", "Carla"), ruleset="onuw", seats=3,
                  call_seconds=0.5, discussion_seconds=1, vote_seconds=2)
    host = table.host
    names = lambda page: page.locator("[data-testid=seats] li .name").all_inner_texts()  # noqa: E731
    assert names(host) == ["Ada", "Bruno", "Carla"]
    # Carla really sits between Ada and Bruno: the host drags her there.
    seat = "[data-testid=seats] li[data-seat='{}']".format
    host.drag_and_drop(seat(2), seat(1))
    wait_for(lambda: names(host) == ["Ada", "Carla", "Bruno"], what="the new order")
    wait_for(lambda: names(table.phones[0]) == ["Ada", "Carla", "Bruno"], what="the phones too")
    # The arrows do the same without dragging (keyboard, touch screens).
    host.click("[aria-label='Move Ada one seat on']")
    wait_for(lambda: names(host) == ["Carla", "Ada", "Bruno"], what="Ada moved on")
    shots(host, "table-02-host-arranged")
    for page, name in zip(table.phones, ("Ada", "Bruno", "Carla"), strict=True):
        assert page.inner_text("#me") == name
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "over", what="the end", timeout=90)
    dealt = next(line for line in host.locator("[data-testid=timeline] li").all_inner_texts()
                 if line.startswith("Dealt:"))
    assert dealt.index("Carla:") < dealt.index("Ada:") < dealt.index("Bruno:"), dealt
    host.click("[data-testid=play-again]")
    host.wait_for_url(lambda url: not url.endswith(f"/host/{table.code}"))
    wait_for(lambda: host.locator("[data-testid=seats] li.on").count() == 3, what="everyone back")
    assert names(host) == ["Carla", "Ada", "Bruno"]  # in the seats they had
    assert not table.errors, table.errors


def test_a_mistyped_code_is_said_at_once_and_the_favicon_is_there(browser: Any,
                                                                   server: Any) -> None:
    errors: list[str] = []
    front = browser.new_context(**PHONE_360).new_page()
    front.on("pageerror", lambda e: errors.append(str(e)))
    front.goto(server.url + "/")
    front.fill("#join-code", "ZZZZ")
    front.click("[data-t='front.join_button']")
    front.wait_for_function(
        "() => document.querySelector('[data-testid=front-join-error]').textContent")
    assert "ZZZZ" in front.inner_text("[data-testid=front-join-error]")
    assert front.url.rstrip("/") == server.url  # still on the front page
    # Straight to a player page of no room: told before typing a name.
    page = browser.new_context(**PHONE).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/play/ZZZZ")
    page.wait_for_function("() => document.querySelector('[data-testid=join-error]').textContent")
    assert "ZZZZ" in page.inner_text("[data-testid=join-error]")
    assert not page.is_visible("#name")
    icon = httpx.get(f"{server.url}/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
    assert page.evaluate("document.querySelector('link[rel=icon]').href").endswith("favicon.svg")
    assert not errors, errors


def saved_room(db: Path, roles: list[str], wanted: dict[int, str], names: list[str],
               call: str) -> tuple[str, str]:
    """A saved One Night room at ``call``'s turn, whose first seed deals ``wanted``
    (seat -> card); the humans' seat tokens are "<name>-token-0000" (a bot elsewhere)."""
    from nightcall.engine.actions import Action
    from nightcall.engine.clock import CLOCK_SEAT, END_CALL
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.server.messages import CreateRoom
    from nightcall.server.room import ClockState, Room, Seat
    from nightcall.server.store import SQLiteStore

    onuw = get_ruleset("onuw")
    for seed in range(5000):
        st = onuw.deal(names, roles, seed)
        cards = {e["seat"]: e["card"] for s in range(len(names))
                 for e in onuw.view(st, s)["events"] if e["kind"] == "deal"}
        if all(cards[s] == c for s, c in wanted.items()):
            break
    else:  # pragma: no cover - a few dozen seeds give any small wish
        raise AssertionError("no seed deals that")
    calls = list(onuw.night_calls(roles, 1))
    settings = CreateRoom(ruleset="onuw", seats=len(names), call_seconds=60,
                          discussion_seconds=300, vote_seconds=300)
    room = Room("CARD", settings)
    room.seats = [Seat(n, f"{n.lower()}-token-0000", bot=i not in wanted)
                  for i, n in enumerate(names)]
    room.status, room.seed, room.roles = "playing", seed, roles
    room.rebuild()  # at dusk, on the room's clock
    st = room.state
    while onuw.open_call(st) != call:  # the calls before ``call``: their seats do nothing
        waiting = onuw.waiting_for(st)
        if waiting:
            legal = list(onuw.legal_actions(st, waiting[0]))
            move = (waiting[0], Action("skip") if Action("skip") in legal else legal[0])
        else:
            move = (CLOCK_SEAT, END_CALL)
        onuw.apply(st, *move)
        room.actions.append(move)
    room.clock = ClockState("night", 1, calls.index(call))
    room.rebuild()
    store = SQLiteStore(db)
    store.save(room.code, room.to_doc(), finished=False)
    store.close()
    return room.code, room.host_token


def seated(browser: Any, url: str, code: str, name: str, errors: list[str]) -> Any:
    ctx = browser.new_context(**PHONE)
    seat_token = f"{name.lower()}-token-0000"
    ctx.add_init_script(f"localStorage.setItem('nightcall:seat:{code}', '{seat_token}')")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/play/{code}")
    return page


@pytest.mark.parametrize(("role", "choice", "now", "how"), [
    ("robber", "Swap your card with Bruno's", "Now: Seer", "you took Bruno's card"),
    ("doppelganger", "Look at Bruno's card and become it", "Now: Seer", "you copied Bruno's card"),
])
def test_the_card_shows_what_you_know_now(browser: Any, tmp_path: Path, shots: Any,
                                          role: str, choice: str, now: str, how: str) -> None:
    from liveserver import LiveServer

    roles = [role, "seer", "villager", "villager", "villager", "villager"]
    code, _ = saved_room(tmp_path / "rooms.sqlite3", roles, {0: role, 1: "seer"},
                         ["Ada", "Bruno", "Carla"], role)
    server = LiveServer(tmp_path / "rooms.sqlite3").start()
    errors: list[str] = []
    try:
        ada = seated(browser, server.url, code, "Ada", errors)
        ada.wait_for_selector("[data-testid=choices]")
        # Told in words too, for a screen reader (an assertive live region).
        wait_for(lambda: ada.inner_text("[data-testid=announce]").startswith("Your turn:"),
                 what="the announcement")
        assert ada.get_attribute("[data-testid=announce]", "aria-live") == "assertive"
        ada.click(f"[data-testid=choice]:has-text(\"{choice}\")")
        # (a Doppelgänger that became the Seer is asked again, as the Seer)
        wait_for(lambda: "Seer." in ada.inner_text("[data-testid=known]"), what="the look")
        ada.click("[data-testid=card]")
        story = ada.inner_text("[data-testid=card-now]")
        dealt = "Robber" if role == "robber" else "Doppelgänger"
        assert story == f"Dealt: {dealt} · {now} ({how})", story
        assert ada.inner_text("[data-testid=card] strong") == "Seer"
        known = ada.inner_text("[data-testid=known]")
        if role == "robber":  # about your own card, in the second person
            assert "You swap your card and Bruno's card." in known, known
            assert "You see your card: the Seer." in known, known
        else:  # what the look showed is on the card area too, not only in the list
            assert "Bruno's card: Seer" in ada.inner_text("[data-testid=card-extras]")
        shots(ada, f"table-03-phone-card-{role}")
        assert not errors, errors
    finally:
        server.stop()
