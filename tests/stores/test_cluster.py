"""Several nightcall processes on one Redis (issue #8): any process serves any room, a
relayed phone plays like a local one, and killing the room's owner mid-night loses
nothing: its phones reconnect to another process, which takes the room over."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from typing import Any

import httpx
import pytest
import redis
import websockets
from clusterplay import Phone, create_room, kill, saw_the_recorded_outcome, serve, ws_url

from nightcall.server.cluster import Node
from nightcall.server.store import LeaseLost
from nightcall.server.store_redis import RedisStore

RedisServer = Any  # the fixture's class lives in tests/stores/conftest.py


def _two(redis_url: str, servers: list[subprocess.Popen[bytes]],
         env: dict[str, str] | None = None) -> tuple[str, str]:
    """Two server processes on one Redis (stopped by the ``servers`` fixture)."""
    a, url_a = serve(redis_url, env=env)
    b, url_b = serve(redis_url, env=env)
    servers += [a, b]
    return url_a, url_b


def _doc(redis_url: str, code: str) -> dict[str, Any]:
    raw = redis.Redis.from_url(redis_url).get(f"nightcall:room:{code}")
    assert raw is not None
    return dict(json.loads(raw))


def _create_on(url: str, **settings: Any) -> tuple[str, str]:
    """A new room, run by the process at ``url``: a new room belongs to nobody until a
    process is asked for it (behind a proxy, the one its phones reach)."""
    code, token = create_room(url, **settings)
    assert httpx.get(f"{url}/api/rooms/{code}", timeout=10).status_code == 200
    return code, token


def _owner(redis_url: str, code: str) -> str | None:
    raw = redis.Redis.from_url(redis_url).get(f"nightcall:lease:{code}")
    return None if raw is None else raw.decode()


async def _play(phones: list[Phone], host: Phone, firsts: list[int],
                during: Any = None) -> None:
    players = [asyncio.create_task(p.run(first=f))
               for p, f in zip(phones, firsts[:-1], strict=True)]
    for p in phones:
        await asyncio.wait_for(p.seated.wait(), 20)
    host_task = asyncio.create_task(host.run(first=firsts[-1]))
    await asyncio.wait_for(host.seated.wait(), 20)
    await asyncio.sleep(0.3)  # let the lobby settle before the deal
    await host.send({"type": "start"})
    if during is not None:
        await during()
    await asyncio.wait_for(asyncio.gather(*players), 150)
    await asyncio.wait_for(host.over.wait(), 30)
    host_task.cancel()


def test_phones_on_two_processes_play_one_room_through_redis(
    durable_redis: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    url_a, url_b = _two(durable_redis.url, servers)
    code, token = _create_on(url_a)
    owner = _owner(durable_redis.url, code)
    assert owner is not None
    # Three phones on the owner, two and the host screen relayed through the other.
    phones = [Phone([url_a, url_b], code, f"p{i}", seed=i) for i in range(5)]
    host = Phone([url_a, url_b], code, "host", seed=9, host_token=token)
    asyncio.run(_play(phones, host, firsts=[0, 1, 0, 1, 0, 1]))
    assert _owner(durable_redis.url, code) == owner  # nobody took it over
    assert all(p.connections == 1 for p in [*phones, host])  # no reconnects were needed
    for p in phones:  # each phone saw its own seat, wherever its socket was
        assert p.last is not None and p.last["view"]["seat"] == p.seat
        assert not [e for e in p.errors if e["code"] != "stale_state"], p.errors
    record_a = saw_the_recorded_outcome(url_a, phones[0].code, phones)
    assert httpx.get(f"{url_b}/api/rooms/{code}/record", timeout=10).json() == record_a
    assert sum(p.moves for p in phones) >= 5  # at least the votes went through the relay


def test_killing_the_owner_mid_night_moves_the_room_and_loses_nothing(
    durable_redis: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    a, url_a = serve(durable_redis.url, "--lease-seconds", "1")
    b, url_b = serve(durable_redis.url, "--lease-seconds", "1")
    servers += [a, b]
    code, token = _create_on(url_a, call_seconds=1.2, vote_seconds=3.0)
    phones = [Phone([url_a, url_b], code, f"p{i}", seed=10 + i) for i in range(5)]
    host = Phone([url_a, url_b], code, "host", seed=19, host_token=token)
    before: dict[str, Any] = {}

    async def kill_mid_night() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            last = host.last
            if last is not None and last["clock"]["stage"] == "night" and (
                (last["view"].get("call") or last["clock"].get("call")) is not None
                and _doc(durable_redis.url, code)["clock"]["slot"] >= 2
            ):
                break
            await asyncio.sleep(0.05)
        before.update(_doc(durable_redis.url, code))
        before["owner"] = _owner(durable_redis.url, code)
        kill(a)  # SIGKILL: no goodbye, its leases simply run out

    asyncio.run(_play(phones, host, firsts=[0, 1, 0, 1, 0, 0], during=kill_mid_night))
    assert before["clock"]["stage"] == "night" and before["status"] == "playing"
    after = _doc(durable_redis.url, code)
    assert after["status"] == "over"
    # Everything saved before the kill is still the start of the game's history.
    assert after["actions"][: len(before["actions"])] == before["actions"]
    assert _owner(durable_redis.url, code) != before.get("owner")
    for p in phones:  # everyone had to reconnect: those on A, and those relayed to A
        assert p.connections >= 2, p.name
    saw_the_recorded_outcome(url_b, phones[0].code, phones)


def test_workers_need_redis() -> None:
    import sys

    done = subprocess.run([sys.executable, "-m", "nightcall.cli", "serve", "--workers", "2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--redis" in done.stderr


# --- leases, in process -----------------------------------------------------------------


def test_a_lease_has_one_holder_and_fences_saves(redis_server: RedisServer, prefix: str) -> None:
    one = Node(RedisStore.from_url(redis_server.url, prefix=prefix), redis_server.url, 1.0, "one")
    two = Node(RedisStore.from_url(redis_server.url, prefix=prefix), redis_server.url, 1.0, "two")
    assert one.try_own("ABCD") == "one"
    assert two.try_own("ABCD") == "one"  # taken: the second learns who holds it
    one.store.save("ABCD", {"code": "ABCD", "n": 1}, finished=False)
    with pytest.raises(LeaseLost):  # not the holder: its save is refused, nothing written
        two.store.save("ABCD", {"code": "ABCD", "n": 2}, finished=False)
    assert one.store.load("ABCD") == {"code": "ABCD", "n": 1}
    assert one.renew(["ABCD"]) == [] and two.renew(["ABCD"]) == ["ABCD"]
    one.release("ABCD")
    assert two.try_own("ABCD") == "two"
    with pytest.raises(LeaseLost):  # the old owner, stalled past its lease, writes nothing
        one.store.save("ABCD", {"code": "ABCD", "n": 3}, finished=True)
    two.store.save("ABCD", {"code": "ABCD", "n": 4}, finished=True)
    assert one.store.load("ABCD") == {"code": "ABCD", "n": 4}
    assert one.store.unfinished() == []


def test_a_relayed_client_gets_the_same_refusals_and_limits(
    redis_server: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    url_a, url_b = _two(redis_server.url, servers)
    code, _ = _create_on(url_a)
    bad = {  # frame -> the error code the owner answers with, through the relay
        "not json": {"bad_json", "bad_message"},
        '{"type": "nope"}': {"unknown_type"},
        '{"type": "action", "action": {"kind": "vote", "a": 99}}': {"not_your_turn"},
        '{"type": "start"}': {"not_host"},
        '{"type": "hello", "name": "again"}': {"already_seated"},
        "x" * 10_000: {"too_long"},
    }

    async def go() -> None:
        async with websockets.connect(ws_url(url_b, code)) as ws:
            await ws.send(json.dumps({"type": "hello", "name": "Mallory"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.recv()  # the lobby
            for frame, codes in [*bad.items(), (b"\xff\xfe", {"bad_json", "bad_message"})]:
                await ws.send(frame)
                answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert answer["type"] in ("error", "room_error"), answer
                assert answer["code"] in codes, (frame[:20], answer)
            for _ in range(45):  # a burst past the per-connection limit
                await ws.send('{"type": "ping"}')
            answers = [json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]
                       for _ in range(45)]
            assert 20 <= answers.count("pong") < 45 and "room_error" in answers
        await _refused(ws_url(url_b, code), {"token": "not-a-seat-token-at-all"},
                       "bad_token", 4000)

    asyncio.run(go())
    doc = _doc(redis_server.url, code)  # nothing changed but the one seat taken
    assert [s["name"] for s in doc["seats"]] == ["Mallory"] and doc["status"] == "lobby"


def test_a_relayed_phone_gets_back_in_after_its_address_mistyped_codes(
    redis_server: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    """Issue 15 through the relay: the process holding the socket is not the room's
    owner, and the address is over the code-guessing limit there; a seat's token
    still brings the phone back (the hello is read, checked against the saved room,
    and passed on), while a new name is still held back (1013, not final)."""
    url_a, url_b = _two(redis_server.url, servers)
    code, _ = create_room(url_a)

    async def go() -> None:
        async with websockets.connect(ws_url(url_a, code)) as ws:
            await ws.send(json.dumps({"type": "hello", "name": "Ann"}))
            token = json.loads(await ws.recv())["token"]
        for i in range(10):  # guesses at B
            assert httpx.get(f"{url_b}/api/rooms/ZZZ{'ABCDEFGHJK'[i]}").status_code == 404
        assert httpx.get(f"{url_b}/api/rooms/{code}").status_code == 429
        async with websockets.connect(ws_url(url_b, code)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
        await _refused(ws_url(url_b, code), {"name": "Eve"}, "slow_down", 1013)

    asyncio.run(go())
    assert [s["name"] for s in _doc(redis_server.url, code)["seats"]] == ["Ann"]


async def _refused(url: str, hello: dict[str, str], code: str, close: int) -> None:
    """A hello at ``url`` is answered with the error ``code``, then the socket is closed
    with ``close``."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", **hello}))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert answer["code"] == code, answer
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == close


