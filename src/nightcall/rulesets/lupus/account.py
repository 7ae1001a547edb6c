"""A readable account of a Lupus game, from the Master's log: every night's calls and
choices, each dawn, the accusations, the Suspects, the execution, and who won and why.
In the narrator's languages (``account.*`` lines, through ``say``: nightcall.engine.words)."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import Event
from nightcall.engine.words import Words
from nightcall.rulesets.lupus.state import LupusState

CAUSES = frozenset({"werewolves", "harlot_host", "harlot_visited_werewolf", "seen_by_seer"})


def _who(st: LupusState, e: Event, say: Words) -> str:
    audience = e.audience
    if isinstance(audience, frozenset) and len(audience) == 1:
        return st.names[next(iter(audience))]
    return (say("someone"))





def _line(st: LupusState, e: Event, say: Words) -> str | None:
    role = say.role
    names = st.names
    d: dict[str, Any] = e.data
    k = e.kind

    def group(seats: list[int]) -> str:
        return str(say.listing([names[s] for s in seats]))

    if k == "deal" and "cards" in d:
        dealt = ", ".join(say("pair", name=names[s], role=role(c))
                          for s, c in enumerate(d["cards"]))
        return (say("lupus.dealt", dealt=dealt))
    if k == "night":
        return (say("lupus.night", night=d["night"]))
    if k == "call":
        r = d["role"]
        called = say(f"lupus.called.{r}") if say.has(f"lupus.called.{r}") else role(r)
        return "  " + say("lupus.call", role=called)
    if k == "wolves":
        if len(d["seats"]) == 1:
            return "    " + say("lupus.wolf_alone", names=group(d["seats"]))
        return "    " + say("lupus.wolves", names=group(d["seats"]))
    if k == "wolf_pick":
        return "    " + say("lupus.wolf_pick", name=names[d["seat"]], target=names[d["target"]])
    if k == "victim":
        return "    " + say("lupus.victim", name=names[d["seat"]])
    if k == "protect":
        return "    " + say("lupus.protect", who=_who(st, e, say), name=names[d["seat"]])
    if k == "visit":
        if d["seat"] is None:
            return "    " + say("lupus.stay_home", who=_who(st, e, say))
        return "    " + say("lupus.visit", who=_who(st, e, say), name=names[d["seat"]])
    if k == "seen":
        key = "lupus.seen_wolf" if d["werewolf"] else "lupus.seen_human"
        return "    " + say(key, who=_who(st, e, say), name=names[d["seat"]])
    if k == "medium":
        key = "lupus.medium_wolf" if d["werewolf"] else "lupus.medium_human"
        return "    " + say(key, who=_who(st, e, say), name=names[d["seat"]])
    if k == "mark":
        return "    " + say("lupus.mark", who=_who(st, e, say), name=names[d["seat"]])
    if k == "freemasons":
        return "    " + say("lupus.freemasons", names=group(d["seats"]))
    if k == "imitate":
        if d["becomes"]:
            return "    " + say("lupus.imitate", who=_who(st, e, say), name=names[d["seat"]],
                                role=role(d["becomes"]))
        return "    " + say("lupus.imitate_nothing", who=_who(st, e, say), name=names[d["seat"]])
    if k == "transformed":
        return "  " + say("lupus.transformed", name=names[d["seat"]], role=role(d["role"]))
    if k == "dawn":
        if not d["dead"]:
            return (say("lupus.dawn_none", night=d["night"]))
        return (say("lupus.dawn", night=d["night"], names=group(d["dead"]),
                       last=names[d["last"]]))
    if k == "causes" and d["deaths"]:
        causes = "; ".join(
            say(f"lupus.cause.{c}", name=names[s]) if c in CAUSES
            else say("lupus.cause_other", name=names[s], cause=c) for s, c in d["deaths"])
        return "  " + say("lupus.causes", causes=causes)
    if k == "last":
        return "  " + say("lupus.last", name=names[d["seat"]])
    if k == "accusation":
        first = names[d["order"][0]]
        if d["owl"] is not None:
            return (say("lupus.accusation_owl", day=d["day"], name=first,
                           owl=names[d["owl"]]))
        return (say("lupus.accusation", day=d["day"], name=first))
    if k == "accuse":
        target = names[d["target"]] if d["target"] is not None else say("nobody")
        return "  " + say("lupus.accuse", name=names[d["seat"]], target=target)
    if k == "suspects":
        return "  " + say("lupus.suspects", names=group(d["seats"]))
    if k == "votes":
        votes = ", ".join(
            say("vote_pair", name=names[v], target=names[t] if t is not None else say("nobody"))
            for v, t in d["votes"])
        return "  " + say("lupus.votes", votes=votes)
    if k == "executed":
        return "  " + say("lupus.executed", name=names[d["seat"]])
    if k == "reveal":
        cards = ", ".join(  # the card as it lies, and what it counts as if that differs
            say("pair", name=names[s], role=role(c)) if st.start[s] == c else
            say("pair_as", name=names[s], card=role(st.start[s]), role=role(c))
            for s, c in enumerate(d["cards"]))
        return (say("lupus.reveal", cards=cards))
    return None


def account(st: LupusState, say: Words, explain: bool = True) -> list[str]:
    """The account in the language of ``say``; ``explain`` adds the judge's reasoning."""
    lines = [line for e in st.log if (line := _line(st, e, say)) is not None]
    if explain and st.outcome is not None:
        lines.extend(say.explain(st.outcome.reasons))
    return lines
