"""Lupus on phones: a werewolf can change its pick until the pack agrees (the rule:
the werewolves "point at one victim" together). Picks reach the rules only when the
whole pack points at one player or the call's time runs out; the pack sees every
pick as it stands; nobody else sees anything move."""

from __future__ import annotations

from nightcall.engine.actions import Action
from nightcall.engine.clock import CLOCK_SEAT
from nightcall.engine.ruleset import get_ruleset
from nightcall.server.messages import CreateRoom, encode
from nightcall.server.room import ClockState, Room, Seat

NAMES = ["Ada", "Bice", "Carlo", "Dario", "Elsa", "Fabio", "Gina", "Ivo"]


def wolves_call_room() -> tuple[Room, list[int], list[int]]:
    """An 8-seat room of people at the werewolves' first call, two of them wolves:
    the room, the pack, and the others."""
    lupus = get_ruleset("lupus")
    roles = lupus.default_deck(8)
    room = Room("LUPI", CreateRoom(ruleset="lupus", seats=8, language="it", call_seconds=30))
    room.seats = [Seat(name, f"token-{i:08d}") for i, name in enumerate(NAMES)]
    for seed in range(200):
        room.status, room.seed, room.roles, room.actions = "playing", seed, roles, []
        room.rebuild()
        while room.open_call() != "werewolf":  # the clock ends the dusk and earlier calls
            room.end_call()
        pack = list(lupus.waiting_for(room.state))
        if len(pack) == 2:
            calls = list(lupus.night_calls(roles, 1))
            room.clock = ClockState("night", 1, calls.index("werewolf"))
            others = [s for s in range(8) if s not in pack]
            return room, pack, others
    raise AssertionError("no deal with two werewolves called first")  # pragma: no cover


def moves(room: Room) -> list[tuple[int, Action]]:
    """The seats' moves in the room's history (the clock's end_calls left out)."""
    return [(seat, action) for seat, action in room.actions if seat != CLOCK_SEAT]


def kill(room: Room, seat: int, target: int) -> None:
    room.snapshot(seat)  # what the phone was last shown, as an observation does
    room.submit(seat, Action("kill", target), room.state_id(seat))


def test_a_wolf_changes_its_pick_until_the_pack_agrees() -> None:
    room, (a, b), others = wolves_call_room()
    lupus = room.ruleset
    first, second = others[0], others[1]
    watcher = others[2]
    seen = encode(room.observation(watcher))
    kill(room, a, first)
    assert moves(room) == []  # a draft, not a move: the rules have not heard it
    assert set(lupus.waiting_for(room.state)) == {a, b}
    assert room.snapshot(a)["pack_picks"] == {str(a): first}
    assert room.snapshot(b)["pack_picks"] == {str(a): first}  # the partner sees it
    kill(room, a, second)  # Ada sees Bice hesitate and points elsewhere
    assert room.snapshot(b)["pack_picks"] == {str(a): second}
    kill(room, b, first)  # they disagree: still nothing for the rules
    assert moves(room) == []
    assert room.snapshot(a)["pack_picks"] == {str(a): second, str(b): first}
    # Nobody outside the pack sees a thing move, not even a new message.
    assert "pack_picks" not in room.snapshot(watcher)
    assert encode(room.observation(watcher)) == seen
    kill(room, b, second)  # agreed: both picks go to the rules, in the order made
    assert moves(room) == [(a, Action("kill", second)), (b, Action("kill", second))]
    assert not set(lupus.waiting_for(room.state)) & {a, b}
    victim = [e for e in lupus.view(room.state, a)["events"] if e["kind"] == "victim"]
    assert victim == [{"kind": "victim", "seat": second}]
    # A game is still its record: the same moves give the same night.
    replayed = room.state
    room.rebuild()
    assert lupus.view(room.state, None) == lupus.view(replayed, None)


def test_when_time_is_up_each_wolfs_last_pick_counts() -> None:
    room, (a, b), others = wolves_call_room()
    kill(room, a, others[0])
    kill(room, b, others[1])
    kill(room, b, others[2])  # changed, and still not agreed when the call ends
    room.pack.commit(room)  # (what the clock does at the call's end)
    assert moves(room) == [(a, Action("kill", others[0])), (b, Action("kill", others[2]))]
    assert not set(room.ruleset.waiting_for(room.state)) & {a, b}


def test_a_pick_outside_the_wolves_call_is_a_move_at_once() -> None:
    room, (a, _), others = wolves_call_room()
    room.clock.stage = "dusk"  # not the wolves' call on the clock: no draft is kept
    assert not room.pack.holds(room, a, Action("kill", others[0]))
    room.clock.stage = "night"
    assert room.pack.holds(room, a, Action("kill", others[0]))
    assert "pack_picks" not in room.pack.show(room, None, {})  # the public view: never
