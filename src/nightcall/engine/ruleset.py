"""The contract every ruleset fulfils, and the registry that finds them by id.

A ruleset is a stateless object of functions over its own state type, in the
spirit of python-chess variants and OpenSpiel games: ``legal_actions`` is the
one place that knows legality, ``apply`` is checked and leaves the state
unchanged when it refuses, ``view`` is the only road from a state to a client.

``Ruleset[S]`` is generic over the ruleset's own state type. What only some rulesets
have is declared, never guessed with ``getattr`` or by an id:

- fields and methods with a default on :class:`Ruleset` (options, role teams,
  scenarios, timings, what a real table is asked at the end, and the import paths of
  the parts that live above the engine: the reasoning bot, the audit's knowledge
  model, the narration script, the judge, the action space);
- the capability classes :class:`Talk` (claims at dawn), :class:`PackVote` (seats who
  agree on one choice, the Lupus werewolves) and :class:`MasterChoice`
  (the Lupus Master names the last to die), which a ruleset inherits and callers test
  with ``isinstance``.

docs/architecture.md lists what a new ruleset provides and where.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from nightcall.engine.actions import Action
from nightcall.engine.cards import CardMap
from nightcall.engine.clock import CLOCK_SEAT, END_CALL, defaults_rng
from nightcall.engine.errors import DeckError, IllegalAction, RecordError, Said
from nightcall.engine.events import Viewer
from nightcall.engine.jsontype import JSONObject
from nightcall.engine.outcome import Outcome
from nightcall.engine.words import Words

S = TypeVar("S")
# How ``end_call`` makes a silent seat's default move: (seat, action).
MoveFn = Callable[[int, Action], None]


class Rules(ABC):
    """What a ruleset says before any game exists (its deck, options, scenarios, night
    order, timings and parts): the non-generic base a registry of rulesets of different
    state types holds, and what callers that never touch a state take."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    role_ids: ClassVar[tuple[str, ...]]
    card_map: ClassVar[CardMap | None] = None

    # --- declared extras (the defaults say "this ruleset has none") --------------
    # How many nights a game has (None: night and day alternate until the game ends).
    nights: ClassVar[int | None] = 1
    # The options a game takes and their defaults (the room's settings start from these).
    default_options: ClassVar[Mapping[str, object]] = {}
    # Seconds for a night call (per call where one differs) and for the day's talk.
    call_seconds: ClassVar[float] = 10.0
    call_seconds_by_call: ClassVar[Mapping[str, float]] = {}
    discussion_seconds: ClassVar[float] = 300.0
    # Seconds of each Suspect's defense before an execution vote (0: the game has none).
    defense_seconds: ClassVar[float] = 0.0
    # Cards dealt to the middle of the table, which a night action may name (0: none).
    center_cards: ClassVar[int] = 0
    # Parts that live above the engine, as "module:attribute" import paths, loaded with
    # :func:`load` only by the layer that uses them (so the engine imports nothing above).
    reasoning_bot: ClassVar[str | None] = None  # a class called with (seed, difficulty)
    audit_model: ClassVar[str | None] = None  # nightcall.audit's Model, called with a state
    audit_games: ClassVar[str | None] = None  # the audit's deck mix, (self, rng) -> configs
    narration_script: ClassVar[str | None] = None  # an engine.script.Script
    judge: ClassVar[str | None] = None  # a module with the `nightcall judge` questions
    action_space: ClassVar[str | None] = None  # every action a seat could ever take: (n) ->
    # The deck's order means something: a card past the players' and the center's lies
    # apart and comes last (Epic: the Alpha Wolf's werewolf card beside the center), so a
    # real table keeps the deck as chosen, not in role order (the /table page, `deck`).
    deck_order_kept: ClassVar[bool] = False

    def options(self, options: Mapping[str, object] | None) -> dict[str, object]:
        """The game's options: ``default_options`` with ``options`` over them (an unknown
        option is a DeckError). Rulesets with option values to check override this."""
        self.check_option_names(options or {})
        return {**self.default_options, **(options or {})}

    def check_option_names(self, options: Mapping[str, object]) -> None:
        """Refuse (DeckError) the options this game does not have."""
        unknown = ", ".join(sorted(set(options) - set(self.default_options)))
        if unknown and not self.default_options:
            raise DeckError(Said(f"{self.title} has no options, got: {unknown}", "options.none",
                                 title=self.title, names=unknown))
        if unknown:
            known = ", ".join(self.default_options)
            raise DeckError(Said(f"{self.title} has no option {unknown} (its options: {known})",
                                 "options.unknown", title=self.title, names=unknown,
                                 known=known))

    def side_of(self, role: str) -> str:
        """The side a role's card plays for (its team or party id; "" if it has none)."""
        return ""

    def final_team(self, role: str, token: str | None = None) -> str:
        """The team a player whose final role is ``role`` (and final mark ``token``, if
        the game has marks) counts for at the end: ``side_of`` unless a ruleset's mark
        or changing party says otherwise (a table's history, history.py)."""
        return self.side_of(role)

    def scenarios(self) -> list[dict[str, Any]]:
        """Named scenarios as data (id, name, parties, difficulty, min/max players)."""
        return []

    def scenario_id(self, name: str) -> str:
        """The id of the scenario a person typed (its id or its name, in any case), or
        DeckError saying which ones there are."""
        raise self._no_scenarios()

    def scenario_deck(self, name: str, players: int, seed: int = 0) -> list[str]:
        """The deck of scenario ``name`` for ``players`` (DeckError if there is none)."""
        raise self._no_scenarios()

    def _no_scenarios(self) -> DeckError:
        return DeckError(Said(f"{self.title} has no scenarios", "deck.no_scenarios",
                              title=self.title))

    def copies_at_end(self, deck: Sequence[str]) -> list[dict[str, Any]]:
        """The cards of ``deck`` whose holder at the end need not play what the card says
        (what a copier copied, what a card turned into), each as ``{"card", "options"}``
        (what it may have become): a real table is asked them before the verdict
        (the /table page). None by default."""
        return []

    def marks_at_end(self, deck: Sequence[str]) -> tuple[dict[str, int], list[str]]:
        """The marks (symbol tokens, each with how many the box holds) and the artifacts
        that may lie on a real table at the end of a game of ``deck``, which the table is
        asked about (none by default)."""
        return {}, []

    # --- setting up -------------------------------------------------------
    @abstractmethod
    def validate_deck(
        self, players: int, roles: Sequence[str], options: Mapping[str, object] | None = None
    ) -> list[str]:
        """Raise DeckError if the deck is not allowed; return warnings otherwise."""

    @abstractmethod
    def default_deck(self, players: int, scenario: str | None = None) -> list[str]:
        """A sensible deck for ``players`` (the rulebook's recommended one, or a scenario's)."""

    @abstractmethod
    def night_calls(self, roles: Sequence[str], night: int = 1) -> list[str]:
        """The calls of night ``night`` for a deck, in wake order, every role in the deck
        called whether its card is in the center, dead or alive (the narrator's order)."""

    def card_to_role(self, card: object, where: str) -> str:
        """Read a record card: a role id of this ruleset or a playing card."""
        if not isinstance(card, str):
            raise RecordError(Said(f"{where}: a card must be a string, got {card!r}",
                                   "record.card_type", where=where, card=repr(card)))
        if card in self.role_ids:
            return card
        if self.card_map is not None:
            role = self.card_map.role_of(card)
            if role is not None:
                return role
        raise RecordError(Said(f"{where}: {card!r} is not a role or playing card of {self.title}",
                               "record.not_a_card", where=where, card=str(card),
                               roles=list(self.role_ids), game=self.id))


