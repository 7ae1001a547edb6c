"""A readable account of an Epic Battle game from the master's log: twilight, night,
day, the vote and the who-has-won check. Used by ``nightcall replay``."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import Event
from nightcall.rulesets.epic.roles import ARTIFACT_NAME, name
from nightcall.rulesets.epic.state import EpicState

CALL_TITLE = {
    "vampires": "The vampires", "tokens": "Everybody looks at their token",
    "lovers": "The lovers", "werewolves": "The werewolves",
    "werewolves_dream_wolf": "The werewolves (the Dream Wolf raises a thumb)",
    "freemasons": "The Freemasons",
}


def _who(st: EpicState, e: Event) -> str:
    a = e.audience
    if isinstance(a, frozenset) and len(a) == 1:
        return st.names[next(iter(a))]
    if isinstance(a, frozenset):
        return ", ".join(st.names[s] for s in sorted(a))
    return "someone"


def _names(st: EpicState, seats: list[int]) -> str:
    return ", ".join(st.names[s] for s in seats) or "nobody"


def _pos(st: EpicState, d: dict[str, Any]) -> str:
    if "seat" in d:
        return f"{st.names[d['seat']]}'s card"
    return f"center card {d['center'] + 1}"


def account(st: EpicState) -> list[str]:
    names, n = st.names, st.n
    lines: list[str] = []
    for e in st.log:
        d, k = e.data, e.kind
        who = _who(st, e)
        if k == "deal" and "cards" in d:
            cards = d["cards"]
            dealt = ", ".join(f"{names[s]}: {name(cards[s])}" for s in range(n))
            center = ", ".join(name(c) for c in cards[n : n + 3])
            extra = f" Beside the center: {name(cards[n + 3])}." if len(cards) > n + 3 else ""
            lines.append(f"Dealt: {dealt}. Center: {center}.{extra}")
        elif k == "call":
            call = d["call"]
            lines.append(f"Called: {CALL_TITLE.get(call, name(call))}.")
        elif k == "saw":
            lines.append(f"  {who} looks at {_pos(st, d)}: {name(d['card'])}.")
        elif k == "saw_token":
            lines.append(f"  {who} looks at {names[d['seat']]}'s token: {d['token']}.")
        elif k == "became":
            lines.append(f"  {who} becomes a {name(d['role'])}.")
        elif k in ("vampires", "wolves", "freemasons", "lovers"):
            extra = ""
            if d.get("dream_wolves"):
                extra = f" (Dream Wolf thumb: {_names(st, d['dream_wolves'])})"
            if k == "vampires" and "bitten" in d:
                bitten = d["bitten"]
                victim = names[bitten] if bitten is not None else "nobody"
                extra = f"; the bitten player is {victim}"
                lines.append(f"  {who} sees the vampires: {_names(st, d['seats'])}{extra}.")
            else:
                lines.append(f"  Awake as {k}: {_names(st, d['seats'])}{extra}.")
        elif k == "bitten":
            lines.append(f"  The vampires give {names[d['seat']]} the Vampire token.")
        elif k == "gave_token":
            if d.get("seat") is not None and names[d["seat"]] == who:
                lines.append(f"  {who} takes the {d['token']} token.")
            else:
                target = _names(st, d["seats"]) if "seats" in d else names[d["seat"]]
                lines.append(f"  {who} gives {target} the {d['token']} token.")
        elif k == "token":
            lines.append(f"  {names[d['seat']]} has the {d['token']} token.")
        elif k == "swapped":
            if d.get("extra"):
                lines.append(f"  {who} swaps the extra werewolf card with "
                             f"{names[d['seats'][0]]}'s card.")
            elif "center" in d:
                lines.append(f"  {who} swaps center card {d['center'] + 1} with "
                             f"{names[d['seats'][0]]}'s card.")
            else:
                a, b = d["seats"]
                lines.append(f"  {who} swaps the cards of {names[a]} and {names[b]}.")
        elif k == "swapped_tokens":
            a, b = d["seats"]
            lines.append(f"  {who} swaps the tokens of {names[a]} and {names[b]}.")
        elif k == "tapped" and "by" in d:
            lines.append(f"  {names[d['by']]} (The Thing) taps {who} on the shoulder.")
        elif k == "thumbs":
            lines.append(f"  {who} sees thumbs up: {_names(st, d['seats'])}.")
        elif k == "concealed":
            lines.append(f"  {who} turns {names[d['seat']]}'s card face down again.")
        elif k == "artifact_drawn":
            lines.append(f"  The {ARTIFACT_NAME[d['artifact']]} is placed on "
                         f"{names[d['seat']]}'s card.")
        elif k == "dawn":
            lines.append("Day: everyone wakes up.")
        elif k == "revealed":
            up = ", ".join(f"{names[int(s)]}: {name(c)}" for s, c in d["cards"].items())
            lines.append(f"  Face up on the table: {up}.")
        elif k == "claim":
            lines.append(f"  {names[d['seat']]} says they are the {name(d['role'])}.")
        elif k == "votes":
            votes = ", ".join(f"{names[s]} → {names[v]}"
                              for s, v in enumerate(d["votes"]) if v is not None)
            lines.append(f"Vote: {votes or 'nobody points'}.")
        elif k == "reveal":
            final = ", ".join(
                f"{names[s]}: {name(d['roles'][s])} ({d['tokens'][s]})" for s in range(n))
            lines.append(f"At the end: {final}.")
    if st.outcome is not None:
        lines.extend(st.outcome.explanation)
    return lines
