"""The contract every ruleset fulfils, and the registry that finds them by id.

A ruleset is a stateless object of functions over its own state type, in the
spirit of python-chess variants and OpenSpiel games: ``legal_actions`` is the
one place that knows legality, ``apply`` is checked and leaves the state
unchanged when it refuses, ``view`` is the only road from a state to a client.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from nightcall.engine.actions import Action
from nightcall.engine.cards import CardMap
from nightcall.engine.errors import DeckError, RecordError
from nightcall.engine.events import Viewer
from nightcall.engine.outcome import Outcome
from nightcall.engine.words import Words

# How ``end_call`` makes a silent seat's default move: (seat, action).
MoveFn = Callable[[int, Action], None]


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
        *,
        clock: int | None = None,
    ) -> Any:
        """A game from a known deal: ``deal[i]`` is seat i's card, then any center cards.

        ``clock``: None, calls nobody is choosing in end at once (records, simulations);
        a seed, every call stays open until ``end_call`` (engine.clock)."""

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
        *,
        clock: int | None = None,
    ) -> Any:
        """Shuffle ``roles`` with a seeded RNG and start a game; the deal lands in the record.

        ``seed`` may be a ``random.Random`` already seeded (simulations deal many games
        from one generator, which is cheaper than seeding one per game)."""
        self.validate_deck(len(players), roles, options)
        cards = list(roles)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        rng.shuffle(cards)
        return self.new_game(players, cards, options, clock=clock)

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

    # --- the clock (engine.clock) --------------------------------------------
    @abstractmethod
    def open_call(self, state: Any) -> str | None:
        """The step open now (public): ``engine.clock.DUSK`` before the first call, the
        night call (a ``night_calls`` entry), the day's stage, or None once it is over.
        It ends by ``apply(state, CLOCK_SEAT, END_CALL)``, which calls :meth:`end_call`."""

    @abstractmethod
    def end_call(self, state: Any, move: MoveFn | None = None) -> None:
        """End the open step: each seat still choosing gets its default move
        (``engine.clock.default_move``), made through ``move(seat, action)`` (default:
        ``apply``) so that a driver watching every move (the leak audit) sees each one;
        then the next step opens. IllegalAction once the game is over."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None: ...

    @abstractmethod
    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may know now; nothing else."""

    @abstractmethod
    def account(self, state: Any, say: Words) -> list[str]:
        """The whole game as plain sentences, in order (the master's account), in the
        words of ``say`` (``nightcall.narration.telling.tell`` gives them in a language),
        ending with the judges' reasons (``say.explain``)."""

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

# Rulesets are found through this entry-point group, the built-in ones too, so that a
# ruleset can be published as a package of its own (docs/architecture.md).
ENTRY_POINT_GROUP = "nightcall.rulesets"

# The built-in entry points as pyproject.toml declares them (a test keeps the two equal),
# for a source tree run without being installed (PYTHONPATH=src), which has no metadata.
BUILTIN = {
    "onuw": "nightcall.rulesets.onuw.game:ONUW",
    "epic": "nightcall.rulesets.epic.game:EPIC",
    "lupus": "nightcall.rulesets.lupus.game:LUPUS",
}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known by its id (entry points do it; tests may call it directly)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id, importing only its own package on first use."""
    if ruleset_id not in _REGISTRY:
        target = _entry_points().get(ruleset_id)
        if target is not None:
            _load(ruleset_id, target)
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(set(_entry_points()) | set(_REGISTRY)))
        raise DeckError(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def all_rulesets() -> dict[str, Ruleset]:
    """Every ruleset installed, by id."""
    for ruleset_id, target in _entry_points().items():
        if ruleset_id not in _REGISTRY:
            _load(ruleset_id, target)
    return dict(_REGISTRY)


def _entry_points() -> dict[str, str]:
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return {**BUILTIN, **found}


def _load(ruleset_id: str, target: str) -> None:
    import importlib

    module_name, _, attribute = target.partition(":")
    loaded = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(loaded, Ruleset):
        raise TypeError(f"entry point {ruleset_id} = {target!r} is not a Ruleset")
    if loaded.id != ruleset_id:
        raise TypeError(f"entry point {ruleset_id} = {target!r} is the ruleset {loaded.id!r}")
    register(loaded)
