"""A table's history over HTTP (issue 20): a finished game of a linked room is kept
under the table with the names at it; nothing is shown without the table's token (a
wrong one gets the same 404 as a deleted table); CSV and records exports; merges and
deletions by the host's key only; a deleted table is gone, and stays gone."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from webhelpers import WS, make_room

from nightcall.server.app import create_app
from nightcall.server.limits import Limits
from nightcall.server.store import SQLiteStore


def hello(ws: Any, **msg: Any) -> WS:
    w = WS(ws)
    w.send(type="hello", **msg)
    return w


def new_table(client: TestClient, language: str = "de") -> tuple[str, str]:
    r = client.post("/api/tables", json={"language": language})
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["url"] == f"/t/{data['token']}"
    assert len(data["token"]) >= 32 and len(data["key"]) >= 32
    return data["token"], data["key"]


def play(client: TestClient, code: str, host_token: str, names: tuple[str, ...]) -> None:
    """Seat these people (they make no move: the clock plays their defaults), fill the
    other seats with bots and play to the end."""
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = hello(hw, **{"as": "host", "token": host_token})
        sockets = [client.websocket_connect(f"/ws/{code}") for _ in names]
        try:
            for ws, name in zip(sockets, names, strict=True):
                hello(ws.__enter__(), name=name).until(lambda m: m["type"] == "welcome")
            host.until(lambda m: m["type"] == "lobby"
                       and set(names) <= {seat["name"] for seat in m["seats"]})
            host.send(type="start")
            host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over",
                       limit=2000)
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)


def test_a_finished_game_is_kept_at_its_table(client: TestClient) -> None:
    token, _ = new_table(client)
    code, host_token = make_room(client, seats=5, language="it", table=token)
    # The lobby (what every phone and spectator gets) never shows the table's token.
    assert token not in client.get(f"/api/rooms/{code}").text
    play(client, code, host_token, ("Zoe", "Yara"))
    info = client.get(f"/api/tables/{token}")
    assert info.status_code == 200
    assert info.headers["cache-control"] == "no-store"
    data = info.json()
    assert data["language"] == "it"  # the room's
    stats = data["stats"]
    assert stats["games"] == 1
    assert sorted(p["name"] for p in stats["players"]) == ["Yara", "Zoe"]  # bots left out
    game = stats["list"][0]
    assert game["id"].startswith(f"{code}-")
    assert len(game["players"]) == 5
    record = client.get(f"/api/rooms/{code}/record").json()
    kept = client.get(f"/api/tables/{token}/records.json").json()["games"]
    assert [g["record"] for g in kept] == [record]
    assert set(kept[0]["bots"]) == {p["name"] for p in game["players"] if p["bot"]}
    # Who won, as the ruleset's outcome says, in the stats and in the CSV.
    winners = set(kept[0]["winners"])
    assert {p["name"] for p in game["players"] if p["won"]} == winners
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/tables/{token}/games.csv").text)))
    assert {r["player"] for r in rows if r["won"] == "1"} == winners
    assert [r["player"] for r in rows] == record["players"]


def test_nothing_without_the_token(client: TestClient) -> None:
    token, _ = new_table(client)
    missing = client.get("/api/tables/" + "x" * 43)
    wrong = client.get("/api/tables/" + token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert missing.status_code == wrong.status_code == 404
    assert missing.json() == wrong.json()
    for path in ("games.csv", "records.json"):
        assert client.get(f"/api/tables/{'x' * 43}/{path}").status_code == 404
    # No listing of tables anywhere.
    assert client.get("/api/tables").status_code in (404, 405)
    # The page itself says nothing: it is the same file for any token.
    page = client.get(f"/t/{token}")
    assert page.status_code == 200 and token not in page.text
    assert page.text == client.get("/t/whatever").text
    # A room cannot be linked to a table that does not exist.
    r = client.post("/api/rooms", json={"table": "y" * 43})
    assert r.status_code == 400 and r.json()["code"] == "no_table"
    r = client.post("/api/rooms", json={"table": "short"})
    assert r.status_code == 400 and r.json()["code"] == "bad_message"


def test_wrong_tokens_are_slowed_down(db_path: Path) -> None:
    app = create_app(SQLiteStore(db_path), limits=Limits(wrong_token_burst=3,
                                                         wrong_tokens_per_minute=0.1))
    with TestClient(app) as client:
        token, _ = new_table(client)
        codes = [client.get(f"/api/tables/{'z' * 40}{i}").status_code for i in range(5)]
        assert codes == [404, 404, 404, 429, 429]
        # The real link still opens (a server-made token is not guessable).
        assert client.get(f"/api/tables/{token}").status_code == 200


def test_the_host_merges_and_deletes_with_its_key(client: TestClient) -> None:
    token, key = new_table(client)
    for names in (("Zoe", "Yara"), ("Zoey", "Yara")):
        code, host_token = make_room(client, seats=3, table=token)
        play(client, code, host_token, names)
    stats = client.get(f"/api/tables/{token}").json()["stats"]
    assert stats["games"] == 2
    assert sorted(p["name"] for p in stats["players"]) == ["Yara", "Zoe", "Zoey"]

    merge = {"from": "Zoey", "into": "Zoe"}
    assert client.post(f"/api/tables/{token}/merge", json=merge).status_code == 403
    assert client.post(f"/api/tables/{token}/merge", json=merge,
                       headers={"X-Table-Key": token}).status_code == 403
    r = client.post(f"/api/tables/{token}/merge", json=merge, headers={"X-Table-Key": key})
    assert r.status_code == 200 and r.json() == {"aliases": {"Zoey": "Zoe"}}
    stats = client.get(f"/api/tables/{token}").json()["stats"]
    players = {p["name"]: p["games"] for p in stats["players"]}
    assert players == {"Zoe": 2, "Yara": 2}
    rows = csv.DictReader(io.StringIO(client.get(f"/api/tables/{token}/games.csv").text))
    assert "Zoey" not in {r["player"] for r in rows}

    first = stats["list"][-1]["id"]
    assert client.delete(f"/api/tables/{token}/games/{first}").status_code == 403
    r = client.delete(f"/api/tables/{token}/games/{first}", headers={"X-Table-Key": key})
    assert r.status_code == 204
    stats = client.get(f"/api/tables/{token}").json()["stats"]
    assert [g["id"] for g in stats["list"]] != [first] and stats["games"] == 1
    assert client.delete(f"/api/tables/{token}/games/{first}",
                         headers={"X-Table-Key": key}).status_code == 404

    assert client.delete(f"/api/tables/{token}").status_code == 403
    assert client.delete(f"/api/tables/{token}", headers={"X-Table-Key": key}).status_code == 204
    assert client.get(f"/api/tables/{token}").status_code == 404
    assert client.get(f"/api/tables/{token}/records.json").status_code == 404
    # A room still linked to the deleted table plays on; its game is not kept anywhere.
    code, host_token = make_room(client, seats=3)
    play(client, code, host_token, ("Zoe",))
    assert client.get(f"/api/tables/{token}").status_code == 404


def test_the_host_screen_links_a_room_it_already_opened(client: TestClient) -> None:
    token, _ = new_table(client)
    code, host_token = make_room(client, seats=3)
    link = {"host_token": host_token, "table": token}
    r = client.post(f"/api/rooms/{code}/table", json={**link, "host_token": "x" * 22})
    assert r.status_code == 403
    r = client.post(f"/api/rooms/{code}/table", json={**link, "table": "q" * 43})
    assert r.status_code == 404 and r.json()["code"] == "no_table"
    r = client.post(f"/api/rooms/{code}/table", json=link)
    assert r.status_code == 200 and r.json() == {"room": code, "table": True}
    play(client, code, host_token, ("Zoe",))
    assert client.get(f"/api/tables/{token}").json()["stats"]["games"] == 1
    # Linking again after the end keeps the same game once, not twice.
    assert client.post(f"/api/rooms/{code}/table", json=link).status_code == 200
    assert client.get(f"/api/tables/{token}").json()["stats"]["games"] == 1
    # Play again: the next room keeps its games at the same table.
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = hello(hw, **{"as": "host", "token": host_token})
        host.until(lambda m: m["type"] == "welcome")
        host.send(type="play_again")
        told = host.until(lambda m: m["type"] == "next_room")
    play(client, told["room"], told["host_token"], ("Zoe",))
    assert client.get(f"/api/tables/{token}").json()["stats"]["games"] == 2


def test_the_table_survives_a_restart(db_path: Path) -> None:
    with TestClient(create_app(SQLiteStore(db_path))) as client:
        token, _ = new_table(client)
        code, host_token = make_room(client, seats=3, table=token)
        play(client, code, host_token, ("Zoe",))
    with TestClient(create_app(SQLiteStore(db_path))) as client:
        stats = client.get(f"/api/tables/{token}").json()["stats"]
        assert stats["games"] == 1 and stats["players"][0]["name"] == "Zoe"
