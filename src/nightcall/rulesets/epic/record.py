"""Epic Battle records: replay a record into a state, write a state back as a record.

Steps follow shared/spec/game-record.md, with the epic fields ``token``, ``what``,
``tap``, ``reveal``, ``on``/``artifact`` and ``then``, the ``extra`` card and the
starting ``tokens``. A record is replayed through the same checked ``apply`` as
a live game, so it is illegal exactly when a live table could not have done what
it says; the error names the step.

A step's ``call`` may be a call id of :mod:`~nightcall.rulesets.epic.night` or the
role id being called (``vampire``/``the_master`` for the vampires' call,
``werewolf``/``dream_wolf`` for the werewolves', ``freemason``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from nightcall.engine import records
from nightcall.engine.actions import Action
from nightcall.engine.errors import RecordError, Said
from nightcall.engine.events import EVERYONE, Event
from nightcall.engine.jsontype import JSONObject
from nightcall.engine.outcome import reason_json, why
from nightcall.rulesets.epic.common import SKIP
from nightcall.rulesets.epic.day import end_of_night
from nightcall.rulesets.epic.day import record_claim as claim_event
from nightcall.rulesets.epic.judge import identities
from nightcall.rulesets.epic.night import CALLS
from nightcall.rulesets.epic.roles import (
    CERTAINTY,
    MIMIC,
    ROLE_IDS,
    SLEEPERS,
    TOKENS,
    VAMPIRE,
    VAMPIRE_CARDS,
    VAMPIRES,
    name,
)
from nightcall.rulesets.epic.state import DAY, NIGHT, NOT_VOTED, OVER, EpicState
from nightcall.rulesets.onenight import detail_claim, position_json

if TYPE_CHECKING:
    from nightcall.rulesets.epic.game import EpicBattle

CHOICE_FIELDS = ("look", "center", "swap", "token", "what", "tap", "reveal", "on",
                 "artifact", "skip", "then")
ALIASES = {"vampire": "vampires", "the_master": "vampires", "freemason": "freemasons",
           "werewolf": "werewolves", "dream_wolf": "werewolves",
           "werewolves_dream_wolf": "werewolves"}
# How a call is written back: the role it calls.
RECORD_CALL = {"vampires": "vampire", "werewolves": "werewolf",
               "werewolves_dream_wolf": "werewolf", "freemasons": "freemason"}


class _Replay:
    def __init__(self, ruleset: EpicBattle, st: EpicState) -> None:
        self.ruleset = ruleset
        self.st = st
        self.pending_then: tuple[str, dict[str, Any]] | None = None  # the Mimic's `then`
        self.last_call = 0  # schedule index of the last night step, for the wake order
        self.day_begun = False

    # --- night ---------------------------------------------------------------------
    def finish_night(self, i: int) -> None:
        while self.st.phase == NIGHT:
            self.skip_current(i)

    def begin_day(self, i: int) -> None:
        self.finish_night(i)
        self.day_begun = True

    def skip_current(self, i: int) -> None:
        st = self.st
        call = st.schedule[st.call_i]
        if self.pending_then is not None and self.pending_then[0] == call and \
                st.start[st.actor] == MIMIC:
            then = self.pending_then[1]
            self.pending_then = None
            self.perform(i, call, st.actor, then)
            return
        if SKIP not in self.ruleset.legal_actions(st, st.actor):
            raise RecordError(Said(
                f"the {call} call needs a choice from {st.names[st.actor]} (it is "
                "compulsory) but the record has none before this step",
                "epic.record.compulsory", role=call, name=st.names[st.actor]), i)
        self.ruleset.apply(st, st.actor, SKIP)

    def night_step(self, i: int, step: dict[str, Any]) -> None:
        st = self.st
        raw = step["call"]
        if not isinstance(raw, str):
            raise RecordError(Said("'call' must be a role id", "epic.record.call_id"), i)
        if raw in SLEEPERS - {"dream_wolf"}:
            raise RecordError(Said(f"the {name(raw)} sleeps through the night and is never "
                                   "called", "epic.record.sleeper", role=raw), i)
        call = ALIASES.get(raw, raw)
        if call == "werewolves" and "werewolves_dream_wolf" in st.schedule:
            call = "werewolves_dream_wolf"
        if call not in CALLS:
            raise RecordError(Said(f"{raw!r} is not an Epic Battle role or call",
                                   "epic.record.not_a_call", call=str(raw)), i)
        if self.day_begun:
            raise RecordError(Said(f"a night step ({raw}) after the day has begun",
                                   "epic.record.after_night", role=raw), i)
        if call not in st.schedule:
            raise RecordError(Said(f"nobody is called as {raw}: that role is not in the deck",
                                   "epic.record.not_in_deck", role=raw), i)
        j = st.schedule.index(call)
        if j < self.last_call:
            raise RecordError(Said(f"the {raw} call comes before the "
                                   f"{st.schedule[self.last_call]} call: night steps come in "
                                   "wake order", "epic.record.wake_order", role=raw,
                                   before=st.schedule[self.last_call]), i)
        self.last_call = j
        while st.phase == NIGHT and st.call_i < j:
            self.skip_current(i)
        player = step.get("player")
        seat = records.seat_of(st.names, player, i, "player") if player is not None else -1
        has_choice = any(key in step for key in CHOICE_FIELDS)
        if st.phase != NIGHT or st.call_i != j or st.actor < 0:
            if has_choice:
                raise RecordError(self.why_nobody(raw, seat, j), i)
            return
        actor = st.actor
        if seat >= 0 and seat != actor and not (call == "vampires" and seat in st.vampires):
            raise RecordError(self.why_not(raw, seat), i)
        self.perform(i, call, actor, step)

    def why_nobody(self, raw: str, seat: int, j: int) -> str:
        st = self.st
        if seat >= 0 and seat == st.panicked:
            return (f"{st.names[seat]} has the Panic token and may not wake up in the night "
                    f"to act as {name(raw)}")
        if raw in ("werewolf", "werewolves", "werewolves_dream_wolf", "dream_wolf"):
            return ("only a lone werewolf chooses in the werewolves' call, and only when no "
                    "Dream Wolf raises a thumb: this call has no choice here")
        if any(call == st.schedule[j] for _s, _a, call in st.history):
            return f"the {raw} call is already over: an earlier step made its choice"
        call = st.schedule[j]
        if call in ROLE_IDS and call not in st.start and st.card_as.get(MIMIC) != call:
            return (f"no player was dealt the {name(call)} card (it lies in the middle): "
                    f"nobody chooses in the {raw} call")
        return f"nobody has a choice to make in the {raw} call here"

    def why_not(self, raw: str, seat: int) -> str:
        st = self.st
        if seat == st.panicked and st.night_started:
            return (f"{st.names[seat]} has the Panic token and may not wake up in the night "
                    f"to act as {name(raw)}")
        return f"{st.names[seat]} does not wake to choose in the {raw} call"

    def perform(self, i: int, call: str, actor: int, step: Mapping[str, object]) -> None:
        st = self.st
        for action in self.actions(i, call, actor, step):
            if st.phase != NIGHT or st.actor != actor or st.schedule[st.call_i] != call:
                raise RecordError(Said(f"the {call} call is already over: too many choices "
                                       "in this step", "epic.record.too_many", role=call), i)
            if call == "curator" and action.kind == "artifact":
                drawn = step.get("artifact")
                if drawn is not None:
                    if drawn not in st.artifact_pool:
                        raise RecordError(f"the artifact {drawn!r} is not among the ones left "
                                          f"({', '.join(sorted(st.artifact_pool))})", i)
                    st.forced_artifact = drawn
            self.ruleset.apply(st, actor, action)
        if call == "mimic" and "then" in step:
            then = step["then"]
            if not isinstance(then, dict):
                raise RecordError(Said("'then' must be an action object",
                                       "epic.record.then"), i)
            copied = st.card_as.get(MIMIC, "")
            target = ALIASES.get(copied, copied)
            if copied in VAMPIRE_CARDS:
                target = "vampires"
            if target == "werewolves" and "werewolves_dream_wolf" in st.schedule:
                target = "werewolves_dream_wolf"
            if target not in st.schedule:
                raise RecordError(Said(f"the Mimic became a {name(copied)}, which does not "
                                       "wake", "epic.record.mimic_sleeps", role=copied), i)
            self.pending_then = (target, then)
        # A call with a second, optional stage (Ghost Hunter, Tracker) ends here;
        # a compulsory one (the Witch's swap) is an error.
        if st.phase == NIGHT and st.actor == actor and st.schedule[st.call_i] == call:
            self.skip_current(i)

    def seat(self, i: int, value: object, field: str) -> int:
        if isinstance(value, list):
            if len(value) != 1:
                raise RecordError(Said(f"'{field}' names one player here",
                                       "epic.record.one_player", field=field), i)
            value = value[0]
        return records.seat_of(self.st.names, value, i, field)

    def pair(self, i: int, value: object, field: str) -> tuple[int, int]:
        if not isinstance(value, list) or len(value) != 2:
            raise RecordError(Said(f"'{field}' must be a pair of player names",
                                   "epic.record.pair", field=field), i)
        a, b = (records.seat_of(self.st.names, v, i, field) for v in value)
        if a == b:
            raise RecordError(Said(f"'{field}' names the same player twice",
                                   "epic.record.twice", field=field), i)
        return min(a, b), max(a, b)

    def actions(self, i: int, call: str, actor: int, step: Mapping[str, Any]) -> list[Action]:
        """The actions a step's fields describe, for ``call``."""
        if step.get("skip") is True:
            return [SKIP]
        st = self.st
        used = {k for k in step if k in CHOICE_FIELDS and k != "then"}

        def only(*allowed: str) -> None:
            extra = used - set(allowed)
            if extra:
                raise RecordError(f"the field(s) {', '.join(sorted(extra))} do not fit the "
                                  f"{call} call", i)

        if call == "mimic":
            only("center")
            if "center" not in step:
                raise RecordError(Said("the Mimic must look at a center card ('center': [i])",
                                       "epic.record.mimic_center"), i)
            return [Action("copy_center", records.center_indices(i, step["center"], 1)[0])]
        if call in ("vampires", "the_count", "infected", "instigator", "assassin"):
            only("token")
            if "token" not in step:
                return [SKIP]
            return [Action("token", self.seat(i, step["token"], "token"))]
        if call == "priest":
            only("token")
            value = step.get("token")
            if value is None:
                return [SKIP]
            others = [v for v in (value if isinstance(value, list) else [value])
                      if v != st.names[actor]]
            if not others:
                return [SKIP]
            return [Action("token", self.seat(i, others, "token"))]
        if call == "venus":
            only("token")
            if "token" not in step:
                return [SKIP]
            a, b = self.pair(i, step["token"], "token")
            return [Action("token_two", a, b)]
        if call in ("werewolves", "werewolves_dream_wolf"):
            only("center")
            if "center" not in step:
                return [SKIP]
            return [Action("look_center", records.center_indices(i, step["center"], 1)[0])]
        if call in ("alpha_wolf", "robber"):
            only("swap")
            if "swap" not in step:
                return [SKIP]
            return [Action("swap", self.seat(i, step["swap"], "swap"))]
        if call == "sight_wolf":
            only("look")
            return [Action("look", self.seat(i, step["look"], "look"))] if "look" in step \
                else [SKIP]
        if call == "the_thing":
            only("tap")
            return [Action("tap", self.seat(i, step["tap"], "tap"))] if "tap" in step \
                else [SKIP]
        if call == "seer":
            only("look", "center")
            if "look" in step:
                return [Action("look", self.seat(i, step["look"], "look"))]
            if "center" in step:
                a, b = sorted(records.center_indices(i, step["center"], 2))
                return [Action("look_center", a, b)]
            return [SKIP]
        if call == "ghost_hunter":
            only("look")
            looks = step.get("look", [])
            looks = looks if isinstance(looks, list) else [looks]
            if len(looks) > 2:
                raise RecordError(Said("the Ghost Hunter looks at two cards at most",
                                       "epic.record.ghost_two"), i)
            return [Action("look", records.seat_of(st.names, x, i, "look")) for x in looks]
        if call == "tracker":
            only("look", "token")
            out = []
            if "look" in step:
                out.append(Action("look", self.seat(i, step["look"], "look")))
            elif "token" in step:
                raise RecordError(Said("the Tracker looks at a token only after a card",
                                       "epic.record.tracker_order"), i)
            if "token" in step:
                out.append(Action("look_token", self.seat(i, step["token"], "token")))
            return out
        if call == "witch":
            only("center", "swap")
            out = []
            if "center" in step:
                out.append(Action("look_center", records.center_indices(i, step["center"], 1)[0]))
            elif "swap" in step:
                raise RecordError(Said("the Witch swaps only a center card she looked at",
                                       "epic.record.witch_swap"), i)
            if "swap" in step:
                out.append(Action("swap_center", self.seat(i, step["swap"], "swap")))
            return out
        if call == "goblin":
            only("swap", "token", "what")
            what = step.get("what", "tokens" if "token" in step else "cards")
            if what not in ("cards", "tokens"):
                raise RecordError("'what' is \"cards\" or \"tokens\"", i)
            value = step.get("swap", step.get("token"))
            if value is None:
                return [SKIP]
            a, b = self.pair(i, value, "swap")
            if what == "tokens" and not st.tokens_in_play:
                # No token role: the players hold no tokens but Certainty, and a live
                # Goblin is offered cards only. A record written before that ruling
                # exchanged two Certainty tokens, which changes nothing: it reads as a
                # skip, so it replays to the same outcome (docs/rulings.md, "Goblin").
                return [SKIP]
            return [Action("swap_two" if what == "cards" else "swap_tokens", a, b)]
        if call == "enlightener":
            only("reveal")
            return [Action("reveal", self.seat(i, step["reveal"], "reveal"))] \
                if "reveal" in step else [SKIP]
        if call == "curator":
            only("on", "artifact")
            if "on" not in step:
                return [SKIP]
            return [Action("artifact", self.seat(i, step["on"], "on"))]
        only()
        return []

    # --- day ----------------------------------------------------------------------------
    def claims(self, i: int, step: Mapping[str, object]) -> None:
        st = self.st
        for who, role in records.claims_of(step, i).items():
            seat = records.seat_of(st.names, who, i, "claims")
            if role not in ROLE_IDS:
                raise RecordError(Said(f"{who} claims {role!r}, which is not an Epic Battle "
                                       "role", "epic.record.claim_role", name=str(who),
                                       claim=str(role)), i)
            st.log.append(Event("claim", EVERYONE, {"seat": seat, "role": role}))
        # claims_detail is free-form in the spec: a card seen or a swap made is replayed
        # (the phones' claims), anything else is kept as text only.
        detail = step.get("claims_detail")
        if isinstance(detail, list):
            for entry in detail:
                action = detail_claim(st.names, ROLE_IDS, entry)
                if action is not None:
                    claim_event(st, st.names.index(entry["player"]), action)

    def votes(self, i: int, step: Mapping[str, object]) -> None:
        st = self.st
        votes = step["votes"]
        if not isinstance(votes, dict):
            raise RecordError(Said("'votes' must map voters to the player they point at",
                                   "epic.record.votes"), i)
        if st.phase != DAY:
            raise RecordError(Said("the vote has already been counted", "epic.record.counted"),
                              i)
        for voter, target in votes.items():
            seat = records.seat_of(st.names, voter, i, "votes")
            if target is None:
                self.ruleset.apply(st, seat, Action("abstain"))
                continue
            t = records.seat_of(st.names, target, i, f"votes of {voter}")
            if t == seat:
                raise RecordError(Said(f"{voter} points at themselves; a vote is for a fellow "
                                       "player", "judge.self_vote", name=str(voter)), i)
            self.ruleset.apply(st, seat, Action("vote", t))
        for seat in range(st.n):
            if st.phase == DAY and st.votes[seat] == NOT_VOTED:
                self.ruleset.apply(st, seat, Action("abstain"))


