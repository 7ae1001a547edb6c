"""A table's history in a real browser (issue 20): the host screen keeps a table with
one tap, games played in its rooms show up on the table's page in the room's language
(German here) with the players' numbers and two SVG plots; the host's screen merges two
spellings, deletes a game and then the whole table; a player's phone sees the numbers
but none of the host's controls. The page runs under the server's strict CSP."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from e2ehelpers import wait_for
from liveserver import LiveServer
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(240)


def play(url: str, code: str, host_token: str, names: tuple[str, ...]) -> None:
    """People sit by name and make no move (the clock plays their defaults); bots fill
    the other seats; the game runs to its end."""
    ws_url = url.replace("http", "ws", 1)
    with contextlib.ExitStack() as stack:
        seats = [stack.enter_context(connect(f"{ws_url}/ws/{code}")) for _ in names]
        for ws, name in zip(seats, names, strict=True):
            ws.send(json.dumps({"type": "hello", "name": name}))
            while json.loads(ws.recv(timeout=10))["type"] != "welcome":
                pass
        with connect(f"{ws_url}/ws/{code}") as host:
            host.send(json.dumps({"type": "hello", "as": "host", "token": host_token}))
            host.send(json.dumps({"type": "start"}))
            wait_for(lambda: httpx.get(f"{url}/api/rooms/{code}").json()["status"] == "over",
                     timeout=60, what=f"room {code} over")


def refusals(errors: list[str]) -> Any:
    """Console errors about the page's own code: CSP refusals and script errors (a
    missing favicon is no concern of this test)."""
    return lambda m: errors.append(m.text) if m.type == "error" and (
        "Content Security Policy" in m.text or "Refused" in m.text) else None


def new_room(url: str, **settings: Any) -> tuple[str, str]:
    r = httpx.post(f"{url}/api/rooms", json={"seats": 4, "language": "de", **settings})
    assert r.status_code == 201, r.text
    return r.json()["room"], r.json()["host_token"]


def test_the_table_page(browser: Any, tmp_path: Path, shots: Any) -> None:
    server = LiveServer(tmp_path / "rooms.sqlite3", time_scale=0.05).start()
    errors: list[str] = []
    try:
        url = server.url
        host_ctx = browser.new_context(viewport={"width": 1200, "height": 900})
        host = host_ctx.new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.on("console", refusals(errors))
        code, host_token = new_room(url)
        host.goto(f"{url}/host/{code}#{host_token}")
        host.click("[data-testid=keep-table]")
        link = host.wait_for_selector("[data-testid=table-link]")
        assert host.inner_text("[data-testid=table-keep] h2") == "Eure Runde"
        kept = json.loads(host.evaluate("localStorage.getItem('nightcall:table')"))
        token = kept["token"]
        assert link.get_attribute("href") == f"/t/{token}"
        shots(host, "table-01-host-keeps")
        # The room the host screen linked, then two more at the same table (as the
        # front page would make them, with the remembered token).
        play(url, code, host_token, ("Zoe", "Yara"))
        for names in (("Zoe", "Yara"), ("Zoey", "Yara")):
            c, t = new_room(url, table=token)
            play(url, c, t, names)

        # The host's screen opens the table's page: it has the host's key.
        page = host_ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", refusals(errors))
        page.on("dialog", lambda d: d.accept())
        page.goto(f"{url}/t/{token}")
        page.wait_for_selector("[data-testid=players]")
        assert page.inner_text("[data-testid=games-played]") == "3"
        assert page.evaluate("document.documentElement.lang") == "de"
        assert "Spiele in dieser Runde" in page.inner_text("main")
        head = page.inner_text("[data-testid=players] thead")
        assert "Als Werwolf" in head and "Als Dorfbewohner" in head
        rows = page.locator("[data-testid=players] tbody tr")
        assert sorted(rows.nth(i).locator("th").inner_text() for i in range(rows.count())) == [
            "Yara", "Zoe", "Zoey"]
        assert page.locator("svg.plot").count() == 2
        assert page.locator("svg.plot rect").count() >= 3  # a bar for each player
        assert page.locator("svg.plot polyline").count() == 3
        assert page.get_attribute("[data-testid=export-csv]", "href") == \
            f"/api/tables/{token}/games.csv"
        shots(page, "table-02-page")

        # Merge Zoey into Zoe: one player with three games.
        page.select_option("#merge_from", "Zoey")
        page.select_option("#merge_into", "Zoe")
        page.click("button:text-is('Zusammenführen')")
        wait_for(lambda: rows.count() == 2, what="the merged players")
        zoe = page.locator("[data-testid=players] tbody tr", has_text="Zoe")
        assert zoe.locator("td").first.inner_text() == "3"

        # A player's phone: the numbers, none of the host's controls.
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.on("pageerror", lambda e: errors.append(str(e)))
        phone.on("console", refusals(errors))
        phone.goto(f"{url}/t/{token}")
        phone.wait_for_selector("[data-testid=players]")
        assert phone.locator("[data-testid=delete-game]").count() == 0
        assert phone.locator("[data-testid=delete-table]").count() == 0
        shots(phone, "table-03-phone")

        # Delete one game, then the table.
        page.locator("[data-testid=delete-game]").first.click()
        wait_for(lambda: page.inner_text("[data-testid=games-played]") == "2",
                 what="a game deleted")
        page.click("[data-testid=delete-table]")
        page.wait_for_selector("[data-testid=gone]")
        assert httpx.get(f"{url}/api/tables/{token}").status_code == 404
        assert host.evaluate("localStorage.getItem('nightcall:table')") is None
        phone.reload()
        phone.wait_for_selector("[data-testid=missing]")
        assert "There is no table" in phone.inner_text("[data-testid=missing]")
        time.sleep(0.2)
        assert errors == [], errors
    finally:
        server.stop()
