"""Clients that misbehave without meaning to: a double tap, an agent that repeats
itself, a phone that vanishes while its call is open and comes back later.

The deal is fixed (the room's seed is patched) so that Ann, seat 0, is the Seer:
she has a choice to make at night, and the vote, like everyone.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from webhelpers import WS, make_room

from nightcall import protocol
from nightcall.server.cluster import Envelope
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
        # The engine made them when the clock ended the call and the vote: she sent
        # nothing, and the game's record has her skip and no vote of hers.
        assert moves_of(room, 0) == []
        steps = room.ruleset.to_record(room.state)["steps"]
        assert {"call": "seer", "player": "Ann", "skip": True} in steps
        assert "Ann" not in next(s["votes"] for s in steps if "votes" in s)
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


# --- kicks: every connection follows its own seat (issue 15) ---------------------------


def _agent_msgs(aw: Any, until: Any, limit: int = 200) -> list[Any]:
    got = []
    for _ in range(limit):
        msg = protocol.decode_server(aw.receive_text())
        got.append(msg)
        if until(msg):
            return got
    raise AssertionError(f"not seen in {limit}: {got[-3:]}")


def test_a_kick_moves_agents_with_their_own_seat_and_closes_the_kicked(
        client: TestClient) -> None:
    """Kicking seat 0 moves the agent of seat 1 to seat 0: after the deal it gets seat
    0's welcome and view (its own card), never another player's."""
    from starlette.websockets import WebSocketDisconnect

    code, host_token = make_room(client, **{**TIMERS, "seats": 3})
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as aw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        ann = WS(aw)
        ann.send(type="hello", name="Ann")
        ann.until(lambda m: m["type"] == "welcome")
        with client.websocket_connect(f"/ws/{code}/agent?name=Robo") as rw, \
                client.websocket_connect(f"/ws/{code}") as cw:
            cy = WS(cw)
            cy.send(type="hello", name="Cy")
            assert cy.until(lambda m: m["type"] == "welcome")["seat"] == 2
            host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 3)
            host.send(type="kick", seat=0)
            kicked = ann.until(lambda m: m["type"] == "room_error")
            assert kicked["code"] == "kicked"
            with pytest.raises(WebSocketDisconnect) as closed:
                ann.until(lambda m: False)
            assert closed.value.code == 4000  # final: the page does not come back
            lobby = host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 2)
            assert [s["name"] for s in lobby["seats"]] == ["Robo", "Cy"]
            assert all(s["connected"] for s in lobby["seats"])  # the agent counts too
            host.send(type="start")
            room = _robo_is_dealt(client, code, rw, 0)
            _is_dealt(cy, room, 1)


def test_the_hosts_seat_order_moves_agents_with_their_own_seat(client: TestClient) -> None:
    """Arranging the seats (issue 17) goes through the same place as a kick: the agent
    that sat at seat 0 and is put last gets that last seat's card, never its old one's."""
    code, host_token = make_room(client, **{**TIMERS, "seats": 3})
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}/agent?name=Robo") as rw, \
            client.websocket_connect(f"/ws/{code}") as aw, \
            client.websocket_connect(f"/ws/{code}") as cw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        ann, cy = WS(aw), WS(cw)
        ann.send(type="hello", name="Ann")
        assert ann.until(lambda m: m["type"] == "welcome")["seat"] == 1
        cy.send(type="hello", name="Cy")
        assert cy.until(lambda m: m["type"] == "welcome")["seat"] == 2
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 3)
        host.send(type="arrange", order=[1, 2, 0])  # Ann, Cy, Robo
        lobby = host.until(lambda m: m["type"] == "lobby"
                           and [s["name"] for s in m["seats"]] == ["Ann", "Cy", "Robo"])
        assert all(s["connected"] for s in lobby["seats"])
        host.send(type="start")
        room = _robo_is_dealt(client, code, rw, 2)
        for ws, seat in ((ann, 0), (cy, 1)):
            _is_dealt(ws, room, seat)


def _robo_is_dealt(client: TestClient, code: str, rw: Any, seat: int) -> Room:
    """The agent Robo is welcomed at ``seat`` and its first observation is that seat's,
    with that seat's own deal."""
    room = room_of(client, code)
    welcome = _agent_msgs(rw, lambda m: isinstance(m, protocol.Welcome))[-1]
    assert welcome.seat == seat and welcome.players[seat] == "Robo"
    obs = _agent_msgs(rw, lambda m: isinstance(m, protocol.Observation))[-1]
    assert obs.view["seat"] == seat
    assert obs.view["events"][0] == room.ruleset.view(room.state, seat)["events"][0]
    return room


