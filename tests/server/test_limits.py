"""Rate limits: room-code guessing per address and messages per connection, on a
clock the tests move by hand (no sleeping)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webhelpers import WS, make_room

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
