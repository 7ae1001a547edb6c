"""The websocket protocol through Starlette's test client: joining, refusing, playing."""

from __future__ import annotations

import json
from itertools import groupby
from typing import Any

import pytest
from starlette.testclient import TestClient
from webhelpers import WS, make_room

pytestmark = pytest.mark.timeout(60)


def is_error(msg: dict[str, Any]) -> bool:
    return msg["type"] in ("error", "room_error")


def hello(ws: Any, **msg: Any) -> WS:
    w = WS(ws)
    w.send(type="hello", **msg)
    return w


def test_rulesets_and_pages(client: TestClient) -> None:
    rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()}
    assert rulesets["onuw"]["min_players"] == 3
    assert rulesets["onuw"]["decks"]["5"] == [
        "werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
        "villager",
    ]
    # The front page has no room yet: the role names come in every language.
    names = rulesets["onuw"]["role_names"]
    assert (names["en"]["seer"], names["it"]["seer"], names["de"]["seer"]) == (
        "Seer", "Veggente", "Seherin")
    assert all(set(n) == set(rulesets["lupus"]["roles"])
               for n in rulesets["lupus"]["role_names"].values())
    # and the scenarios' names (Epic Battle), each language its own
    scenarios = {s["id"]: s["names"] for s in rulesets["epic"]["scenarios"]}
    assert len(scenarios) == 31
    assert scenarios["nightfall"] == {"en": "Nightfall", "it": "Il calar della notte",
                                      "de": "Einbruch der Nacht"}
    assert all(len(set(n.values())) == 3 for n in scenarios.values())
    for path in ("/", "/host/ABCD", "/play/ABCD", "/watch/ABCD", "/static/js/play.js"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    "body, code",
    [
        ({"ruleset": "chess"}, "bad_ruleset"),
        ({"seats": 2}, "bad_seats"),
        ({"seats": 3, "roles": ["werewolf", "seer"]}, "bad_deck"),
        ({"call_seconds": -1}, "bad_timer"),
        ({"colour": "red"}, "bad_message"),
        ({"language": "fr"}, "bad_message"),
    ],
)
def test_create_room_refuses_bad_settings(client: TestClient, body: dict[str, Any],
                                          code: str) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 400
    assert r.json()["code"] == code


def test_join_reconnect_and_name_taken(client: TestClient) -> None:
    code, _ = make_room(client)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ann = hello(ws, name="  Ann   Lee ")
        welcome = ann.recv()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert welcome["name"] == "Ann Lee"
        token = welcome["token"]
        lobby = ann.until(lambda m: m["type"] == "lobby")
        assert [s["name"] for s in lobby["seats"]] == ["Ann Lee"]
        assert lobby["seats"][0]["connected"] is True
        with client.websocket_connect(f"/ws/{code}") as ws2:
            dup = hello(ws2, name="ann lee")
            err = dup.recv()
            assert err == {"type": "room_error", "code": "name_taken",
                           "message": "someone here is already called ann lee"}
    # A dropped phone comes back to its seat with its token.
    with client.websocket_connect(f"/ws/{code}") as ws:
        again = hello(ws, token=token)
        welcome = again.recv()
        assert welcome["seat"] == 0 and welcome["name"] == "Ann Lee"
        lobby = again.until(lambda m: m["type"] == "lobby")
        assert len(lobby["seats"]) == 1
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert hello(ws, token="not-a-token").recv()["code"] == "bad_token"


def test_bad_messages_get_an_error_to_that_client_alone(client: TestClient) -> None:
    code, _ = make_room(client)
    with client.websocket_connect(f"/ws/{code}") as w1, \
            client.websocket_connect(f"/ws/{code}") as w2:
        a = hello(w1, name="Ann")
        b = hello(w2, name="Bob")
        a.until(lambda m: m["type"] == "lobby")
        b.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 2)
        a.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 2)
        a.send_raw("{not json")
        assert a.until(is_error)["code"] == "bad_json"
        a.send(type="teleport")
        assert a.until(is_error)["code"] == "unknown_type"
        a.send(type="action", action={"kind": "vote", "a": "x"}, state_id=1)
        assert a.until(is_error)["code"] == "bad_message"
        a.send(type="action", action={"kind": "skip"}, state_id=1)
        assert a.until(is_error) == {"type": "error", "code": "not_your_turn",
                            "message": "the game has not started yet"}
        a.send(type="start")
        assert a.until(is_error)["code"] == "not_host"
        a.send_raw("x" * 5000)
        assert a.until(is_error)["code"] == "too_long"
        # Bob heard none of it: his next message is the answer to his own ping.
        b.send(type="ping")
        assert b.until(lambda m: m["type"] != "lobby") == {"type": "pong"}
        # And nothing changed: still two seats, still in the lobby.
        info = client.get(f"/api/rooms/{code}").json()
        assert info["status"] == "lobby" and len(info["seats"]) == 2
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert hello(ws, **{"as": "host", "token": "wrong"}).recv()["code"] == "bad_token"


