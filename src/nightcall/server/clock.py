"""The room's clock: times the engine's steps, runs the day's talk, moves the bots.

The engine holds every call open (center and dead roles included: the narrator's
order) until ``end_call`` (engine.clock); here each one lasts exactly its call
time and never ends early because someone acted: a silence tells nobody
anything. When the time is up the clock applies ``end_call`` (:meth:`Room.end_call`):
the engine gives a seat that has not chosen its default move, so the game never
stalls. Bots choose at a random moment inside the call, from their own seat's
view, like anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from nightcall.bots import TalkingBot
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.fast import current_round
from nightcall.server.room import DAY_STAGES, TURN_STAGES, Room, RoomError

log = logging.getLogger("nightcall.server")


class RoomClock:
    def __init__(self, room: Room, scale: float = 1.0, dusk_scale: float = 1.0) -> None:
        self.room = room
        self.scale = scale
        self.dusk_scale = dusk_scale
        self.gen = 0  # bumped at every stage change; stale callbacks check it
        self.handles: list[asyncio.TimerHandle] = []
        self.pending: set[int] = set()
        self.bots = self._make_bots()
        self.rng = random.Random(room.seed ^ 0x5EED)
        self.waiting_seen: set[int] = set()
        self.paused_left = 0.0  # the talk's time left while the host has paused it
        self.floor_at = 0.0  # the fast round may not end before this wall time
        room.on_moved = self.on_moved

    # --- plumbing ------------------------------------------------------------------
    def _later(self, delay: float, fn: Callable[..., None], *args: object) -> None:
        loop = asyncio.get_running_loop()
        self.handles.append(loop.call_later(max(0.0, delay), fn, *args))

    def _new_stage(self, stage: str, seconds: float | None) -> int:
        for h in self.handles:
            h.cancel()
        self.handles.clear()
        self.pending.clear()
        self.gen += 1
        c = self.room.clock
        c.stage = stage
        c.seconds = seconds
        c.ends_at = None if seconds is None else time.time() + seconds
        return self.gen

    def _timed(self, stage: str, seconds: float, then: Callable[[int], None], *,
               bots: bool = False) -> int:
        """Open ``stage`` for ``seconds`` and tell the room; the bots (if asked) move within
        it; ``then(gen)`` runs when the time is up (and does nothing if the clock moved on).
        The stage's generation."""
        gen = self._new_stage(stage, seconds)
        self.room.changed()
        if bots:
            self.move_bots(seconds)
        self._later(seconds, then, gen)
        return gen

    def stop(self) -> None:
        for h in self.handles:
            h.cancel()
        self.handles.clear()
        self.gen += 1

    def _seconds(self, value: float) -> float:
        return max(0.0, value * self.scale)

    # --- starting and resuming ---------------------------------------------------------
    def _make_bots(self) -> dict[int, Any]:
        """The room's bots (the reasoning ones by default), seeded from the deal."""
        room = self.room
        bots: dict[int, Any] = {}
        for i, seat in enumerate(room.seats):
            if seat.bot:
                try:
                    from nightcall.bots import make_bot

                    bots[i] = make_bot(room.settings.bots, room.ruleset.id, room.seed + i)
                except ValueError as exc:  # (refused at creation: only an old room's)
                    log.warning("room %s: %s; its bots play at random", room.code, exc)
                    bots[i] = RandomBot(room.seed + i)
        return bots

    def begin(self) -> None:
        self.bots = self._make_bots()
        self.rng = random.Random(self.room.seed ^ 0x5EED)
        self.enter_dusk()

    def enter_dusk(self) -> None:
        """Before the first call of the game: everyone looks at their card while the
        host reads the opening, on a timer of its own (no call runs meanwhile)."""
        from nightcall.server.narration import dusk_line, dusk_seconds

        room = self.room
        c = room.clock
        c.night = 1
        c.slot = 0
        line = dusk_line(room.ruleset.id, room.settings.language, room.roles)
        seconds = self._seconds(dusk_seconds(line, room.settings.call_seconds,
                                                 self.dusk_scale))
        self._timed("dusk", seconds, self.end_dusk)

    def end_dusk(self, gen: int) -> None:
        if gen == self.gen:
            self.room.end_call()  # the engine opens the first call
            self.enter_slot()

    def resume(self) -> None:
        """After a restart: the stage the room was in starts again, whole."""
        c = self.room.clock
        if self.room.status == "over":
            return
        if c.stage == "dusk":
            self.enter_dusk()
        elif c.stage == "night":
            self.enter_slot()
        elif c.stage == "discussion":
            self.enter_discussion()
        elif c.stage in TURN_STAGES or c.stage == "defense":
            self.enter_turns()
        else:
            self.route()

    # --- the night ----------------------------------------------------------------------
    def begin_night(self, night: int) -> None:
        room = self.room
        c = room.clock
        c.night = night
        c.slot = 0
        self.enter_slot()

    def enter_slot(self) -> None:
        """The call the engine holds open now lasts its full time."""
        room = self.room
        if room.engine_phase() != "night":
            self.route()  # the last call has ended: the dawn
            return
        if room.settings.fast_night and current_round(room.ruleset, room.state):
            self.enter_fast_round()
            return
        self._timed("night", self._seconds(room.settings.call_seconds), self.end_slot, bots=True)

    # --- the fast night (server/fast.py) -------------------------------------------------
    def enter_fast_round(self) -> None:
        """Every phone gets its task at once; one countdown; the round ends for everyone
        together, once all are done but never before the floor, or when time is up."""
        from nightcall.server.fast import FAST_FLOOR

        room = self.room
        seconds = self._seconds(room.settings.fast_seconds)
        gen = self._new_stage("night", seconds)
        self.floor_at = time.time() + FAST_FLOOR * seconds
        room.fast.active(room)  # a new round: nobody has tapped yet
        room.fast.move_bots(room, self.bots)
        room.changed()
        self._later(FAST_FLOOR * seconds, self.check_fast_round, gen)
        self._later(seconds, self.end_fast_round, gen)

    def check_fast_round(self, gen: int) -> None:
        room = self.room
        if gen == self.gen and time.time() >= self.floor_at - 1e-3 and room.fast.all_done(room):
            self.end_fast_round(gen)

    def end_fast_round(self, gen: int) -> None:
        if gen != self.gen:
            return
        room = self.room
        calls = room.fast.calls(room)
        room.fast.resolve(room)  # the buffered picks, in wake order, into the history
        room.clock.slot += len(calls)
        self.enter_slot()  # the next round, or the dawn

    def end_slot(self, gen: int) -> None:
        if gen != self.gen:
            return
        room = self.room
        room.pack.commit(room)  # Lupus: the wolves' last picks count when time is up
        room.end_call()  # whoever has not chosen gets the default; the next call opens
        room.clock.slot += 1
        self.enter_slot()

    # --- the day ------------------------------------------------------------------------
    def route(self) -> None:
        room = self.room
        if room.ruleset.is_over(room.state):
            self.finish()
        elif room.engine_phase() == "night":
            self.begin_night(room.clock.night + 1)
        else:
            self.enter_discussion()

    def enter_discussion(self) -> None:
        seconds = self._seconds(self.room.settings.discussion_seconds)
        gen = self._timed("discussion", seconds, self.end_discussion)
        for seat, bot in self.bots.items():  # bots that talk say their claims at dawn
            if isinstance(bot, TalkingBot):
                self._later(self.rng.uniform(0.1, 0.5) * seconds, self.bot_talk, seat, gen)

    def bot_talk(self, seat: int, gen: int) -> None:
        if gen != self.gen or self.room.status != "playing":
            return
        bot = self.bots[seat]
        if not isinstance(bot, TalkingBot):
            return
        for action in bot.talk(self.room.seat_view(seat)):
            with contextlib.suppress(RoomError):
                self.room.apply_move(seat, action)

    def end_discussion(self, gen: int) -> None:
        if gen == self.gen:
            self.enter_turns()

    def advance(self) -> None:
        """The host ends the discussion early (the day is public: nothing to hide)."""
        if self.room.clock.stage not in ("discussion", "defense"):
            raise RoomError("not_now", "there is no discussion to end")
        self.enter_turns()

    def pause(self) -> None:
        """The host stops the talk's clock (no deadline), or starts it again with the
        time that was left."""
        room = self.room
        c = room.clock
        if c.stage not in ("discussion", "defense"):
            raise RoomError("not_now", "there is no discussion to pause")
        if c.ends_at is not None:
            self.paused_left = max(0.0, c.ends_at - time.time())
            self._new_stage(c.stage, None)
            room.changed()
            return
        self._timed(c.stage, self.paused_left, self.end_discussion)

    def extend(self, seconds: float = 60.0) -> None:
        """The host gives the talk (or the defense) another minute."""
        room = self.room
        c = room.clock
        if c.stage not in ("discussion", "defense"):
            raise RoomError("not_now", "there is no discussion to extend")
        left = c.ends_at - time.time() if c.ends_at is not None else self.paused_left
        self._timed(c.stage, max(0.0, left) + self._seconds(seconds), self.end_discussion)

    def enter_defense(self) -> None:
        """Lupus: the Suspects speak in their defense before the execution vote."""
        self._timed("defense", self._seconds(self.room.settings.defense_seconds),
                    self.end_discussion)

    def enter_turns(self) -> None:
        room = self.room
        self.waiting_seen = set(room.ruleset.waiting_for(room.state))
        self._timed(room.turn_stage(), self._seconds(room.settings.vote_seconds),
                    self.end_turns, bots=True)

    def end_turns(self, gen: int) -> None:
        if gen != self.gen:
            return
        room = self.room
        room.end_call()  # who has not chosen in time gets the default move
        self.on_moved(room)  # the next turn, the night or the end, as after any move
        if self.gen == gen and not room.ruleset.is_over(room.state):
            self.enter_turns()  # the engine still waits on someone: a new turn

    def finish(self) -> None:
        room = self.room
        self._new_stage("over", None)
        room.status = "over"
        room.changed()
        log.info("room %s: game over", room.code)

    # --- moves --------------------------------------------------------------------------
    def on_moved(self, room: Room) -> None:
        """After every applied move: the next stage, or the bots' next choices."""
        c = room.clock
        if c.stage == "night" and room.fast.calls(room):
            self.check_fast_round(self.gen)  # a phone is done: maybe every phone is
            return
        if c.stage == "night":
            remaining = (c.ends_at or time.time()) - time.time()
            self.move_bots(remaining)
            return
        if c.stage not in DAY_STAGES:
            return
        if room.ruleset.is_over(room.state):
            self.finish()
        elif room.engine_phase() == "night":
            self.begin_night(c.night + 1)
        elif c.stage in TURN_STAGES:
            waiting = set(room.ruleset.waiting_for(room.state))
            turn = room.turn_stage()
            if turn != c.stage and turn == "execute" and room.settings.defense_seconds > 0:
                self.enter_defense()
            elif turn != c.stage or waiting - self.waiting_seen:
                self.enter_turns()  # someone new must act (Lupus' rounds): a fresh timer
            else:
                self.move_bots((c.ends_at or time.time()) - time.time())

    def move_bots(self, within: float) -> None:
        """Schedule a choice for every bot that has one to make now."""
        room = self.room
        if room.fast.calls(room):
            return  # the fast night's bots chose at the round's start
        for seat in room.ruleset.waiting_for(room.state):
            if seat in self.bots and seat not in self.pending:
                self.pending.add(seat)
                delay = self.rng.uniform(0.15, 0.6) * max(within, 0.0)
                self._later(delay, self.bot_move, seat, self.gen)

    def bot_move(self, seat: int, gen: int) -> None:
        self.pending.discard(seat)
        if gen != self.gen or self.room.status != "playing":
            return
        view = self.room.seat_view(seat)
        action = self.bots[seat].choose(view)
        if action is None:
            return
        # If the engine moved on meanwhile, the deadline's default covers the seat.
        with contextlib.suppress(RoomError):
            self.room.apply_move(seat, action)
