"""The contract every ruleset fulfils, and the registry that finds them by id.

A ruleset is a stateless object of functions over its own state type, in the
spirit of python-chess variants and OpenSpiel games: ``legal_actions`` is the
one place that knows legality, ``apply`` is checked and leaves the state
unchanged when it refuses, ``view`` is the only road from a state to a client.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from nightcall.engine.actions import Action
from nightcall.engine.cards import CardMap
from nightcall.engine.errors import DeckError, RecordError
from nightcall.engine.events import Viewer
from nightcall.engine.outcome import Outcome


class Ruleset(ABC):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    role_ids: ClassVar[tuple[str, ...]]
    card_map: ClassVar[CardMap | None] = None

    # --- setting up -------------------------------------------------------
    @abstractmethod
    def validate_deck(
        self, players: int, roles: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> list[str]:
        """Raise DeckError if the deck is not allowed; return warnings otherwise."""

    @abstractmethod
    def new_game(
        self,
        players: Sequence[str],
        deal: Sequence[str],
        options: Mapping[str, Any] | None = None,
    ) -> Any:
        """A game from a known deal: ``deal[i]`` is seat i's card, then any center cards."""

    @abstractmethod
    def default_deck(self, players: int, scenario: str | None = None) -> list[str]:
        """A sensible deck for ``players`` (the rulebook's recommended one, or a scenario's)."""

    @abstractmethod
    def night_calls(self, roles: Sequence[str], night: int = 1) -> list[str]:
        """The calls of night ``night`` for a deck, in wake order, every role in the deck
        called whether its card is in the center, dead or alive (the narrator's order)."""

    def deal(
        self,
        players: Sequence[str],
        roles: Sequence[str],
        seed: int | random.Random,
        options: Mapping[str, Any] | None = None,
    ) -> Any:
        """Shuffle ``roles`` with a seeded RNG and start a game; the deal lands in the record.

        ``seed`` may be a ``random.Random`` already seeded (simulations deal many games
        from one generator, which is cheaper than seeding one per game)."""
        self.validate_deck(len(players), roles, options)
        cards = list(roles)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        rng.shuffle(cards)
        return self.new_game(players, cards, options)

    # --- playing ----------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> Sequence[Action]: ...

    @abstractmethod
    def apply(self, state: Any, seat: int, action: Action) -> None:
        """Apply a legal action or raise IllegalAction, leaving the state unchanged."""

    @abstractmethod
    def waiting_for(self, state: Any) -> tuple[int, ...]:
        """Seats that have a legal action now (secret: never sent to other seats)."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None: ...

    @abstractmethod
    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may know now; nothing else."""

    @abstractmethod
    def account(self, state: Any) -> list[str]:
        """The whole game as plain sentences, in order (the master's account)."""

    # --- records ----------------------------------------------------------
    @abstractmethod
    def replay(self, record: Mapping[str, Any]) -> Any:
        """Build the final state of a record, or raise RecordError naming the step."""

    @abstractmethod
    def to_record(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def outcome_json(self, state: Any) -> dict[str, Any]:
        """The outcome object of game-record.md for a replayed state."""

    def card_to_role(self, card: Any, where: str) -> str:
        """Read a record card: a role id of this ruleset or a playing card."""
        if not isinstance(card, str):
            raise RecordError(f"{where}: a card must be a string, got {card!r}")
        if card in self.role_ids:
            return card
        if self.card_map is not None:
            role = self.card_map.role_of(card)
            if role is not None:
                return role
        raise RecordError(f"{where}: {card!r} is not a {self.id} role or playing card")


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id, importing only its own module on first use."""
    if ruleset_id not in _REGISTRY and ruleset_id in BUILTIN:
        _import(ruleset_id)
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(set(BUILTIN) | set(_REGISTRY)))
        raise DeckError(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def all_rulesets() -> dict[str, Ruleset]:
    for ruleset_id in BUILTIN:
        if ruleset_id not in _REGISTRY:
            _import(ruleset_id)
    return dict(_REGISTRY)


# Built-in rulesets by id; ``nightcall.rulesets.<id>.game`` registers each when imported.
BUILTIN = ("onuw", "epic", "lupus")


def _import(ruleset_id: str) -> None:
    import importlib

    module = f"nightcall.rulesets.{ruleset_id}.game"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # A ruleset not built yet is simply absent; any other import error is a bug.
        if exc.name is None or not module.startswith(exc.name):
            raise
