"""Moonlight: a fourth ruleset, defined here and nowhere else, to prove that nightcall
takes a new game without a change outside this folder (docs/architecture.md).

The rules, in full:

- 3 to 6 players; every card is dealt (no center). The deck has exactly one Werewolf,
  at most one Seer, and Villagers.
- Night: the Werewolf is called and wakes alone (nothing to do); then the Seer is
  called and may look at one other player's card.
- Day: everyone votes for another player (or abstains). A player with at least two
  votes and the most votes dies (ties: all of them). The village wins if the
  Werewolf dies; otherwise the Werewolf wins.

A record: ``{"ruleset": "moonlight", "players": [...], "cards": {name: role},
"steps": [{"call": "seer", "player": A, "look": B}, {"votes": {A: B, ...}}]}``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from nightcall.audit.base import Knowledge, Problems, Viewer, check_top, exact_keys
from nightcall.engine import records
from nightcall.engine.actions import Action
from nightcall.engine.clock import CLOCK_SEAT, DUSK, END_CALL, default_move, defaults_rng
from nightcall.engine.errors import DeckError, IllegalAction, RecordError
from nightcall.engine.events import EVERYONE, MASTER, Event, visible_json, visible_to
from nightcall.engine.events import Viewer as EngineViewer
from nightcall.engine.outcome import Death, Outcome, why
from nightcall.engine.ruleset import MoveFn, Ruleset
from nightcall.engine.words import Words

WEREWOLF, SEER, VILLAGER = "werewolf", "seer", "villager"
ROLE_IDS = (WEREWOLF, SEER, VILLAGER)
CALL_ORDER = (WEREWOLF, SEER)
NIGHT, DAY, OVER = "night", "day", "over"
SKIP, ABSTAIN = Action("skip"), Action("abstain")


@dataclass
class MoonState:
    names: tuple[str, ...]
    start: tuple[str, ...]
    calls: tuple[str, ...]
    phase: str = NIGHT
    call_i: int = 0
    votes: dict[int, int | None] = field(default_factory=dict)
    log: list[Event] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    outcome: Outcome | None = None
    seen_by: dict[Any, Any] = field(default_factory=dict)
    # On a clock (the server): every call stays open until END_CALL; the seed's
    # generator makes a silent seat's default move.
    clocked: bool = False
    dusk: bool = False
    chosen: bool = False  # the open call's choice is made
    defaults: Any = None

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def call(self) -> str | None:
        return self.calls[self.call_i] if self.phase == NIGHT else None


class Moonlight(Ruleset[MoonState]):
    id: ClassVar[str] = "moonlight"
    title: ClassVar[str] = "Moonlight"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    role_ids: ClassVar[tuple[str, ...]] = ROLE_IDS
    call_seconds: ClassVar[float] = 8.0
    discussion_seconds: ClassVar[float] = 120.0
    audit_model: ClassVar[str | None] = "moonlight:MoonModel"
    action_space: ClassVar[str | None] = "moonlight:all_actions"

    def side_of(self, role: str) -> str:
        return "werewolves" if role == WEREWOLF else "village"

    # --- setting up --------------------------------------------------------------
    def validate_deck(self, players: int, roles: Sequence[str],
                      options: Mapping[str, Any] | None = None) -> list[str]:
        self.options(options)
        if not self.min_players <= players <= self.max_players:
            raise DeckError(f"Moonlight is for 3 to 6 players, not {players}")
        if len(roles) != players:
            raise DeckError(f"Moonlight deals every card: {players} players need "
                            f"{players} cards, got {len(roles)}")
        unknown = sorted(set(roles) - set(ROLE_IDS))
        if unknown:
            raise DeckError(f"not Moonlight roles: {', '.join(unknown)}")
        if list(roles).count(WEREWOLF) != 1:
            raise DeckError("the deck needs exactly one werewolf")
        if list(roles).count(SEER) > 1:
            raise DeckError("the deck has at most one seer")
        return []

    def default_deck(self, players: int, scenario: str | None = None) -> list[str]:
        if scenario is not None:
            raise DeckError("Moonlight has no scenarios")
        if not self.min_players <= players <= self.max_players:
            raise DeckError(f"Moonlight is for 3 to 6 players, not {players}")
        return [WEREWOLF, SEER] + [VILLAGER] * (players - 2)

    def night_calls(self, roles: Sequence[str], night: int = 1) -> list[str]:
        return [c for c in CALL_ORDER if c in roles] if night == 1 else []

    def new_game(self, players: Sequence[str], deal: Sequence[str],
                 options: Mapping[str, Any] | None = None, *,
                 clock: int | None = None) -> MoonState:
        self.validate_deck(len(players), deal, options)
        st = MoonState(tuple(players), tuple(deal), tuple(self.night_calls(deal)))
        st.log.append(Event("deal", MASTER, {"cards": list(deal)}))
        st.defaults = defaults_rng(clock)
        if clock is not None:  # dusk: the first call opens with the first end_call
            st.clocked = st.dusk = True
        else:
            self._begin_call(st)
        return st

    # --- playing -----------------------------------------------------------------
    def _holder(self, st: MoonState, role: str) -> int:
        return st.start.index(role)

    def _begin_call(self, st: MoonState) -> None:
        """Announce the call; a call with nothing to choose (the Werewolf's) passes."""
        while st.phase == NIGHT:
            if st.call_i >= len(st.calls):
                st.phase = DAY
                st.log.append(Event("dawn", EVERYONE, {}))
                return
            role = st.calls[st.call_i]
            st.chosen = False
            st.log.append(Event("call", EVERYONE, {"role": role}))
            if role == WEREWOLF:
                st.log.append(Event("alone", frozenset({self._holder(st, WEREWOLF)}), {}))
                if st.clocked:
                    return  # the call lasts until the clock ends it
                st.call_i += 1
                continue
            return

    def legal_actions(self, state: MoonState, seat: int) -> Sequence[Action]:
        st = state
        if (st.phase == NIGHT and not st.dusk and not st.chosen and st.call == SEER
                and st.start[seat] == SEER):
            return (*(Action("look", x) for x in range(st.n) if x != seat), SKIP)
        if st.phase == DAY and seat not in st.votes:
            return (*(Action("vote", x) for x in range(st.n) if x != seat), ABSTAIN)
        return ()

    def apply(self, state: MoonState, seat: int, action: Action) -> None:
        st = state
        if action == END_CALL:
            if seat != CLOCK_SEAT:
                raise IllegalAction(str(action), "only the clock ends a call")
            self.end_call(st)
            return
        if not 0 <= seat < st.n or action not in self.legal_actions(st, seat):
            raise IllegalAction(str(action), f"seat {seat} may not do that now")
        if st.phase == NIGHT:
            step: dict[str, Any] = {"call": SEER, "player": st.names[seat]}
            if action.kind == "look":
                st.log.append(Event("look", frozenset({seat}),
                                    {"seat": action.a, "card": st.start[action.a]}))
                step["look"] = st.names[action.a]
            st.steps.append(step)
            st.chosen = True
            if not st.clocked:
                st.call_i += 1
                self._begin_call(st)
            return
        st.votes[seat] = action.a if action.kind == "vote" else None
        st.log.append(Event("voted", EVERYONE, {"seat": seat}))
        if len(st.votes) == st.n:
            self._count(st)

    def _count(self, st: MoonState) -> None:
        st.steps.append({"votes": {st.names[s]: st.names[t] for s, t in st.votes.items()
                                   if t is not None}})
        tally = Counter(t for t in st.votes.values() if t is not None)
        top = max(tally.values(), default=0)
        dead = sorted(s for s, k in tally.items() if k == top and k >= 2)
        wolf = self._holder(st, WEREWOLF)
        team = "village" if wolf in dead else "werewolves"
        winners = tuple(s for s in range(st.n) if self.side_of(st.start[s]) == team)
        st.outcome = Outcome((Death(s, "votes") for s in dead), (team,), winners,
                             (why("winners", names=tuple(st.names[s] for s in winners)),))
        st.phase = OVER
        st.log.append(Event("votes", EVERYONE, {
            "votes": {str(s): t for s, t in st.votes.items()}, "dead": dead}))

    def open_call(self, state: MoonState) -> str | None:
        st = state
        if st.phase == NIGHT:
            return DUSK if st.dusk else st.call
        return "vote" if st.phase == DAY else None

    def end_call(self, state: MoonState, move: MoveFn | None = None) -> None:
        st = state
        if st.phase == OVER:
            raise IllegalAction(str(END_CALL), "the game is over")
        make = move or (lambda seat, action: self.apply(st, seat, action))
        for seat in self.waiting_for(st):  # silent seats get the default
            choice = default_move(self.legal_actions(st, seat), st.defaults)
            if choice is not None:
                make(seat, choice)
        if st.phase != NIGHT:
            return  # the vote is complete: counted
        if st.dusk:
            st.dusk = False
        else:
            st.call_i += 1
        self._begin_call(st)

    def waiting_for(self, state: MoonState) -> tuple[int, ...]:
        return tuple(s for s in range(state.n) if self.legal_actions(state, s))

    def is_over(self, state: MoonState) -> bool:
        return state.phase == OVER

    def outcome(self, state: MoonState) -> Outcome | None:
        return state.outcome

    def view(self, state: MoonState, viewer: EngineViewer) -> dict[str, Any]:
        st = state
        events = visible_json(st.log, st.seen_by, viewer, visible_to)
        if isinstance(viewer, int) and 0 <= viewer < st.n:
            events.insert(0, {"kind": "deal", "seat": viewer, "card": st.start[viewer]})
        out: dict[str, Any] = {"ruleset": self.id, "phase": st.phase,
                               "players": list(st.names), "roles_in_play": sorted(st.start),
                               "call": st.call, "events": events}
        if isinstance(viewer, int):
            out["seat"] = viewer
            out["legal"] = [a.to_json() for a in self.legal_actions(st, viewer)]
        if st.outcome is not None:
            out["outcome"] = {**st.outcome.to_json(st.names), "cards": list(st.start)}
        return out

    def account(self, state: MoonState, say: Words) -> list[str]:
        """The game in English sentences (role names and the judges' reasons in the
        language of ``say``): a test ruleset ships no lines of its own."""
        st = state
        lines = [f"{p}: {say.role(r)}." for p, r in zip(st.names, st.start, strict=True)]
        for step in st.steps:
            if "look" in step:
                lines.append(f"{step['player']} looked at {step['look']}'s card.")
            elif "votes" in step:
                lines += [f"{a} voted for {b}." for a, b in step["votes"].items()]
        if st.outcome is not None:
            lines += say.explain(st.outcome.reasons)
        return lines

    # --- records -----------------------------------------------------------------
    def replay(self, record: Mapping[str, Any]) -> MoonState:
        names = records.players_of(record)
        cards = records.dealt_cards(self, record, names)
        try:
            st = self.new_game(names, cards, records.options_of(record))
        except DeckError as exc:
            raise RecordError(str(exc)) from None
        for i, step in enumerate(records.steps_of(record)):
            if records.is_comment(step):
                continue
            try:
                if "call" in step:
                    seat = records.seat_of(names, step.get("player"), i, "player")
                    look = step.get("look")
                    action = SKIP if look is None else Action(
                        "look", records.seat_of(names, look, i, "look"))
                    self.apply(st, seat, action)
                elif "votes" in step:
                    votes = step["votes"]
                    if not isinstance(votes, dict):
                        raise RecordError("'votes' maps voters to players", i)
                    for s, name in enumerate(names):
                        target = votes.get(name)
                        self.apply(st, s, ABSTAIN if target is None else Action(
                            "vote", records.seat_of(names, target, i, f"vote of {name}")))
                else:
                    raise RecordError("a step is a seer's call or the votes", i)
            except IllegalAction as exc:
                raise RecordError(f"not allowed here: {exc}", i) from None
        return st

    def to_record(self, state: MoonState) -> dict[str, Any]:
        st = state
        return {"ruleset": self.id, "players": list(st.names),
                "cards": dict(zip(st.names, st.start, strict=True)), "steps": list(st.steps)}

    def outcome_json(self, state: MoonState) -> dict[str, Any]:
        if state.outcome is None:
            raise RecordError("the record stops before the end of the game")
        return state.outcome.to_json(state.names)


MOONLIGHT = Moonlight()


def all_actions(players: int, talk: bool) -> list[Action]:
    """Every action a Moonlight seat could ever take (for the agents' action masks)."""
    return [*(Action("look", x) for x in range(players)), SKIP,
            *(Action("vote", x) for x in range(players)), ABSTAIN]


# Each event kind a view may hold, and its fields.
FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("seat", "card"), "alone": (), "look": ("seat", "card"), "call": ("role",),
    "dawn": (), "voted": ("seat",), "votes": ("votes", "dead"),
}


