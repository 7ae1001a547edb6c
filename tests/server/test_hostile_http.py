"""Issue 15, over HTTP: cross-site requests, the security headers, join links that
no Host header can change, rooms that do not pile up forever (expiry, code length,
no unbounded loop), and a full disk on POST /api/rooms (a real tiny filesystem)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webhelpers import WS, host_starts, make_room

from nightcall.server import hub as hub_mod
from nightcall.server.app import create_app
from nightcall.server.store import SQLiteStore

pytestmark = pytest.mark.timeout(60)


# --- Origin ------------------------------------------------------------------------------


@pytest.fixture
def lan(db_path: Path) -> Iterator[TestClient]:
    app = create_app(SQLiteStore(db_path), public_url="http://192.168.1.5:8000",
                     allow_origins=["https://games.example.org"])
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://192.168.1.5:8001",
                                    "https://192.168.1.5:8000", "http://games.example.org"])
def test_a_page_of_another_site_cannot_open_a_room_or_its_websockets(
        lan: TestClient, origin: str) -> None:
    r = lan.post("/api/rooms", json={}, headers={"origin": origin})
    assert r.status_code == 403
    assert r.json()["code"] == "bad_origin" and "--allow-origin" in r.json()["message"]
    assert lan.app.state.hub.rooms == {}  # type: ignore[attr-defined]
    code, _ = make_room(lan)  # (no Origin: not a page)
    with lan.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
        err = WS(ws).recv()
        assert err == {"type": "room_error", "code": "bad_origin",
                       "message": err["message"]} and "another site" in err["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4000
    with lan.websocket_connect(f"/ws/{code}/agent?name=robo", headers={"origin": origin}) as ws:
        err = WS(ws).recv()
        assert err["type"] == "error" and err["code"] == "refused"
    assert lan.app.state.hub.rooms[code].seats == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("origin, host", [
    ("http://192.168.1.5:8000", "192.168.1.5:8000"),  # the public URL
    ("https://games.example.org", "192.168.1.5:8000"),  # --allow-origin
    ("http://127.0.0.1:8000", "127.0.0.1:8000"),  # the page, reached by an address
    ("http://localhost:8000", "localhost:8000"),
    ("http://[::1]:8000", "[::1]:8000"),
])
def test_our_own_pages_may(lan: TestClient, origin: str, host: str) -> None:
    headers = {"origin": origin, "host": host}
    r = lan.post("/api/rooms", json={}, headers=headers)
    assert r.status_code == 201, r.text
    code = r.json()["room"]
    with lan.websocket_connect(f"/ws/{code}", headers=headers) as ws:
        w = WS(ws)
        w.send(type="hello", name="Ann")
        assert w.recv()["type"] == "welcome"


def test_a_name_pointed_at_us_is_not_our_origin(lan: TestClient) -> None:
    """DNS rebinding: evil.example resolves to our address, and its page asks with
    Host: evil.example and Origin: http://evil.example (the same origin, to the
    browser). Only pages reached by an address or our configured URLs may."""
    headers = {"origin": "http://evil.example:8000", "host": "evil.example:8000"}
    assert lan.post("/api/rooms", json={}, headers=headers).status_code == 403


# --- headers -----------------------------------------------------------------------------


def test_every_page_has_the_security_headers(client: TestClient) -> None:
    code, _ = make_room(client)
    for path in ("/", "/join", f"/host/{code}", f"/play/{code}", f"/watch/{code}",
                 "/static/js/play.js", "/static/css/app.css", "/api/rulesets",
                 f"/api/rooms/{code}", f"/api/rooms/{code}/qr.svg", "/api/rooms/ZZZZ",
                 "/no/such/page"):
        r = client.get(path)
        csp = r.headers.get("content-security-policy", "")
        directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ") if d}
        assert directives.get("script-src") == ["'self'"], (path, csp)
        assert directives.get("frame-ancestors") == ["'none'"], (path, csp)
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        assert r.headers.get("x-content-type-options") == "nosniff", path
        assert r.headers.get("referrer-policy") == "no-referrer", path
    r = client.post("/api/rooms", json={"colour": "red"})
    assert r.status_code == 400 and r.headers["x-content-type-options"] == "nosniff"


def test_the_pages_have_no_inline_script_or_style() -> None:
    """What the policy forbids must not be in the pages (it would not run)."""
    from nightcall.server.app import web_dir

    for page in web_dir().glob("*.html"):
        text = page.read_text()
        assert "<script>" not in text and "<style" not in text, page
        assert " style=" not in text and " onclick=" not in text, page
        for tag in text.split("<script")[1:]:
            assert 'src="/static/' in tag.split(">", 1)[0], (page, tag[:80])


# --- join links --------------------------------------------------------------------------


def test_the_join_link_never_comes_from_the_host_header(db_path: Path) -> None:
    with TestClient(create_app(SQLiteStore(db_path), public_url="http://10.0.0.7:8000")) as c:
        r = c.post("/api/rooms", json={}, headers={"host": "evil.example"})
        assert r.json()["join_url"] == f"http://10.0.0.7:8000/play/{r.json()['room']}"
    with TestClient(create_app(SQLiteStore(db_path))) as c:  # no public URL: the socket's
        r = c.post("/api/rooms", json={}, headers={"host": "evil.example"})
        code = r.json()["room"]
        assert r.json()["join_url"] == f"http://testserver/play/{code}"
        assert "evil" not in c.get(f"/api/rooms/{code}").text


def test_a_restart_keeps_a_full_join_link(db_path: Path) -> None:
    """The QR code after a restart: a full URL (it used to become "/play/CODE")."""
    with TestClient(create_app(SQLiteStore(db_path))) as c:
        code, _ = make_room(c)
        url = c.get(f"/api/rooms/{code}").json()["join_url"]
        assert url.startswith("http://")
    with TestClient(create_app(SQLiteStore(db_path))) as c:  # started again, same file
        assert c.get(f"/api/rooms/{code}").json()["join_url"] == url
        with c.websocket_connect(f"/ws/{code}") as ws:
            w = WS(ws)
            w.send(type="hello", name="Ann")
            assert w.until(lambda m: m["type"] == "lobby")["join_url"] == url


def test_a_seat_link_opens_the_seat_on_another_phone_and_tells_nothing(
        lan: TestClient) -> None:
    """Moving to another phone: the seat's page posts its token and gets the link with
    the token in the fragment (never in a log) under the public URL, and that link's QR
    code. A made-up token gets the same kind of answer (no way to test tokens), a
    malformed one or a page of another site is refused, and the link opens the seat."""
    import segno

    code, _ = make_room(lan)
    with lan.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", name="Ann")
        token = w.until(lambda m: m["type"] == "welcome")["token"]
    r = lan.post(f"/api/rooms/{code}/seat-link", json={"token": token})
    assert r.status_code == 200
    link = r.json()["link"]
    assert link == f"http://192.168.1.5:8000/play/{code}#seat={token}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=8, border=2, dark="#111",
                                     light="#fff", xmldecl=False)
    assert r.json()["qr"] == out.getvalue().decode()  # the QR code says exactly the link
    made_up = lan.post(f"/api/rooms/{code}/seat-link", json={"token": "x" * 22})
    assert made_up.status_code == 200 and made_up.json()["link"].endswith("#seat=" + "x" * 22)
    for bad in ({"token": "short"}, {"token": "a b" * 8}, {"token": "é" * 20}, {"token": 5},
                {}, {"token": "x" * 129}):
        refused = lan.post(f"/api/rooms/{code}/seat-link", json=bad)
        assert refused.status_code == 400, bad
        assert refused.json()["code"] in ("bad_token", "bad_message")
    assert lan.post(f"/api/rooms/{code}/seat-link", json={"token": token},
                    headers={"origin": "http://evil.example"}).status_code == 403
    assert lan.post("/api/rooms/ZZZY/seat-link", json={"token": token}).status_code == 404
    with lan.websocket_connect(f"/ws/{code}") as ws:  # the other phone, from the link
        w = WS(ws)
        w.send(type="hello", token=link.split("#seat=")[1])
        assert w.until(lambda m: m["type"] == "welcome")["name"] == "Ann"


# --- rooms do not pile up ------------------------------------------------------------------


def _doc(code: str, status: str) -> dict[str, object]:
    return {"code": code, "status": status, "settings": {}, "seats": []}


def test_the_store_forgets_abandoned_lobbies_and_old_finished_games(tmp_path: Path) -> None:
    day = 86400.0
    store = SQLiteStore(tmp_path / "rooms.sqlite3", keep_days=30)
    store.save("LOBB", _doc("LOBB", "lobby"), finished=False)
    store.save("PLAY", _doc("PLAY", "playing"), finished=False)
    store.save("OVER", _doc("OVER", "over"), finished=True)
    store.save("HERE", _doc("HERE", "lobby"), finished=False)
    now = time.time()
    assert store.expire(now + 3600) == 0  # an hour: everything stays
    assert store.expire(now + 2 * day, keep={"HERE"}) == 1  # a lobby nobody started
    assert store.load("LOBB") is None and store.load("HERE") is not None
    assert store.expire(now + 29 * day, keep={"HERE"}) == 0
    assert store.expire(now + 31 * day, keep={"HERE"}) == 1  # the record's time is up
    assert store.load("OVER") is None
    assert store.load("PLAY") is not None  # a game in play is never forgotten
    store.close()
    forever = SQLiteStore(tmp_path / "kept.sqlite3", keep_days=0)
    forever.save("OVER", _doc("OVER", "over"), finished=True)
    assert forever.expire(now + 3650 * day) == 0 and forever.load("OVER") is not None
    forever.close()


def test_serve_has_an_option_for_how_long_records_are_kept() -> None:
    from typer.testing import CliRunner

    from nightcall.cli import app

    out = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "--keep-days" in out and "--allow-origin" in out


def test_a_restart_loads_the_games_in_play_not_the_lobbies(db_path: Path) -> None:
    with TestClient(create_app(SQLiteStore(db_path))) as c:
        lobbies = [make_room(c)[0] for _ in range(5)]
        code, host_token = make_room(c, seats=3, bots="random", call_seconds=60)
        with c.websocket_connect(f"/ws/{code}") as hw:
            host_starts(hw, host_token)
    with TestClient(create_app(SQLiteStore(db_path))) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert set(hub.rooms) == {code}
        # A lobby comes back when someone asks for it.
        assert c.get(f"/api/rooms/{lobbies[0]}").status_code == 200
        with c.websocket_connect(f"/ws/{lobbies[1]}") as ws:
            w = WS(ws)
            w.send(type="hello", name="Ann")
            assert w.recv()["type"] == "welcome"


def test_codes_grow_longer_when_the_short_ones_are_taken_and_creation_never_hangs(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two letters, codes of one or two: six rooms fill the space. The seventh is
    refused at once (it used to loop for ever on the event loop)."""
    monkeypatch.setattr(hub_mod, "CODE_ALPHABET", "AB")
    monkeypatch.setattr(hub_mod, "CODE_LENGTH", 1)
    monkeypatch.setattr(hub_mod, "MAX_CODE_LENGTH", 2)
    monkeypatch.setattr(hub_mod, "TRIES_PER_LENGTH", 64)  # (a random miss is unlikely)
    codes = []
    for _ in range(6):
        r = client.post("/api/rooms", json={})
        assert r.status_code == 201, r.text
        codes.append(r.json()["room"])
    assert sorted(codes) == ["A", "AA", "AB", "B", "BA", "BB"]
    assert [len(c) for c in codes[:2]] == [1, 1]  # the short ones first
    started = time.monotonic()
    r = client.post("/api/rooms", json={})
    assert time.monotonic() - started < 5
    assert r.status_code == 503 and r.json()["code"] == "busy"
    assert len(client.app.state.hub.rooms) == 6  # type: ignore[attr-defined]