def _is_dealt(phone: WS, room: Room, seat: int) -> None:
    """A phone's first observation is ``seat``'s, with that seat's own deal."""
    seen = phone.until(lambda m: m["type"] == "observation")
    assert seen["view"]["seat"] == seat
    assert seen["view"]["events"][0] == room.ruleset.view(room.state, seat)["events"][0]


def test_a_kicked_agent_is_told_and_closed_and_plays_no_more(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    code, host_token = make_room(client, **{**TIMERS, "seats": 3})
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}/agent?name=Robo") as rw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
        host.send(type="kick", seat=0)
        err = protocol.decode_server(rw.receive_text())
        assert isinstance(err, protocol.Error) and err.code == protocol.ErrorCode.REFUSED
        assert "seat" in err.message
        with pytest.raises(WebSocketDisconnect) as closed:
            rw.receive_text()
        assert closed.value.code == 4000
        host.until(lambda m: m["type"] == "lobby" and m["seats"] == [])
        host.send(type="start")
        host.until(lambda m: m["type"] == "observation")
        room = room_of(client, code)
        assert all(s.bot for s in room.seats)


class Wire:
    """The pub/sub a RemoteSink posts to: what it posted, in order."""

    def __init__(self) -> None:
        self.posts: list[Envelope] = []

    def post(self, worker: str, env: Envelope) -> None:
        self.posts.append(env)


def test_a_kick_moves_relayed_connections_too() -> None:
    """The owner's sinks of connections relayed from another process (RemoteSink) are
    renumbered by the same kick, and the kicked one is told and closed over the relay."""
    from nightcall.server.cluster import RemoteSink
    from nightcall.server.messages import CreateRoom

    wire = Wire()
    room = Room("ABCD", CreateRoom(seats=4))
    for name in ("Ann", "Robo", "Cy", "Dee"):
        room.join(name)
    gone = RemoteSink(wire, "w2", "ABCD", "c0", "agent", 0)  # type: ignore[arg-type]
    agent = RemoteSink(wire, "w2", "ABCD", "c1", "agent", 1)  # type: ignore[arg-type]
    phone = RemoteSink(wire, "w2", "ABCD", "c2", "player", 2)  # type: ignore[arg-type]
    host = RemoteSink(wire, "w2", "ABCD", "c3", "host", None)  # type: ignore[arg-type]
    room.sinks.update({gone, agent, phone, host})
    wire.posts.clear()
    room.kick(0)
    assert (agent.viewer, phone.viewer, host.viewer) == (0, 1, None)
    assert gone.viewer == -1 and gone not in room.sinks
    to_gone = [e for e in wire.posts if e.conn == "c0"]
    assert [e.kind for e in to_gone] == ["send", "close"]
    said = protocol.decode_server(to_gone[0].data)
    assert isinstance(said, protocol.Error) and said.code == protocol.ErrorCode.REFUSED
    assert to_gone[1].code == 4000


def dealt(observation: dict[str, Any]) -> str:
    """The card an observation's seat was dealt (its own deal event)."""
    seat = observation["view"]["seat"]
    return next(e["card"] for e in observation["view"]["events"]
                if e["kind"] == "deal" and e.get("seat") == seat)