def replay(ruleset: EpicBattle, record: Mapping[str, object]) -> EpicState:
    names = records.players_of(record)
    deal = read_deal(ruleset, record, names)
    tokens = read_tokens(record, names)
    options = records.options_of(record)
    st = records.new_game(lambda: ruleset.new_game(names, deal, options, tokens))
    records.read_call_steps(_Replay(ruleset, st), record)
    return st


def read_deal(ruleset: EpicBattle, record: Mapping[str, object],
              names: tuple[str, ...]) -> list[str]:
    deal = records.dealt_cards(ruleset, record, names) + records.center_cards(ruleset, record)
    if record.get("extra") is not None:
        deal.append(ruleset.card_to_role(record["extra"], "extra card"))
        if "alpha_wolf" not in deal[:-1]:
            raise RecordError("an 'extra' card is only laid beside the center for the "
                              "Alpha Wolf")
    return deal


def read_tokens(record: Mapping[str, object], names: tuple[str, ...]) -> list[str] | None:
    tokens = record.get("tokens")
    if tokens is None:
        return None
    if not isinstance(tokens, dict):
        raise RecordError("'tokens' must map players to their starting symbol token")
    unknown = [p for p in tokens if p not in names]
    if unknown:
        raise RecordError(Said(f"tokens given to people not seated: "
                               f"{', '.join(map(str, unknown))}", "judge.strangers",
                               names=", ".join(map(str, unknown))))
    out = [tokens.get(p, CERTAINTY) for p in names]
    for p, t in zip(names, out, strict=True):
        if t not in TOKENS:
            raise RecordError(f"{p}'s token {t!r} is not a symbol token ({', '.join(TOKENS)})")
    return out