# --- a full disk ---------------------------------------------------------------------------


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 2 MB filesystem (tmpfs), mounted for this test (the tests run as root)."""
    where = tmp_path / "tiny"
    where.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command here")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError:  # ENOSPC: the disk is full
        pass
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_on_post_rooms_answers_503_and_keeps_nothing(tiny_disk: Path) -> None:
    app = create_app(SQLiteStore(tiny_disk / "rooms.sqlite3"))
    with TestClient(app) as c:
        first, _ = make_room(c)
        filler = _fill(tiny_disk)
        for _ in range(3):
            r = c.post("/api/rooms", json={"seats": 6})
            assert r.status_code == 503, r.text
            assert r.json()["code"] == "unavailable" and "disk" in r.json()["message"]
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert set(hub.rooms) == {first} and set(hub.clocks) == {first}
        filler.unlink()  # space again: rooms are made as before
        r = c.post("/api/rooms", json={})
        assert r.status_code == 201
        assert c.get(f"/api/rooms/{r.json()['room']}").status_code == 200


def test_another_sites_page_is_refused_by_default(client: TestClient) -> None:
    """With no option at all: a page of another site may not create rooms or join."""
    r = client.post("/api/rooms", json={}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    code, _ = make_room(client)
    with client.websocket_connect(f"/ws/{code}", headers={"origin": "http://evil.example"}) as ws:
        w = WS(ws)
        w.send(type="hello", name="Mallory")
        assert w.recv()["code"] == "bad_origin"
    assert client.app.state.hub.rooms[code].seats == []  # type: ignore[attr-defined]