def test_a_seat_opened_on_another_screen_lets_the_first_go(client: TestClient) -> None:
    """A seat plays from one browser: the same token from a second one (another tab,
    the seat's link on another phone) takes the seat, and the first is told why and
    closed for good (4000: its page pauses instead of coming back). Other seats, the
    host and the game go on; the first can take the seat back the same way."""
    from starlette.websockets import WebSocketDisconnect

    code, host_token = make_room(client, **{**TIMERS, "seats": 3})
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as aw, \
            client.websocket_connect(f"/ws/{code}") as bw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        ann, bea = WS(aw), WS(bw)
        ann.send(type="hello", name="Ann")
        token = ann.until(lambda m: m["type"] == "welcome")["token"]
        bea.send(type="hello", name="Bea")
        bea.until(lambda m: m["type"] == "welcome")
        host.send(type="start")
        card = dealt(ann.until(lambda m: m["type"] == "observation"))
        with client.websocket_connect(f"/ws/{code}") as nw:
            moved = WS(nw)
            moved.send(type="hello", token=token)
            welcome = moved.until(lambda m: m["type"] == "welcome")
            assert (welcome["seat"], welcome["name"]) == (0, "Ann")
            assert dealt(moved.until(lambda m: m["type"] == "observation")) == card
            told = ann.until(lambda m: m["type"] == "room_error")
            assert told["code"] == "elsewhere"
            with pytest.raises(WebSocketDisconnect) as closed:
                ann.until(lambda m: False)
            assert closed.value.code == 4000
            room = room_of(client, code)
            assert room.connected(0) and room.connected(1)  # as the host's screen says
            assert sum(1 for s in room.sinks if s.viewer == 0) == 1
            bea.send(type="ping")  # Bea's phone was left alone
            bea.until(lambda m: m["type"] == "pong")
            # And back: the seat's first browser opens it again, the second goes.
            with client.websocket_connect(f"/ws/{code}") as rw:
                back = WS(rw)
                back.send(type="hello", token=token)
                assert back.until(lambda m: m["type"] == "welcome")["seat"] == 0
                assert moved.until(lambda m: m["type"] == "room_error")["code"] == "elsewhere"


def test_a_dead_phone_is_replaced_only_when_the_host_lets_the_new_one_in(
        client: TestClient) -> None:
    """Ann's phone dies during the game. Another phone gives her name: it is not seated
    (anyone can type a name) but asks, seeing only what a spectator sees; the host's
    screen shows the ask, and only the host's yes gives it Ann's token and card. A
    second ask for the same seat, a name nobody has, a let-in nobody asked for or from
    a player, a no, and an asker that leaves are each answered."""
    from starlette.websockets import WebSocketDisconnect

    code, host_token = make_room(client, **{**TIMERS, "call_seconds": 60.0})
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as bw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        with client.websocket_connect(f"/ws/{code}") as aw:
            ann = WS(aw)
            ann.send(type="hello", name="Ann")
            token = ann.until(lambda m: m["type"] == "welcome")["token"]
            bea = WS(bw)
            bea.send(type="hello", name="Bea")
            bea.until(lambda m: m["type"] == "welcome")
            host.send(type="start")
            card = dealt(ann.until(lambda m: m["type"] == "observation"))
        # (Ann's phone is gone)

        def asks(lobby: dict[str, Any]) -> list[str]:
            return [s["name"] for s in lobby["seats"] if s.get("asking")]

        with client.websocket_connect(f"/ws/{code}") as nw:
            new = WS(nw)
            new.send(type="hello", name=" ann ")
            asked = new.until(lambda m: m["type"] == "welcome")
            assert asked == {"type": "welcome", "room": code, "role": "asking", "seat": 0,
                             "name": "Ann", "token": None}
            seen = new.until(lambda m: m["type"] == "observation")
            assert seen["view"].get("legal", []) == [] and "role" not in seen["view"]
            assert not [e for e in seen["view"]["events"] if "card" in e]  # nobody's card
            host.until(lambda m: m["type"] == "lobby" and asks(m) == ["Ann"])
            new.send(type="action", action={"kind": "vote", "a": 1})
            assert new.until(lambda m: m["type"] == "room_error")["code"] == "not_a_player"

            with client.websocket_connect(f"/ws/{code}") as sw:  # a second ask for Ann
                second = WS(sw)
                second.send(type="hello", name="Ann")
                assert second.recv()["code"] == "asked"
            with client.websocket_connect(f"/ws/{code}") as zw:  # nobody is called Zed
                zed = WS(zw)
                zed.send(type="hello", name="Zed")
                assert zed.recv()["code"] == "started"
            bea.send(type="let_in", seat=0, yes=True)
            assert bea.until(lambda m: m["type"] == "room_error")["code"] == "not_host"
            host.send(type="let_in", seat=1, yes=True)
            assert host.until(lambda m: m["type"] == "room_error")["code"] == "not_asked"

            host.send(type="let_in", seat=0, yes=True)
            welcome = new.until(lambda m: m["type"] == "welcome")
            assert (welcome["role"], welcome["seat"], welcome["token"]) == ("player", 0, token)
            assert dealt(new.until(lambda m: m["type"] == "observation"
                                   and m["view"].get("seat") == 0)) == card
            host.until(lambda m: m["type"] == "lobby" and asks(m) == [])

        with client.websocket_connect(f"/ws/{code}") as xw:  # an ask for Bea: no
            other = WS(xw)
            other.send(type="hello", name="Bea")
            assert other.until(lambda m: m["type"] == "welcome")["role"] == "asking"
            host.until(lambda m: m["type"] == "lobby" and asks(m) == ["Bea"])
            host.send(type="let_in", seat=1, yes=False)
            assert other.until(lambda m: m["type"] == "room_error")["code"] == "not_let_in"
            with pytest.raises(WebSocketDisconnect) as closed:
                other.until(lambda m: False)
            assert closed.value.code == 4000
            host.until(lambda m: m["type"] == "lobby" and asks(m) == [])
            bea.send(type="ping")  # Bea's own phone plays on
            bea.until(lambda m: m["type"] == "pong")
        with client.websocket_connect(f"/ws/{code}") as lw:  # an asker that leaves
            WS(lw).send(type="hello", name="Bea")
            host.until(lambda m: m["type"] == "lobby" and asks(m) == ["Bea"])
        host.until(lambda m: m["type"] == "lobby" and asks(m) == [])
        assert room_of(client, code).asking == {}