class Ruleset(Rules, Generic[S]):
    """A ruleset's games: functions over its own state type ``S``."""

    # --- setting up -------------------------------------------------------
    @abstractmethod
    def new_game(
        self,
        players: Sequence[str],
        deal: Sequence[str],
        options: Mapping[str, object] | None = None,
        *,
        clock: int | None = None,
    ) -> S:
        """A game from a known deal: ``deal[i]`` is seat i's card, then any center cards.

        ``clock``: None, calls nobody is choosing in end at once (records, simulations);
        a seed, every call stays open until ``end_call`` (engine.clock)."""

    def deal(
        self,
        players: Sequence[str],
        roles: Sequence[str],
        seed: int | random.Random,
        options: Mapping[str, object] | None = None,
        *,
        clock: int | None = None,
    ) -> S:
        """Shuffle ``roles`` with a seeded RNG and start a game; the deal lands in the record.

        ``seed`` may be a ``random.Random`` already seeded (simulations deal many games
        from one generator, which is cheaper than seeding one per game)."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        return self.shuffled(players, roles, rng, seed, options, clock)

    def shuffled(self, players: Sequence[str], roles: Sequence[str], rng: random.Random,
                 seed: int | random.Random, options: Mapping[str, Any] | None,
                 clock: int | None) -> S:
        """:meth:`deal` once its RNG is made: check the deck, shuffle it with ``rng``,
        start the game. A ruleset with more to deal (an extra card) overrides this."""
        self.validate_deck(len(players), roles, options)
        cards = list(roles)
        rng.shuffle(cards)
        return self.new_game(players, cards, options, clock=clock)

    # --- playing ----------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[Action]: ...

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> None:
        """Apply a legal action or raise IllegalAction, leaving the state unchanged."""

    @abstractmethod
    def waiting_for(self, state: S) -> tuple[int, ...]:
        """Seats that have a legal action now (secret: never sent to other seats)."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    # --- the clock (engine.clock) --------------------------------------------
    @abstractmethod
    def open_call(self, state: S) -> str | None:
        """The step open now (public): ``engine.clock.DUSK`` before the first call, the
        night call (a ``night_calls`` entry), the day's stage, or None once it is over.
        It ends by ``apply(state, CLOCK_SEAT, END_CALL)``, which calls :meth:`end_call`."""

    @abstractmethod
    def end_call(self, state: S, move: MoveFn | None = None) -> None:
        """End the open step: each seat still choosing gets its default move
        (``engine.clock.default_move``), made through ``move(seat, action)`` (default:
        ``apply``) so that a driver watching every move (the leak audit) sees each one;
        then the next step opens. IllegalAction once the game is over."""

    def end_call_from(self, state: S, seat: int) -> None:
        """``apply``'s road for :data:`engine.clock.END_CALL`: only the clock ends a call."""
        if seat != CLOCK_SEAT:
            raise IllegalAction(str(END_CALL), "only the clock ends a call (the timer or "
                                               "the game master), not a seat")
        self.end_call(state)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may know now; nothing else."""

    @abstractmethod
    def account(self, state: S, say: Words) -> list[str]:
        """The whole game as plain sentences, in order (the master's account), in the
        words of ``say`` (``nightcall.narration.telling.tell`` gives them in a language),
        ending with the judges' reasons (``say.explain``)."""

    # --- records ----------------------------------------------------------
    @abstractmethod
    def replay(self, record: Mapping[str, object]) -> S:
        """Build the final state of a record, or raise RecordError naming the step."""

    @abstractmethod
    def to_record(self, state: S) -> JSONObject: ...

    @abstractmethod
    def outcome_json(self, state: S) -> JSONObject:
        """The outcome object of game-record.md for a replayed state."""

class PhasedState(Protocol):
    """A state that says its phase (a number; ``over_phase`` once the game is over)
    and, once it is over, its outcome; and keeps the clock's facts (engine.clock):
    each call ``held`` open until ``end_call``, the ``dusk`` before the first call,
    the generator of the ``defaults``."""

    @property
    def phase(self) -> int: ...

    @property
    def outcome(self) -> Outcome | None: ...

    held: bool
    dusk: bool
    defaults: random.Random | None


G = TypeVar("G", bound=PhasedState)
G_contra = TypeVar("G_contra", bound=PhasedState, contravariant=True)


class AccountModule(Protocol[G_contra]):
    """A ruleset's ``account`` module: the game as sentences (:meth:`Ruleset.account`)."""

    def account(self, state: G_contra, say: Words, /) -> list[str]: ...


class RecordModule(Protocol[G]):
    """A ruleset's ``record`` module: game-record.md read and written."""

    def replay(self, ruleset: Any, record: Mapping[str, object], /) -> G: ...

    def to_record(self, ruleset: Any, state: G, /) -> JSONObject: ...

    def outcome_json(self, state: G, /) -> JSONObject: ...


class ModularRuleset(Ruleset[G]):
    """A ruleset whose account and records are modules of its package, and whose state
    says its phase and outcome: the parts of the contract that only hand over to them
    are written here once (the built-in rulesets are all three such)."""

    over_phase: ClassVar[int]  # the state's phase once the game is over

    def __init__(self, account: AccountModule[G], record: RecordModule[G]) -> None:
        self._account = account
        self._record = record

    def is_over(self, state: G) -> bool:
        return state.phase == self.over_phase

    def at_dusk(self, state: G, clock: int) -> None:
        """A new game with a clock waits at dusk: its first call opens with the first
        ``end_call``, and each call stays open until its ``end_call``."""
        state.held = state.dusk = True
        state.defaults = defaults_rng(clock)

    def ending(self, state: G, move: MoveFn | None) -> tuple[MoveFn, random.Random]:
        """What every ``end_call`` does first: refuse once the game is over, make the
        default moves' generator if the game has none; how a move is made, and that
        generator."""
        if state.phase == self.over_phase:
            raise IllegalAction(str(END_CALL), "the game is over: there is no call to end")
        if state.defaults is None:
            state.defaults = defaults_rng(None)
        return move or functools.partial(self.apply, state), state.defaults

    def outcome(self, state: G) -> Outcome | None:
        return state.outcome

    def account(self, state: G, say: Words) -> list[str]:
        return self._account.account(state, say)

    def replay(self, record: Mapping[str, object]) -> G:
        return self._record.replay(self, record)

    def to_record(self, state: G) -> JSONObject:
        return self._record.to_record(self, state)

    def outcome_json(self, state: G) -> JSONObject:
        return self._record.outcome_json(state)


# The kinds of One Night's talk ("I am ...", "I saw ...", "I swapped ..."): said, not done.
TALK_KINDS = frozenset({"claim", "claim_saw", "claim_swap"})


class Talk(ABC, Generic[S]):
    """A ruleset whose players make claims at dawn (One Night's "I am the Seer")."""

    @abstractmethod
    def legal_claims(self, state: S, seat: int) -> Sequence[Action]:
        """The claims ``seat`` may make now (empty when it may not talk)."""


def is_talk(ruleset: object, action: Action) -> bool:
    """Is ``action`` a line of talk in ``ruleset``? Talk changes nobody's choices."""
    return isinstance(ruleset, Talk) and action.kind in TALK_KINDS


class PackVote(ABC, Generic[S]):
    """A ruleset whose night has a call where several seats agree on one choice (Lupus'
    werewolves point at one victim): on phones each one's pick is a draft the others see
    until they agree (server/pack.py)."""

    # The call, and the kind of action the pack agrees on.
    pack_call: ClassVar[str]
    pack_action: ClassVar[str]

    @abstractmethod
    def pack(self, state: S) -> tuple[int, ...]:
        """The seats choosing together now (empty outside the pack's call)."""

    @abstractmethod
    def pack_picks(self, state: S) -> dict[int, Action]:
        """The picks the rules already hold for this call, by seat."""


class MasterChoice(ABC, Generic[S]):
    """A ruleset whose game master decides something the rules leave to the master
    (Lupus in Tabula: which of the dawn's dead died last, and so speaks last)."""

    @abstractmethod
    def dawn_deaths(self, state: S) -> tuple[int, ...]:
        """The seats who died in the night just ended, in the engine's order."""

    @abstractmethod
    def last_to_die(self, state: S) -> int | None:
        """The seat now counted as the last to die (None before the first death)."""

    @abstractmethod
    def may_choose_last(self, state: S) -> bool:
        """Whether this is the moment the master may name the last to die."""

    @abstractmethod
    def choose_last(self, state: S, seat: int) -> None:
        """The master names ``seat`` the last to die; IllegalAction if it may not be."""


def load(path: str) -> Any:
    """The object at a "module:attribute" import path (a ruleset's declared part;
    what it is, the field that names it says, and the caller checks)."""
    import importlib

    module_name, _, attribute = path.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except AttributeError:
        raise ImportError(f"{path!r}: {module_name} has no {attribute!r}") from None


_REGISTRY: dict[str, Ruleset[Any]] = {}

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


@functools.cache  # (reading the entry points takes milliseconds; a room's default is hot)
def default_ruleset_id() -> str:
    """The ruleset a room, an agent environment or a tournament plays when none is named:
    the first entry point (the built-in ones come first, in BUILTIN's order)."""
    return next(iter(_entry_points()))


def register(ruleset: Ruleset[S]) -> Ruleset[S]:
    """Make ``ruleset`` known by its id (entry points do it; tests may call it directly)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset with this id, importing only its own package on first use."""
    if ruleset_id not in _REGISTRY:
        target = _entry_points().get(ruleset_id)
        if target is not None:
            _load(ruleset_id, target)
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(ruleset_ids())
        raise DeckError(Said(f"unknown ruleset {ruleset_id!r} (known: {known})",
                             "ruleset.unknown", name=str(ruleset_id), known=known)) from None


def ruleset_ids() -> list[str]:
    """Every ruleset's id, in the one order every list of games uses: the built-in ones
    first (BUILTIN's order), then the installed ones, then any registered by hand."""
    return list({**_entry_points(), **_REGISTRY})


def all_rulesets() -> dict[str, Ruleset[Any]]:
    """Every ruleset installed, by id, in :func:`ruleset_ids`' order."""
    points = _entry_points()
    for ruleset_id, target in points.items():
        if ruleset_id not in _REGISTRY:
            _load(ruleset_id, target)
    return {rid: _REGISTRY[rid] for rid in ruleset_ids()}


def _entry_points() -> dict[str, str]:
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return {**BUILTIN, **found}


def _load(ruleset_id: str, target: str) -> None:
    loaded = load(target)
    if not isinstance(loaded, Ruleset):
        raise TypeError(f"entry point {ruleset_id} = {target!r} is not a Ruleset")
    if loaded.id != ruleset_id:
        raise TypeError(f"entry point {ruleset_id} = {target!r} is the ruleset {loaded.id!r}")
    register(loaded)
