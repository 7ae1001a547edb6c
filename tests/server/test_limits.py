"""Rate limits: room-code guessing per address and messages per connection, on a
clock the tests move by hand (no sleeping)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webhelpers import WS, host_starts, make_room

from nightcall.server import limits as lim
from nightcall.server.app import create_app
from nightcall.server.limits import Bucket, Limits, MessageRate, RoomGuard, SlowDown
from nightcall.server.room import RoomError
from nightcall.server.store import SQLiteStore

pytestmark = pytest.mark.timeout(60)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def rooms(*codes: str) -> Callable[[str], str]:
    def get(code: str) -> str:
        if code not in codes:
            raise RoomError("no_room", f"there is no room {code}")
        return f"room {code}"
    return get


# --- the pieces ------------------------------------------------------------------------


def test_bucket_spends_its_burst_then_refills_at_its_rate() -> None:
    b = Bucket(rate=2.0, burst=3, now=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.wait(0.0) == pytest.approx(0.5)
    assert not b.take(0.25)
    assert b.take(0.5)
    assert not b.full(10.0) or b.tokens == 3.0  # never more than the burst
    assert b.take(10.0) and b.take(10.0) and b.take(10.0) and not b.take(10.0)
    # A clock that steps back (another thread's reading) gives nothing away.
    assert not b.take(9.0)


def test_guard_refuses_an_address_after_its_misses_even_for_a_real_room() -> None:
    clock = FakeClock()
    guard = RoomGuard(Limits(misses_per_minute=6, miss_burst=3, clock=clock))
    get = rooms("ABCD")
    for code in ("AAAA", "BBBB"):
        with pytest.raises(RoomError) as exc:
            guard.find("1.2.3.4", get, code)
        assert exc.value.code == "no_room"
    # Hits never count: a real room is still found, again and again...
    for _ in range(5):
        assert guard.find("1.2.3.4", get, "ABCD") == "room ABCD"
    # ...but once the misses are spent, every lookup is refused, the real room's too.
    with pytest.raises(RoomError) as exc:
        guard.find("1.2.3.4", get, "CCCC")
    assert exc.value.code == "no_room"
    with pytest.raises(SlowDown) as slow:
        guard.find("1.2.3.4", get, "ABCD")
    assert slow.value.code == "slow_down" and slow.value.retry_after == 10
    assert "try again in 10 s" in slow.value.message
    # Another address is not held back.
    assert guard.find("5.6.7.8", get, "ABCD") == "room ABCD"
    clock.now += 9.5
    with pytest.raises(SlowDown, match="in 1 s"):
        guard.find("1.2.3.4", get, "ABCD")
    clock.now += 0.5  # one miss back, after 60/6 s
    assert guard.find("1.2.3.4", get, "ABCD") == "room ABCD"


def test_guard_forgets_addresses_that_are_back_to_a_full_bucket(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lim, "MAX_ADDRESSES", 3)
    clock = FakeClock()
    guard = RoomGuard(Limits(misses_per_minute=60, miss_burst=2, clock=clock))
    get = rooms()
    for address in ("a", "b", "c"):
        with pytest.raises(RoomError):
            guard.find(address, get, "XXXX")
    clock.now += 0.5
    with pytest.raises(RoomError):
        guard.find("c", get, "XXXX")
    clock.now += 0.6  # a and b are full again, c is not
    with pytest.raises(RoomError):
        guard.find("d", get, "XXXX")
    assert set(guard.misses) == {"c", "d"}


def test_message_rate_drops_then_closes_a_flood() -> None:
    clock = FakeClock()
    rate = MessageRate(Limits(messages_per_second=2, message_burst=3, flood_burst=2,
                              clock=clock))
    assert [rate.take() for _ in range(6)] == ["ok", "ok", "ok", "slow_down", "slow_down",
                                               "close"]
    assert "at most 2 a second" in rate.advice()
    clock.now += 0.5
    assert rate.take() == "ok"  # sustained rate: one message per half second is fine
    for _ in range(10):
        clock.now += 0.5
        assert rate.take() == "ok"


def test_default_limits_let_a_steady_agent_through() -> None:
    """An agent answering 8 observations a second for a minute is never slowed."""
    clock = FakeClock()
    rate = MessageRate(Limits(clock=clock))
    for _ in range(8 * 60):
        clock.now += 1 / 8
        assert rate.take() == "ok"
    # And after a second's pause, a burst of 30 at once passes too.
    clock.now += 1
    assert all(rate.take() == "ok" for _ in range(30))


# --- through the app ---------------------------------------------------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def tight(db_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    limits = Limits(misses_per_minute=6, miss_burst=3, messages_per_second=2,
                    message_burst=4, flood_burst=3, clock=clock)
    with TestClient(create_app(SQLiteStore(db_path), limits=limits)) as c:
        yield c


def test_guessing_room_codes_over_http_and_websockets_is_slowed(
        tight: TestClient, clock: FakeClock) -> None:
    code, _ = make_room(tight)
    assert tight.get(f"/api/rooms/{code}").status_code == 200
    assert tight.get("/api/rooms/ZZZZ").status_code == 404
    assert tight.get("/api/rooms/ZZZY/qr.svg").json()["code"] == "no_room"
    with tight.websocket_connect("/ws/ZZZX") as ws:  # a websocket miss counts too
        assert WS(ws).recv()["code"] == "no_room"
    for path in (f"/api/rooms/{code}", f"/api/rooms/{code}/qr.svg",
                 f"/api/rooms/{code}/record", "/api/rooms/ZZZW"):
        r = tight.get(path)
        assert r.status_code == 429, path
        assert r.headers["retry-after"] == "10"
        assert r.json() == {"code": "slow_down", "message":
                            "too many unknown room codes from your address: try again in 10 s"}
    for path in (f"/ws/{code}", f"/ws/{code}/agent?name=robo"):
        with tight.websocket_connect(path) as ws:
            w = WS(ws)
            if not path.endswith("robo"):
                w.send(type="hello", name="Ann")
            err = w.recv()
            # An agent hears its own protocol's error; a browser, the room's refusal.
            kind = "error" if path.endswith("robo") else "room_error"
            assert err["type"] == kind and err["code"] == "slow_down"
            with pytest.raises(WebSocketDisconnect) as closed:
                w.recv()
            # Not final (issue 15: a final close here kept phones out for good): 1013,
            # "try again later", and the page reconnects after a while.
            assert closed.value.code == 1013
    clock.now += 10
    assert tight.get(f"/api/rooms/{code}").status_code == 200
    # Creating rooms and the pages are not lookups: never slowed.
    assert tight.get("/play/ZZZZ").status_code == 200


def test_a_websocket_miss_names_no_room_to_an_agent_either(tight: TestClient) -> None:
    with tight.websocket_connect("/ws/QQQQ/agent?name=robo") as ws:
        assert WS(ws).recv() == {"type": "error", "code": "refused",
                                 "message": "there is no room QQQQ"}


def test_an_agent_is_refused_in_its_own_protocol(tight: TestClient) -> None:
    """Every refusal an agent gets is an agent-protocol ``error`` (docs/agents.md)."""
    code, _ = make_room(tight)
    with tight.websocket_connect(f"/ws/{code}/agent?name=robo") as ws:
        agent = WS(ws)
        agent.send(type="hello", name="x" * 5000)  # longer than the server reads
        assert agent.recv()["code"] == "too_long"
        agent.send(type="start")  # a host's message
        assert agent.recv() == {"type": "error", "code": "refused",
                                "message": "only the host's screen can do that"}
        for _ in range(3):  # past the allowance (2 left after the two above)
            agent.send(type="ping")
        got = [agent.recv() for _ in range(3)]
        assert got[-1] == {
            "type": "error", "code": "slow_down",
            "message": "too many messages: this one was dropped (at most 2 a second)"}
    with tight.websocket_connect(f"/ws/{code}/agent?name=robo") as ws:  # name taken
        refused = WS(ws).recv()
        assert refused["type"] == "error" and refused["code"] == "refused"
        assert "robo" in refused["message"]


def test_a_flooding_connection_is_slowed_then_closed_and_others_are_not(
        tight: TestClient, clock: FakeClock) -> None:
    code, _ = make_room(tight)
    with tight.websocket_connect(f"/ws/{code}") as w1, \
            tight.websocket_connect(f"/ws/{code}") as w2:
        a, b = WS(w1), WS(w2)
        a.send(type="hello", name="Ann")  # the hello is not counted: 4 to spend
        b.send(type="hello", name="Bob")
        a.until(lambda m: m["type"] == "welcome")
        b.until(lambda m: m["type"] == "welcome")
        for _ in range(4):
            a.send(type="ping")
            assert a.until(lambda m: m["type"] != "lobby") == {"type": "pong"}
        a.send(type="ping")
        assert a.until(lambda m: m["type"] != "lobby") == {
            "type": "room_error", "code": "slow_down",
            "message": "too many messages: this one was dropped (at most 2 a second)"}
        clock.now += 0.5  # one message back
        a.send(type="ping")
        assert a.recv() == {"type": "pong"}
        # Bob has his own allowance.
        b.send(type="ping")
        assert b.until(lambda m: m["type"] != "lobby") == {"type": "pong"}
        # A flood: three more dropped (flood_burst), then the connection is closed.
        for _ in range(10):
            a.send(type="ping")
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                codes.append(a.recv()["code"])
        assert closed.value.code == 1008
        assert set(codes) <= {"slow_down"} and len(codes) <= 3
        # Bob is still served, and sees Ann gone.
        b.send(type="ping")
        lobby = b.until(lambda m: m["type"] == "lobby" and not m["seats"][0]["connected"])
        assert lobby["seats"][1]["connected"]
        assert b.until(lambda m: m["type"] != "lobby") == {"type": "pong"}


# --- issue 15: limits on everything a client sends ----------------------------------------

NESTED = "[" * 1500 + "]" * 1500  # 3 KB, under the frame limit, past Python's recursion


def test_room_creation_is_limited_per_address(client: TestClient) -> None:
    """190 rooms a second from one address filled the code space in half an hour: a
    burst of 30 (a room at every table of a café), then 6 a minute."""
    made = [client.post("/api/rooms", json={}).status_code for _ in range(30)]
    assert made == [201] * 30
    r = client.post("/api/rooms", json={})
    assert r.status_code == 429
    assert r.json()["code"] == "slow_down" and "new rooms" in r.json()["message"]
    assert int(r.headers["retry-after"]) >= 1


def test_every_http_body_is_capped(client: TestClient) -> None:
    huge = {"bots": "reasoning:" + "x" * 100_000}
    r = client.post("/api/rooms", json=huge)
    assert r.status_code == 413
    assert r.json()["code"] == "too_long"
    # Announced too long: refused before it is read.
    r = client.post("/api/rooms", content=b"{}", headers={"content-length": "99999999"})
    assert r.status_code == 413
    # A GET with a body gets the same answer, and nothing is kept.
    r = client.request("GET", "/api/rulesets", content=b"x" * 20_000)
    assert r.status_code == 413
    assert client.app.state.hub.rooms == {}  # type: ignore[attr-defined]


@pytest.mark.parametrize("body", [
    {"bots": "reasoning:" + "x" * 1000},
    {"bots": "reasoning:nightmare"},
    {"ruleset": "x" * 1000},
    {"scenario": "x" * 1000},
    {"roles": ["werewolf"] * 65},
    {"roles": ["x" * 1000]},
    {"options": {f"o{i}": True for i in range(17)}},
    {"options": {"lone_wolf": [[["deep"]]]}},
    {"options": {"lone_wolf": {"a": 1}}},
    {"options": {"x" * 1000: True}},
    {"options": {"lone_wolf": 10**30}},
    {"ruleset": "epic", "seats": 5, "options": {"seed": "not a number"}},
    {"ruleset": "epic", "seats": 5, "options": {"artifacts": ["no such artifact"]}},
    {"ruleset": "epic", "seats": 5, "options": {"colour": "red"}},
])
def test_every_field_of_a_new_room_is_bounded_and_checked_at_creation(
        client: TestClient, body: dict[str, object]) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 400, (body, r.text)
    assert r.json()["code"] in ("bad_message", "bad_bots", "bad_deck", "bad_ruleset"), r.json()
    assert r.json()["message"]
    assert client.app.state.hub.rooms == {}  # type: ignore[attr-defined]


def test_the_biggest_room_a_client_can_make_is_small_to_read(client: TestClient) -> None:
    """GET /api/rooms/CODE of a 50 MB room stalled the loop for seconds: every field
    is bounded now, so the biggest room there can be reads back in a few KB."""
    from nightcall.engine.ruleset import get_ruleset

    epic = get_ruleset("epic")
    body = {"ruleset": "epic", "seats": epic.max_players, "bots": "reasoning:normal",
            "options": {"seed": 2**53, "artifacts": list(epic.options(None)["artifacts"])}}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    code = r.json()["room"]
    for i in range(epic.max_players):
        with client.websocket_connect(f"/ws/{code}/agent",
                                      params={"name": f"{'x' * 20}{i:04d}",
                                              "token": f"{i:04d}" + "t" * 124}) as ws:
            ws.send_text('{"type":"ping"}')  # (seated by its address; leaves again)
            assert json.loads(ws.receive_text()) == {"type": "pong"}
    info = client.get(f"/api/rooms/{code}")
    assert info.status_code == 200
    assert len(info.json()["seats"]) == epic.max_players
    assert len(info.content) < 24_000, len(info.content)
    doc = client.app.state.hub.rooms[code].to_doc()  # type: ignore[attr-defined]
    assert len(json.dumps(doc)) < 24_000


def test_an_agent_token_is_bounded(client: TestClient) -> None:
    code, _ = make_room(client)
    with client.websocket_connect(f"/ws/{code}/agent",
                                  params={"name": "robo", "token": "t" * 10_000}) as ws:
        err = WS(ws).recv()
        assert err["type"] == "error" and err["code"] == "refused"
        assert "128" in err["message"]
    assert client.app.state.hub.rooms[code].seats == []  # type: ignore[attr-defined]


def test_deep_nesting_gets_one_clear_error_from_every_decoder(client: TestClient) -> None:
    """A few KB of nested arrays raised RecursionError in the hello, in a seated
    client's frame, in the agent decoder and in POST /api/rooms."""
    frame = '{"x":' + NESTED + ',"type":"hello"}'
    for body in ('{"options":{"a":' + NESTED + '}}', '{"roles":' + NESTED + '}', NESTED):
        r = client.post("/api/rooms", content=body.encode())
        assert r.status_code == 400 and r.json()["code"] == "bad_message", r.text
        assert r.json()["message"]
    code, _ = make_room(client)
    with client.websocket_connect(f"/ws/{code}") as ws:  # the hello
        w = WS(ws)
        w.send_raw(frame)
        err = w.recv()
        assert err["type"] == "error" and err["code"] == "bad_message", err
        assert "nested too deeply" in err["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            w.recv()
        assert closed.value.code == 4000
    with client.websocket_connect(f"/ws/{code}") as ws:  # a seated player's frame
        w = WS(ws)
        w.send(type="hello", name="Ann")
        w.until(lambda m: m["type"] == "welcome")
        w.send_raw(frame.replace('"hello"', '"action"'))
        err = w.until(lambda m: m["type"] != "lobby")
        assert err["code"] == "bad_message" and "nested too deeply" in err["message"], err
        w.send(type="ping")
        assert w.until(lambda m: m["type"] != "lobby") == {"type": "pong"}
    with client.websocket_connect(f"/ws/{code}/agent") as ws:  # an agent's hello
        w = WS(ws)
        w.send_raw(NESTED)
        err = w.recv()
        assert err["type"] == "error" and err["code"] == "bad_json"
        assert "nested too deeply" in err["message"]
    with client.websocket_connect(f"/ws/{code}/agent?name=robo") as ws:  # a seated agent
        w = WS(ws)
        w.send_raw(frame)
        err = w.recv()
        assert err["type"] == "error" and err["code"] == "bad_message", err
        w.send(type="ping")
        assert w.recv() == {"type": "pong"}


# --- lockouts must not hurt players (issue 15) ---------------------------------------------


def test_a_seated_phone_and_the_host_get_back_in_after_the_address_mistyped_codes(
        client: TestClient) -> None:
    """A school's or a café's address: someone there mistyped ten codes; a phone
    whose Wi-Fi drops comes back with its token and must get its seat back."""
    code, host_token = make_room(client)
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", name="Ann")
        token = w.until(lambda m: m["type"] == "welcome")["token"]
    robo = "r" * 20
    with client.websocket_connect(f"/ws/{code}/agent?name=robo&token={robo}") as ws:
        ws.send_text('{"type":"ping"}')
        assert WS(ws).recv() == {"type": "pong"}
    for i in range(10):
        assert client.get(f"/api/rooms/ZZZ{'ABCDEFGHJK'[i]}").status_code == 404
    assert client.get(f"/api/rooms/{code}").status_code == 429  # guessing is held back
    with client.websocket_connect(f"/ws/{code}") as ws:  # ...a token is no guess
        w = WS(ws)
        w.send(type="hello", token=token)
        welcome = w.recv()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", **{"as": "host", "token": host_token})
        assert w.recv()["role"] == "host"
    with client.websocket_connect(f"/ws/{code}/agent?token={robo}") as ws:
        ws.send_text('{"type":"ping"}')
        assert WS(ws).recv() == {"type": "pong"}  # seated again, as robo
    assert client.app.state.hub.rooms[code].seats[1].name == "robo"  # type: ignore[attr-defined]
    # A new name, or a wrong token, is still a guess: the same refusal as for any code,
    # and not a final one (1013: the page tries again later).
    for hello in ({"name": "Eve"}, {"token": "A" * 22}, {"as": "host", "token": "B" * 22}):
        with client.websocket_connect(f"/ws/{code}") as ws:
            w = WS(ws)
            w.send(type="hello", **hello)
            err = w.recv()
            assert err["code"] == "slow_down", (hello, err)
            with pytest.raises(WebSocketDisconnect) as closed:
                w.recv()
            assert closed.value.code == 1013
    with client.websocket_connect("/ws/QQQQ") as ws:  # no room: the same answer
        w = WS(ws)
        w.send(type="hello", token=token)
        assert w.recv()["code"] == "slow_down"


def test_wrong_tokens_are_limited_per_address(client: TestClient) -> None:
    """Ten wrong tokens from one address, then the agents' own tokens (maybe weak) are
    no longer tried from there; the server's own (128 random bits) still are."""
    code, host_token = make_room(client, seats=3, bots="random", call_seconds=0.05,
                                 discussion_seconds=600)
    own = "my-own-agent-token-1"
    with client.websocket_connect(f"/ws/{code}/agent?name=robo&token={own}"):
        pass
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", name="Ann")
        token = w.until(lambda m: m["type"] == "welcome")["token"]
    with client.websocket_connect(f"/ws/{code}") as hw:
        host_starts(hw, host_token)
    for i in range(10):
        with client.websocket_connect(f"/ws/{code}") as ws:
            w = WS(ws)
            w.send(type="hello", token=f"guess-{i:02d}-" + "x" * 16)
            assert w.recv()["code"] == "bad_token"
    with client.websocket_connect(f"/ws/{code}") as ws:
        w = WS(ws)
        w.send(type="hello", token="guess-again-" + "x" * 16)
        err = w.recv()
        assert err["code"] == "slow_down" and "wrong tokens" in err["message"]
    with client.websocket_connect(f"/ws/{code}/agent?token={own}") as ws:  # right, but weak
        err = WS(ws).recv()
        assert err["type"] == "error" and err["code"] == "slow_down", err
    with client.websocket_connect(f"/ws/{code}") as ws:  # the server's own token
        w = WS(ws)
        w.send(type="hello", token=token)
        assert w.recv()["type"] == "welcome"
