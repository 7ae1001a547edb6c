"""The fast night in a room (issue 18; docs/rulings.md, "The fast night", rules 19-22).

While a round of the fast night is open (engine.fast), every living seat has a task of
two stages: its role's real choices where the engine asks it (``fast.choices``), else a
decoy of the same kind ("tap the player you suspect", then "no second card"); a ghost
(Lupus) has none, is done from the start and is never waited for (rule 22). The
picks stay here, buffered and secret, until the round ends for everyone at once (every
phone done, never before the floor; or the countdown), then ``engine.fast.resolve_round``
applies them through the rules in wake order and the room keeps those moves in its
history like any other. Decoy answers are kept for nothing.

What a phone receives cannot tell its role: every seat's frame in a round is padded to
one width for the whole round (``width``), a phone gets a frame only at the round's
start and end and in answer to its own taps, and every phone has the same two stages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nightcall.engine import fast
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import PackVote

if TYPE_CHECKING:
    from nightcall.server.room import Room

# The decoy's two stages: a seat to suspect, then the "no second card" of a one-pick role.
SUSPECT = "suspect"
NO_SECOND = Action("no_second")
STAGES = 2
# Frames of a round are padded to a multiple of this many bytes, with one step to
# spare for the second stage's glimpse and choices.
PAD_STEP = 1024
# A round never ends before this share of its countdown, whoever is done: a quick
# Villager and a thinking Troublemaker must not be told apart by when the night ends.
FAST_FLOOR = 0.4


@dataclass
class FastRound:
    key: tuple[int, tuple[str, ...]] | None = None  # (night, the round's calls)
    picks: dict[int, list[Action]] = field(default_factory=dict)  # real picks, by seat
    taps: dict[int, int] = field(default_factory=dict)  # stages answered, by seat
    width: int = 0  # every seat frame of this round has this many bytes
    # (seat, its picks) -> its next choices and what its last pick showed it: the
    # engine plays the round on a copy to know them, once per stage.
    probes: dict[tuple[int, tuple[Action, ...]], tuple[tuple[Action, ...], list[Any]]] = \
        field(default_factory=dict)
    # A wolf's view of the pack's picks, as they stood when it made its first pick.
    pack_seen: dict[int, dict[str, int]] = field(default_factory=dict)

    # --- the round open now --------------------------------------------------------
    def calls(self, room: Room) -> tuple[str, ...]:
        """The round open now, in a fast room, while the clock is on the night."""
        if not room.settings.fast_night or room.state is None or room.clock.stage != "night":
            return ()
        return fast.current_round(room.ruleset, room.state)

    def active(self, room: Room) -> bool:
        calls = self.calls(room)
        if not calls:
            return False
        key = (room.clock.night, calls)
        if key != self.key:  # a new round: nobody has tapped yet
            self._reset(key)
        return True

    def _reset(self, key: tuple[int, tuple[str, ...]] | None) -> None:
        self.key, self.picks, self.taps, self.width, self.probes = key, {}, {}, 0, {}
        self.pack_seen = {}

    def _probe(self, room: Room, seat: int, made: tuple[Action, ...] | None = None
               ) -> tuple[tuple[Action, ...], list[Any]]:
        if made is None:
            made = tuple(self.picks.get(seat, ()))
        found = self.probes.get((seat, made))
        if found is None:
            rs, state = room.ruleset, room.state
            seen = fast.sight(rs, state, seat, made) if made else []
            found = self.probes[(seat, made)] = (fast.choices(rs, state, seat, made), seen)
        return found

    def _real(self, room: Room, seat: int) -> tuple[Action, ...]:
        return self._probe(room, seat)[0]

    # --- the pack (Lupus' werewolves agree on their victim: server/pack.py) ----------
    def _pack_kind(self, room: Room) -> str | None:
        rs = room.ruleset
        return rs.pack_action if isinstance(rs, PackVote) else None

    def _in_pack(self, room: Room, seat: int) -> bool:
        """Whether the seat's first stage is the pack's choice (a living wolf)."""
        kind = self._pack_kind(room)
        first = self._probe(room, seat, ())[0]
        return kind is not None and any(a.kind == kind for a in first)

    def _repick(self, room: Room, seat: int) -> bool:
        """A wolf's second stage: point again, having seen where the pack points (the
        victim they agree on; each wolf's last pick counts, as at a timed call)."""
        picks = self.picks.get(seat, [])
        return (self.taps.get(seat, 0) == 1 and len(picks) == 1
                and picks[0].kind == self._pack_kind(room) and not self._real(room, seat))

    def pack_picks(self, room: Room, seat: int) -> dict[str, int] | None:
        """At a wolf's second stage, the pack's picks as they stood when this wolf made
        its first: kept from that moment, so the frame that answers its own tap is the
        only one, and nothing reaches the wolves when another wolf taps."""
        return self.pack_seen.get(seat) if self._repick(room, seat) else None

    def _pack_now(self, room: Room) -> dict[str, int]:
        kind = self._pack_kind(room)
        return {str(s): p[0].a for s, p in self.picks.items()
                if p and p[0].kind == kind and self._in_pack(room, s)}

    def ghosts(self, room: Room) -> frozenset[int]:
        """The seats sitting the night out (Lupus' dead): no task, never waited for."""
        return fast.ghosts(room.ruleset, room.state)

    def options(self, room: Room, seat: int) -> tuple[Action, ...]:
        """The seat's choices at its stage now (real or decoy); empty once done, and
        always for a ghost (rule 22: eyes closed at night)."""
        ghosts = self.ghosts(room)
        if seat in ghosts:
            return ()
        stage = self.taps.get(seat, 0)
        if self._repick(room, seat):
            return self._probe(room, seat, ())[0]
        real = self._real(room, seat)
        if real:
            return real
        if stage == 0:
            # The living, as every real choice (the dead are greyed out on every phone).
            return tuple(Action(SUSPECT, s) for s in range(len(room.seats))
                         if s != seat and s not in ghosts)
        if stage < STAGES:
            return (NO_SECOND,)
        return ()

    def done(self, room: Room, seat: int) -> bool:
        return not self.options(room, seat)

    def all_done(self, room: Room) -> bool:
        return self.active(room) and all(self.done(room, s) for s in range(len(room.seats)))

    def task(self, room: Room, seat: int) -> dict[str, Any]:
        """What the seat's phone shows: its stage, and what its last real pick showed it
        at once (the Doppelgänger's copied card; nothing on every other phone). A ghost's
        is the same for every ghost: done from the start, nothing seen."""
        if seat in self.ghosts(room):
            return {"stage": 0, "done": True, "seen": [], "ghost": True}
        task = {"stage": min(self.taps.get(seat, 0), STAGES), "done": self.done(room, seat),
                "seen": self._probe(room, seat)[1]}
        pack = self.pack_picks(room, seat)
        if pack is not None:  # the panel shows the pack (its own pick may still change)
            task["pack_picks"], task["seen"] = pack, []
        return task

    # --- a tap -----------------------------------------------------------------------
    def holds(self, room: Room, seat: int, action: Action) -> bool:
        """Keep the seat's (checked) pick for the round; True if this is a fast round."""
        if not self.active(room) or not 0 <= seat < len(room.seats):
            return False
        if self._repick(room, seat):
            self.picks[seat] = [action]  # the wolf points again (maybe at the same one)
        elif action in self._real(room, seat):
            self.picks.setdefault(seat, []).append(action)
        self.taps[seat] = self.taps.get(seat, 0) + 1
        if self._repick(room, seat):
            self.pack_seen[seat] = self._pack_now(room)
        return True

    def move_bots(self, room: Room, bots: dict[int, Any]) -> None:
        """Each bot makes its stages at once (nobody sees a bot's phone)."""
        for seat, bot in bots.items():
            for _ in range(8):
                options = self.options(room, seat)
                if not options:
                    break
                view = {**room.ruleset.view(room.state, seat), "legal": [
                    a.to_json() for a in options]}
                choice = bot.choose(view)
                action = choice if choice in options else options[0]
                self.holds(room, seat, action)

    # --- the end of the round ------------------------------------------------------
    def resolve(self, room: Room) -> None:
        """Apply the buffered picks in wake order; every move goes into the history."""
        if not self.active(room):
            return
        picks = self.picks
        self._reset(None)
        moves = fast.resolve_round(room.ruleset, room.state, picks)
        room.actions.extend(moves)

    # --- the frames ---------------------------------------------------------------
    def pad(self, room: Room, data: bytes, viewer: int | None) -> bytes:
        """A seat's frame padded to the round's width (JSON allows trailing spaces)."""
        if viewer is None or viewer < 0 or not self.active(room):
            return data
        if not self.width:
            self.width = self._width(room)
        if len(data) > self.width:  # (never seen: one more step for everyone after)
            self.width = PAD_STEP * math.ceil(len(data) / PAD_STEP)
        return data + b" " * (self.width - len(data))

    def _width(self, room: Room) -> int:
        from nightcall.server.messages import encode

        longest = max(len(encode(room.observation(s))) for s in range(len(room.seats)))
        return PAD_STEP * (math.ceil(longest / PAD_STEP) + 1)