# --- writing ----------------------------------------------------------------------------


def _fields(st: EpicState, call: str, actions: list[Action]) -> JSONObject:
    names = st.names
    out: JSONObject = {}
    real = [a for a in actions if a.kind != "skip"]
    if not real:
        return {"skip": True}
    looks = [names[a.a] for a in real if a.kind == "look"]
    if looks:
        out["look"] = looks if call == "ghost_hunter" and len(looks) > 1 else looks[0]
    for a in real:
        k = a.kind
        if k == "copy_center":
            out["center"] = [a.a]
        elif k == "look_center":
            out["center"] = [a.a] if a.b < 0 else [a.a, a.b]
        elif k in ("token", "look_token"):
            out["token"] = names[a.a]
        elif k == "token_two":
            out["token"] = [names[a.a], names[a.b]]
        elif k in ("swap", "swap_center"):
            out["swap"] = names[a.a]
        elif k == "swap_two":
            out.update(swap=[names[a.a], names[a.b]], what="cards")
        elif k == "swap_tokens":
            out.update(swap=[names[a.a], names[a.b]], what="tokens")
        elif k == "tap":
            out["tap"] = names[a.a]
        elif k == "reveal":
            out["reveal"] = names[a.a]
        elif k == "artifact":
            out.update(on=names[a.a], artifact=st.artifacts[a.a])
    return out





