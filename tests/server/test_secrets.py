"""Many random games through the room pipeline: no message to any seat ever holds
something that seat may not know, and the night's messages never depend on the deal.

The games run on the real clock (timers scaled to milliseconds), with humans
played by a tiny client that answers its own observations (sometimes late,
sometimes stale, sometimes out of turn) and bots in the other seats.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from itertools import groupby
from pathlib import Path
from typing import Any

import pytest

from nightcall.engine.events import EVERYONE
from nightcall.engine.ruleset import get_ruleset
from nightcall.server.hub import Hub
from nightcall.server.messages import CreateRoom
from nightcall.server.room import Room, RoomError, Sink
from nightcall.server.store import SQLiteStore

pytestmark = pytest.mark.timeout(180)

OBSERVATION_KEYS = {"type", "room", "state_id", "view", "clock", "timeline", "said"}
CLOCK_KEYS = {"stage", "call", "night", "ends_at", "seconds", "narration"}
EXTRAS = ["minion", "drunk", "insomniac", "hunter", "tanner", "doppelganger", "mason"]


class Capture(Sink):
    def __init__(self, role: str, viewer: int | None) -> None:
        self.role = role
        self.viewer = viewer
        self.got: list[dict[str, Any]] = []
        self.on_message: Any = None

    def send(self, data: bytes) -> None:
        msg = json.loads(data)
        self.got.append(msg)
        if self.on_message is not None:
            self.on_message(msg)


def random_deck(rng: random.Random, n: int) -> list[str]:
    """A legal deck with a random mix of the optional roles."""
    onuw: Any = get_ruleset("onuw")
    singles = [r for r in EXTRAS if r != "mason"]
    rng.shuffle(singles)
    deck: list[str] = onuw.recommended_deck(n, singles)
    spare = [r for r in singles if r not in deck]
    for i, card in enumerate(deck):
        if card == "villager" and spare and rng.random() < 0.5:
            deck[i] = spare.pop()
    if deck.count("villager") >= 2 and rng.random() < 0.4:
        deck.remove("villager")
        deck.remove("villager")
        deck += ["mason", "mason"]
    onuw.validate_deck(n, deck)
    return deck


class Human:
    """Answers its observations like a phone would: usually a legal move, now and
    then a stale or out-of-turn one (refused), now and then nothing (the default)."""

    def __init__(self, room: Room, sink: Capture, rng: random.Random) -> None:
        self.room, self.sink, self.rng = room, sink, rng
        self.refused: list[str] = []
        sink.on_message = self.on_message

    def on_message(self, msg: dict[str, Any]) -> None:
        if msg["type"] != "observation":
            return
        legal = msg["view"].get("legal") or []
        loop = asyncio.get_running_loop()
        roll = self.rng.random()
        if legal and roll < 0.75:
            action = self.rng.choice(legal)
            loop.call_later(self.rng.uniform(0, 0.004), self.submit, action, msg["state_id"])
        elif roll < 0.8:
            loop.call_soon(self.submit, {"kind": "skip"}, msg["state_id"] - 1)
        elif not legal and roll < 0.9:
            loop.call_soon(self.submit, {"kind": "skip"}, msg["state_id"])
        elif roll < 0.95 and msg["clock"]["stage"] in ("discussion", "vote"):
            loop.call_soon(self.submit, {"kind": "claim", "a": 4}, msg["state_id"])

    def submit(self, action: dict[str, Any], state_id: int) -> None:
        from nightcall.engine.actions import Action

        assert self.sink.viewer is not None
        try:
            self.room.submit(self.sink.viewer, Action.from_json(action), state_id)
        except RoomError as exc:
            self.refused.append(exc.code)


async def play_one(hub: Hub, seed: int, ruleset: str = "onuw"
                   ) -> tuple[Room, dict[str, Capture], list[str]]:
    rng = random.Random(seed)
    rs = get_ruleset(ruleset)
    n = rng.randint(rs.min_players, min(rs.max_players, rs.min_players + 4))
    roles = random_deck(rng, n) if ruleset == "onuw" else rs.default_deck(n)
    # A third of the tables get the reasoning bots (they talk at dawn), the rest the
    # random legal ones (faster, and they try every corner of the rules).
    settings = CreateRoom(ruleset=ruleset, seats=n, roles=roles, call_seconds=0.006,
                          discussion_seconds=0.004, vote_seconds=0.03,
                          defense_seconds=0.004,
                          bots="reasoning" if seed % 3 == 0 else "random")
    room = hub.create(settings)
    sinks: dict[str, Capture] = {"host": Capture("host", None),
                                 "spectator": Capture("spectator", None)}
    humans = rng.randint(1, n)
    for i in range(humans):
        seat, _ = room.join(f"P{i}<b>")
        sinks[f"seat{seat}"] = Capture("player", seat)
    for sink in sinks.values():
        room.sinks.add(sink)
    players = [Human(room, s, rng) for k, s in sinks.items() if k.startswith("seat")]
    hub.start(room)
    for _ in range(6000):
        if room.status == "over":
            break
        await asyncio.sleep(0.005)
    assert room.status == "over", f"game {seed} did not end"
    refused = [code for p in players for code in p.refused]
    return room, sinks, refused


def visible_events(room: Room, viewer: int | None) -> list[dict[str, Any]]:
    """From the master log and each event's audience alone (not through ``view``)."""
    out = []
    for e in room.state.log:
        if e.audience == EVERYONE or (viewer is not None and isinstance(e.audience, frozenset)
                                      and viewer in e.audience):
            out.append({"kind": e.kind, **e.data})
    return out


