"""Lupus: the werewolves agree on their victim on their phones.

The rule: awake together, the werewolves "point at one victim" (rulebook, role
table); at a real table a wolf who sees a partner point elsewhere points again until
they agree. On phones a wolf's pick is therefore a draft that the pack sees and that
its wolf may change, and it reaches the rules only when every living wolf points at
the same player, or when the call's time runs out (then each wolf's last pick
counts, and the rules settle a split as ever: docs/rulings.md, "The werewolves'
victim"). The engine and the record see final picks only, so a game still replays
from its record. Drafts are shown to the pack alone (``show``): nothing outside the
pack changes while the wolves make up their minds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nightcall.engine.actions import Action
from nightcall.engine.ruleset import PackVote

if TYPE_CHECKING:
    from nightcall.server.room import Room

class PackDraft:
    def __init__(self) -> None:
        self.call: tuple[int, int] | None = None  # (night, slot) of the wolves' call
        self.picks: dict[int, int] = {}  # seat -> target, in the order last made

    def _pack(self, room: Room) -> tuple[int, ...]:
        """The living wolves of this call, while the clock shows the wolves' call."""
        c, rs = room.clock, room.ruleset
        if (not isinstance(rs, PackVote) or room.state is None or c.stage != "night"
                or room.open_call() != rs.pack_call):
            return ()
        key = (c.night, c.slot)
        if key != self.call:
            self.call, self.picks = key, {}
        return rs.pack(room.state)

    def _made(self, room: Room) -> dict[int, int]:
        """The picks the rules already hold (bots choose once and for all)."""
        rs = room.ruleset
        if not isinstance(rs, PackVote) or room.state is None:
            return {}
        return {seat: action.a for seat, action in rs.pack_picks(room.state).items()}

    @staticmethod
    def _kind(room: Room) -> str:
        rs = room.ruleset
        return rs.pack_action if isinstance(rs, PackVote) else ""

    def holds(self, room: Room, seat: int, action: Action) -> bool:
        """Keep a wolf's (checked) pick as a draft; True if it was kept. Once the whole
        pack points at one player, every draft goes to the rules."""
        pack = self._pack(room)
        if not pack or action.kind != self._kind(room) or seat not in pack:
            return False
        self.picks.pop(seat, None)
        self.picks[seat] = action.a
        made = self._made(room)
        targets = {self.picks.get(s, made.get(s)) for s in pack}
        if len(targets) == 1 and None not in targets:
            self.commit(room)
        else:
            room.changed()  # the pack sees the new pick; every other view is unchanged
        return True

    def commit(self, room: Room) -> None:
        """Give the rules each waiting wolf's last pick (the call ends, or they agree)."""
        if not self._pack(room):
            self.picks = {}
            return
        picks, self.picks = self.picks, {}
        waiting = set(room.ruleset.waiting_for(room.state))
        for seat, target in picks.items():
            if seat in waiting:
                room.apply_move(seat, Action(self._kind(room), target))

    def show(self, room: Room, viewer: int | None, view: dict[str, Any]) -> dict[str, Any]:
        """A wolf's view with the pack's picks as they stand (drafts and final ones)."""
        pack = self._pack(room) if viewer is not None else ()
        if viewer not in pack:
            return view
        picks = {**self._made(room), **self.picks}
        return {**view, "pack_picks": {str(s): t for s, t in picks.items() if s in pack}}
