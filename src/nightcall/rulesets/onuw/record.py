"""One Night records: replay a record into a state, write a state back as a record.

Steps follow shared/spec/game-record.md. A record is replayed through the same
checked ``apply`` as a live game, so a record is illegal exactly when a live
player could not have done what it says; the error names the step and the rule.
A night step may name a call that has nothing to choose (the Masons, the Minion,
the Insomniac, ...): it is checked and passed over (docs/rulings.md, One Night 13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from nightcall.engine import records
from nightcall.engine.actions import Action
from nightcall.engine.errors import RecordError, Said
from nightcall.engine.jsontype import JSONObject
from nightcall.engine.outcome import reason_json, why
from nightcall.rulesets.onenight import detail_claim, position_json
from nightcall.rulesets.onuw import night
from nightcall.rulesets.onuw.night import SKIP, holders
from nightcall.rulesets.onuw.roles import (
    DOPPELGANGER,
    DOPPELGANGER_INSOMNIAC,
    DRUNK,
    INSOMNIAC,
    MASON,
    MINION,
    ROBBER,
    ROLE_IDS,
    SEER,
    TROUBLEMAKER,
    WEREWOLF,
)
from nightcall.rulesets.onuw.state import DAY, NIGHT, NOT_VOTED, OVER, OneNightState

if TYPE_CHECKING:
    from nightcall.rulesets.onuw.game import OneNight

ACTION_FIELDS = ("look", "center", "swap", "skip", "then")


def replay(ruleset: OneNight, record: Mapping[str, object]) -> OneNightState:
    names = records.players_of(record)
    deal = read_deal(ruleset, record, names)
    options = records.options_of(record)
    st = records.new_game(lambda: ruleset.new_game(names, deal, options))
    records.read_call_steps(_Replay(ruleset, st), record)
    return st


def read_deal(ruleset: OneNight, record: Mapping[str, object], names: tuple[str, ...]) -> list[str]:
    return records.dealt_cards(ruleset, record, names) + records.center_cards(ruleset, record)


def _finish_night(ruleset: OneNight, st: OneNightState, i: int) -> None:
    """Close the night: optional choices nobody recorded are skips; compulsory ones are errors."""
    while st.phase == NIGHT:
        _skip_current(ruleset, st, i)


def _skip_current(ruleset: OneNight, st: OneNightState, i: int) -> None:
    legal = ruleset.legal_actions(st, st.actor)
    call = st.schedule[st.call_i]
    if SKIP not in legal:
        raise RecordError(Said(
            f"the {call} call needs a choice from {st.names[st.actor]} "
            f"(it is compulsory) but the record has none before this step",
            "onuw.record.compulsory", role=call, name=st.names[st.actor]), i)
    ruleset.apply(st, st.actor, SKIP)


def wakers(st: OneNightState, call: str) -> list[int]:
    """The seats that open their eyes in ``call`` (from the starting cards and the
    Doppelgänger's copy), whether or not they have anything to choose."""
    if call == DOPPELGANGER:
        return [s for s, c in enumerate(st.start) if c == DOPPELGANGER]
    if call == DOPPELGANGER_INSOMNIAC:
        return [st.doppel] if st.copy == INSOMNIAC and st.doppel >= 0 else []
    if call in (WEREWOLF, MASON):
        return holders(st, call)
    # The Doppelgänger-Minion and the Doppelgänger-Seer, -Robber, ... act inside the
    # Doppelgänger's call; in the role's own call only its starting holder wakes.
    return [s for s, c in enumerate(st.start) if c == call]


class _Replay:
    """Night steps in wake order. A step may name a call that has nothing to choose (the
    Masons looking at each other, the Insomniac, ...): it is checked and passed over,
    even when the engine, which never stops on such a call, is already past it."""

    def __init__(self, ruleset: OneNight, st: OneNightState) -> None:
        self.ruleset = ruleset
        self.st = st
        self.last_call = 0  # schedule index of the last night step
        self.chosen: set[int] = set()  # schedule indices whose choice a step has made
        self.day_step = -1  # the step at which the day began

    def finish_night(self, i: int) -> None:
        _finish_night(self.ruleset, self.st, i)

    def begin_day(self, i: int) -> None:
        _finish_night(self.ruleset, self.st, i)
        if self.day_step < 0:
            self.day_step = i

    def claims(self, i: int, step: Mapping[str, Any]) -> None:
        _claims(self.ruleset, self.st, i, step)

    def votes(self, i: int, step: Mapping[str, Any]) -> None:
        _votes(self.ruleset, self.st, i, step)

    def target(self, i: int, raw: str) -> int:
        """The schedule index a step's call names, checked against the wake order."""
        st = self.st
        if raw == DOPPELGANGER_INSOMNIAC:
            names: tuple[str, ...] = (DOPPELGANGER_INSOMNIAC,)
        elif raw == DOPPELGANGER:  # the Doppelgänger is called twice: its own call, and
            names = (DOPPELGANGER, DOPPELGANGER_INSOMNIAC)  # after the Insomniac
        else:
            names = (raw,)
        places = [j for j, c in enumerate(st.schedule) if c in names]
        if not places:
            if raw not in night.CALLS:
                raise RecordError(Said(f"the {raw} is never called: it does not wake at night",
                                       "onuw.record.never_called", role=raw), i)
            raise RecordError(Said(f"nobody is called as {raw}: that role is not in the deck",
                                   "onuw.record.not_in_deck", role=raw), i)
        later = [j for j in places if j >= self.last_call and j not in self.chosen]
        if not later:
            if places[-1] in self.chosen:
                raise RecordError(Said(
                    f"the {raw} call is already over: an earlier step made its choice",
                    "onuw.record.call_over", role=raw), i)
            raise RecordError(Said(
                f"out of wake order: the {raw} call comes before the "
                f"{st.schedule[self.last_call]} call, and night steps come in wake order",
                "onuw.record.wake_order", role=raw, before=st.schedule[self.last_call]), i)
        return later[0]

    def night_step(self, i: int, step: dict[str, Any]) -> None:
        ruleset, st = self.ruleset, self.st
        raw = step["call"]
        if not isinstance(raw, str):
            raise RecordError(Said("'call' must be a role id", "onuw.record.call_id"), i)
        if raw not in ROLE_IDS and raw != DOPPELGANGER_INSOMNIAC:
            raise RecordError(Said(f"{raw!r} is not a One Night role", "onuw.record.not_a_role",
                                   call=raw), i)
        if self.day_step >= 0:
            raise RecordError(Said(f"a night step ({raw}) after the night is over: the day "
                                   f"began at step {self.day_step}", "onuw.record.after_night",
                                   role=raw, day=self.day_step), i)
        j = self.target(i, raw)
        call = st.schedule[j]
        while st.phase == NIGHT and st.call_i < j:
            _skip_current(ruleset, st, i)
        self.last_call = j
        player = step.get("player")
        seat = records.seat_of(st.names, player, i, "player") if player is not None else -1
        has_choice = any(key in step for key in ACTION_FIELDS)
        if st.phase != NIGHT or st.call_i != j or st.actor < 0:
            # The call is one the engine passes over: nobody chooses in it.
            if has_choice:
                raise RecordError(self.why_no_choice(raw, call), i)
            if seat >= 0 and seat not in wakers(st, call):
                raise RecordError(Said(f"{player} does not wake in the {raw} call",
                                       "onuw.record.not_awake", name=str(player), role=raw), i)
            return
        if seat >= 0 and seat != st.actor:
            raise RecordError(Said(f"{player} does not wake to choose in the {raw} call",
                                   "onuw.record.not_choosing", name=str(player), role=raw), i)
        seat = st.actor
        self.chosen.add(j)
        if call == DOPPELGANGER:
            ruleset.apply(st, seat, _read_action(st, i, DOPPELGANGER, step))
            copied = st.copy or ""
            then = step.get("then")
            if st.actor == seat and st.schedule[st.call_i] == DOPPELGANGER:  # acts at once
                if then is None:
                    _skip_current(ruleset, st, i)
                elif not isinstance(then, dict):
                    raise RecordError(Said("'then' must be an action object",
                                           "onuw.record.then"), i)
                else:
                    ruleset.apply(st, seat, _read_action(st, i, copied, then))
            elif then:
                raise RecordError(Said(
                    f"the Doppelgänger copied the {copied}, which does not act at once",
                    "onuw.record.copy_later", role=copied), i)
            return
        ruleset.apply(st, seat, _read_action(st, i, call, step))

    def why_no_choice(self, raw: str, call: str) -> str:
        """Which rule leaves ``call`` without a choice, for a step that makes one."""
        st = self.st
        if call == WEREWOLF:
            wolves = holders(st, WEREWOLF)
            if len(wolves) > 1:
                return ("only a lone werewolf may look at a center card, and "
                        f"{len(wolves)} players wake as werewolves here")
            if wolves:
                return ("the lone werewolf's look at a center card is off in this game "
                        "(option lone_wolf: false)")
            return "no player holds a Werewolf card: nobody chooses in the werewolf call"
        if call == DOPPELGANGER_INSOMNIAC:
            return ("the Doppelgänger's second call, after the Insomniac, only looks at "
                    "their card: it has nothing to choose")
        if call in (MINION, MASON, INSOMNIAC):
            return (f"the {raw} only looks and has nothing to choose: the step may name "
                    "the player but no choice")
        return f"no player holds the {raw} card: nobody chooses in the {raw} call"


def _read_action(st: OneNightState, i: int, role: str, step: Mapping[str, Any]) -> Action:
    """Turn the fields of a night step into the action of ``role``."""
    names = st.names
    if step.get("skip") is True:
        return SKIP
    if role == DOPPELGANGER:
        if "look" not in step:
            raise RecordError(Said("the Doppelgänger must look at another player's card",
                                   "onuw.record.copy_look"), i)
        return Action("copy", records.seat_of(names, step["look"], i, "look"))
    if role == SEER:
        if "look" in step:
            look = step["look"]
            if isinstance(look, list):
                if len(look) != 1:
                    raise RecordError(Said("the Seer looks at one player's card",
                                           "onuw.record.seer_one"), i)
                look = look[0]
            return Action("look", records.seat_of(names, look, i, "look"))
        if "center" in step:
            a, b = sorted(records.center_indices(i, step["center"], 2))
            return Action("look_center", a, b)
    elif role == ROBBER:
        if "swap" in step:
            return Action("swap", records.seat_of(names, step["swap"], i, "swap"))
    elif role == TROUBLEMAKER:
        pair = step.get("swap")
        if pair is not None:
            if not isinstance(pair, list) or len(pair) != 2:
                raise RecordError(Said("the Troublemaker swaps a pair of players",
                                       "onuw.record.swap_pair"), i)
            a, b = sorted(records.seat_of(names, p, i, "swap") for p in pair)
            return Action("swap_two", a, b)
    elif role == DRUNK:
        if "center" in step:
            return Action("take_center", records.center_indices(i, step["center"], 1)[0])
    elif role == WEREWOLF:
        if "center" in step:
            return Action("look_center", records.center_indices(i, step["center"], 1)[0])
    else:
        raise RecordError(Said(f"the {role} has no choice to make at night",
                               "onuw.record.no_choice", role=role), i)
    if any(key in step for key in ("look", "center", "swap")):
        raise RecordError(Said(f"these fields do not fit the {role}'s action",
                               "onuw.record.fields", role=role), i)
    return SKIP


def _claims(ruleset: OneNight, st: OneNightState, i: int, step: Mapping[str, object]) -> None:
    for name, role in records.claims_of(step, i).items():
        seat = records.seat_of(st.names, name, i, "claims")
        if role not in ROLE_IDS:
            raise RecordError(Said(f"{name} claims {role!r}, which is not a One Night role",
                                   "onuw.record.claim_role", name=name, claim=str(role)), i)
        ruleset.apply(st, seat, Action("claim", ROLE_IDS.index(role)))
    # claims_detail is free-form in the spec; structured entries are replayed, others kept as text.
    detail = step.get("claims_detail")
    if isinstance(detail, list):
        for entry in detail:
            action = detail_claim(st.names, ROLE_IDS, entry)
            if action is not None:
                seat = records.seat_of(st.names, entry["player"], i, "claims_detail")
                ruleset.apply(st, seat, action)




def _votes(ruleset: OneNight, st: OneNightState, i: int, step: Mapping[str, object]) -> None:
    votes = step["votes"]
    if not isinstance(votes, dict):
        raise RecordError(Said("'votes' must map voters to the player they point at",
                               "onuw.record.votes"), i)
    if st.phase != DAY:
        raise RecordError(Said("the vote has already been counted", "onuw.record.counted"), i)
    for voter, target in votes.items():
        seat = records.seat_of(st.names, voter, i, "votes")
        if target is None:
            ruleset.apply(st, seat, Action("abstain"))
            continue
        t = records.seat_of(st.names, target, i, f"votes of {voter}")
        if t == seat:
            raise RecordError(Said(f"{voter} points at themselves; a vote is for another "
                                   "player", "judge.self_vote", name=str(voter)), i)
        ruleset.apply(st, seat, Action("vote", t))
    for seat in range(st.n):  # absent from the map: did not point
        if st.phase == DAY and st.votes[seat] == NOT_VOTED:
            ruleset.apply(st, seat, Action("abstain"))


# --- writing ---------------------------------------------------------------------


def _step_fields(st: OneNightState, action: Action, role: str) -> JSONObject:
    names = st.names
    kind = action.kind
    if kind == "skip":
        return {"skip": True}
    if kind in ("copy", "look"):
        return {"look": names[action.a]}
    if kind == "look_center":
        return {"center": [action.a] if action.b < 0 else [action.a, action.b]}
    if kind == "swap":
        return {"swap": names[action.a]}
    if kind == "swap_two":
        return {"swap": [names[action.a], names[action.b]]}
    if kind == "take_center":
        return {"center": [action.a]}
    raise ValueError(f"no record form for {action}")  # pragma: no cover


def to_record(ruleset: OneNight, st: OneNightState) -> JSONObject:
    names = st.names
    n = st.n
    deal = next(e.data["cards"] for e in st.log if e.kind == "deal" and "cards" in e.data)
    steps: list[JSONObject] = []
    for seat, action, call in st.history:
        if call == "day":
            continue
        if call == DOPPELGANGER and action.kind != "copy":
            steps[-1]["then"] = _step_fields(st, action, st.copy or "")
            continue
        steps.append({"call": call, "player": names[seat], **_step_fields(st, action, call)})
    for seat, claim in st.claims:
        if "role" in claim and "saw" not in claim:
            steps.append({"claims": {names[seat]: claim["role"]}})
        else:
            entry: JSONObject = {"player": names[seat]}
            if "saw" in claim:
                entry["saw"] = position_json(st.names, claim["saw"])
                entry["role"] = claim["role"]
            else:
                entry["swapped"] = [position_json(st.names, p) for p in claim["swapped"]]
            steps.append({"claims_detail": [entry]})
    if st.phase == OVER:
        steps.append(
            {"votes": {names[s]: names[v] for s, v in enumerate(st.votes) if v >= 0}}
        )
    return {
        "ruleset": ruleset.id,
        "options": dict(st.options),
        "players": list(names),
        "cards": {names[s]: deal[s] for s in range(n)},
        "center": deal[n:],
        "steps": steps,
    }



def final_json(st: OneNightState) -> JSONObject:
    """The cards as they lie (a Doppelgänger card is ``doppelganger``) and what each
    player counts as for winning (spec: "The outcome")."""
    n, names = st.n, st.names
    return {
        "cards": {names[s]: st.cards[s] for s in range(n)},
        "center": st.cards[n:],
        "tokens": {},
        "roles": {names[s]: st.final_role(s) for s in range(n)},
    }


def outcome_json(st: OneNightState) -> JSONObject:
    final = final_json(st)
    if st.outcome is None:
        return {"final": final, "dead": [], "winners": [], "teams": [],
                "causes": {},
                "reasons": [reason_json(why("vote_pending"))], "status": "ongoing"}
    out = st.outcome.to_json(st.names)
    return {"final": final, **out, "status": "over"}