def own_card(room: Room, seat: int) -> dict[str, Any]:
    """The seat's own deal, read from the master's record of the deal."""
    deal = next(e for e in room.state.log if e.kind == "deal" and "cards" in e.data)
    return {"kind": "deal", "seat": seat, "card": deal.data["cards"][seat]}


def _role(e: dict[str, Any]) -> Any:
    return e.get("role", e.get("call"))


def check_game(room: Room, sinks: dict[str, Capture]) -> None:
    for name, sink in sinks.items():
        viewer = sink.viewer
        allowed = visible_events(room, viewer)
        nights: dict[int, list[dict[str, Any]]] = {}
        ghosts: list[str] = []
        for msg in sink.got:
            if msg["type"] != "observation":
                continue
            assert set(msg) == OBSERVATION_KEYS
            assert set(msg["clock"]) == CLOCK_KEYS
            view = msg["view"]
            events = view["events"]
            if viewer is not None and events[:1] == [own_card(room, viewer)] \
                    and allowed[:1] != events[:1]:
                events = events[1:]  # a seat knows the card it was dealt
            # Nothing this seat may not know, and nothing out of order.
            assert events == allowed[: len(events)], (name, events)
            if viewer is None:
                assert "legal" not in view and "seat" not in view and "role" not in view
            else:
                assert view["seat"] == viewer
            clock = msg["clock"]
            if clock["stage"] == "night":
                night = clock["night"]
                nights.setdefault(night, []).append(msg)
                calls = list(room.ruleset.night_calls(room.roles, night))
                slot = calls.index(clock["call"])
                seen = [_role(e) for e in events
                        if e["kind"] == "call" and e.get("night", night) == night]
                # The view never runs ahead of the clock: no later call, no dawn.
                assert seen == calls[: slot + 1], (seen, clock["call"])
                assert sum(e["kind"] == "dawn" for e in events) == night - 1
                assert view["phase"] == "night" and "outcome" not in view
                # Nobody dies before the dawn (the executed died in the day before).
                first = nights[night][0]["view"].get("ghosts", [])
                assert view.get("ghosts", []) == first
                assert set(ghosts) <= set(first)
            else:
                ghosts = view.get("ghosts", [])
            if clock["stage"] != "over":
                assert msg["timeline"] is None
                assert not any(e["kind"] == "reveal" for e in events)
        for night, msgs in nights.items():
            calls = list(room.ruleset.night_calls(room.roles, night))
            slots = [m["clock"]["call"] for m in msgs]
            assert [slot for slot, _ in groupby(slots)] == calls, (name, night)
            assert len({m["clock"]["seconds"] for m in msgs}) == 1
            if viewer is None:
                # One message per call, no more: nobody can hear when someone acts.
                assert slots == calls, (name, night)
                continue
            for before, after in itertools.pairwise(msgs):
                if before["clock"]["call"] == after["clock"]["call"]:
                    # A second message inside a call only brings this seat news:
                    # its own choices or results, or something done to it (a tap).
                    news = len(after["view"]["events"]) > len(before["view"]["events"])
                    assert news or before["view"]["legal"], (name, after["view"])


GAMES = {"onuw": 150, "epic": 40, "lupus": 25}


def available() -> list[str]:
    from nightcall.server.hub import available_rulesets

    return [r for r in GAMES if r in available_rulesets()]


@pytest.mark.parametrize("ruleset", available())
def test_no_message_ever_tells_a_seat_what_it_may_not_know(tmp_path: Path,
                                                           ruleset: str) -> None:
    async def main() -> list[str]:
        hub = Hub(SQLiteStore(tmp_path / "rooms.sqlite3"))
        refused: list[str] = []
        games = 0
        for batch in range(GAMES[ruleset] // 25 or 1):
            results = await asyncio.gather(
                *(play_one(hub, batch * 100 + i, ruleset) for i in range(25))
            )
            for room, sinks, codes in results:
                check_game(room, sinks)
                refused += codes
                games += 1
        hub.stop()
        assert games == max(25, GAMES[ruleset] // 25 * 25)
        return refused

    refused = asyncio.run(main())
    # The humans did send bad moves, and each was refused.
    assert "stale_state" in refused and "not_your_turn" in refused


def test_the_public_night_is_the_same_whatever_the_deal(tmp_path: Path) -> None:
    """Same deck, different deals: the spectator's night is message for message the same."""

    def night_of(sink: Capture) -> list[Any]:
        return [(m["clock"]["stage"], m["clock"]["call"], m["clock"]["seconds"],
                 m["view"]["events"], m["clock"]["narration"])
                for m in sink.got if m["type"] == "observation"
                and m["clock"]["stage"] == "night"]

    async def main() -> list[list[Any]]:
        hub = Hub(SQLiteStore(tmp_path / "rooms.sqlite3"))
        nights = []
        deck = ["doppelganger", "werewolf", "werewolf", "minion", "seer", "robber",
                "troublemaker", "drunk", "insomniac"]
        for _ in range(12):
            room = hub.create(CreateRoom(seats=6, roles=deck, call_seconds=0.01,
                                         discussion_seconds=0.01, vote_seconds=0.02,
                                         bots="random"))
            spectator = Capture("spectator", None)
            room.sinks.add(spectator)
            hub.start(room)
            while room.status != "over":
                await asyncio.sleep(0.01)
            nights.append(night_of(spectator))
        hub.stop()
        return nights

    nights = asyncio.run(main())
    # Every call of the deck, the Doppelgänger's second one too, each once.
    assert [night[1] for night in nights[0]] == [
        "doppelganger", "werewolf", "minion", "seer", "robber", "troublemaker", "drunk",
        "insomniac", "doppelganger_insomniac",
    ]
    assert all(night == nights[0] for night in nights)
