"""The night replayed (issue 18): a finished game's steps, drawn from its record alone.

The record is replayed by its own ruleset (the one place that knows the rules); the
steps are then read off the event log that replay wrote, in the order things happened,
and the table (which card lies where, which token in front of whom, who is dead) is
carried along by following the events that move something. Nothing here decides a rule:
a swap is where the engine says it swapped, a look shows the card the engine says was
seen. The final table is checked against the engine's own reveal (the tests do it for
every stored record), and the reveal is what the last step shows.

Positions, as the engine numbers them: seats ``0..n-1`` clockwise, then the center
cards left to right, then the Epic extra card beside the center (the Alpha Wolf's).

The replay is for the end of a game only: every secret is in it. A step's ``seen_by``
says who saw it *during play* (the event's audience), so a phone can mark its own
steps; it is not a filter, because after the end everything is public.
"""

from __future__ import annotations

from collections.abc import Mapping

from nightcall.engine import records
from nightcall.engine.events import EVERYONE, MASTER, Audience, Event
from nightcall.engine.jsontype import JSON, JSONObject

# Events that repeat another (the master's copy of an artifact drawn, the judge's
# causes, the end marker) or that the table picture already shows (the deal).
SKIPPED = frozenset({"deal", "causes", "over", "artifact_drawn"})

# What a step looks like on the table: the eye of a look, cards moving, a token passing,
# a player pointed at (Lupus night choices, day votes), or just words.
LOOK, SWAP, TOKEN, POINT, CALL, INFO, REVEAL = (
    "look", "swap", "token", "point", "call", "info", "reveal")


def replay_steps(record: Mapping[str, JSON]) -> JSONObject:
    """The replay of a record: its table at the deal and one step per event, in order.

    Raises :class:`~nightcall.engine.errors.RecordError` (naming the step) for a record
    the ruleset refuses, exactly as ``nightcall replay`` does."""
    ruleset, state = records.replay(record)
    players = list(records.players_of(record))
    n = len(players)
    log: list[Event] = list(state.log)
    deal = next((e for e in log if e.kind == "deal" and e.audience == MASTER), None)
    cards: list[str] = list(deal.data["cards"]) if deal else []
    tokens: list[str] | None = list(deal.data["tokens"]) if deal and "tokens" in deal.data \
        else None
    table = _Table(n, cards, tokens)
    start = table.snapshot()
    steps: list[JSONObject] = []
    night, phase, call = 0, "night", None
    called = False  # did the current call get a step of its own yet
    for e in log:
        kind = e.kind
        if kind == "night":
            night, phase, call = e.data.get("night", night + 1), "night", None
        elif kind == "call":
            if call is not None and not called:
                steps.append(_step(table, night, phase, call, CALL, None, EVERYONE, [], []))
            if night == 0:
                night = 1
            call, called = str(e.data.get("role") or e.data.get("call")), False
            continue
        elif kind == "dawn":
            if call is not None and not called:
                steps.append(_step(table, night, phase, call, CALL, None, EVERYONE, [], []))
            call, phase = None, "day"
        if kind in SKIPPED:
            continue
        shape, where, moves = table.apply(e, call is not None)
        steps.append(_step(table, max(night, 1), phase if kind != "reveal" else "end",
                           call, shape, e, e.audience, where, moves))
        called = True
    outcome = ruleset.outcome_json(state)
    return {
        "ruleset": ruleset.id,
        "title": ruleset.title,
        "players": players,
        "center": min(3, len(cards) - n),  # one-night games: 3; Lupus: none
        "extra": len(cards) - n > 3,  # the Epic extra card is the last position
        "start": start,
        "steps": steps,
        "outcome": outcome,
        "record": dict(record),
    }


