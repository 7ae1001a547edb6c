"""The state of an Epic Battle game: plain slots, mutated in place by the ruleset.

Card positions: 0..n-1 are the seats (clockwise; the player to the left of seat
i is seat i+1), n..n+2 the center from left to right, and n+3 the Alpha Wolf's
extra werewolf card when it is in play. ``start`` is what each seat saw at the
start, which is what it wakes up for. ``tokens`` are the seats' symbol tokens;
``board`` what lies on the token board. ``card_as`` says what the Mimic card and
the Ghost Hunter card count as once they changed. The log of events is the
truth every view is computed from; ``history`` is every applied (seat, action,
call), from which the record is written.
"""

from __future__ import annotations

import random
from typing import Any

from nightcall.engine.actions import Action
from nightcall.engine.events import Event, SeenCache
from nightcall.engine.outcome import Outcome
from nightcall.rulesets.epic.roles import (
    ASSASSIN,
    GHOST_HUNTER,
    MIMIC,
    TOKEN_SUPPLY,
    VILLAGER,
)
from nightcall.rulesets.onenight import ABSTAIN as ABSTAIN  # re-exported: the family's phases
from nightcall.rulesets.onenight import DAY as DAY
from nightcall.rulesets.onenight import NIGHT as NIGHT
from nightcall.rulesets.onenight import NOT_VOTED as NOT_VOTED
from nightcall.rulesets.onenight import OVER as OVER
from nightcall.rulesets.onenight import PHASE_NAMES as PHASE_NAMES
from nightcall.rulesets.onenight import NightClock


class EpicState(NightClock):
    __slots__ = (
        "acted", "artifact_pool", "artifacts", "board", "card_as", "cards", "choices", "deck",
        "extra_pos", "forced_artifact", "history", "log", "n", "names", "night_started",
        "options", "outcome", "panicked", "phase", "pick", "revealed", "rng", "schedule",
        "seen_by", "start", "start_tokens", "started_center", "tokens", "tokens_in_play",
        "vampires", "vote_options", "votes", "wolves_known",
    )

    def __init__(
        self,
        names: tuple[str, ...],
        deal: list[str],
        extra: str | None,
        tokens: list[str],
        options: dict[str, Any],
        schedule: tuple[str, ...],
        artifact_pool: list[str],
        tokens_in_play: bool,
        deck: tuple[str, ...],
    ) -> None:
        n = len(names)
        self.names = names
        self.n = n
        self.cards = deal + ([extra] if extra is not None else [])
        self.extra_pos = n + 3 if extra is not None else -1
        self.start: tuple[str, ...] = tuple(deal[:n])
        self.started_center = frozenset(deal[n:])  # a Mimic/Assassin from here is a villager
        self.deck = deck  # every card sorted, the extra one included
        self.tokens = tokens
        self.start_tokens: tuple[str, ...] = tuple(tokens)
        self.board = dict(TOKEN_SUPPLY)
        for token in tokens:
            self.board[token] -= 1
        self.tokens_in_play = tokens_in_play
        self.options = options
        self.rng: random.Random | None = None  # made on the Curator's first draw
        self.schedule = schedule
        self.phase = NIGHT
        self.start_clock()  # (engine.clock, as in One Night)
        self.choices: tuple[Action, ...] = ()  # the actor's legal actions, set with ``actor``
        self.pick = -1  # a choice remembered between two stages of one call
        self.night_started = False  # after "everybody look at your token"
        self.card_as: dict[str, str] = {}
        self.vampires: tuple[int, ...] = ()
        self.wolves_known: frozenset[int] = frozenset()
        self.panicked = -1
        self.acted: set[int] = set()  # moved or looked at a card or token (Fortune Teller)
        self.artifact_pool = artifact_pool
        self.artifacts: list[str | None] = [None] * n
        self.forced_artifact: str | None = None  # a replayed record says what was drawn
        self.revealed: dict[int, str] = {}
        self.votes = [NOT_VOTED] * n
        self.vote_options: tuple[tuple[Action, ...], ...] = ()  # per seat, set at dawn
        self.log: list[Event] = []
        self.seen_by: SeenCache = {}  # the views' events, built once (engine.events)
        self.history: list[tuple[int, Action, str]] = []
        self.outcome: Outcome | None = None

    @property
    def center(self) -> list[str]:
        return self.cards[self.n : self.n + 3]

    def final_role(self, pos: int) -> str:
        """What the card at ``pos`` counts as now (rulebook "Mimic", "Ghost Hunter",
        "Assassin": a Mimic or Assassin card that started in the center is a villager)."""
        card = self.cards[pos]
        if card == MIMIC:
            return VILLAGER if MIMIC in self.started_center else self.card_as.get(MIMIC, MIMIC)
        if card == ASSASSIN and ASSASSIN in self.started_center:
            return VILLAGER
        if card == GHOST_HUNTER:
            return self.card_as.get(GHOST_HUNTER, GHOST_HUNTER)
        return card

    def final_roles(self) -> tuple[str, ...]:
        """:meth:`final_role` of every seat (most tables: the cards as they lie)."""
        cards = self.cards[: self.n]
        if MIMIC in cards or ASSASSIN in cards or GHOST_HUNTER in cards:
            return tuple(map(self.final_role, range(self.n)))
        return tuple(cards)