def test_a_game_plays_to_the_end_with_defaults_and_bots(client: TestClient) -> None:
    """Three silent humans and two bots: the clock's defaults carry the game to the end."""
    code, host_token = make_room(client, seats=5)
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as p0, \
            client.websocket_connect(f"/ws/{code}") as p1, \
            client.websocket_connect(f"/ws/{code}") as p2:
        host = hello(hw, **{"as": "host", "token": host_token})
        players = [hello(p, name=n) for p, n in zip((p0, p1, p2), ("Ann", "Bob", "Cy"),
                                                     strict=True)]
        for p in players:
            p.until(lambda m: m["type"] == "welcome")
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 3)
        host.send(type="start")
        end = host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over")
        view = end["view"]
        assert view["phase"] == "over" and len(view["players"]) == 5
        assert "seat" not in view and "legal" not in view  # the host sees the public view
        assert end["timeline"] and any("Night" in line for line in end["timeline"])
        # The two bots (the reasoning ones) said something at dawn.
        talkers = {e["seat"] for e in view["events"] if e["kind"] == "claim"}
        assert {3, 4} <= talkers
        stages = [m["clock"]["stage"] for m in host.seen if m["type"] == "observation"]
        assert stages.index("night") < stages.index("discussion") < stages.index("vote")
        calls = [m["clock"]["call"] for m in host.seen
                 if m["type"] == "observation" and m["clock"]["stage"] == "night"]
        deck = client.get(f"/api/rooms/{code}").json()["settings"]["roles"]
        assert [call for call, _ in groupby(calls)] == _expected_calls(deck)
        for p in players:
            last = p.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over")
            assert last["view"]["outcome"] == view["outcome"]
        record = client.get(f"/api/rooms/{code}/record").json()
        assert record["ruleset"] == "onuw" and record["players"] == view["players"]


def test_a_human_acts_when_called_and_refusals_change_nothing(client: TestClient) -> None:
    code, host_token = make_room(client, seats=3, call_seconds=1.0, discussion_seconds=0.2,
                                 vote_seconds=3.0)
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as pw:
        host = hello(hw, **{"as": "host", "token": host_token})
        me = hello(pw, name="Ann")
        me.until(lambda m: m["type"] == "welcome")
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
        host.send(type="start")
        acted = False
        voted = False
        while True:
            msg = me.recv()
            if msg["type"] != "observation":
                continue
            stage, view = msg["clock"]["stage"], msg["view"]
            if stage == "over":
                break
            legal = view.get("legal") or []
            if stage == "night" and not legal:
                # Not my call: a move is refused and changes nothing.
                me.send(type="action", action={"kind": "skip"}, state_id=msg["state_id"])
                err = me.until(lambda m: m["type"] == "error")
                assert err["code"] == "not_your_turn"
            if stage == "night" and legal and not acted:
                me.send(type="action", action=legal[0], state_id=msg["state_id"] + 1)
                assert me.until(lambda m: m["type"] == "error")["code"] == "stale_state"
                me.send(type="action", action=legal[0], state_id=msg["state_id"])
                acted = True
            if stage == "vote" and legal and not voted:
                me.send(type="action", action={"kind": "vote", "a": 0}, state_id=msg["state_id"])
                assert me.until(lambda m: m["type"] == "error")["code"] == "not_your_turn"
                me.send(type="action", action={"kind": "claim", "a": 4},
                        state_id=msg["state_id"])
                vote = next(a for a in legal if a["kind"] == "vote")
                me.send(type="action", action=vote, state_id=msg["state_id"])
                voted = True
        assert voted
        outcome = msg["view"]["outcome"]
        events = msg["view"]["events"]
        votes = next(e for e in events if e["kind"] == "votes")["votes"]
        assert votes[0] == vote["a"]
        assert {"kind": "claim", "seat": 0, "role": "seer"} in events
        assert outcome["explanation"]


def _expected_calls(deck: list[str]) -> list[str]:
    from nightcall.engine.ruleset import get_ruleset

    return list(get_ruleset("onuw").night_calls(deck))


def test_spectator_and_agent_messages_are_typed(client: TestClient) -> None:
    from nightcall import protocol

    code, host_token = make_room(client, seats=3)
    with client.websocket_connect(f"/ws/{code}/agent?name=robo&token=0123456789abcdef") as aw, \
            client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as sw:
        host = hello(hw, **{"as": "host", "token": host_token})
        spec = hello(sw, **{"as": "spectator"})
        assert spec.recv()["role"] == "spectator"
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
        host.send(type="start")
        agent = WS(aw)
        got: list[Any] = []
        while True:
            raw = aw.receive_text()
            msg = protocol.decode_server(raw)  # every message is a protocol message
            got.append(msg)
            if isinstance(msg, protocol.Observation) and msg.view.get("legal"):
                answer = protocol.ActionMessage(
                    protocol.ActionJSON.of(msg.legal[0]), msg.state_id
                )
                aw.send_text(protocol.encode(answer).decode())
            if isinstance(msg, protocol.GameOver):
                break
        assert isinstance(got[0], protocol.Welcome) and got[0].seat == 0
        assert got[0].players[0] == "robo"
        end = spec.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over")
        assert end["view"]["outcome"]["winners"] is not None
        del agent
    # The agent's own token brings it back to its seat.
    with client.websocket_connect(f"/ws/{code}/agent?token=0123456789abcdef") as aw:
        msg = protocol.decode_server(aw.receive_text())
        assert isinstance(msg, protocol.Welcome) and msg.seat == 0
        assert isinstance(protocol.decode_server(aw.receive_text()), protocol.GameOver)
    assert json.loads(json.dumps(got[-1].view))["phase"] == "over"


def test_rulesets_declare_the_defense_the_create_page_asks_for(client: TestClient) -> None:
    """The create page shows the defense's time where the ruleset declares a defense
    (Ruleset.defense_seconds), never by the ruleset's id."""
    from nightcall.engine.ruleset import all_rulesets

    rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()}
    assert rulesets["lupus"]["defense_seconds"] == 30  # (rulings: 30 seconds)
    assert rulesets["onuw"]["defense_seconds"] == rulesets["epic"]["defense_seconds"] == 0
    for rid, rs in all_rulesets().items():
        if rid in rulesets:
            assert rulesets[rid]["defense_seconds"] == rs.defense_seconds