def test_wrong_tokens_through_the_relay_count_against_the_clients_address(
    redis_server: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    """Issue 15: the wrong-token limit holds for relayed clients too. The relaying
    process passes the client's address with the hello; after ten wrong tokens from
    it, the owner refuses the next with ``slow_down``, as it would a local client."""
    url_a, url_b = _two(redis_server.url, servers)
    code, _ = _create_on(url_a)

    async def guess(token: str) -> dict[str, Any]:
        async with websockets.connect(ws_url(url_b, code)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))

    async def go() -> None:
        for i in range(10):
            answer = await guess(f"guess-{i:02d}-" + "x" * 16)
            assert answer["code"] == "bad_token", answer
        answer = await guess("guess-again-" + "x" * 16)
        assert answer["code"] == "slow_down" and "wrong tokens" in answer["message"], answer

    asyncio.run(go())
    assert _owner(redis_server.url, code) is not None


def test_a_seat_moves_and_a_dead_phone_is_let_back_in_through_the_relay(
    redis_server: RedisServer, servers: list[subprocess.Popen[bytes]]
) -> None:
    """The owner runs the room; the other process only relays. A browser there that
    opens Ann's seat with her token lets her phone on the owner go ("elsewhere"); then a
    phone there that gives Bea's name only asks, and plays Bea once the host says yes."""
    url_a, url_b = _two(redis_server.url, servers)
    code, host_token = _create_on(url_a, seats=3, call_seconds=60.0)

    async def recv_until(ws: Any, pred: Any) -> dict[str, Any]:
        for _ in range(200):
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if pred(msg):
                return dict(msg)
        raise AssertionError("no such message")

    def welcome(m: dict[str, Any]) -> bool:
        return m["type"] == "welcome"

    async def go() -> None:
        async with websockets.connect(ws_url(url_a, code)) as host, \
                websockets.connect(ws_url(url_a, code)) as ann, \
                websockets.connect(ws_url(url_a, code)) as bea:
            await host.send(json.dumps({"type": "hello", "as": "host", "token": host_token}))
            await ann.send(json.dumps({"type": "hello", "name": "Ann"}))
            token = (await recv_until(ann, welcome))["token"]
            await bea.send(json.dumps({"type": "hello", "name": "Bea"}))
            await recv_until(bea, welcome)
            await host.send(json.dumps({"type": "start"}))
            await recv_until(ann, lambda m: m["type"] == "observation")
            async with websockets.connect(ws_url(url_b, code)) as moved:  # relayed
                await moved.send(json.dumps({"type": "hello", "token": token}))
                assert (await recv_until(moved, welcome))["seat"] == 0
                told = await recv_until(ann, lambda m: m["type"] == "room_error")
                assert told["code"] == "elsewhere"
                await bea.close()  # Bea's phone dies
                async with websockets.connect(ws_url(url_b, code)) as new:
                    await new.send(json.dumps({"type": "hello", "name": "bea"}))
                    asked = await recv_until(new, welcome)
                    assert (asked["role"], asked["seat"], asked["token"]) == ("asking", 1, None)
                    seen = await recv_until(new, lambda m: m["type"] == "observation")
                    assert not [e for e in seen["view"]["events"] if "card" in e]
                    await recv_until(host, lambda m: m["type"] == "lobby" and [
                        s["seat"] for s in m["seats"] if s.get("asking")] == [1])
                    await host.send(json.dumps({"type": "let_in", "seat": 1, "yes": True}))
                    let_in = await recv_until(new, welcome)
                    assert (let_in["role"], let_in["seat"]) == ("player", 1)
                    mine = await recv_until(new, lambda m: m["type"] == "observation"
                                            and m["view"].get("seat") == 1)
                    assert [e["card"] for e in mine["view"]["events"]  # Bea's card
                            if e["kind"] == "deal" and e.get("seat") == 1]

    asyncio.run(go())
