"""When an earlier event of a view can change, and the sentences follow: the pages'
sentences (``said``) of a room's observations are always the renderer's sentence of
each event of the view, through a whole game and its reveal, a rebuilt room (a server
restart, a reconnect to it), and a new game dealt in the same room."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from nightcall.narration.render import Renderer, Told
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Room, RoomError


def _room(rid: str, seats: int, seed: int, language: str = "en") -> Room:
    room = Room("TOLD", CreateRoom(ruleset=rid, seats=seats, bots="random", language=language))
    for i in range(seats):
        room.join(f"P{i}")
    room.seed = seed
    room.start()
    return room


def _move(room: Room, rng: random.Random) -> None:
    """A random legal move through the room (or the timer ending the call)."""
    if room.ruleset.is_over(room.state):
        return
    waiting = room.ruleset.waiting_for(room.state)
    if waiting:
        seat = rng.choice(list(waiting))
        with contextlib.suppress(RoomError):  # (a move the engine refuses: none made)
            room.apply_move(seat, rng.choice(list(room.ruleset.legal_actions(room.state, seat))))
    else:
        room.end_call()


def _expected(room: Room, viewer: int | None) -> list[str | None]:
    view = room.seat_view(viewer)
    renderer = Renderer(room.ruleset.id, view["players"], viewer, room.settings.language,
                        room.roles)
    return [renderer.event(e) if e["kind"] not in renderer.quiet else None
            for e in view["events"]]


def _said(room: Room, viewer: int | None) -> list[str | None]:
    said: list[str | None] = room.observation(viewer).said
    return said


@pytest.mark.parametrize("rid,seats", [("onuw", 5), ("epic", 6), ("lupus", 8)])
def test_the_sentences_follow_a_whole_game_and_its_reveal(rid: str, seats: int) -> None:
    room, rng = _room(rid, seats, 7), random.Random(7)
    for _ in range(2000):
        if room.ruleset.is_over(room.state):
            break
        _move(room, rng)
        for viewer in (None, 0, 1):
            assert _said(room, viewer) == _expected(room, viewer)
    assert room.ruleset.is_over(room.state)
    # the end shows every card: the last view holds more than the seat saw at night,
    # and every sentence of it is still the renderer's
    before = len(room.ruleset.view(room._deal(room.state.names), 0)["events"])
    assert len(_said(room, 0)) > before
    assert _said(room, 0) == _expected(room, 0)


def _played(rid: str, seats: int, seed: int, language: str, moves: int
            ) -> tuple[Room, random.Random]:
    room, rng = _room(rid, seats, seed, language), random.Random(seed)
    for _ in range(moves):
        _move(room, rng)
    return room, rng


@pytest.mark.parametrize("rid,seats", [("onuw", 5), ("epic", 6), ("lupus", 8)])
def test_a_rebuilt_room_and_a_reconnect_tell_the_same(rid: str, seats: int) -> None:
    room, rng = _played(rid, seats, 11, "de", 6)
    said = _said(room, 0)
    room.rebuild()  # a restart: the same history, a new state and new event dicts
    assert _said(room, 0) == said == _expected(room, 0)
    assert _said(room, 0) == said  # the seat reconnects: asked again, the same
    _move(room, rng)
    assert _said(room, 0) == _expected(room, 0)


@pytest.mark.parametrize("rid,seats", [("onuw", 5), ("epic", 6), ("lupus", 8)])
def test_a_new_game_in_the_same_room_is_told_from_its_own_events(rid: str, seats: int) -> None:
    room, rng = _played(rid, seats, 3, "it", 15)
    old = _said(room, 0)
    room.seed, room.actions = 4, []
    room.state = room._deal([s.name for s in room.seats])  # another deal, the same viewers
    assert _said(room, 0) == _expected(room, 0) != old
    for _ in range(15):
        _move(room, rng)
        assert _said(room, 0) == _expected(room, 0)


def test_only_the_new_events_are_told_while_the_history_stays() -> None:
    """The common case costs the new events: the earlier ones are not compared again
    (an event that is the same dict as the one told is not looked into)."""
    told = Told("onuw", ["Ann", "Bob", "Cy"], 0, "en", ["seer", "werewolf", "robber"])

    class Untouchable(dict[str, Any]):
        def __eq__(self, other: object) -> bool:
            raise AssertionError("an earlier event compared again")

        __hash__ = None  # type: ignore[assignment]

    first = Untouchable(kind="claim", seat=1, role="seer")
    second = {"kind": "claim", "seat": 0, "role": "robber"}
    assert told([first]) == ["Bob says: “I am the Seer.”"]
    told._events[0] = dict(first)  # (what it told is a plain copy)
    assert told([first, second]) == ["Bob says: “I am the Seer.”", "You say: “I am the Robber.”"]
