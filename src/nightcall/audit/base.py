"""What the three knowledge models share: per-viewer sets of facts, reading a view's
events back into facts, and the comparison that names leaks and omissions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from nightcall.engine.actions import Action
from nightcall.engine.ruleset import TALK_KINDS

Viewer = int | None
Fact = tuple[object, ...]  # (hashable values compared, never looked into)
Problems = list[tuple[str, str]]


def seats(values: Iterable[int]) -> tuple[int, ...]:
    """A list of seats as a fact: the order an event lists them in is no secret."""
    return tuple(sorted(values))


class Knowledge:
    """For each viewer, the private facts the rules have told it so far (a multiset:
    a seat that looks twice at the same card was told twice)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.facts: dict[Viewer, Counter[Fact]] = {v: Counter() for v in (*range(n), None)}

    def tell(self, who: int, *fact: object) -> None:
        self.facts[who][fact] += 1

    def tell_all(self, group: Iterable[int], *fact: object) -> None:
        for who in group:
            self.facts[who][fact] += 1

    def compare(self, viewer: Viewer, got: Counter[Fact]) -> Problems:
        may = self.facts[viewer]
        if got == may:  # the usual case, at C speed
            return []
        out: Problems = []
        for fact, count in (got - may).items():
            out.append(("leak", f"{_show(fact)} (x{count}) is not something this viewer "
                                "may know now"))
        for fact, count in (may - got).items():
            out.append(("missing", f"{_show(fact)} (x{count}) was told by the rules but "
                                   "is not in the view"))
        return out


def _show(fact: Fact) -> str:
    return "(" + ", ".join(repr(x) for x in fact) + ")"


def exact_keys(event: Mapping[str, object], *allowed: str) -> str | None:
    """A field the event kind never carries is a leak by itself (fail closed)."""
    extra = set(event) - {"kind", *allowed}
    missing = {*allowed} - set(event)
    if extra:
        return f"event {event.get('kind')!r} carries unexpected fields {sorted(extra)}"
    if missing:
        return f"event {event.get('kind')!r} lacks fields {sorted(missing)}"
    return None


def check_top(view: Mapping[str, object], viewer: Viewer, public: set[str],
              seat_only: set[str]) -> Problems:
    """The view's top-level fields: a seat gets ``public | seat_only``, a spectator
    ``public`` (minus ``outcome`` unless over, checked by the caller)."""
    allowed = public | (seat_only if viewer is not None else set())
    extra = set(view) - allowed - {"outcome"}
    out: Problems = []
    if extra:
        out.append(("leak", f"unexpected view fields {sorted(extra)}"))
    if viewer is not None and view.get("seat") != viewer:
        out.append(("leak", f"the view names seat {view.get('seat')!r}, not the viewer"))
    return out


def legal_of(view: Mapping[str, Any]) -> list[Action]:
    return [Action.from_json(a) for a in view.get("legal") or []]


ReadOne = Callable[[dict[str, Any], Counter[Fact], list[object]], str | None]


class EventReader:
    """Reads each viewer's events once: a view's event list only grows, so the part
    read before is compared as a whole (C speed) and only the new tail is interpreted.
    If the old part changed, everything is read again."""

    def __init__(self) -> None:
        self._cache: dict[Viewer, tuple[list[dict[str, Any]], Counter[Fact], list[object]]] = {}

    def read(self, viewer: Viewer, events: list[dict[str, Any]],
             read_one: ReadOne) -> tuple[Counter[Fact], list[object], list[str]]:
        """The facts read so far, the ordered extras (One Night claims), and the problems
        of the events not read before."""
        old = self._cache.get(viewer)
        if old is not None and events[: len(old[0])] == old[0]:
            start, got, extra = len(old[0]), old[1], old[2]
        else:
            start, got, extra = 0, Counter(), []
        problems = []
        for e in events[start:]:
            problem = read_one(e, got, extra)
            if problem:
                problems.append(problem)
        self._cache[viewer] = (list(events), got, extra)
        return got, extra, problems