def to_record(ruleset: EpicBattle, st: EpicState) -> JSONObject:
    names = st.names
    n = st.n
    deal = next(e.data for e in st.log if e.kind == "deal" and "cards" in e.data)
    cards = deal["cards"]
    steps: list[JSONObject] = []
    groups: list[tuple[int, str, list[Action]]] = []
    for seat, action, call in st.history:
        if call == "day":
            continue
        if groups and groups[-1][0] == seat and groups[-1][1] == call:
            groups[-1][2].append(action)
        else:
            groups.append((seat, call, [action]))
    for seat, call, actions in groups:
        steps.append({"call": RECORD_CALL.get(call, call), "player": names[seat],
                      **_fields(st, call, actions)})
    for e in st.log:
        if e.kind != "claim":
            continue
        d = e.data
        if "saw" not in d and "swapped" not in d:
            steps.append({"claims": {names[d["seat"]]: d["role"]}})
        elif "saw" in d:
            steps.append({"claims_detail": [{"player": names[d["seat"]],
                                             "saw": position_json(st.names, d["saw"]),
                                             "role": d["role"]}]})
        else:
            steps.append({"claims_detail": [{"player": names[d["seat"]], "swapped": [
                position_json(st.names, p) for p in d["swapped"]]}]})
    if st.phase == OVER:
        steps.append({"votes": {names[s]: names[v] for s, v in enumerate(st.votes) if v >= 0}})
    out: JSONObject = {
        "ruleset": ruleset.id,
        "options": dict(st.options),
        "players": list(names),
        "cards": {names[s]: cards[s] for s in range(n)},
        "center": cards[n : n + 3],
    }
    if st.extra_pos >= 0:
        out["extra"] = cards[n + 3]
    if any(t != CERTAINTY for t in deal["tokens"]):
        out["tokens"] = {names[s]: t for s, t in enumerate(deal["tokens"])}
    out["steps"] = steps
    return out