def test_a_seat_opened_again_over_the_relay_lets_the_first_go() -> None:
    """The same rule for connections another process holds (RemoteSink), and only for
    browsers: the host's screen and an agent on another seat stay."""
    from nightcall.server.cluster import RemoteSink
    from nightcall.server.messages import CreateRoom

    wire = Wire()
    room = Room("ABCD", CreateRoom(seats=4))
    for name in ("Ann", "Robo"):
        room.join(name)
    first = RemoteSink(wire, "w2", "ABCD", "c0", "player", 0)  # type: ignore[arg-type]
    agent = RemoteSink(wire, "w2", "ABCD", "c1", "agent", 1)  # type: ignore[arg-type]
    host = RemoteSink(wire, "w2", "ABCD", "c2", "host", None)  # type: ignore[arg-type]
    for sink in (first, agent, host):
        room.attach(sink)
    wire.posts.clear()
    second = RemoteSink(wire, "w3", "ABCD", "c9", "player", 0)  # type: ignore[arg-type]
    room.attach(second)
    assert room.sinks == {second, agent, host}
    assert first.viewer == -1 and room.connected(0)
    to_first = [e for e in wire.posts if e.conn == "c0"]
    assert [e.kind for e in to_first] == ["send", "close"] and to_first[1].code == 4000
    assert json.loads(to_first[0].data)["code"] == "elsewhere"
    assert not [e for e in wire.posts if e.conn in ("c1", "c2") and e.kind == "close"]


# --- names (issue 15) --------------------------------------------------------------------


@pytest.mark.parametrize("name", [
    "\x00", "\x00\x01\x7f", "\u200b\u200b", " \u200d\u2060\ufeff ", "\u3164\u3164",
    "\u2800", "\u0301\u0301", "\u202e", "\U000e0041",
])
def test_a_name_that_shows_nothing_is_refused(client: TestClient, name: str) -> None:
    code, _ = make_room(client)
    _refused_name(client, code, name)
    with client.websocket_connect(f"/ws/{code}/agent", params={"name": name}) as ws:
        err = WS(ws).recv()
        assert err["type"] == "error" and err["code"] == "refused", err
    assert room_of(client, code).seats == []


@pytest.mark.parametrize("name", ["Ada (bot)", "ada (BOT)", "Carla ( bot )", "Bot", "bot 3",
                                  "Ｃａｒｌａ （ｂｏｔ）", "Ann [bot]"])
def test_a_name_that_poses_as_a_bot_is_refused(client: TestClient, name: str) -> None:
    code, _ = make_room(client)
    assert "bot" in _refused_name(client, code, name)


def _refused_name(client: TestClient, code: str, name: str) -> str:
    """A phone saying hello with ``name`` is refused as a bad name: the reason given."""
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", name=name)
        err = w.recv()
        assert err["type"] == "room_error" and err["code"] == "bad_name", err
        return str(err["message"])


