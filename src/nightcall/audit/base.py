"""What the three knowledge models share: per-viewer sets of facts, reading a view's
events back into facts, and the comparison that names leaks and omissions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from nightcall.engine.actions import Action

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
