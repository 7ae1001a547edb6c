"""Who may know what in Lupus in Tabula (lupus-in-tabula.md, "Gameplay", "Variants";
docs/rulings.md (Lupus in Tabula)):

- every player knows their own card, and nothing of anybody else's; a ghost keeps
  what it knew but learns nothing more at night (its eyes stay closed);
- the living Werewolves see each other (not the Possessed) when their call begins, see
  each other point, and learn the victim the pack settled on;
- the Seer learns "werewolf or not" of the player it pointed at, as that player is now;
- the Medium learns "werewolf or not" of the player executed the day before;
- the Bodyguard, the Harlot, the Owl know their own pick; the Freemasons see each other
  on the first night; the Mythomaniac learns whether it will become a Werewolf or the
  Seer, and from the third night is that role (it knows, nobody else does);
- deaths at dawn (never why), accusations, suspects, ballots once counted, executions
  are public; every card and the outcome once the game is over;
- the Master's own records (the deal, causes of death, the transformation) reach nobody.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from nightcall.audit.base import (
    Fact,
    Problems,
    SeatModel,
    Viewer,
    exact_keys,
    seats,
)
from nightcall.audit.core import GameConfig
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import Rules
from nightcall.rulesets.lupus.state import LupusState

MOVES = {"bodyguard": {"protect"}, "harlot": {"visit", "stay_home"}, "werewolf": {"kill"},
         "seer": {"see"}, "owl": {"mark"}, "mythomaniac": {"imitate"}}
CALL_ORDER = ("medium", "bodyguard", "harlot", "werewolf", "seer", "owl", "freemason",
              "mythomaniac")
FIRST_NIGHT = {"medium": 2, "bodyguard": 2, "mythomaniac": 2}
ONLY_NIGHT = {"freemason": 1, "mythomaniac": 2}
PUBLIC_EVENTS = {
    "night": ("night",), "call": ("role", "night"), "dawn": ("night", "dead", "last"),
    "accusation": ("day", "order", "owl"), "last": ("seat",), "accuse": ("seat", "target"),
    "suspects": ("seats",), "votes": ("votes",), "executed": ("day", "seat"),
}
END_EVENTS = {"reveal": ("cards",), "over": ("teams", "winners")}
PRIVATE_EVENTS = {
    "deal": ("seat", "card"), "wolves": ("seats",), "freemasons": ("seats",),
    "wolf_pick": ("seat", "target"), "victim": ("seat",), "medium": ("seat", "werewolf"),
    "seen": ("seat", "werewolf"), "protect": ("seat",), "visit": ("seat",), "mark": ("seat",),
    "imitate": ("seat", "becomes"),
}


@cache
def calls_for(deck: frozenset[str], night: int) -> tuple[str, ...]:
    """Every role in the deck is called on each night it is due, dead or alive."""
    return tuple(c for c in CALL_ORDER if c in deck and night >= FIRST_NIGHT.get(c, 1)
                 and ONLY_NIGHT.get(c, night) == night)


@dataclass(frozen=True)
class Snap:
    night: int
    call_i: int
    night_phase: bool
    last: int


class LupusModel(SeatModel):
    PUBLIC_FIELDS = frozenset({"ruleset", "phase", "night", "day", "stage", "players", "alive",
                               "ghosts", "roles_in_play", "call", "last_to_die",
                               "accusation_order", "accuser", "suspects", "voted", "executed",
                               "events"})
    SEAT_FIELDS = frozenset({"seat", "role", "ghost", "legal"})

    def __init__(self, state: LupusState) -> None:
        st = state
        super().__init__(st.n, st.names, st.start)
        self.roles = list(self.start)
        self.deck = frozenset(self.start)
        self.alive = [True] * self.n
        self.night_alive: list[bool] = []
        self.night = 0
        self.begun = -1  # the calls of ``self.night`` begun so far (index of the last)
        self.picks: list[tuple[int, Action]] = []  # this call's choices, told at its end
        self.picked: set[int] = set()
        self.myth: tuple[int, str] | None = None
        self.executed_role: dict[int, str] = {}
        self.executed: list[int] = []
        self.voted: set[int] = set()
        self.ballots: dict[int, int | None] = {}
        self.counted: list[list[tuple[int, int | None]]] = []  # each execution's ballots
        self._follow(state)

    def snapshot(self, state: LupusState) -> Snap:
        return Snap(state.night, state.call_i, state.phase == 0, state.last)

    # --- following the game ---------------------------------------------------------
    def calls(self) -> tuple[str, ...]:
        return calls_for(self.deck, self.night)

    def living_with(self, role: str) -> list[int]:
        return [s for s in range(self.n) if self.roles[s] == role and self.night_alive[s]]

    def step(self, seat: int, action: Action, before: Snap, state: LupusState) -> None:
        kind = action.kind
        if before.night_phase:
            self.picks.append((seat, action))
            self.picked.add(seat)
            if kind == "kill":  # awake together, the pack sees each other point
                pack = self.living_with("werewolf")
                self.k.tell_all(pack, "wolf_pick", seat, action.a)
            # The call's choices are all made: the engine has moved on, or (on a clock)
            # holds the call open with every chooser done.
            if (state.phase != 0 or state.night != before.night
                    or state.call_i != before.call_i
                    or (state.actors and set(state.actors) <= set(state.picks))):
                self._finish(self.calls()[before.call_i], before)
        elif kind in ("accuse", "no_accusation"):
            self.voted = set()
            self.ballots = {}
        else:
            self.voted.add(seat)
            self.ballots[seat] = action.a if kind == "execute" else None
        self._follow(state)

    def master_step(self, name: str, before: Snap, state: LupusState) -> None:
        self._follow(state)

    def _finish(self, call: str, before: Snap) -> None:
        """The end of a call with choices: each chooser learns what its call tells."""
        picks, self.picks, self.picked = self.picks, [], set()
        if call == "werewolf":
            tally = Counter(a.a for _, a in picks)
            victim = min(tally, key=lambda t: (-tally[t], (t - before.last - 1) % self.n))
            self.k.tell_all(self.living_with("werewolf"), "victim", victim)
            return
        for seat, a in picks:
            if call == "seer":
                self.k.tell(seat, "seen", a.a, self.roles[a.a] == "werewolf")
            elif call == "mythomaniac":
                role = self.roles[a.a]
                becomes = role if role in ("werewolf", "seer") else None
                if becomes is not None:
                    self.myth = (seat, becomes)
                self.k.tell(seat, "imitate", a.a, becomes)
            elif call == "harlot":
                self.k.tell(seat, "visit", a.a if a.a >= 0 else None)
            else:
                self.k.tell(seat, {"bodyguard": "protect", "owl": "mark"}[call], a.a)

    def _follow(self, state: LupusState) -> None:
        """Deaths, executions, a new night and the beginnings of the calls it reached."""
        for s in range(self.n):
            if self.alive[s] and not state.alive[s]:
                self.alive[s] = False
        for s in state.executed[len(self.executed):]:
            self.executed.append(s)
            self.executed_role[s] = self.roles[s]
            self.counted.append(sorted(self.ballots.items()))
        if state.phase == 2:
            self.over = True
        if state.night > self.night:  # a night began in this step (at most one does)
            self.night = state.night
            self.begun = -1
            if self.night >= 3 and self.myth is not None:
                seat, role = self.myth
                self.myth = None
                if self.alive[seat]:
                    self.roles[seat] = role
            self.night_alive = list(self.alive)
        reached = state.call_i if state.phase == 0 else len(self.calls()) - 1
        if state.phase == 0 and state.call is None:
            reached = -1  # at dusk, on a clock: no call has begun
        calls = self.calls()
        while self.begun < reached:
            self.begun += 1
            self._begin(calls[self.begun])

    def _begin(self, call: str) -> None:
        if call == "medium" and self.executed:
            was = self.executed[-1]
            wolf = self.executed_role[was] == "werewolf"
            self.k.tell_all(self.living_with("medium"), "medium", was, wolf)
        elif call == "freemason":
            masons = self.living_with("freemason")
            self.k.tell_all(masons, "freemasons", seats(masons))
        elif call == "werewolf":
            pack = self.living_with("werewolf")
            self.k.tell_all(pack, "wolves", seats(pack))

    # --- checking a view --------------------------------------------------------------
    def check(self, viewer: Viewer, view: dict[str, Any]) -> Problems:
        pack = view.get("pack_picks")
        out: Problems = self._check_pack(viewer, view, pack) if pack is not None else []
        if pack is not None:
            view = {k: v for k, v in view.items() if k != "pack_picks"}
        out += self.check_top(viewer, view)
        if view.get("players") != self.names or view.get("roles_in_play") != sorted(self.start):
            out.append(("leak", "players or roles in play differ from the public deck"))
        alive = [self.names[s] for s in range(self.n) if self.alive[s]]
        shown = view.get("alive") or []
        if shown != alive:
            out.append(("leak", f"'alive' is {view.get('alive')}, the table saw {alive}"))
        if viewer is not None:
            roles = {self.roles[viewer], self.start[viewer]} if self.over \
                else {self.roles[viewer]}
            if view.get("role") not in roles:
                out.append(("leak", f"'role' is {view.get('role')!r}, the seat holds "
                                    f"{self.roles[viewer]!r}"))
            ghost = view.get("ghost")
            if ghost != (not self.alive[viewer]):
                out.append(("leak", "'ghost' does not match the public deaths"))
        got, _, problems = self.reader.read(viewer, view.get("events", []), self._read)
        out.extend(("leak", p) for p in problems)
        out.extend(self.k.compare(viewer, got))
        out.extend(self.check_moves(viewer, view))
        return out

    def _check_pack(self, viewer: Viewer, view: dict[str, Any], pack: Any) -> Problems:
        """The server's werewolves' picks (server/pack.py): only to a living werewolf at
        the wolves' call, naming living werewolves who point at living players."""
        wolves = {s for s in range(self.n) if self.roles[s] == "werewolf"
                  and self.alive[s]}
        if (viewer not in wolves or view.get("phase") != "night"
                or view.get("call") != "werewolf" or not isinstance(pack, dict)):
            return [("leak", f"'pack_picks' {pack!r} shown to seat {viewer} outside the "
                             "werewolves' call")]
        bad = {k: v for k, v in pack.items() if not (k.isdigit() and int(k) in wolves
               and isinstance(v, int) and 0 <= v < self.n)}
        return [("leak", f"'pack_picks' names more than the pack's picks: {bad}")] if bad else []

    def _read(self, e: dict[str, Any], got: Counter[Fact], extra: list[object]) -> str | None:
        kind = e.get("kind")
        if kind in PRIVATE_EVENTS:
            fields = PRIVATE_EVENTS[kind]
            values = [e.get(f) for f in fields]
            if kind in ("wolves", "freemasons"):
                values = [seats(values[0] or [])]
            got[(kind, *values)] += 1
            return exact_keys(e, *fields)
        if kind == "votes":  # the ballots of an execution, once counted, as cast
            extra.append(kind)
            i = extra.count("votes") - 1
            shown = sorted((v, t) for v, t in e.get("votes") or [])
            if i >= len(self.counted):
                return "ballots shown before they were counted"
            if shown != self.counted[i]:
                return f"ballots {shown} are not those cast {self.counted[i]}"
            return exact_keys(e, "votes")
        if kind in PUBLIC_EVENTS:
            if kind == "call" and e.get("role") not in calls_for(self.deck, e.get("night", 0)):
                return f"call of {e.get('role')!r} on night {e.get('night')}: not due"
            return exact_keys(e, *PUBLIC_EVENTS[kind])
        if kind in END_EVENTS:
            if not self.over:
                return f"{kind!r} before the game is over"
            if kind == "reveal" and e.get("cards") != self.roles:
                return f"the revealed cards {e.get('cards')} are not the cards held"
            return exact_keys(e, *END_EVENTS[kind])
        return f"event kind {kind!r} that the rules do not explain"

    def expected_moves(self, viewer: int, view: Mapping[str, Any]) -> set[str]:
        expected: set[str] = set()
        if view.get("phase") == "night":
            call = view.get("call")
            if call in MOVES and viewer in self.living_with(call) and viewer not in self.picked:
                expected = MOVES[call]
        elif view.get("phase") == "day":
            if view.get("stage") == "accuse" and view.get("accuser") == self.names[viewer]:
                expected = {"accuse", "no_accusation"}
            suspects = view.get("suspects") or []
            if (view.get("stage") == "execute" and self.alive[viewer]
                    and self.names[viewer] not in suspects and viewer not in self.voted):
                expected = {"execute", "abstain"}
        return expected


# --- the games the audit plays (Ruleset.audit_games) ---------------------------------

SIZES = (7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 23)


def games(rs: Rules, rng: random.Random, sizes: tuple[int, ...] = SIZES
          ) -> Iterator[GameConfig]:
    """The table deck ("base") and every extra role the count allows ("extra")."""
    while True:
        players = rng.choice(sizes)
        scenario = rng.choice(["base", "extra"])
        roles = rs.default_deck(players, scenario)
        yield GameConfig(rs.id, players, roles, rng.randrange(2**31), f"{rs.id}/{scenario}")