class _Table:
    """Cards by position, tokens by seat, and the dead, moved only as events say."""

    def __init__(self, n: int, cards: list[str], tokens: list[str] | None) -> None:
        self.n = n
        self.cards = cards
        self.tokens = tokens
        self.dead: list[int] = []
        self.faceup: list[int] = []  # positions turned face up for everyone (Enlightener)
        self.artifacts: dict[int, str] = {}

    def snapshot(self) -> JSONObject:
        return {"cards": list(self.cards), "tokens": None if self.tokens is None
                else list(self.tokens), "dead": list(self.dead),
                "faceup": list(self.faceup),
                "artifacts": {str(k): v for k, v in sorted(self.artifacts.items())}}

    def apply(self, e: Event, at_night: bool) -> tuple[str, list[int], list[list[int]]]:
        """Follow one event: its shape, the positions it touches, the cards it moves
        (``[from, to]`` pairs: the card at ``from`` before the step lies at ``to``)."""
        d, n = e.data, self.n
        actor = _only(e.audience)
        kind = e.kind
        if kind == "saw":
            pos = d["seat"] if "seat" in d else n + d["center"]
            return LOOK, [pos], []
        if kind in ("seen", "medium"):
            return LOOK, [d["seat"]], []
        if kind in ("saw_token", "token"):
            return LOOK, [d["seat"]], []
        if kind == "swapped":
            seats = d.get("seats") or ([d["seat"]] if "seat" in d else [actor])
            if d.get("extra"):
                a, b = seats[0], len(self.cards) - 1
            elif "center" in d:
                a, b = seats[0], n + d["center"]
            else:
                a, b = seats[0], seats[1]
            self.cards[a], self.cards[b] = self.cards[b], self.cards[a]
            return SWAP, [a, b], [[a, b], [b, a]]
        if kind == "swapped_tokens" and self.tokens is not None:
            a, b = d["seats"]
            self.tokens[a], self.tokens[b] = self.tokens[b], self.tokens[a]
            return TOKEN, [a, b], [[a, b], [b, a]]
        if kind in ("gave_token", "bitten") and self.tokens is not None:
            seats = d.get("seats") or [d["seat"]]
            for s in seats:
                self.tokens[s] = "vampire" if kind == "bitten" else d["token"]
            return TOKEN, list(seats), []
        if kind == "placed_artifact":
            return TOKEN, [d["seat"]], []
        if kind == "artifact" and actor is not None:
            self.artifacts[actor] = d["artifact"]
            return TOKEN, [actor], []
        if kind == "revealed":
            where = [int(s) for s in d.get("cards", {})]
            self.faceup += [p for p in where if p not in self.faceup]
            return LOOK, where, []
        if kind == "concealed":
            self.faceup = [p for p in self.faceup if p != d["seat"]]
            return LOOK, [d["seat"]], []
        if kind == "dawn":
            dead = [s for s in d.get("dead") or [] if s not in self.dead]
            self.dead += dead
            return INFO, dead, []
        if kind == "executed":
            self.dead.append(d["seat"])
            return POINT, [d["seat"]], []
        if kind == "died":
            gone = [s for s, _ in d["deaths"]]
            self.dead += [s for s in gone if s not in self.dead]
            return INFO, gone, []
        if kind == "reveal":
            # The engine's own final table: the truth the last step shows.
            self.cards = list(d["cards"])
            if self.tokens is not None and d.get("tokens"):
                self.tokens = list(d["tokens"])
            return REVEAL, list(range(len(self.cards))), []
        if kind in ("wolf_pick", "accuse"):
            target = d.get("target")
            return POINT, [target] if isinstance(target, int) and target >= 0 else [], []
        if kind in ("victim", "protect", "mark", "tapped", "imitate") and "seat" in d:
            return POINT, [d["seat"]] if d["seat"] is not None else [], []
        if kind == "visit":
            return POINT, [] if d["seat"] is None else [d["seat"]], []
        if kind in ("wolves", "masons", "freemasons", "lovers", "vampires", "thumbs",
                    "suspects"):
            return INFO, list(d.get("seats", [])), []
        return INFO, [], []


def _only(audience: Audience) -> int | None:
    """The one seat an event was for, if it was for exactly one."""
    if isinstance(audience, frozenset) and len(audience) == 1:
        seat: int = next(iter(audience))
        return seat
    return None


def _step(table: _Table, night: int, phase: str, call: str | None, shape: str,
          e: Event | None, audience: Audience, where: list[int],
          moves: list[list[int]]) -> JSONObject:
    seen_by: str | list[int] = (sorted(audience) if isinstance(audience, frozenset)
                                else str(audience))
    return {
        "night": max(night, 1),
        "phase": phase,
        "call": call,
        "shape": shape,
        "event": None if e is None else {"kind": e.kind, **e.data},
        "seen_by": seen_by,
        "where": where,
        "moves": moves,
        "table": table.snapshot(),
    }
