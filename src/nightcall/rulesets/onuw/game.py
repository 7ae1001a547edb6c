"""One Night Ultimate Werewolf as a :class:`~nightcall.engine.ruleset.Ruleset`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from nightcall.engine.actions import Action
from nightcall.engine.cards import CardMap
from nightcall.engine.clock import DUSK, END_CALL, default_move
from nightcall.engine.errors import DeckError, IllegalAction, Said
from nightcall.engine.events import MASTER, Event, Viewer, visible_json, visible_to
from nightcall.engine.fast import FastNight, split_rounds
from nightcall.engine.ruleset import TALK_KINDS, ModularRuleset, MoveFn, Talk, register
from nightcall.rulesets.onuw import account, day, deck, night, record
from nightcall.rulesets.onuw import night as night_mod
from nightcall.rulesets.onuw.roles import (
    CALL_ORDER,
    CARD_MAP,
    DISPLAY_NAME,
    DOPPELGANGER,
    DRUNK,
    ROBBER,
    ROLE_IDS,
    SEER,
    TEAM,
    TROUBLEMAKER,
    WEREWOLF,
)
from nightcall.rulesets.onuw.state import (
    ABSTAIN,
    DAY,
    NIGHT,
    NOT_VOTED,
    OVER,
    PHASE_NAMES,
    OneNightState,
)

DEFAULT_OPTIONS: dict[str, object] = {"lone_wolf": True}


@cache
def _seats(n: int) -> tuple[int, ...]:
    return tuple(range(n))


class OneNight(ModularRuleset[OneNightState], Talk[OneNightState], FastNight[OneNightState]):
    id: ClassVar[str] = "onuw"
    over_phase: ClassVar[int] = OVER
    center_cards: ClassVar[int] = deck.CENTER
    title: ClassVar[str] = "One Night Ultimate Werewolf"
    min_players: ClassVar[int] = deck.MIN_PLAYERS
    max_players: ClassVar[int] = deck.MAX_PLAYERS
    role_ids: ClassVar[tuple[str, ...]] = ROLE_IDS
    card_map: ClassVar[CardMap | None] = CARD_MAP
    call_order: ClassVar[tuple[str, ...]] = CALL_ORDER
    default_options: ClassVar[Mapping[str, object]] = DEFAULT_OPTIONS
    # (the default timings: 10 seconds a call, 5 minutes of talk)
    reasoning_bot: ClassVar[str | None] = "nightcall.bots.onuw.bot:OneNightBot"
    audit_model: ClassVar[str | None] = "nightcall.audit.onuw:OnuwModel"
    audit_games: ClassVar[str | None] = "nightcall.audit.onuw:games"
    narration_script: ClassVar[str | None] = "nightcall.rulesets.onuw.script:SCRIPT"
    judge: ClassVar[str | None] = "nightcall.rulesets.onuw.judge"
    action_space: ClassVar[str | None] = "nightcall.agents.action_space:onuw_actions"

    def __init__(self) -> None:
        super().__init__(account, record)
        self._schedules: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._valid: dict[tuple[object, ...], list[str]] = {}
        self._sorted: dict[tuple[str, ...], tuple[str, ...]] = {}

    # --- setting up -------------------------------------------------------
    def validate_deck(
        self, players: int, roles: Sequence[str], options: Mapping[str, object] | None = None
    ) -> list[str]:
        # Decks repeat across millions of simulated games: remember the verdict.
        key = (players, *sorted(roles))
        warnings = self._valid.get(key)
        if warnings is None:
            warnings = self._valid[key] = deck.validate(players, roles)
        return list(warnings)

    def recommended_deck(self, players: int, add: Sequence[str] = ()) -> list[str]:
        return deck.recommended(players, add)

    def default_deck(self, players: int, scenario: str | None = None) -> list[str]:
        if scenario is not None:
            raise DeckError(Said("One Night has no scenarios; use --roles to pick a deck",
                                 "deck.no_scenarios", title="One Night"))
        return deck.recommended(players)

    def night_calls(self, roles: Sequence[str], night: int = 1) -> list[str]:
        return list(night_mod.schedule_for(tuple(sorted(roles)), self.call_order))

    def side_of(self, role: str) -> str:
        return str(TEAM.get(role, ""))

    def copies_at_end(self, deck: Sequence[str]) -> list[dict[str, Any]]:
        roles = list(dict.fromkeys(deck))
        if "doppelganger" not in roles:
            return []
        # "Looks at another player's card": any other card of the deck.
        return [{"card": "doppelganger", "options": [r for r in roles if r != "doppelganger"]}]

    def options(self, options: Mapping[str, object] | None) -> dict[str, object]:
        if not options:
            return DEFAULT_OPTIONS  # shared: the engine never mutates options
        merged = dict(DEFAULT_OPTIONS)
        if options:
            self.check_option_names(options)
            for key, value in options.items():
                if not isinstance(value, bool):
                    raise DeckError(Said(f"option {key!r} must be true or false",
                                         "options.bool", option=key))
            merged.update(options)
        return merged

    def shuffled(self, players: Sequence[str], roles: Sequence[str], rng: random.Random,
                 seed: int | random.Random, options: Mapping[str, object] | None,
                 clock: int | None) -> OneNightState:
        cards = list(roles)
        rng.shuffle(cards)
        # The sorted deck (``state.deck``) of the roles as given: sorting costs more than
        # a look-up, and a simulation deals the same roles millions of times. (This and
        # the two caches of ``_start`` are worth 1.21x the instructions of a whole
        # 10-player engine benchmark, 1.37-1.60x its CPU time: benchmarks/tricks.py.)
        order = tuple(roles)
        key = self._sorted.get(order)
        if key is None:
            if len(self._sorted) > 1000:  # many different decks: keep the cache small
                self._sorted.clear()
            key = self._sorted[order] = tuple(sorted(order))
        return self._start(players, cards, key, options, clock)  # validates the deck

    def new_game(
        self,
        players: Sequence[str],
        deal: Sequence[str],
        options: Mapping[str, object] | None = None,
        *,
        clock: int | None = None,
    ) -> OneNightState:
        cards = list(deal)
        return self._start(players, cards, tuple(sorted(cards)), options, clock)

    def _start(
        self,
        players: Sequence[str],
        cards: list[str],
        key: tuple[str, ...],
        options: Mapping[str, object] | None,
        clock: int | None = None,
    ) -> OneNightState:
        """A new game from a deal (``cards``, ours to keep) and its sorted deck ``key``."""
        names = tuple(players)
        if len(set(names)) != len(names):
            raise DeckError("two players have the same name")
        # A deck is checked once: a schedule is remembered only for a valid deck of
        # len(names) + 3 cards, and that length alone decides its player count.
        schedule = self._schedules.get(key)
        if schedule is None or len(key) != len(names) + 3:
            self.validate_deck(len(names), cards, options)
            schedule = self._schedules[key] = night.schedule_for(key, self.call_order)
        opts = DEFAULT_OPTIONS if not options else self.options(options)
        st = OneNightState(names, cards, opts, schedule, key)
        log = st.log
        # The deal is one master-only event; each seat's look at its own card is added
        # by view() from ``start`` (cheaper than n more events in every simulated game).
        log.append(Event("deal", MASTER, {"cards": cards.copy()}))
        if clock is None:  # (with a clock the night waits at dusk)
            night.advance(st, day.start_day)
        else:
            self.at_dusk(st, clock)
        return st

    # --- playing ----------------------------------------------------------
    def legal_actions(self, state: OneNightState, seat: int) -> Sequence[Action]:
        """The moves ``seat`` may make now (talk is listed by :meth:`legal_claims`)."""
        st = state
        if st.phase == NIGHT:
            return st.choices if seat == st.actor else ()
        if st.phase == DAY and 0 <= seat < st.n and st.votes[seat] == NOT_VOTED:
            return st.vote_options[seat]
        return ()

    def legal_claims(self, state: OneNightState, seat: int) -> Sequence[Action]:
        """What ``seat`` may say during the day: only roles that are in the deck."""
        if state.phase != DAY or not 0 <= seat < state.n:
            return ()
        return day.claim_options(state.n, tuple(sorted(set(state.deck))))

    def apply(self, state: OneNightState, seat: int, action: Action) -> None:
        st = state
        phase = st.phase
        if phase == NIGHT:
            if seat != st.actor or action not in st.choices:
                if action.kind == END_CALL.kind:
                    self.end_call_from(st, seat)
                    return
                raise IllegalAction(str(action), self._why_illegal(st, seat, action))
            call = st.schedule[st.call_i]
            st.history.append((seat, action, call))
            if night.CALLS[call][1](st, seat, action):
                if st.held:  # the call stays open until end_call
                    st.actor = -1
                    st.choices = ()
                    return
                st.call_i += 1
                st.stage = 0
                st.actor = -1
                st.choices = ()
                night.advance(st, day.start_day)
            # else the same seat chooses again (the Doppelgänger's copied action): act()
            # has set st.choices
            return
        if action.kind in TALK_KINDS:
            self._check_claim(st, seat, action)
            day.record_claim(st, seat, action)
            return
        votes = st.votes
        if (
            phase != DAY
            or not 0 <= seat < st.n
            or votes[seat] != NOT_VOTED
            or action not in st.vote_options[seat]
        ):
            if action.kind == END_CALL.kind:
                self.end_call_from(st, seat)
                return
            raise IllegalAction(str(action), self._why_illegal(st, seat, action))
        # The ballots live in ``votes`` (not in ``history``): secret until all are in.
        votes[seat] = action.a if action.kind == "vote" else ABSTAIN
        st.pending -= 1
        if not st.pending:
            day.resolve(st)

    def end_call(self, state: OneNightState, move: MoveFn | None = None) -> None:
        """End the open call or the vote: seats still choosing get the default move."""
        st = state
        make, defaults = self.ending(st, move)
        if st.phase == DAY:  # the vote's time is up: who has not pointed abstains
            for s in self.waiting_for(st):
                vote = default_move(st.vote_options[s], defaults)
                if vote is not None:
                    make(s, vote)
            return
        i = st.call_i
        while st.phase == NIGHT and st.call_i == i and st.actor >= 0 and not st.dusk:
            choice = default_move(st.choices, defaults)
            if choice is None:
                break
            make(st.actor, choice)
        if st.phase == NIGHT and st.call_i == i:  # (without a clock the call has ended)
            night.end_call(st, day.start_day)

    def fast_rounds(self, state: OneNightState) -> list[tuple[str, ...]]:
        # Who wakes as a werewolf (and so whether one is alone and looks at the center)
        # waits for the Doppelgänger's copy (docs/rulings.md, fast night rule 2).
        wait = ("werewolf",) if "doppelganger" in state.schedule else ()
        return split_rounds(state.schedule, wait)

    def open_call(self, state: OneNightState) -> str | None:
        st = state
        if st.phase == NIGHT:
            return DUSK if st.dusk else st.schedule[st.call_i]
        return "vote" if st.phase == DAY else None

    def _check_claim(self, st: OneNightState, seat: int, action: Action) -> None:
        if st.phase != DAY:
            raise IllegalAction(str(action), "claims are made during the day")
        if not 0 <= seat < st.n:
            raise IllegalAction(str(action), f"there is no seat {seat}")
        if action not in self.legal_claims(st, seat):
            raise IllegalAction(
                str(action), "a claim names a role in the deck and seats or center cards"
            )
        if sum(1 for s, _ in st.claims if s == seat) >= day.MAX_CLAIMS_PER_SEAT:
            raise IllegalAction(str(action), "too many claims from this seat")

    def _why_illegal(self, st: OneNightState, seat: int, action: Action) -> str:
        if st.phase == OVER:
            return "the game is over"
        if action.kind in TALK_KINDS:
            return "claims are made during the day"
        if not 0 <= seat < st.n:
            return f"there is no seat {seat}"
        if st.phase == NIGHT:
            if seat != st.actor:
                return f"it is the {DISPLAY_NAME.get(st.schedule[st.call_i], 'night')}'s " \
                    "call and this seat has nothing to do now"
            allowed = ", ".join(str(a) for a in self.legal_actions(st, seat))
            return f"not one of the choices of this call ({_night_rule(st)}): {allowed}"
        if st.votes[seat] != NOT_VOTED:
            return "this seat has already voted"
        if action.kind == "vote" and action.a == seat:
            return "a player points at another player, not at themselves"
        return "during the day a seat votes for another player or abstains"

    def waiting_for(self, state: OneNightState) -> tuple[int, ...]:
        if state.phase == NIGHT:
            return (state.actor,) if state.actor >= 0 else ()
        if state.phase == DAY:
            if state.pending == state.n:  # nobody has voted yet: every seat, one cached tuple
                return _seats(state.n)
            return tuple(s for s in range(state.n) if state.votes[s] == NOT_VOTED)
        return ()

    # --- views ------------------------------------------------------------
    def view(self, state: OneNightState, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may know now: public facts, the events whose audience includes
        it (a seat starts with its own card, "deal"), its legal moves; every card once the
        game is over. ``None`` is a spectator or the host screen; MASTER sees everything."""
        st = state
        # (``visible_to`` looked up here: the audit's tests swap it to plant a leak)
        events = visible_json(st.log, st.seen_by, viewer, visible_to)
        if isinstance(viewer, int) and 0 <= viewer < st.n:
            events.insert(0, {"kind": "deal", "seat": viewer, "card": st.start[viewer]})
        out: dict[str, Any] = {
            "ruleset": self.id,
            "phase": PHASE_NAMES[st.phase],
            "players": list(st.names),
            "roles_in_play": list(st.deck),
            "call": st.call,
            "voted": [st.names[s] for s in range(st.n) if st.votes[s] != NOT_VOTED],
            "events": events,
        }
        if isinstance(viewer, int):
            out["seat"] = viewer
            out["legal"] = [a.to_json() for a in self.legal_actions(st, viewer)]
        if st.outcome is not None:  # every card is turned over: the end screen shows both
            out["outcome"] = {**st.outcome.to_json(st.names), "final": record.final_json(st)}
        return out


ONUW = OneNight()
register(ONUW)


# The rule a refused night action breaks (the role table of one-night-ultimate-werewolf.md).
NIGHT_RULES = {
    DOPPELGANGER: "the Doppelgänger must look at another player's card",
    WEREWOLF: "a lone Werewolf may look at one center card",
    SEER: "the Seer looks at another player's card, or at two center cards",
    ROBBER: "the Robber may swap their card with another player's",
    TROUBLEMAKER: "the Troublemaker may swap the cards of two other players",
    DRUNK: "the Drunk must swap their card with a center card",
}


def _night_rule(st: OneNightState) -> str:
    """The rule an action refused in the current night call breaks, in one clause."""
    role = st.schedule[st.call_i]
    if role == DOPPELGANGER and st.stage == 2 and st.copy is not None:
        role = st.copy  # the Doppelgänger acting at once as the role it copied
    return NIGHT_RULES.get(role, f"the {DISPLAY_NAME.get(role, role)}'s call")
