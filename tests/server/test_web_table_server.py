"""The server side of the table: seats stop at the room's count, the host arranges
them (bad orders refused, nothing changed), play again keeps the order, the night
opens with a dusk of its own, and the host can give the talk one more minute."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient
from webhelpers import WS, make_room


def hello(ws: Any, **msg: Any) -> WS:
    w = WS(ws)
    w.send(type="hello", **msg)
    return w


def names(lobby: dict[str, Any]) -> list[str]:
    return [s["name"] for s in lobby["seats"]]


def test_seats_stop_at_the_rooms_count_and_keep_the_hosts_order(client: TestClient) -> None:
    code, token = make_room(client, ruleset="onuw", seats=3, vote_seconds=0.5)
    with client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as a, \
            client.websocket_connect(f"/ws/{code}") as b, \
            client.websocket_connect(f"/ws/{code}") as c, \
            client.websocket_connect(f"/ws/{code}") as d:
        host = hello(hw, **{"as": "host", "token": token})
        players = [hello(ws, name=n) for ws, n in ((a, "Ann"), (b, "Bob"), (c, "Cy"))]
        for p in players:
            p.until(lambda m: m["type"] == "welcome")
        late = hello(d, name="Dee")  # a fourth player in a three-seat room
        refusal = late.until(lambda m: m["type"] in ("error", "room_error"))
        assert refusal["code"] == "full"
        host.send(type="add_bot")
        assert host.until(lambda m: m["type"] in ("error", "room_error"))["code"] == "full"

        host.send(type="arrange", order=[0, 0, 1])  # not every seat once: refused
        assert host.until(lambda m: m["type"] in ("error", "room_error"))["code"] == "bad_seat"
        host.send(type="arrange", order=[2, 0, 1])
        lobby = host.until(lambda m: m["type"] == "lobby" and names(m) == ["Cy", "Ann", "Bob"])
        assert len(lobby["seats"]) == 3
        host.send(type="start")
        # Dusk first: the night's first call comes after its own time.
        clock = host.until(lambda m: m["type"] == "observation")["clock"]
        assert clock["stage"] == "dusk" and clock["call"] is None and clock["ends_at"]
        # Cy is seat 0 now: the welcome's seat followed the arrangement.
        view = players[2].until(lambda m: m["type"] == "observation")["view"]
        assert view["seat"] == 0 and view["legal"] == []
        host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over",
                   limit=4000)
        host.send(type="play_again")
        new = host.until(lambda m: m["type"] == "next_room")["room"]
    with client.websocket_connect(f"/ws/{new}") as b, client.websocket_connect(f"/ws/{new}") as a, \
            client.websocket_connect(f"/ws/{new}") as c:
        for ws, n in ((b, "Bob"), (a, "Ann"), (c, "Cy")):  # back in another order
            hello(ws, name=n).until(lambda m: m["type"] == "welcome")
        lobby = client.get(f"/api/rooms/{new}").json()
        assert names(lobby) == ["Cy", "Ann", "Bob"]


def test_the_host_gives_the_talk_one_more_minute(client: TestClient) -> None:
    code, token = make_room(client, ruleset="onuw", seats=3, discussion_seconds=30)
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = hello(hw, **{"as": "host", "token": token})
        host.send(type="extend")  # nothing to extend in the lobby
        assert host.until(lambda m: m["type"] in ("error", "room_error"))["code"] == "not_now"
        host.send(type="start")
        talk = host.until(lambda m: m["type"] == "observation"
                          and m["clock"]["stage"] == "discussion", limit=2000)["clock"]
        host.send(type="extend")
        longer = host.until(lambda m: m["type"] == "observation"
                            and m["clock"]["ends_at"] != talk["ends_at"])["clock"]
        assert longer["stage"] == "discussion"
        assert longer["ends_at"] - talk["ends_at"] > 50_000  # a minute more, in ms


def test_the_host_pauses_the_talk_and_starts_it_again(client: TestClient) -> None:
    code, token = make_room(client, ruleset="onuw", seats=3, discussion_seconds=30)
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = hello(hw, **{"as": "host", "token": token})
        host.send(type="start")
        talk = host.until(lambda m: m["type"] == "observation"
                          and m["clock"]["stage"] == "discussion", limit=2000)["clock"]
        host.send(type="pause")
        paused = host.until(lambda m: m["type"] == "observation"
                            and m["clock"]["ends_at"] is None)["clock"]
        assert paused["stage"] == "discussion"
        time.sleep(0.05)  # a pause of some length (a sub-millisecond one moves nothing)
        host.send(type="pause")  # again: the clock runs on with what was left
        going = host.until(lambda m: m["type"] == "observation"
                           and m["clock"]["ends_at"] is not None)["clock"]
        assert going["stage"] == "discussion"
        assert 0 < going["ends_at"] - talk["ends_at"] < 10_000  # about the pause's length
