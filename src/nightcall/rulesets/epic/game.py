"""One Night Ultimate Werewolf: Epic Battle as a :class:`~nightcall.engine.ruleset.Ruleset`.

A deck is a list of role ids: the players + 3 cards, then, when the Alpha Wolf
is among them, the werewolf card laid beside the center (``extra``). A deal is
the same with the seats first: ``deal[i]`` is seat i's card, ``deal[n:n+3]``
the center, ``deal[n+3]`` the extra card. Night call ids are documented in
:mod:`nightcall.rulesets.epic.night`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from nightcall.engine.actions import Action
from nightcall.engine.clock import DUSK, END_CALL, default_move
from nightcall.engine.errors import DeckError, IllegalAction, Said
from nightcall.engine.events import MASTER, Event, Viewer, visible_json, visible_to
from nightcall.engine.fast import FastNight, split_rounds
from nightcall.engine.ruleset import TALK_KINDS, ModularRuleset, MoveFn, Talk, register
from nightcall.rulesets.epic import account, day, deck, night, record, scenarios
from nightcall.rulesets.epic import night as night_mod
from nightcall.rulesets.epic import roles as roles_mod
from nightcall.rulesets.epic.common import ONLY
from nightcall.rulesets.epic.roles import (
    ALPHA_WOLF,
    ARTIFACTS,
    BITE,
    CERTAINTY,
    CLAW,
    ROLE_IDS,
    ROLES,
    TOKEN_ROLES,
    TOKEN_SUPPLY,
    TOKENS,
    VAMPIRE_CARDS,
    WOLF_CARDS,
    name,
)
from nightcall.rulesets.epic.state import DAY, NIGHT, NOT_VOTED, OVER, PHASE_NAMES, EpicState

DEFAULT_OPTIONS: dict[str, Any] = {"seed": 0, "artifacts": list(ARTIFACTS)}


def split_deck(players: int, roles: Sequence[str]) -> tuple[list[str], str | None]:
    """The players + 3 cards and the extra card (if the list carries one)."""
    cards = list(roles)
    if len(cards) == players + deck.CENTER + 1 and ALPHA_WOLF in cards[:-1]:
        return cards[:-1], cards[-1]
    return cards, None


class _DeckFacts(NamedTuple):
    """What a deck (its sorted cards, the extra one included) decides for every game."""

    deck: tuple[str, ...]  # every card sorted, the extra one included
    schedule: tuple[str, ...]
    wolves: bool
    vampires: bool
    tokens: bool  # a token role is in the deck: the token board is used

    @staticmethod
    def of(cards: list[str], extra: str | None) -> _DeckFacts:
        key = tuple(sorted([*cards, extra] if extra is not None else cards))
        roles = set(key)
        return _DeckFacts(key, night.schedule_for(key), bool(roles & WOLF_CARDS),
                          bool(roles & VAMPIRE_CARDS), bool(roles & TOKEN_ROLES))


def artifacts_in_play(artifacts: Sequence[str], wolves: bool, vampires: bool) -> list[str]:
    """The artifacts the Curator may draw: the Claw and the Bite leave the game when
    their party is not in play (Curator ruling)."""
    return [a for a in artifacts
            if not (a == CLAW and not wolves) and not (a == BITE and not vampires)]


class EpicBattle(ModularRuleset[EpicState], Talk[EpicState], FastNight[EpicState]):
    id: ClassVar[str] = "epic"
    over_phase: ClassVar[int] = OVER
    center_cards: ClassVar[int] = deck.CENTER
    deck_order_kept: ClassVar[bool] = True  # the Alpha Wolf's extra card is the last
    title: ClassVar[str] = "One Night Ultimate Werewolf: Epic Battle"
    min_players: ClassVar[int] = deck.MIN_PLAYERS
    max_players: ClassVar[int] = deck.MAX_PLAYERS
    role_ids: ClassVar[tuple[str, ...]] = ROLE_IDS
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    call_seconds: ClassVar[float] = 5.0
    call_seconds_by_call: ClassVar[Mapping[str, float]] = {"priest": 10.0, "goblin": 10.0}
    discussion_seconds: ClassVar[float] = 300.0
    reasoning_bot: ClassVar[str | None] = "nightcall.bots.epic.bot:EpicBot"
    audit_model: ClassVar[str | None] = "nightcall.audit.epic:EpicModel"
    audit_games: ClassVar[str | None] = "nightcall.audit.epic:games"
    narration_script: ClassVar[str | None] = "nightcall.rulesets.epic.script:SCRIPT"
    judge: ClassVar[str | None] = "nightcall.rulesets.epic.judge"
    action_space: ClassVar[str | None] = "nightcall.agents.action_space:epic_actions"

    def __init__(self) -> None:
        super().__init__(account, record)
        self._decks: dict[tuple[int, tuple[str, ...], str | None], _DeckFacts] = {}

    def _facts(self, players: int, cards: list[str], extra: str | None) -> _DeckFacts:
        """Validate a deck once and remember what it decides; a deck already accepted
        is not checked again (a refused one raises and is not remembered). The key is
        the cards in the order given, unsorted: a simulation deals the same list
        millions of times, and a look-up costs less than a sort."""
        key = (players, tuple(cards), extra)
        facts = self._decks.get(key)
        if facts is None:
            deck.validate(players, cards, extra)
            if len(self._decks) > 1000:  # many different decks: keep the cache small
                self._decks.clear()
            facts = self._decks[key] = _DeckFacts.of(cards, extra)
        return facts

    # --- setting up -------------------------------------------------------
    def validate_deck(
        self, players: int, roles: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> list[str]:
        cards, extra = split_deck(players, roles)
        return deck.validate(players, cards, extra)

    def default_deck(self, players: int, scenario: str | None = None) -> list[str]:
        """The deck of a scenario (default: "The First Night", or for more than 5
        players "Hours of Despair"), the extra card last when there is one."""
        if scenario is None:  # (refused as the game's range, not a scenario nobody chose)
            deck.check_players(players)
            scenario = "the_first_night" if players <= 5 else "hours_of_despair"
        return self.scenario_deck(scenario, players)

    def side_of(self, role: str) -> str:
        found = ROLES.get(role)
        return found.party if found is not None else ""

    def final_team(self, role: str, token: str | None = None) -> str:
        if token == "vampire":  # the Vampire mark turns its holder (judge.identities)
            return roles_mod.VAMPIRES
        party = self.side_of(role) or roles_mod.VILLAGE
        return roles_mod.VILLAGE if party == roles_mod.CHANGING else party

    def copies_at_end(self, deck: Sequence[str]) -> list[dict[str, Any]]:
        roles = list(dict.fromkeys(deck))
        out: list[dict[str, Any]] = []
        if "mimic" in roles:
            # "Looks at a card in the middle"; a Mimic card that started in the middle
            # counts as a villager ("Mimic", Notes): the Villager option says both.
            options = [r for r in roles if r != "mimic"]
            out.append({"card": "mimic", "options": options if roles_mod.VILLAGER in options
                        else [*options, roles_mod.VILLAGER]})
        if "ghost_hunter" in roles:
            # "Transforms into the role he looked at": a monster or the Tanner; "" for
            # a Ghost Hunter who found none.
            out.append({"card": "ghost_hunter", "options": [
                "", *(r for r in roles if r in roles_mod.GHOST_TRANSFORMS)]})
        return out

    def marks_at_end(self, deck: Sequence[str]) -> tuple[dict[str, int], list[str]]:
        roles = set(deck)
        tokens = {t: TOKEN_SUPPLY[t] for t in TOKENS} if roles & TOKEN_ROLES else {}
        artifacts = artifacts_in_play(ARTIFACTS, bool(roles & WOLF_CARDS),
                                      bool(roles & VAMPIRE_CARDS))
        return tokens, artifacts if "curator" in roles else []

    def scenarios(self) -> list[dict[str, Any]]:
        """The named scenarios as data: id, name, parties, difficulty, player range."""
        return [
            {"id": s.id, "name": s.name, "parties": s.parties, "difficulty": s.difficulty,
             "min_players": s.min_players, "max_players": s.max_players}
            for s in (*scenarios.SCENARIOS, scenarios.ANARCHY)
        ]

    def scenario_id(self, name: str) -> str:
        return scenarios.find(name).id

    def scenario_deck(self, name: str, players: int, seed: int = 0) -> list[str]:
        """The validated deck of scenario ``name`` for ``players`` (extra card last)."""
        roles, extra = scenarios.build_deck(name, players, seed)
        return roles + ([extra] if extra is not None else [])

    def night_calls(self, roles: Sequence[str], night: int = 1) -> list[str]:
        return list(night_mod.schedule_for(roles))

    def options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        merged = {"seed": 0, "artifacts": list(ARTIFACTS)}
        if options:
            self.check_option_names(options)
            seed = options.get("seed", 0)
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise DeckError(Said("option 'seed' must be an integer", "options.integer",
                                     option="seed"))
            arts = options.get("artifacts", ARTIFACTS)
            if not isinstance(arts, list | tuple) or any(a not in ARTIFACTS for a in arts) \
                    or len(set(arts)) != len(arts):
                raise DeckError(Said(f"option 'artifacts' lists distinct artifacts among "
                                     f"{', '.join(ARTIFACTS)}", "options.artifacts",
                                     game=self.id, artifacts=list(ARTIFACTS)))
            merged = {"seed": seed, "artifacts": list(arts)}
        return merged

    def new_game(
        self,
        players: Sequence[str],
        deal: Sequence[str],
        options: Mapping[str, Any] | None = None,
        tokens: Sequence[str] | None = None,
        *,
        clock: int | None = None,
    ) -> EpicState:
        names = tuple(players)
        if len(set(names)) != len(names):
            raise DeckError("two players have the same name")
        cards, extra = split_deck(len(names), deal)
        facts = self._facts(len(names), cards, extra)
        return self._start(names, cards, extra, facts, self.options(options), tokens, clock)

    def shuffled(self, players: Sequence[str], roles: Sequence[str], rng: random.Random,
                 seed: int | random.Random, options: Mapping[str, Any] | None,
                 clock: int | None) -> EpicState:
        """Shuffle the players + 3 cards (the extra card stays beside the center).
        The game's own RNG (the Curator's draw) is seeded from the same seed."""
        names = tuple(players)
        if len(set(names)) != len(names):
            raise DeckError("two players have the same name")
        cards, extra = split_deck(len(names), roles)
        facts = self._facts(len(names), cards, extra)
        rng.shuffle(cards)
        game_seed = options["seed"] if options and "seed" in options \
            else seed if isinstance(seed, int) else rng.randrange(2**31)
        # (the default options need no checking: a simulation deals millions of games)
        opts = {"seed": game_seed, "artifacts": list(ARTIFACTS)} if not options \
            else self.options({**options, "seed": game_seed})
        return self._start(names, cards, extra, facts, opts, None, clock)

    def _start(
        self,
        names: tuple[str, ...],
        cards: list[str],
        extra: str | None,
        facts: _DeckFacts,
        opts: dict[str, Any],
        tokens: Sequence[str] | None,
        clock: int | None,
    ) -> EpicState:
        """A new game from a checked deal (``cards``, ours to keep) and checked options."""
        n = len(names)
        if tokens is None:  # "Each player receives a Certainty token" (12 in the box)
            start_tokens = [CERTAINTY] * n
        else:
            start_tokens = list(tokens)
            _check_tokens(names, start_tokens)
        pool = artifacts_in_play(opts["artifacts"], facts.wolves, facts.vampires)
        st = EpicState(names, cards, extra, start_tokens, opts, facts.schedule, pool,
                       facts.tokens, facts.deck)
        st.log.append(Event("deal", MASTER, {"cards": list(st.cards),
                                             "tokens": list(start_tokens)}))
        for s in range(n):
            st.log.append(Event("deal", ONLY[s], {"seat": s, "card": cards[s]}))
        if clock is None:  # (with a clock the night waits at dusk)
            night.advance(st, day.start_day)
        else:
            self.at_dusk(st, clock)
        return st

    # --- playing ----------------------------------------------------------
    def legal_actions(self, state: EpicState, seat: int) -> Sequence[Action]:
        st = state
        if st.phase == NIGHT:
            return st.choices if seat == st.actor else ()  # (no actor: no choices)
        if st.phase == DAY and 0 <= seat < st.n and st.votes[seat] == NOT_VOTED:
            return st.vote_options[seat]
        return ()

    def legal_claims(self, state: EpicState, seat: int) -> Sequence[Action]:
        """What ``seat`` may say during the day ("You may claim anything"): roles in
        the deck, a card seen, a swap made. Talk, not moves: the vote is unchanged."""
        if state.phase != DAY or not 0 <= seat < state.n:
            return ()
        return day.claim_options(state.n, tuple(sorted(set(state.deck))))

    def _check_claim(self, st: EpicState, seat: int, action: Action) -> None:
        if st.phase != DAY:
            raise IllegalAction(str(action), "claims are made during the day")
        if not 0 <= seat < st.n:
            raise IllegalAction(str(action), f"there is no seat {seat}")
        if action not in self.legal_claims(st, seat):
            raise IllegalAction(
                str(action), "a claim names a role in the deck and seats or center cards")
        said = sum(1 for e in st.log if e.kind == "claim" and e.data["seat"] == seat)
        if said >= day.MAX_CLAIMS_PER_SEAT:
            raise IllegalAction(str(action), "too many claims from this seat")

    def apply(self, state: EpicState, seat: int, action: Action) -> None:
        st = state
        phase = st.phase
        if phase == NIGHT and seat == st.actor >= 0:
            if action in st.choices:
                call = st.schedule[st.call_i]
                st.history.append((seat, action, call))
                _, options, act = night.CALLS[call]
                if act(st, seat, action):
                    night.finish_call(st, day.start_day)
                else:  # the call's next stage: the same seat chooses again
                    st.choices = options(st, seat)
                return
        elif phase == DAY and 0 <= seat < st.n and st.votes[seat] == NOT_VOTED \
                and action in st.vote_options[seat]:
            st.history.append((seat, action, "day"))
            day.cast_vote(st, seat, action)
            return
        if action.kind in TALK_KINDS:
            self._check_claim(st, seat, action)
            day.record_claim(st, seat, action)
        elif action.kind == END_CALL.kind:
            self.end_call_from(st, seat)
        else:
            raise IllegalAction(str(action), self._why_illegal(st, seat, action))

    def end_call(self, state: EpicState, move: MoveFn | None = None) -> None:
        """End the open call or the vote: seats still choosing get the default move."""
        st = state
        make, defaults = self.ending(st, move)
        if st.phase == DAY:  # the vote's time is up: who has not pointed abstains
            for s in self.waiting_for(st):
                vote = default_move(self.legal_actions(st, s), defaults)
                if vote is not None:
                    make(s, vote)
            return
        i = st.call_i
        while st.phase == NIGHT and st.call_i == i and st.actor >= 0 and not st.dusk:
            choice = default_move(self.legal_actions(st, st.actor), defaults)
            if choice is None:
                break
            make(st.actor, choice)
        if st.phase == NIGHT and st.call_i == i:  # (without a clock the call has ended)
            night.end_call(st, day.start_day)

    def fast_rounds(self, state: EpicState) -> list[tuple[str, ...]]:
        return split_rounds(state.schedule, night_mod.fast_waits(state.schedule))

    def open_call(self, state: EpicState) -> str | None:
        st = state
        if st.phase == NIGHT:
            return DUSK if st.dusk else st.schedule[st.call_i]
        return "vote" if st.phase == DAY else None

    def _why_illegal(self, st: EpicState, seat: int, action: Action) -> str:
        if st.phase == OVER:
            return "the game is over"
        if not 0 <= seat < st.n:
            return f"there is no seat {seat}"
        if st.phase == NIGHT:
            call = st.schedule[st.call_i]
            if seat != st.actor:
                if seat == st.panicked and st.night_started:
                    return "this seat has the Panic token and may not wake up tonight"
                return f"it is the {call} call and this seat has nothing to do now"
            allowed = ", ".join(str(a) for a in self.legal_actions(st, seat))
            rule = CALL_RULES.get(call, f"the {call} call")
            return f"not one of the choices of the {call} call ({rule}): {allowed}"
        if st.votes[seat] != NOT_VOTED:
            return "this seat has already voted"
        if action.kind == "vote" and action.a == seat:
            return "a player points at a fellow player, not at themselves"
        return "during the day a seat points at another player or abstains"

    def waiting_for(self, state: EpicState) -> tuple[int, ...]:
        if state.phase == NIGHT:
            return (state.actor,) if state.actor >= 0 else ()
        if state.phase == DAY:
            return tuple(s for s in range(state.n) if state.votes[s] == NOT_VOTED)
        return ()

    # --- views ------------------------------------------------------------
    def view(self, state: EpicState, viewer: Viewer) -> dict[str, Any]:
        st = state
        # (``visible_to`` looked up here: the audit's tests swap it to plant a leak)
        events = visible_json(st.log, st.seen_by, viewer, visible_to)
        out: dict[str, Any] = {
            "ruleset": self.id,
            "phase": PHASE_NAMES[st.phase],
            "players": list(st.names),
            "roles_in_play": list(st.deck),
            "tokens_in_play": st.tokens_in_play,
            "call": st.call,
            "face_up": {st.names[s]: c for s, c in st.revealed.items()}
            if st.phase != NIGHT else {},
            "voted": [st.names[s] for s in range(st.n) if st.votes[s] != NOT_VOTED],
            "events": events,
        }
        if isinstance(viewer, int):
            out["seat"] = viewer
            out["legal"] = [a.to_json() for a in self.legal_actions(st, viewer)]
            out["instructions"] = [e["instruction"] for e in events
                                   if e["kind"] == "artifact"]
        if st.outcome is not None:  # every card is turned over: the end screen shows both
            out["outcome"] = {**st.outcome.to_json(st.names), "final": record.final_json(st)}
        return out


# The rule a refused night action breaks, one clause per call (epic-battle-rulebook.txt,
# the role's paragraph; docs/rulings.md, Twilight and night).
CALL_RULES = {
    "mimic": "the Mimic must look at a card in the middle",
    "vampires": "the vampires must give the Vampire token to a player who is not a vampire",
    "the_count": "the Count must give the Panic token to a player who is neither a vampire "
                 "nor the one just bitten",
    "infected": "the Infected gives the Plague token to the player on her left or right",
    "venus": "Venus may exchange the tokens of two players with the Love tokens",
    "instigator": "the Instigator may exchange a player's token with the Traitor token",
    "priest": "the Priest may exchange a fellow player's token with a Certainty token",
    "assassin": "the Assassin must exchange a player's token with the Bounty token",
    "werewolves": "only a lone werewolf may look at a card in the middle",
    "werewolves_dream_wolf": "only a lone werewolf may look at a card in the middle",
    "alpha_wolf": "the Alpha Wolf must give the extra werewolf card to a player who is not "
                  "a werewolf",
    "sight_wolf": "the Sight Wolf may look at another player's card",
    "the_thing": "the Thing may tap the player on its left or right",
    "seer": "the Seer looks at another player's card, or at two cards in the middle",
    "ghost_hunter": "the Ghost Hunter may look at up to two other players' cards",
    "tracker": "the Tracker may look at a player's card, then at another player's token",
    "robber": "the Robber swaps his card with a fellow player's",
    "witch": "the Witch may look at a card in the middle, and must then exchange it with a "
             "player's card",
    "goblin": "the Goblin may swap the cards or the tokens of any two players",
    "enlightener": "the Enlightener may reveal the card of any other player",
    "curator": "the Curator may place an artifact on another player's card or his own",
}


def _check_tokens(names: tuple[str, ...], tokens: list[str]) -> None:
    if len(tokens) != len(names):
        raise DeckError(f"{len(names)} players need {len(names)} starting tokens")
    for t in tokens:
        if t not in TOKENS:
            raise DeckError(f"{t!r} is not a symbol token ({', '.join(TOKENS)})")
    too_many = roles_mod.tokens_beyond_the_box(tokens)
    if too_many is not None:
        raise DeckError(too_many[1])
    # "Setup": "Each player receives a Certainty token"; every other token starts on the
    # board and reaches a player only by a role's exchange (docs/rulings.md).
    for player, t in zip(names, tokens, strict=True):
        if t != CERTAINTY:
            raise DeckError(f"{player} starts with the {t} token, but every player starts with "
                            "a Certainty token; the others come only from the roles' exchanges")


EPIC = register(EpicBattle())

__all__ = ["EPIC", "EpicBattle", "name"]
