"""Clients that misbehave without meaning to: a double tap, an agent that repeats
itself, a phone that vanishes while its call is open and comes back later.

The deal is fixed (the room's seed is patched) so that Ann, seat 0, is the Seer:
she has a choice to make at night, and the vote, like everyone.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from webhelpers import WS, make_room

from nightcall import protocol
from nightcall.server.room import Room

pytestmark = pytest.mark.timeout(90)

DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]
SEED = 1  # with this deck and seed, seat 0 is dealt the Seer
TIMERS = {"seats": 3, "roles": DECK, "call_seconds": 1.0, "discussion_seconds": 0.2,
          "vote_seconds": 2.0, "bots": "random"}


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(secrets, "randbits", lambda k: SEED)
    yield


def room_of(client: TestClient, code: str) -> Room:
    room: Room = client.app.state.hub.get(code)  # type: ignore[attr-defined]
    return room


def seer_of(room: Room) -> None:
    assert room.ruleset.view(room.state, 0)["events"][0] == {
        "kind": "deal", "seat": 0, "card": "seer"}


def moves_of(room: Room, seat: int) -> list[dict[str, Any]]:
    return [a.to_json() for s, a in room.actions if s == seat]


def is_obs(stage: str, with_legal: bool = True) -> Any:
    def pred(m: dict[str, Any]) -> bool:
        return (m["type"] == "observation" and m["clock"]["stage"] == stage
                and (not with_legal or bool(m["view"].get("legal"))))
    return pred


def seat_ann_and_deal(aw: Any, hw: Any, host_token: str) -> WS:
    """Ann takes seat 0, the host screen deals (bots fill the rest); Ann's socket."""
    ann = WS(aw)
    ann.send(type="hello", name="Ann")
    ann.until(lambda m: m["type"] == "welcome")
    host = WS(hw)
    host.send(type="hello", **{"as": "host", "token": host_token})
    host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
    host.send(type="start")
    return ann


def test_a_double_tap_is_applied_once(client: TestClient) -> None:
    code, host_token = make_room(client, **TIMERS)
    with client.websocket_connect(f"/ws/{code}") as aw, \
            client.websocket_connect(f"/ws/{code}") as hw:
        ann = seat_ann_and_deal(aw, hw, host_token)
        # Her call: the same look, twice, with the same state id (a double tap).
        call = ann.until(is_obs("night"))
        room = room_of(client, code)
        seer_of(room)
        look = next(a for a in call["view"]["legal"] if a["kind"] == "look")
        for _ in range(2):
            ann.send(type="action", action=look, state_id=call["state_id"])
        err = ann.until(lambda m: m["type"] == "error")
        assert err["code"] == "stale_state"
        assert moves_of(room, 0) == [look]
        # The vote, twice the same way.
        vote_obs = ann.until(is_obs("vote"))
        vote = next(a for a in vote_obs["view"]["legal"] if a["kind"] == "vote")
        for _ in range(2):
            ann.send(type="action", action=vote, state_id=vote_obs["state_id"])
        assert ann.until(lambda m: m["type"] == "error")["code"] == "stale_state"
        end = ann.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over")
        assert moves_of(room, 0) == [look, vote]
        assert end["view"]["events"].count(
            next(e for e in end["view"]["events"] if e["kind"] == "saw")) == 1
        refused = [m["code"] for m in ann.seen if m["type"] in ("error", "room_error")]
        assert refused == ["stale_state", "stale_state"]


def test_an_agent_repeating_an_action_without_a_state_id_is_applied_once(
        client: TestClient) -> None:
    code, host_token = make_room(client, **TIMERS)
    token = "0123456789abcdef-ann"
    with client.websocket_connect(f"/ws/{code}/agent?name=Ann&token={token}") as aw, \
            client.websocket_connect(f"/ws/{code}") as hw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
        host.send(type="start")
        room = room_of(client, code)
        sent: list[dict[str, Any]] = []
        errors: list[protocol.Error] = []
        while True:
            msg = protocol.decode_server(aw.receive_text())
            if isinstance(msg, protocol.GameOver):
                break
            if isinstance(msg, protocol.Error):
                errors.append(msg)
            if isinstance(msg, protocol.Observation) and msg.legal:
                # No state id: nothing tells the server the second is a repeat, except
                # that the move is no longer among the seat's choices.
                choice = next((a for a in msg.legal if a.kind in ("look", "vote")),
                              msg.legal[0])
                answer = protocol.encode(protocol.ActionMessage(protocol.ActionJSON.of(choice)))
                aw.send_text(answer.decode())
                aw.send_text(answer.decode())
                sent.append(choice.to_json())
        seer_of(room)
        assert [a["kind"] for a in sent] == ["look", "vote"]
        assert moves_of(room, 0) == sent
        assert [e.code for e in errors] == [protocol.ErrorCode.NOT_YOUR_TURN] * 2


