"""The state of a Lupus game: plain slots, mutated in place by the ruleset.

Seats are numbered clockwise: the player to the left of seat i is seat i+1
(wrapping). ``roles`` is what each seat is now (the Mythomaniac may change);
``start`` is what was dealt. ``alive_mask`` mirrors ``alive`` as a bit mask so
that legal-action lists can be cached by it. The log of events is the truth
every view is computed from; ``nights_log``/``days_log`` keep each night's and
day's choices by seat, from which the record is written.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from nightcall.engine.actions import Action
from nightcall.engine.events import Event, SeenCache
from nightcall.engine.outcome import Death, Outcome
from nightcall.rulesets.lupus.roles import WEREWOLF

NIGHT = 0
DAY = 1
OVER = 2
PHASE_NAMES = ("night", "day", "over")

ACCUSE = 0
EXECUTE = 1
STAGE_NAMES = ("accuse", "execute")

NOT_YET = -2  # has not pointed yet
NOBODY = -1  # pointed at nobody (or: no such seat)


class LupusState:
    __slots__ = (
        "accusations",
        "accuse_choices",
        "accuse_i",
        "accuse_order",
        "actors",
        "alive",
        "alive_mask",
        "call_i",
        "calls",
        "choices",
        "dawn_dead",
        "day",
        "days_log",
        "deaths",
        "deck",
        "defaults",
        "dusk",
        "executed",
        "held",
        "holders",
        "humans",
        "last",
        "log",
        "looks",
        "myth_becomes",
        "n",
        "names",
        "night",
        "night_deaths",
        "nights_log",
        "outcome",
        "owl_pick",
        "phase",
        "picks",
        "protected",
        "role_at_death",
        "roles",
        "seen_by",
        "self_protected",
        "stage",
        "start",
        "suspects",
        "turn",
        "victim",
        "visit",
        "vote_choices",
        "voters",
        "votes",
        "wolves",
    )

    def __init__(self, names: tuple[str, ...], deal: list[str]) -> None:
        n = len(names)
        self.names = names
        self.n = n
        self.start: tuple[str, ...] = tuple(deal)
        self.roles = list(deal)
        self.deck: tuple[str, ...] = tuple(sorted(deal))
        self.alive = [True] * n
        self.alive_mask = (1 << n) - 1
        # The living werewolves and humans (everyone else), for the end check after every
        # death: kept by day.kill and night.transform_mythomaniac, the only places that
        # change them.
        self.wolves = deal.count(WEREWOLF)
        self.humans = n - self.wolves
        # The seats holding each role now, in seat order (night.transform_mythomaniac
        # moves the Mythomaniac): every call of the night asks for the living holders.
        self.holders: dict[str, list[int]] = {}
        for s, role in enumerate(deal):
            self.holders.setdefault(role, []).append(s)
        self.phase = NIGHT
        self.night = 0
        self.day = 0
        self.stage = ACCUSE
        # The clock (engine.clock): ``held``, each call stays open until end_call, and
        # the game starts at dusk, before the first call; ``defaults`` draws the moves
        # of seats that did not choose in time.
        self.held = False
        self.dusk = False
        self.defaults: random.Random | None = None
        # the night
        self.calls: tuple[str, ...] = ()
        self.call_i = 0
        self.actors: tuple[int, ...] = ()
        self.picks: dict[int, Action] = {}
        # Each actor's legal choices in the open call, worked out once when it opens
        # (they cannot change before the call ends): asked by legal_actions and apply.
        self.choices: dict[int, tuple[Action, ...]] = {}
        self.victim = NOBODY
        self.protected = NOBODY
        self.visit = NOBODY  # the Harlot's host tonight, NOBODY when at home
        self.looks: list[tuple[int, int]] = []  # (seer seat, looked-at seat)
        self.owl_pick = NOBODY  # carried into the next day's accusation round
        self.self_protected = False
        self.myth_becomes: tuple[int, str] | None = None  # (seat, role) from the next night
        # the day
        self.last = NOBODY  # the last player to die; NOBODY before the first death
        self.dawn_dead: tuple[int, ...] = ()
        self.accuse_order: tuple[int, ...] = ()
        self.accuse_i = 0
        self.turn = NOBODY  # whose turn it is to accuse (accuse_order[accuse_i])
        # Each seat's choices in today's accusation round (day.accuse_choices).
        self.accuse_choices: list[tuple[Action, ...]] = []
        self.accusations = [NOT_YET] * n
        self.suspects: tuple[int, ...] = ()
        self.voters: tuple[int, ...] = ()
        self.votes = [NOT_YET] * n
        self.vote_choices: tuple[Action, ...] = ()  # a voter's choices, set with suspects
        # what happened
        self.deaths: list[Death] = []
        self.role_at_death: dict[int, str] = {}
        self.night_deaths: list[list[int]] = []
        self.executed: list[int] = []
        self.nights_log: list[dict[str, Any]] = []
        self.days_log: list[dict[str, Any]] = []
        self.log: list[Event] = []
        # Per viewer: the events it may see, as dicts, and how much of the log was read.
        # The log only grows, so views are built incrementally (bots ask for one per move).
        self.seen_by: SeenCache = {}
        self.outcome: Outcome | None = None

    @property
    def call(self) -> str | None:
        """The role being called now (public narration), or None outside the night."""
        if self.phase != NIGHT or self.dusk or self.call_i >= len(self.calls):
            return None
        return self.calls[self.call_i]

    def living(self) -> list[int]:
        alive = self.alive
        return [s for s in range(self.n) if alive[s]]

    def living_with(self, role: str) -> list[int]:
        alive = self.alive
        return [s for s in self.holders.get(role, ()) if alive[s]]

    def distance(self, seat: int) -> int:
        """How far ``seat`` sits clockwise from the last player to die: 0 is the
        player to their left. Before anyone died, seat 0 is the start (rulings)."""
        return (seat - self.last - 1) % self.n

    def mask_of(self, seats: Iterable[int]) -> int:
        mask = 0
        for s in seats:
            mask |= 1 << s
        return mask
