"""The state of a One Night game: plain slots, mutated in place by the ruleset.

Positions 0..n-1 of ``cards`` are the seats (clockwise), n..n+2 the center
from left to right. ``start`` is what each seat saw when it looked at its card,
which is what it wakes up for. The step log (``log``) is the truth from which
every view is computed; ``history`` is every applied (seat, action), from which
the record is written.
"""

from __future__ import annotations

from typing import Any

from nightcall.engine.actions import Action
from nightcall.engine.events import Event, SeenCache
from nightcall.engine.outcome import Outcome
from nightcall.rulesets.onenight import ABSTAIN as ABSTAIN  # re-exported: the family's phases
from nightcall.rulesets.onenight import DAY as DAY
from nightcall.rulesets.onenight import NIGHT as NIGHT
from nightcall.rulesets.onenight import NOT_VOTED as NOT_VOTED
from nightcall.rulesets.onenight import OVER as OVER
from nightcall.rulesets.onenight import PHASE_NAMES as PHASE_NAMES
from nightcall.rulesets.onenight import NightClock


class OneNightState(NightClock):
    __slots__ = (
        "cards",
        "choices",
        "claims",
        "copy",
        "deck",
        "doppel",
        "history",
        "log",
        "n",
        "names",
        "options",
        "outcome",
        "pending",
        "phase",
        "schedule",
        "seen_by",
        "start",
        "vote_options",
        "votes",
    )

    def __init__(
        self,
        names: tuple[str, ...],
        deal: list[str],
        options: dict[str, object],
        schedule: tuple[str, ...],
        deck: tuple[str, ...],
    ) -> None:
        n = len(names)
        self.names = names
        self.n = n
        self.cards = deal
        self.start: tuple[str, ...] = tuple(deal[:n])
        self.deck = deck  # the roles in play, sorted: public
        self.options = options
        self.schedule = schedule
        self.phase = NIGHT
        self.start_clock()
        self.choices: tuple[Action, ...] = ()  # the actor's legal actions, set with ``actor``
        self.copy: str | None = None  # the role the Doppelgänger copied
        self.doppel = -1  # the seat that started with the Doppelgänger
        self.votes = [NOT_VOTED] * n
        self.pending = n  # seats that have not voted yet
        self.vote_options: tuple[tuple[Action, ...], ...] = ()  # per seat, set at dawn
        self.claims: list[tuple[int, dict[str, Any]]] = []
        self.log: list[Event] = []
        self.seen_by: SeenCache = {}  # the views' events, built once (engine.events)
        self.history: list[tuple[int, Action, str]] = []  # (seat, action, call or 'day')
        self.outcome: Outcome | None = None

    @property
    def center(self) -> list[str]:
        return self.cards[self.n :]

    def final_roles(self) -> list[str]:
        """What each seat counts as now (the Doppelgänger card as the role it copied)."""
        copy = self.copy
        if copy is None:
            return self.cards[: self.n]
        return [copy if c == "doppelganger" else c for c in self.cards[: self.n]]

    def final_role(self, pos: int) -> str:
        """The role a card position counts as now: the Doppelgänger card is what it copied."""
        card = self.cards[pos]
        if card == "doppelganger" and self.copy is not None:
            return self.copy
        return card