def test_a_phone_that_vanishes_in_its_call_gets_the_default_and_rejoins(
        client: TestClient) -> None:
    code, host_token = make_room(client, **TIMERS)
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = WS(hw)
        with client.websocket_connect(f"/ws/{code}") as aw:
            ann = WS(aw)
            ann.send(type="hello", name="Ann")
            token = ann.until(lambda m: m["type"] == "welcome")["token"]
            host.send(type="hello", **{"as": "host", "token": host_token})
            host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
            host.send(type="start")
            call = ann.until(is_obs("night"))
            assert call["clock"]["call"] == "seer"
        # Gone while her call is open: the host sees her disconnected...
        lobby = host.until(lambda m: m["type"] == "lobby" and not m["seats"][0]["connected"])
        assert lobby["status"] == "playing"
        # ...and the game goes on to the end without her.
        end = host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over")
        assert end["view"]["outcome"]["winners"] is not None
        room = room_of(client, code)
        seer_of(room)
        # The clock's default for the Seer is to skip; in the vote, to abstain.
        assert {"kind": "skip"} in call["view"]["legal"]
        assert moves_of(room, 0) == [{"kind": "skip"}, {"kind": "abstain"}]
        # She comes back with her token and sees her own seat's view of the end.
        with client.websocket_connect(f"/ws/{code}") as aw:
            ann = WS(aw)
            ann.send(type="hello", token=token)
            welcome = ann.recv()
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            assert welcome["name"] == "Ann"
            back = ann.until(lambda m: m["type"] == "observation")
            view = back["view"]
            assert view["seat"] == 0 and view["phase"] == "over"
            assert view["events"][0] == {"kind": "deal", "seat": 0, "card": "seer"}
            assert view["outcome"] == end["view"]["outcome"]
            assert back["timeline"]
            lobby = host.until(lambda m: m["type"] == "lobby" and m["seats"][0]["connected"])
            assert lobby["seats"][0]["name"] == "Ann"


def test_a_double_tapped_claim_is_said_once(client: TestClient) -> None:
    """Claims do not change a seat's state id, so only their sameness tells a double tap:
    a seat cannot repeat, word for word, what it said last (it can say it again later,
    after saying something else)."""
    code, host_token = make_room(client, **{**TIMERS, "discussion_seconds": 30.0})
    with client.websocket_connect(f"/ws/{code}") as aw, \
            client.websocket_connect(f"/ws/{code}") as hw:
        ann = seat_ann_and_deal(aw, hw, host_token)
        day = ann.until(is_obs("discussion", with_legal=False))
        room = room_of(client, code)
        seer = {"kind": "claim", "a": room.ruleset.role_ids.index("seer")}
        villager = {"kind": "claim", "a": room.ruleset.role_ids.index("villager")}
        for _ in range(2):
            ann.send(type="action", action=seer, state_id=day["state_id"])
        err = ann.until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal_action" and "just said" in err["message"]
        for claim in (villager, seer):  # something else, then the first again: both heard
            ann.send(type="action", action=claim, state_id=day["state_id"])
            ann.send(type="ping")
            ann.until(lambda m: m["type"] == "pong")
        claims = [a for s, a in room.actions if s == 0 and a.kind == "claim"]
        assert [a.to_json() for a in claims] == [seer, villager, seer]
        said = [e for e in room.public_view()["events"] if e["kind"] == "claim"
                and e["seat"] == 0]
        assert len(said) == 3
        assert [m["code"] for m in ann.seen if m["type"] == "error"] == ["illegal_action"]
