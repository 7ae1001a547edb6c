"""A readable account of a Lupus game, from the Master's log: every night's calls and
choices, each dawn, the accusations, the Suspects, the execution, and who won and why."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import Event
from nightcall.rulesets.lupus.roles import CALL_NAME, DISPLAY_NAME
from nightcall.rulesets.lupus.state import LupusState

CAUSES = {
    "werewolves": "eaten by the werewolves",
    "harlot_host": "the Harlot, caught at the victim's house",
    "harlot_visited_werewolf": "the Harlot, who spent the night with a werewolf",
    "seen_by_seer": "the Werehamster, looked at by the Seer",
}


def _who(st: LupusState, e: Event) -> str:
    audience = e.audience
    if isinstance(audience, frozenset) and len(audience) == 1:
        return st.names[next(iter(audience))]
    return "someone"


def _names(st: LupusState, seats: list[int]) -> str:
    names = [st.names[s] for s in seats]
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _line(st: LupusState, e: Event) -> str | None:
    names = st.names
    d: dict[str, Any] = e.data
    k = e.kind
    if k == "deal" and "cards" in d:
        dealt = ", ".join(f"{names[s]}: {DISPLAY_NAME[c]}" for s, c in enumerate(d["cards"]))
        return f"Dealt: {dealt}."
    if k == "night":
        return f"Night {d['night']} falls."
    if k == "call":
        return f"  The Master calls the {CALL_NAME[d['role']]}."
    if k == "wolves":
        if len(d["seats"]) == 1:
            return f"    {_names(st, d['seats'])} opens their eyes, the only werewolf left."
        return f"    {_names(st, d['seats'])} open their eyes as the werewolves."
    if k == "wolf_pick":
        return f"    {names[d['seat']]} points at {names[d['target']]}."
    if k == "victim":
        return f"    The werewolves' victim is {names[d['seat']]}."
    if k == "protect":
        return f"    {_who(st, e)} protects {names[d['seat']]}."
    if k == "visit":
        where = names[d["seat"]] if d["seat"] is not None else "nobody: stays home"
        return f"    {_who(st, e)} spends the night at {where}."
    if k == "seen":
        answer = "a werewolf" if d["werewolf"] else "not a werewolf"
        return f"    {_who(st, e)} points at {names[d['seat']]}: {answer}."
    if k == "medium":
        answer = "was" if d["werewolf"] else "was not"
        return f"    {_who(st, e)} learns that {names[d['seat']]} {answer} a werewolf."
    if k == "mark":
        return f"    {_who(st, e)} points at {names[d['seat']]}."
    if k == "freemasons":
        return f"    {_names(st, d['seats'])} see each other as Freemasons."
    if k == "imitate":
        becomes = f"a {DISPLAY_NAME[d['becomes']]}" if d["becomes"] else "nothing: stays human"
        return f"    {_who(st, e)} points at {names[d['seat']]} and becomes {becomes}."
    if k == "transformed":
        return f"  {names[d['seat']]}, the Mythomaniac, is now a {DISPLAY_NAME[d['role']]}."
    if k == "dawn":
        if not d["dead"]:
            return f"Dawn {d['night']}: nobody died."
        return f"Dawn {d['night']}: {_names(st, d['dead'])} died " \
               f"({names[d['last']]} counts as the last to die)."
    if k == "causes" and d["deaths"]:
        return "  For the Master: " + "; ".join(
            f"{names[s]} {CAUSES.get(c, c)}" for s, c in d["deaths"]) + "."
    if k == "last":
        return f"  The Master names {names[d['seat']]} as the last to die."
    if k == "accusation":
        owl = f" The Owl pointed at {names[d['owl']]}." if d["owl"] is not None else ""
        return f"Day {d['day']}: the accusation round starts with {names[d['order'][0]]}.{owl}"
    if k == "accuse":
        target = names[d["target"]] if d["target"] is not None else "nobody"
        return f"  {names[d['seat']]} accuses {target}."
    if k == "suspects":
        return f"  Suspects: {_names(st, d['seats'])}."
    if k == "votes":
        votes = ", ".join(
            f"{names[v]} → {names[t] if t is not None else 'nobody'}" for v, t in d["votes"])
        return f"  Execution vote: {votes}."
    if k == "executed":
        return f"  {names[d['seat']]} is executed."
    if k == "reveal":
        cards = ", ".join(f"{names[s]}: {DISPLAY_NAME[c]}" for s, c in enumerate(d["cards"]))
        return f"The game is over. Cards: {cards}."
    return None


def account(st: LupusState) -> list[str]:
    lines = [line for e in st.log if (line := _line(st, e)) is not None]
    if st.outcome is not None:
        lines.extend(st.outcome.explanation)
    return lines
