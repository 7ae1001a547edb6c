"""Lupus, two or more deaths at one dawn: the host, as the Master, names which one
counts as the last to die (the accusations start at that player's left). Only the
host, only during the dawn's talk, only one of that dawn's dead; kept in the room's
history, so a restart and a replay give the same game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from webhelpers import WS, save_playing, two_dead_at_dawn

from nightcall.engine.actions import Action
from nightcall.engine.ruleset import get_ruleset
from nightcall.server.app import create_app
from nightcall.server.messages import CreateRoom
from nightcall.server.room import LAST_TO_DIE, MASTER_SEAT, Room, Seat
from nightcall.server.store import SQLiteStore

LUPUS = get_ruleset("lupus")
CODE = "LAST"
PLAYER_TOKEN = "a-player-token-of-seat-0"


def two_deaths_room(db: Path) -> tuple[Room, tuple[int, ...]]:
    """A 16-seat room saved at the talk after a first dawn with two or more dead."""
    roles = LUPUS.default_deck(16, "extra")
    names = [f"P{i}" for i in range(16)]
    seed, actions, dead = two_dead_at_dawn(names, roles, keep=lambda dead: 0 not in dead)
    settings = CreateRoom(ruleset="lupus", seats=16, discussion_seconds=300,
                          vote_seconds=300, call_seconds=1)
    seats = [Seat(n, PLAYER_TOKEN if i == 0 else f"bot-token-{i:08d}", bot=i > 0)
             for i, n in enumerate(names)]
    return save_playing(db, CODE, settings, seats, roles, seed, actions, "discussion"), dead


def connect(client: TestClient, stack: Any, **hello: Any) -> WS:
    ws = WS(stack.enter_context(client.websocket_connect(f"/ws/{CODE}")))
    ws.send(type="hello", **hello)
    ws.until(lambda m: m["type"] == "observation")
    return ws


def refused(ws: WS, code: str) -> dict[str, Any]:
    msg = ws.until(lambda m: m["type"] in ("error", "room_error"))
    assert msg["code"] == code, msg
    return msg


def last_named(ws: WS, seat: int) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "observation" and any(
        e["kind"] == "last" and e["seat"] == seat for e in m["view"]["events"]))


def test_the_host_names_the_last_to_die_and_a_restart_keeps_it(tmp_path: Path) -> None:
    import contextlib

    db = tmp_path / "rooms.sqlite3"
    room, dead = two_deaths_room(db)
    default = room.state.last
    assert default == dead[-1]  # the ruleset's choice when the host says nothing
    chosen = dead[0]
    with TestClient(create_app(SQLiteStore(db))) as client, contextlib.ExitStack() as stack:
        host = connect(client, stack, **{"as": "host", "token": room.host_token})
        player = connect(client, stack, token=PLAYER_TOKEN)
        watcher = connect(client, stack, **{"as": "spectator"})

        player.send(type="last_to_die", seat=chosen)  # only the host's screen
        refused(player, "not_host")
        watcher.send(type="last_to_die", seat=chosen)
        refused(watcher, "not_host")
        alive = next(s for s in range(16) if s not in dead)
        host.send(type="last_to_die", seat=alive)  # not one of this dawn's dead
        msg = refused(host, "bad_seat")
        assert all(f"P{s}" in msg["message"] for s in dead)
        live = client.app.state.hub.rooms[CODE]
        assert live.state.last == default and len(live.actions) == len(room.actions)

        host.send(type="last_to_die", seat=chosen)
        obs = last_named(host, chosen)
        accusation = [e for e in obs["view"]["events"] if e["kind"] == "accusation"][-1]
        assert accusation["order"][0] == (chosen + 1) % 16  # from the named one's left
        last_named(player, chosen)  # the table hears it too
        assert live.actions[-1] == (MASTER_SEAT, Action(LAST_TO_DIE, chosen))

        host.send(type="advance")  # the accusations begin: too late to change it
        host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "accuse")
        host.send(type="last_to_die", seat=dead[-1])
        refused(host, "not_now")
        assert live.state.last == chosen
        history = list(live.actions)

    # A restart rebuilds the game from the saved history, the host's choice included.
    store = SQLiteStore(db)
    doc = store.load(CODE)
    store.close()
    assert doc is not None
    again = Room.from_doc(doc)
    assert again.actions == history
    assert again.state.last == chosen
    assert LUPUS.view(again.state, None) == LUPUS.view(live.state, None)
    # And the game record (the ruleset's own) replays to the same state.
    replayed = LUPUS.replay(LUPUS.to_record(again.state))
    assert LUPUS.view(replayed, None) == LUPUS.view(again.state, None)


def test_no_choice_outside_lupus_or_with_one_death(client: TestClient) -> None:
    import contextlib

    from webhelpers import make_room

    code, token = make_room(client, ruleset="onuw", seats=3, discussion_seconds=60)
    with contextlib.ExitStack() as stack:
        ws = WS(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        ws.send(type="hello", **{"as": "host", "token": token})
        ws.until(lambda m: m["type"] == "lobby")
        ws.send(type="last_to_die", seat=0)
        refused(ws, "not_now")