def test_invisible_characters_are_taken_out_of_a_name(client: TestClient) -> None:
    code, _ = make_room(client)
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", name="\u200bAn\u200dn\x00\tLee\u2060")
        welcome = w.until(lambda m: m["type"] == "welcome")
        assert welcome["name"] == "Ann Lee"
        # ...so "Ann Lee" with a zero-width space is the same name, and taken.
        with client.websocket_connect(f"/ws/{code}") as ws2:
            w2 = WS(ws2)
            w2.send(type="hello", name="Ann\u200b Lee")
            assert w2.recv()["code"] == "name_taken"
    # Botbuilder, Abbott, Robot: a name may have "bot" in it, without posing as one.
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", name="Abbott")
        assert w.until(lambda m: m["type"] == "welcome")["name"] == "Abbott"


def test_bots_have_plain_names_and_the_narration_never_says_bot(client: TestClient) -> None:
    """The lobby marks bots with ``bot``; their names, and so every sentence of the
    game, carry no "(bot)" (it read "Stanotte è morto Carla (bot)")."""
    code, host_token = make_room(client, **{**TIMERS, "seats": 3, "language": "it"})
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        host.until(lambda m: m["type"] == "lobby")
        host.send(type="add_bot")
        lobby = host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 1)
        assert lobby["seats"][0]["bot"] is True
        assert lobby["seats"][0]["name"] == "Ada"
        host.send(type="start")
        end = host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over",
                         limit=2000)
        room = room_of(client, code)
        assert all(s.bot for s in room.seats)
        texts = [*end["timeline"], end["clock"]["narration"] or ""]
        assert texts and not any("bot" in line.casefold() for line in texts), texts
        record = client.get(f"/api/rooms/{code}/record").json()
        assert "(bot)" not in json.dumps(record)


# --- slow readers (issue 15) -----------------------------------------------------------------


def test_a_client_256_messages_behind_leaves_the_room_and_is_closed_with_1013(
        tmp_path: Any) -> None:
    """A real uvicorn server, and a phone that stops reading (a tiny receive buffer,
    nothing read): once 256 messages wait for it, it is out of the room at once (its
    seat shows disconnected; no more work is queued for it) and, when it reads again,
    it finds its close: 1013, "try again later", and the page reconnects."""
    import contextlib
    import socket
    import threading

    import httpx
    import uvicorn
    from liveserver import free_port
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from nightcall.commands.serve import WS_SETTINGS
    from nightcall.server.app import create_app
    from nightcall.server.limits import Limits
    from nightcall.server.store import SQLiteStore

    loose = Limits(messages_per_second=1e6, message_burst=10**6, flood_burst=10**6)
    app = create_app(SQLiteStore(tmp_path / "rooms.sqlite3"), limits=loose)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", **WS_SETTINGS))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    stack = contextlib.ExitStack()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        made = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"seats": 3}).json()
        code, host_token = made["room"], made["host_token"]
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        slow = stack.enter_context(
            connect(f"ws://127.0.0.1:{port}/ws/{code}", sock=sock, max_queue=4))
        slow.send(json.dumps({"type": "hello", "name": "Slow"}))
        with connect(f"ws://127.0.0.1:{port}/ws/{code}") as host:
            host.send(json.dumps({"type": "hello", "as": "host", "token": host_token}))

            def lobby_with(n: int) -> dict[str, Any]:
                while True:
                    msg = json.loads(host.recv(timeout=10))
                    if msg["type"] == "lobby" and len(msg["seats"]) == n:
                        return msg

            lobby_with(1)
            rounds, dropped = 0, False
            while rounds < 3000 and not dropped:  # two lobby updates for Slow a round
                rounds += 1
                host.send(json.dumps({"type": "add_bot"}))
                lobby_with(2)
                host.send(json.dumps({"type": "kick", "seat": 1}))
                dropped = not lobby_with(1)["seats"][0]["connected"]
            assert dropped, f"still in the room after {2 * rounds} updates it did not read"
            assert rounds * 2 >= 256  # (not before it was that far behind)
        got = 0
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                slow.recv(timeout=10)
                got += 1
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013, closed.value
        assert got < 2 * rounds  # what was queued for it was dropped, not sent late
    finally:
        stack.close()
        server.should_exit = True
        thread.join(10)
