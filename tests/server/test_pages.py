"""The pages share one head (web/head.html) and each page file holds only what differs:
what the browser gets is still a whole page, with the headers it always had."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient
from webhelpers import make_room

from nightcall.server.pages import HEAD, render, web_dir

PAGES = {"/": "nightcall", "/join": "nightcall", "/host/{code}": "nightcall — host",
         "/play/{code}": "nightcall — player", "/watch/{code}": "nightcall — watch",
         "/t/sometoken": "nightcall — table", "/table": "nightcall — table mode",
         "/replay": "nightcall — replay", "/replay/{code}": "nightcall — replay"}


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_whole_with_the_shared_head_and_its_own_title(
        client: TestClient, path: str) -> None:
    code, _ = make_room(client)
    r = client.get(path.format(code=code))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in r.headers["content-security-policy"]
    text = r.text
    assert text.startswith("<!doctype html>\n<html lang=\"en\">\n<head>\n")
    assert text.rstrip().endswith("</body>\n</html>")
    for tag in ("<head>", "</head>", "<body", "</body>", "<title>", 'charset="utf-8"',
                'name="viewport"', 'href="/static/css/app.css"'):
        assert text.count(tag) == 1, (path, tag)
    assert text.index("</head>") < text.index("<body")
    assert re.search(r"<title>(.*)</title>", text)[1] == PAGES[path]  # type: ignore[index]


def test_a_page_meta_replaces_the_shared_one_of_that_name() -> None:
    play = render("play.html")
    assert re.findall(r'<meta name="viewport" content="([^"]*)"', play) == [
        "width=device-width, initial-scale=1, viewport-fit=cover"]
    assert 'name="theme-color"' in play  # what the page does not give itself stays
    table = render("table.html")
    assert '<meta name="referrer" content="no-referrer">' in table
    assert 'content="width=device-width, initial-scale=1"' in table


def test_the_host_and_the_spectator_share_their_screen_part() -> None:
    part = (web_dir() / "parts" / "screen.html").read_text(encoding="utf-8")
    assert 'data-testid="stage"' in part and 'id="toast"' in part
    for name in ("host.html", "watch.html"):
        assert "<!--#include parts/screen.html-->" in (web_dir() / name).read_text()
        page = render(name)
        assert part in page and "#include" not in page, name
        assert page.count('id="toast"') == 1


def test_a_browser_revalidating_an_unchanged_page_gets_304(client: TestClient) -> None:
    first = client.get("/")
    etag = first.headers["etag"]
    again = client.get("/", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag and again.headers["cache-control"] == "no-cache"
    other = client.get("/replay", headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["etag"] != etag


def test_page_files_hold_only_what_differs() -> None:
    shared = set((web_dir() / HEAD).read_text(encoding="utf-8").splitlines())
    for path in web_dir().glob("*.html"):
        if path.name == HEAD:
            continue
        text = path.read_text(encoding="utf-8")
        assert not shared & set(text.splitlines()), path.name
        assert "</head>" not in text and "</html>" not in text, path.name
        assert text.count("<body") == 1, path.name