def counts_as(st: EpicState) -> list[str]:
    """What each player counts as for winning: the card resolved (a Mimic as its copy),
    then a role-changing artifact, then the Vampire token (a vampire)."""
    out = []
    for i in identities(end_of_night(st)):
        role = i.role
        if i.kind == VAMPIRES and role not in VAMPIRE_CARDS:
            role = VAMPIRE  # turned by the Vampire token
        out.append(role)
    return out


def final_json(st: EpicState) -> JSONObject:
    """The cards as they lie (a Mimic card is ``mimic``), tokens and artifacts, and what
    each player counts as for winning (spec: "The outcome")."""
    n = st.n
    names = st.names
    final: JSONObject = {
        "cards": {names[s]: st.cards[s] for s in range(n)},
        "center": st.cards[n : n + 3],
        "tokens": {names[s]: st.tokens[s] for s in range(n)},
        "artifacts": {names[s]: a for s, a in enumerate(st.artifacts) if a is not None},
        "roles": dict(zip(names, counts_as(st), strict=True)),
    }
    if st.extra_pos >= 0:
        final["extra"] = st.cards[st.extra_pos]
    return final


def outcome_json(st: EpicState) -> JSONObject:
    names = st.names
    final = final_json(st)
    if st.outcome is None:
        return {"final": final, "dead": [], "winners": [], "teams": [],
                "causes": {},
                "reasons": [reason_json(why("vote_pending"))], "status": "ongoing"}
    return {"final": final, **st.outcome.to_json(names), "status": "over"}