class SeatModel:
    """Where every model starts: the table, each seat told the card it was dealt (all it
    knows at first), and a reader for the events a view shows."""

    PUBLIC_FIELDS: frozenset[str] = frozenset()  # a view's fields anybody may see
    SEAT_FIELDS: frozenset[str] = frozenset()  # and those a seat's own view adds

    def __init__(self, n: int, names: Iterable[str], start: Iterable[str]) -> None:
        self.n = n
        self.names = list(names)
        self.start: tuple[str, ...] = tuple(start)
        self.k = Knowledge(n)
        for s in range(n):
            self.k.tell(s, "deal", s, self.start[s])
        self.over = False
        self.reader = EventReader()

    def check_top(self, viewer: Viewer, view: Mapping[str, Any]) -> Problems:
        """The view's top-level fields, and an outcome exactly once the game is over."""
        out = check_top(view, viewer, set(self.PUBLIC_FIELDS), set(self.SEAT_FIELDS))
        if ("outcome" in view) != self.over:
            out.append(("leak" if not self.over else "missing",
                        "outcome before the end" if not self.over else "no outcome at the end"))
        return out

    def check_moves(self, viewer: Viewer, view: Mapping[str, Any]) -> Problems:
        """Legal moves go only to a seat the rules ask to act now, and only the moves of
        the call that is open (``expected_moves``; empty: the rules ask it nothing)."""
        legal = legal_of(view)
        if viewer is None or not legal:
            return []
        expected = self.expected_moves(viewer, view)
        if not expected:
            return [("leak", f"legal moves {[str(a) for a in legal]} for a seat the rules "
                             "do not ask to act now")]
        bad = [str(a) for a in legal if a.kind not in expected]
        return [("leak", f"legal moves {bad} are not moves of this call")] if bad else []

    def expected_moves(self, viewer: int, view: Mapping[str, Any]) -> set[str] | frozenset[str]:
        raise NotImplementedError


class NightSnap(Protocol):
    @property
    def cards(self) -> tuple[str, ...]: ...
    @property
    def call(self) -> str | None: ...


class NightState(Protocol):
    @property
    def call_i(self) -> int: ...
    @property
    def call(self) -> str | None: ...
    @property
    def phase(self) -> int: ...


SnapT = TypeVar("SnapT", bound=NightSnap)
StateT = TypeVar("StateT", bound=NightState)


class OneNightFamilyModel(SeatModel, Generic[SnapT, StateT]):
    """One Night and Epic Battle: one night of calls, then talk and a single vote. Claims
    are public as they are made; the game is over once every seat voted."""

    game = ""  # named in the error for a master move
    role_ids: tuple[str, ...] = ()  # claims name roles by their index here

    def __init__(self, n: int, names: Iterable[str], start: Iterable[str],
                 cards: Iterable[str], schedule: Iterable[str]) -> None:
        super().__init__(n, names, start)
        self.deck = sorted(cards)  # the roles in play: public
        self.schedule: tuple[str, ...] = tuple(schedule)
        self.votes: dict[int, int | None] = {}
        self.claims: list[dict[str, Any]] = []
        self.begun = 0  # calls whose beginning has been played

    def check_table(self, view: Mapping[str, Any]) -> Problems:
        """The public table: the players, the roles in play, a call of this deck, and
        who has voted so far."""
        out: Problems = []
        if view.get("players") != self.names or view.get("roles_in_play") != self.deck:
            out.append(("leak", "players or roles in play differ from the public deck"))
        if view.get("call") not in (None, *self.schedule):
            out.append(("leak", f"call {view.get('call')!r} is not a call of this deck"))
        voted = [self.names[s] for s in range(self.n) if s in self.votes]
        shown = view.get("voted") or []
        if shown != voted:
            out.append(("leak", f"'voted' lists {view.get('voted')}, the table saw {voted}"))
        return out

    def master_step(self, name: str, before: SnapT, state: StateT) -> None:
        if name != "end_call":
            raise AssertionError(f"{self.game} has no master moves")
        self._catch_up(state)  # the clock ended a call: the next one begins

    def step(self, seat: int, action: Action, before: SnapT, state: StateT) -> None:
        if action.kind in TALK_KINDS:
            self.claims.append(self._claim(seat, action))
        elif before.call is None:
            self.votes[seat] = action.a if action.kind == "vote" else None
            self.over = len(self.votes) == self.n
        else:
            self._night(seat, action, before)
        self._catch_up(state)

    def _claim(self, seat: int, action: Action) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": seat}
        if action.kind == "claim":
            data["role"] = self.role_ids[action.a]
        elif action.kind == "claim_saw":
            data["saw"], data["role"] = action.a, self.role_ids[action.b]
        else:
            data["swapped"] = [action.a, action.b]
        return data

    def _night(self, seat: int, action: Action, before: SnapT) -> None:
        raise NotImplementedError

    def _catch_up(self, state: StateT) -> None:
        """Play the beginnings of the calls the night has reached (they need no choice)."""
        # (at dusk, on a clock, no call has begun: phase 0 with no call)
        reached = state.call_i + 1 if state.call is not None else \
            0 if state.phase == 0 else len(self.schedule)
        while self.begun < reached:
            self._begin(self.schedule[self.begun], state)
            self.begun += 1

    def _begin(self, call: str, state: StateT) -> None:
        raise NotImplementedError