class MoonModel:
    """The audit's knowledge model, written from the rules above, not from the engine:
    a seat knows its own card; the Werewolf knows it woke alone; the Seer knows the card
    it looked at; everyone knows the calls, the dawn, who voted, and at the end the
    votes and every card."""

    def __init__(self, state: MoonState) -> None:
        self.n = state.n
        self.start = state.start
        self.k = Knowledge(self.n)
        for s in range(self.n):
            self.k.tell(s, "deal", s, self.start[s])
        self.k.tell(self.start.index(WEREWOLF), "alone")
        # Public, in order: the calls, then the dawn once the Seer (if dealt) has chosen.
        self.public: list[tuple[Any, ...]] = [("call", WEREWOLF)]
        self.public.append(("call", SEER) if SEER in self.start else ("dawn",))
        self.over = False
        self.paced = False

    def snapshot(self, state: MoonState) -> str:
        return state.phase

    def step(self, seat: int, action: Action, before: str, state: MoonState) -> None:
        if before == NIGHT:
            if action.kind == "look":
                self.k.tell(seat, "look", action.a, self.start[action.a])
            self.public.append(("dawn",))
        else:
            self.public.append(("voted", seat))
        self.over = state.phase == OVER

    def master_step(self, name: str, before: str, state: MoonState) -> None:
        raise AssertionError("Moonlight has no master's choice")

    def check(self, viewer: Viewer, view: dict[str, Any]) -> Problems:
        problems = check_top(view, viewer, {"ruleset", "phase", "players", "roles_in_play",
                                            "call", "events"}, {"seat", "legal"})
        got: Counter[tuple[Any, ...]] = Counter()
        public: list[tuple[Any, ...]] = []
        for e in view["events"]:
            kind = e.get("kind")
            wrong = exact_keys(e, *FIELDS[kind]) if kind in FIELDS else \
                f"an event the rules do not tell: {kind!r}"
            if wrong:  # fail closed: an unknown event or field is a leak by itself
                problems.append(("leak", wrong))
            elif kind == "deal":
                got[("deal", e["seat"], e["card"])] += 1
            elif kind == "alone":
                got[("alone",)] += 1
            elif kind == "look":
                got[("look", e["seat"], e["card"])] += 1
            elif kind == "call":
                public.append(("call", e["role"]))
            elif kind == "dawn":
                public.append(("dawn",))
            elif kind == "voted":
                public.append(("voted", e["seat"]))
            elif not self.over:  # the votes
                problems.append(("leak", "the votes are shown before the end"))
        problems += self.k.compare(viewer, got)
        if public != self.public:
            problems.append(("missing" if len(public) < len(self.public) else "leak",
                             f"public events {public} where the rules tell {self.public}"))
        if "outcome" in view and not self.over:
            problems.append(("leak", "the outcome is shown before the end"))
        return problems
