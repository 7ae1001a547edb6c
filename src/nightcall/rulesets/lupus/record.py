"""Lupus records: replay a record into a state, write a state back as a record.

Steps follow shared/spec/game-record.md, "Lupus in Tabula nights" and "Day":
one step per night (``wolves``, ``seer``, ``bodyguard``, ``harlot``, ``owl``,
``mythomaniac``), and day steps with ``accuse`` and ``execute`` (together or
apart). Dawn is computed, never written. Two additions, both optional:
``last`` on a night step (the Master's pick of which death counts as the last
to die) and ``wolf_picks`` (each werewolf's pick when the pack did not point at
the same player). ``roles`` is accepted for ``cards``, as in the rulebook's
example round. Every step goes through the same checked ``apply`` as a live
game, so a record is illegal exactly when a live table could not have done it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from nightcall.engine import records
from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction, RecordError, Said
from nightcall.engine.jsontype import JSONObject
from nightcall.engine.outcome import Term, reason_json, why
from nightcall.rulesets.lupus import end
from nightcall.rulesets.lupus.night import KIND, STAY_HOME
from nightcall.rulesets.lupus.roles import (
    BODYGUARD,
    DISPLAY_NAME,
    FIRST_NIGHT,
    FREEMASON,
    HARLOT,
    MEDIUM,
    MYTHOMANIAC,
    ONLY_NIGHT,
    OWL,
    SEER,
    WEREWOLF,
)
from nightcall.rulesets.lupus.state import (
    ACCUSE,
    DAY,
    EXECUTE,
    NIGHT,
    NOBODY,
    NOT_YET,
    OVER,
    LupusState,
)

if TYPE_CHECKING:
    from nightcall.rulesets.lupus.game import Lupus

# Record key of each call that has a choice.
KEY_OF = {WEREWOLF: "wolves", SEER: "seer", BODYGUARD: "bodyguard", HARLOT: "harlot",
          OWL: "owl", MYTHOMANIAC: "mythomaniac"}
ROLE_OF_KEY = {key: role for role, key in KEY_OF.items()}
NIGHT_KEYS = frozenset({*KEY_OF.values(), "wolf_picks", "last"})
DAY_KEYS = frozenset({"accuse", "execute"})
# The choice fields of a one-night ``call`` step (game-record.md, "Night actions").
CALL_FIELDS = frozenset({"look", "center", "swap", "token", "what", "tap", "reveal", "on",
                         "artifact", "then", "skip"})


def replay(ruleset: Lupus, record: Mapping[str, object]) -> LupusState:
    names = records.players_of(record)
    deal = read_deal(ruleset, record, names)
    options = records.options_of(record)
    st = records.new_game(lambda: ruleset.new_game(names, deal, options))
    for i, step in enumerate(records.steps_of(record)):
        apply_step(ruleset, st, step, i)
    return st


def apply_step(ruleset: Lupus, st: LupusState, step: Mapping[str, object], i: int = 0) -> None:
    """Play one record step (a night, or a day's accusations and/or execution) on ``st``.
    Raise RecordError naming step ``i`` if a live table could not have done it."""
    night_keys = NIGHT_KEYS & step.keys()
    day_keys = DAY_KEYS & step.keys()
    if "call" in step and not night_keys and not day_keys:
        _call_step(i, step)
        return
    if not night_keys and not day_keys:
        return  # comments, claims and unknown keys change nothing (spec: data, not code)
    if night_keys and day_keys:
        raise RecordError(Said(
            f"a step is a night ({', '.join(sorted(night_keys))}) or a day "
            f"({', '.join(sorted(day_keys))}), not both", "lupus.record.night_or_day",
            night=", ".join(sorted(night_keys)), day=", ".join(sorted(day_keys))), i)
    if st.phase == OVER:
        raise RecordError(f"the game is already over ({_over_text(st)})", i)
    if night_keys:
        _night_step(ruleset, st, i, step)
    else:
        _day_step(ruleset, st, i, step)


def _call_step(i: int, step: Mapping[str, object]) -> None:
    """A one-night style ``{"call": ROLE, ...}`` step. Naming a call that has nothing to
    choose (the Medium, the Freemasons) changes nothing, as in the one-night games; a
    choice must be written in the night's own step (spec: "Lupus in Tabula nights")."""
    call = step["call"]
    if call in (MEDIUM, FREEMASON, "freemasons") and not CALL_FIELDS & step.keys():
        return
    key = KEY_OF.get(call) if isinstance(call, str) else None
    where = f"its '{key}' key" if key else "the keys of the roles that choose"
    raise RecordError(Said(f"a Lupus night is one step with every choice of the night, so "
                           f"the {call} call goes in {where}, not in a 'call' step",
                           "lupus.record.call_key" if key else "lupus.record.call_step",
                           call=str(call), field=str(key)), i)


def read_deal(ruleset: Lupus, record: Mapping[str, object], names: tuple[str, ...]) -> list[str]:
    # The rulebook's example block writes the deal as "roles" (game-record.md: valid as is).
    return records.dealt_cards(ruleset, record, names, "roles")


def _over_text(st: LupusState) -> str:
    teams = st.outcome.teams if st.outcome else ()
    return f"won by {', '.join(teams)}" if teams else "nobody won"


def _apply(ruleset: Lupus, st: LupusState, i: int, seat: int, action: Action, what: str) -> None:
    try:
        ruleset.apply(st, seat, action)
    except IllegalAction as exc:
        raise RecordError(f"{what}: {exc.reason}", i) from None


def _check_night_keys(st: LupusState, i: int, step: Mapping[str, object]) -> None:
    """Refuse a choice for a role that is not in play, not called tonight, or dead."""
    names = st.names
    for key, role in ROLE_OF_KEY.items():
        if key not in step:
            continue
        name = DISPLAY_NAME[role]
        if role not in st.deck:
            raise RecordError(Said(f"'{key}': nobody is the {name}, the role is not in this "
                                   "deck", "lupus.record.not_in_deck", field=key, role=role), i)
        first = FIRST_NIGHT.get(role, 1)
        only = ONLY_NIGHT.get(role)
        if st.night < first or (only is not None and st.night != only):
            when = f"only on night {only}" if only is not None else f"from night {first}"
            raise RecordError(Said(
                f"'{key}': the {name} is not called to choose on night {st.night} ({when})",
                "lupus.record.only_night" if only is not None else "lupus.record.from_night",
                field=key, role=role, night=st.night, only=only, first=first), i)
        if not st.living_with(role):
            holders = [names[s] for s, r in enumerate(st.roles) if r == role]
            raise RecordError(Said(
                f"'{key}': {' and '.join(holders)} ({name}) is dead: ghosts keep their eyes "
                "closed at night", "lupus.record.dead", field=key, names=", ".join(holders),
                role=role), i)


def _night_step(ruleset: Lupus, st: LupusState, i: int, step: Mapping[str, object]) -> None:
    if st.phase != NIGHT:
        stage = "accusation round" if st.stage == ACCUSE else "execution"
        raise RecordError(Said(
            f"a night step, but day {st.day} is not over: the {stage} comes first",
            "lupus.record.day_first_" + ("accuse" if st.stage == ACCUSE else "execute"),
            day=st.day), i)
    _check_night_keys(st, i, step)
    night_no = st.night
    while st.phase == NIGHT and st.night == night_no:
        call = st.calls[st.call_i]
        waiting = ruleset.waiting_for(st)
        if not waiting:  # pragma: no cover - a call with nobody to choose never waits
            break
        if call == WEREWOLF and "wolf_picks" in step:
            waiting = _pick_order(st, i, step["wolf_picks"], waiting)
        for seat in waiting:
            action = _night_action(st, i, call, seat, step)
            target = st.names[action.a] if action.a >= 0 else "nobody"
            what = f"night {night_no}, {st.names[seat]} ({DISPLAY_NAME[call]}) points at {target}"
            _apply(ruleset, st, i, seat, action, what)
    if "wolf_picks" in step and "wolves" in step:
        settled = st.nights_log[night_no - 1].get("wolves", NOBODY)
        wanted = records.seat_of(st.names, step["wolves"], i, "wolves")
        if settled != wanted:
            raise RecordError(
                f"the wolves' picks settle on {st.names[settled]}, not {step['wolves']}", i)
    if "last" in step and st.phase == DAY:
        seat = records.seat_of(st.names, step["last"], i, "last")
        try:
            ruleset.choose_last(st, seat)
        except IllegalAction as exc:
            raise RecordError(f"'last': {exc.reason}", i) from None


def _pick_order(
    st: LupusState, i: int, picks: object, waiting: tuple[int, ...]
) -> tuple[int, ...]:
    """The werewolves in the order ``wolf_picks`` lists them (the order they pointed)."""
    if not isinstance(picks, dict):
        raise RecordError(Said("'wolf_picks' must map each living werewolf to their pick",
                               "lupus.record.wolf_picks"), i)
    order = tuple(records.seat_of(st.names, w, i, "wolf_picks") for w in picks)
    if sorted(order) != sorted(waiting):
        awake = ", ".join(st.names[s] for s in waiting)
        raise RecordError(Said(f"'wolf_picks' must give the pick of every living werewolf "
                               f"({awake}) and nobody else", "lupus.record.wolf_picks_all",
                               names=awake), i)
    return order


def _night_action(
    st: LupusState, i: int, call: str, seat: int, step: Mapping[str, object]
) -> Action:
    names = st.names
    key = KEY_OF[call]
    kind = KIND[call]
    name = DISPLAY_NAME[call]
    if call == WEREWOLF and "wolf_picks" in step:
        picks = step["wolf_picks"]
        if not isinstance(picks, dict) or names[seat] not in picks:
            raise RecordError(Said(f"'wolf_picks' must give the pick of every living "
                                   f"werewolf, {names[seat]}'s is missing",
                                   "lupus.record.wolf_pick_missing", name=names[seat]), i)
        return Action(kind, records.seat_of(names, picks[names[seat]], i, "wolf_picks"))
    if key not in step:
        if call == HARLOT:
            return STAY_HOME  # a role that may act and has no step did nothing (spec)
        raise RecordError(Said(
            f"night {st.night}: the {name} ({names[seat]}) is alive and must point at "
            f"someone, but the step has no '{key}'", "lupus.record.must_point",
            night=st.night, role=call, name=names[seat], field=key), i)
    value = step[key]
    if call == HARLOT and value is None:
        return STAY_HOME
    if call == SEER and isinstance(value, dict):
        if names[seat] not in value:
            raise RecordError(Said(f"'seer' gives no pick for {names[seat]}, a living Seer",
                                   "lupus.record.seer_pick", name=names[seat]), i)
        value = value[names[seat]]
    elif call == SEER and len(st.actors) > 1:
        raise RecordError(Said(
            "two Seers are awake (one is the Mythomaniac): 'seer' must map each to a pick",
            "lupus.record.two_seers"), i)
    return Action(kind, records.seat_of(names, value, i, key))


def _targets_of(st: LupusState, i: int, value: object, key: str) -> dict[int, int]:
    if not isinstance(value, dict):
        raise RecordError(Said(f"'{key}' must map player names to the player they point at",
                               "lupus.record.targets", field=key), i)
    out: dict[int, int] = {}
    for who, target in value.items():
        seat = records.seat_of(st.names, who, i, key)
        out[seat] = NOBODY if target is None else records.seat_of(
            st.names, target, i, f"{key} of {who}")
    return out


def _day_step(ruleset: Lupus, st: LupusState, i: int, step: Mapping[str, object]) -> None:
    names = st.names
    if st.phase != DAY:
        raise RecordError(Said(f"a day step during night {st.night}: the night's choices "
                               "come first", "lupus.record.night_first", night=st.night), i)
    day_no = st.day
    if "accuse" in step:
        if st.stage != ACCUSE:
            raise RecordError(Said(f"the accusation round of day {day_no} is already over",
                                   "lupus.record.accusations_over", day=day_no), i)
        accusations = _targets_of(st, i, step["accuse"], "accuse")
        for seat in st.accuse_order:
            target = accusations.get(seat, NOBODY)
            action = Action("accuse", target) if target >= 0 else Action("no_accusation")
            aim = names[target] if target >= 0 else "nobody"
            _apply(ruleset, st, i, seat, action,
                   f"day {day_no}, {names[seat]} accuses {aim}")
    if "execute" in step:
        if st.phase != DAY or st.stage != EXECUTE or st.day != day_no:
            raise RecordError(Said(
                f"the execution of day {day_no} comes after its accusation round",
                "lupus.record.execution_after", day=day_no), i)
        votes = _targets_of(st, i, step["execute"], "execute")
        chosen = []
        for seat, target in votes.items():
            action = Action("execute", target) if target >= 0 else Action("abstain")
            if action not in ruleset.legal_actions(st, seat):
                aim = names[target] if target >= 0 else "nobody"
                raise RecordError(f"day {day_no}, {names[seat]} votes to execute {aim}: "
                                  f"{ruleset.why_illegal(st, seat, action)}", i)
            chosen.append((seat, action))
        for seat in st.voters:  # absent from the map: did not point
            if seat not in votes:
                chosen.append((seat, Action("abstain")))
        for seat, action in chosen:
            _apply(ruleset, st, i, seat, action, f"day {day_no}, {names[seat]}'s vote")


# --- writing ---------------------------------------------------------------------


def _night_json(st: LupusState, entry: Mapping[str, Any]) -> JSONObject:
    """One night's step, its keys in the order the roles are called."""
    names = st.names
    out: JSONObject = {}
    if "bodyguard" in entry:
        out["bodyguard"] = names[entry["bodyguard"]]
    if "harlot" in entry:
        out["harlot"] = names[entry["harlot"]] if entry["harlot"] >= 0 else None
    if "wolves" in entry:
        out["wolves"] = names[entry["wolves"]]
    if "wolf_picks" in entry:
        out["wolf_picks"] = {names[w]: names[t] for w, t in entry["wolf_picks"].items()}
    if "seer" in entry:
        looks = entry["seer"]
        if len(looks) == 1:
            out["seer"] = names[next(iter(looks.values()))]
        else:
            out["seer"] = {names[s]: names[t] for s, t in looks.items()}
    for key in ("owl", "mythomaniac", "last"):
        if key in entry:
            out[key] = names[entry[key]]
    return out


def _day_json(st: LupusState, entry: Mapping[str, Any]) -> JSONObject:
    names = st.names
    out: JSONObject = {}
    for key in ("accuse", "execute"):
        if key in entry:
            out[key] = {names[s]: (names[t] if t >= 0 else None) for s, t in entry[key].items()}
    return out


def to_record(ruleset: Lupus, st: LupusState) -> JSONObject:
    """The record of the game so far. A night, an accusation round or an execution still
    in progress is left out (its choices are not all made), so the record replays to the
    state at the last finished one."""
    names = st.names
    nights = st.nights_log[:-1] if st.phase == NIGHT else st.nights_log
    days = [dict(d) for d in st.days_log]
    if st.phase == DAY:
        days[-1].pop("execute", None)
        if st.stage == ACCUSE:
            days[-1].pop("accuse", None)
    steps: list[JSONObject] = []
    for k, entry in enumerate(nights):
        steps.append(_night_json(st, entry))
        if k < len(days) and days[k]:
            steps.append(_day_json(st, days[k]))
    return {
        "ruleset": ruleset.id,
        "players": list(names),
        "cards": {names[s]: st.start[s] for s in range(st.n)},
        "steps": [s for s in steps if s],
    }


def final_json(st: LupusState) -> JSONObject:
    """The physical cards, and what each player counts as (the Mythomaniac's new role)."""
    names = st.names
    return {"cards": {names[s]: st.start[s] for s in range(st.n)}, "center": [], "tokens": {},
            "roles": {names[s]: st.roles[s] for s in range(st.n)}}


def outcome_json(st: LupusState) -> JSONObject:
    names = st.names
    final = final_json(st)
    progress: JSONObject = {
        "nights": [[names[s] for s in dead] for dead in st.night_deaths],
        "executed": [names[s] for s in st.executed],
    }
    if st.outcome is not None:
        return {"final": final, **st.outcome.to_json(names), **progress, "status": "over"}
    wolves, humans = end.counts(st)
    # Where the record stops and who is alive, as reasons (the narrator's words).
    if st.phase == NIGHT:
        reasons = [why("lupus.stops_night", night=st.night)]
    elif st.stage == ACCUSE:
        reasons = [why("lupus.stops_accuse", day=st.day)]
    else:
        reasons = [why("lupus.stops_execute", day=st.day)]
    reasons.append(why("lupus.alive", wolves=Term("count", "werewolves", len(wolves)),
                       humans=Term("count", "humans", len(humans))))
    if st.phase == DAY and st.stage == EXECUTE:
        pending = tuple(names[s] for s in st.voters if st.votes[s] == NOT_YET)
        reasons.append(why("lupus.to_vote", names=pending))
    return {
        "final": final,
        "dead": [names[d.seat] for d in st.deaths],
        "causes": {names[d.seat]: d.cause for d in st.deaths},
        "winners": [],
        "teams": [],
        "reasons": [reason_json(r) for r in reasons],
        **progress,
        "status": "ongoing",
    }
