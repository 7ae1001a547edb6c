"""Lupus in Tabula as a :class:`~nightcall.engine.ruleset.Ruleset`, with nightcall as the Master.

Besides the Ruleset contract, the Master's timing-free duties are here for the
narrator and the server: :meth:`Lupus.dawn_deaths` (who died, no reason),
:meth:`Lupus.last_to_die` and :meth:`Lupus.choose_last` (which of two deaths
counts as the last), :meth:`Lupus.accusation_order`, :meth:`Lupus.suspects`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from nightcall.engine.actions import Action
from nightcall.engine.cards import CardMap
from nightcall.engine.clock import DUSK, END_CALL, default_move
from nightcall.engine.errors import DeckError, IllegalAction
from nightcall.engine.events import MASTER, Event, Viewer, visible_json, visible_to
from nightcall.engine.fast import FastNight, split_rounds
from nightcall.engine.ruleset import MasterChoice, ModularRuleset, MoveFn, PackVote, register
from nightcall.rulesets.lupus import account, day, deck, night, record
from nightcall.rulesets.lupus import night as night_mod
from nightcall.rulesets.lupus.roles import CARD_MAP, DISPLAY_NAME, ROLE_IDS, side_of
from nightcall.rulesets.lupus.state import (
    ACCUSE,
    DAY,
    NIGHT,
    NOT_YET,
    OVER,
    PHASE_NAMES,
    STAGE_NAMES,
    LupusState,
)


class Lupus(
    ModularRuleset[LupusState],
    MasterChoice[LupusState],
    PackVote[LupusState],
    FastNight[LupusState],
):
    id: ClassVar[str] = "lupus"
    over_phase: ClassVar[int] = OVER
    title: ClassVar[str] = "Lupus in Tabula"
    min_players: ClassVar[int] = deck.MIN_PLAYERS
    max_players: ClassVar[int] = deck.MAX_PLAYERS
    role_ids: ClassVar[tuple[str, ...]] = ROLE_IDS
    card_map: ClassVar[CardMap | None] = CARD_MAP
    # Timing is the narrator's and the server's (the rules core keeps no clock): about
    # three minutes of discussion ("Gameplay", Discussion), a short defense speech for
    # each Suspect (rulings: 30 seconds).
    discussion_seconds: ClassVar[float] = 180
    defense_seconds: ClassVar[int] = 30
    nights: ClassVar[int | None] = None
    reasoning_bot: ClassVar[str | None] = "nightcall.bots.lupus_bot:LupusBot"
    audit_model: ClassVar[str | None] = "nightcall.audit.lupus:LupusModel"
    audit_games: ClassVar[str | None] = "nightcall.audit.lupus:games"
    narration_script: ClassVar[str | None] = "nightcall.rulesets.lupus.script:SCRIPT"
    action_space: ClassVar[str | None] = "nightcall.agents.action_space:lupus_actions"

    def side_of(self, role: str) -> str:
        return side_of(role)

    def __init__(self) -> None:
        super().__init__(account, record)
        self._valid: dict[tuple[Any, ...], list[str]] = {}

    # --- setting up -------------------------------------------------------
    def validate_deck(
        self, players: int, roles: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> list[str]:
        self.check_option_names(options or {})
        # A table deals the same deck game after game: remember the verdict, as One Night
        # does (a refused deck raises and is not remembered).
        key = (players, *sorted(roles))
        warnings = self._valid.get(key)
        if warnings is None:
            if len(self._valid) > 1000:  # many different decks: keep the cache small
                self._valid.clear()
            warnings = self._valid[key] = deck.validate(players, roles)
        return list(warnings)

    def default_deck(self, players: int, scenario: str | None = None) -> list[str]:
        return deck.table_deck(players, scenario)

    def night_calls(self, roles: Sequence[str], night: int = 1) -> list[str]:
        if night < 1:
            raise ValueError(f"nights are numbered from 1, got {night}")
        return list(night_mod.calls_for(tuple(sorted(set(roles))), night))

    def new_game(
        self,
        players: Sequence[str],
        deal: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        clock: int | None = None,
    ) -> LupusState:
        names = tuple(players)
        if len(set(names)) != len(names):
            raise DeckError("two players have the same name")
        self.validate_deck(len(names), deal, options)
        st = LupusState(names, list(deal))
        only = night.ONLY
        st.log.append(Event("deal", MASTER, {"cards": list(deal)}))
        st.log.extend([Event("deal", only[s], {"seat": s, "card": card})
                       for s, card in enumerate(deal)])
        if clock is not None:
            self.at_dusk(st, clock)
        if night.begin_night(st):  # pragma: no cover - the werewolves always choose
            day.dawn(st)
        return st

    # --- playing ----------------------------------------------------------
    def legal_actions(self, state: LupusState, seat: int) -> Sequence[Action]:
        st = state
        if st.phase == NIGHT:
            return night.options(st, seat)
        if st.phase == DAY:
            if st.stage == ACCUSE:
                return st.accuse_choices[seat] if seat == st.turn else ()
            if seat in st.voters and st.votes[seat] == NOT_YET:
                return st.vote_choices
        return ()

    def apply(self, state: LupusState, seat: int, action: Action) -> None:
        st = state
        if action not in self.legal_actions(st, seat):
            if action.kind == END_CALL.kind:
                self.end_call_from(st, seat)
                return
            raise IllegalAction(str(action), self.why_illegal(st, seat, action))
        if st.phase == NIGHT:
            if night.act(st, seat, action):
                day.dawn(st)
        elif st.stage == ACCUSE:
            day.accuse(st, seat, action)
        else:
            day.vote(st, seat, action)

    def end_call(self, state: LupusState, move: MoveFn | None = None) -> None:
        """End the open call or the day's turn: seats still choosing get the default."""
        st = state
        make, defaults = self.ending(st, move)
        waiting = self.waiting_for(st)
        if st.phase == DAY:  # the turn's time is up: who has not chosen gets the default
            for s in waiting:
                choice = default_move(self.legal_actions(st, s), defaults)
                if choice is not None:
                    make(s, choice)
            return
        i, night_no = st.call_i, st.night
        for s in () if st.dusk else waiting:
            choice = default_move(self.legal_actions(st, s), defaults)
            if choice is not None:
                make(s, choice)
        # (without a clock the last choice has ended the call already)
        if st.phase == NIGHT and st.call_i == i and st.night == night_no \
                and night.end_call(st):
            day.dawn(st)

    def fast_rounds(self, state: LupusState) -> list[tuple[str, ...]]:
        # Every call of a Lupus night goes at once (docs/rulings.md, fast night rule 17).
        return split_rounds(state.calls, ())

    def fast_ghosts(self, state: LupusState) -> frozenset[int]:
        # "Whoever dies becomes a Ghost: they ... keep their eyes closed at night"
        # (Gameplay, Dawn): no night task (fast night rule 22).
        return frozenset(s for s in range(state.n) if not state.alive[s])

    def open_call(self, state: LupusState) -> str | None:
        st = state
        if st.phase == NIGHT:
            return DUSK if st.dusk else st.calls[st.call_i]
        return STAGE_NAMES[st.stage] if st.phase == DAY else None

    def why_illegal(self, st: LupusState, seat: int, action: Action) -> str:
        """Why ``seat`` may not do ``action`` now, in words a player understands."""
        names = st.names
        if st.phase == OVER:
            return "the game is over"
        if not 0 <= seat < st.n:
            return f"there is no seat {seat}"
        who = names[seat]
        target = action.a
        named = names[target] if 0 <= target < st.n else f"seat {target}"
        if st.phase == NIGHT:
            call = DISPLAY_NAME.get(st.calls[st.call_i], "")
            if not st.alive[seat]:
                return f"{who} is a ghost and keeps their eyes closed at night"
            if seat not in st.actors:
                return f"it is the {call}'s call and {who} has nothing to do now"
            if seat in st.picks:
                return f"{who} has already pointed in the {call}'s call"
            if 0 <= target < st.n and not st.alive[target]:
                return f"{named} is dead: the {call} points at a living player"
            if target == seat and action.kind == "protect":
                return f"the Bodyguard protects themselves only once per game ({who} already did)"
            if target == seat:
                return f"the {call} points at another player, not at themselves"
            if action.kind == "kill" and 0 <= target < st.n:
                return f"{named} is one of the werewolves: the pack picks a victim outside it"
            allowed = ", ".join(str(a) for a in self.legal_actions(st, seat))
            return f"not one of the choices of the {call}'s call: {allowed}"
        if st.stage == ACCUSE:
            turn = day.accuser(st)
            if seat != turn:
                return f"the accusation goes round in order and it is {names[turn]}'s turn"
            if 0 <= target < st.n and not st.alive[target]:
                return f"{named} is dead: accusations point at living players"
            if target == seat:
                return "a player accuses someone else, not themselves"
            return "in the accusation round a player accuses a living player or nobody"
        if not st.alive[seat]:
            return f"{who} is a ghost: ghosts do not vote in the execution"
        if seat in st.suspects:
            return f"{who} is a Suspect and does not vote in the execution"
        if st.votes[seat] != NOT_YET:
            return f"{who} has already voted"
        suspects = " and ".join(names[s] for s in st.suspects)
        return f"{named} is not a Suspect: the vote is between {suspects}"

    def waiting_for(self, state: LupusState) -> tuple[int, ...]:
        st = state
        if st.phase == NIGHT:
            return tuple(s for s in st.actors if s not in st.picks)
        if st.phase == DAY:
            if st.stage == ACCUSE:
                return (st.turn,)
            return tuple(s for s in st.voters if st.votes[s] == NOT_YET)
        return ()

    # --- the Master's duties ---------------------------------------------------
    def dawn_deaths(self, state: LupusState) -> tuple[int, ...]:
        """Who died at the last dawn, in the order announced; never why."""
        return state.dawn_dead

    def last_to_die(self, state: LupusState) -> int | None:
        return state.last if state.last >= 0 else None

    pack_call: ClassVar[str] = "werewolf"
    pack_action: ClassVar[str] = "kill"

    def pack(self, state: LupusState) -> tuple[int, ...]:
        """The werewolves awake now, who point at one victim together."""
        return state.actors if state.call == self.pack_call else ()

    def pack_picks(self, state: LupusState) -> dict[int, Action]:
        return dict(state.picks) if self.pack(state) else {}

    def may_choose_last(self, state: LupusState) -> bool:
        return state.phase == DAY and state.stage == ACCUSE and state.accuse_i == 0

    def choose_last(self, state: LupusState, seat: int) -> None:
        """Let the Master name which of this dawn's deaths counts as the last to die,
        before anyone accuses. By default the app names the last one announced."""
        st = state
        if not self.may_choose_last(st):
            raise IllegalAction(
                f"(last {seat})", "the last to die is named at dawn, before the accusations"
            )
        if seat not in st.dawn_dead:
            dead = ", ".join(st.names[s] for s in st.dawn_dead) or "nobody"
            raise IllegalAction(
                f"(last {seat})", f"only one of this dawn's dead can be named; dead: {dead}"
            )
        if seat != st.last:
            day.choose_last(st, seat)

    def accusation_order(self, state: LupusState) -> tuple[int, ...]:
        """From the left of the last to die, clockwise, everyone, ghosts included."""
        return state.accuse_order

    def suspects(self, state: LupusState) -> tuple[int, ...]:
        return state.suspects

    # --- views ------------------------------------------------------------
    def view(self, state: LupusState, viewer: Viewer) -> dict[str, Any]:
        st = state
        names = st.names
        out: dict[str, Any] = {
            "ruleset": self.id,
            "phase": PHASE_NAMES[st.phase],
            "night": st.night,
            "day": st.day,
            "stage": STAGE_NAMES[st.stage] if st.phase == DAY else None,
            "players": list(names),
            "alive": [names[s] for s in range(st.n) if st.alive[s]],
            "ghosts": [names[s] for s in range(st.n) if not st.alive[s]],
            "roles_in_play": list(st.deck),
            "call": st.call,
            "last_to_die": names[st.last] if st.last >= 0 else None,
            "accusation_order": [names[s] for s in st.accuse_order],
            "accuser": None,
            "suspects": [names[s] for s in st.suspects],
            "voted": [names[s] for s in st.voters if st.votes[s] != NOT_YET],
            "executed": [names[s] for s in st.executed],
            "events": visible_events(st, viewer),
        }
        if st.phase == DAY and st.stage == ACCUSE:
            out["accuser"] = names[day.accuser(st)]
        if isinstance(viewer, int):
            out["seat"] = viewer
            out["role"] = st.start[viewer] if 0 <= viewer < st.n else None
            if 0 <= viewer < st.n and st.roles[viewer] != st.start[viewer]:
                # The Mythomaniac knows what it became (it was told at night 2).
                out["role"] = st.roles[viewer]
            out["ghost"] = 0 <= viewer < st.n and not st.alive[viewer]
            out["legal"] = [a.to_json() for a in self.legal_actions(st, viewer)]
        if viewer == MASTER:
            out["roles"] = list(st.roles)
            out["waiting_for"] = [names[s] for s in self.waiting_for(st)]
        if st.outcome is not None:  # every card is turned over: the end screen shows both
            out["outcome"] = {**st.outcome.to_json(names), "final": record.final_json(st)}
        return out


def visible_events(st: LupusState, viewer: Viewer) -> list[dict[str, Any]]:
    """The events ``viewer`` may see, as plain dicts, read incrementally from the log."""
    return visible_json(st.log, st.seen_by, viewer, visible_to)

LUPUS = Lupus()
register(LUPUS)
