"""A readable account of a One Night game, from the master's log: the whole night in order,
the day, the deaths and the who-has-won check. Used by ``nightcall replay`` and the end screen."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import Event
from nightcall.rulesets.onuw.roles import DISPLAY_NAME, ROLE_IDS
from nightcall.rulesets.onuw.state import OneNightState


def _role(card: str) -> str:
    return DISPLAY_NAME.get(card, card)


def _pos(st: OneNightState, data: dict[str, Any]) -> str:
    if "seat" in data:
        return f"{st.names[data['seat']]}'s card"
    return f"center card {data['center'] + 1}"


def _who(e: Event, st: OneNightState) -> str:
    audience = e.audience
    if isinstance(audience, frozenset) and len(audience) == 1:
        return st.names[next(iter(audience))]
    return "someone"


def _names(st: OneNightState, seats: list[int]) -> str:
    return ", ".join(st.names[s] for s in seats) or "nobody"


def account(st: OneNightState) -> list[str]:
    names = st.names
    n = st.n
    lines: list[str] = []
    for e in st.log:
        d = e.data
        k = e.kind
        if k == "deal" and "cards" in d:
            dealt = ", ".join(f"{names[s]}: {_role(d['cards'][s])}" for s in range(n))
            center = ", ".join(_role(c) for c in d["cards"][n:])
            lines.append(f"Dealt: {dealt}. Center: {center}.")
        elif k == "call":
            lines.append(f"Night: {DISPLAY_NAME.get(d['role'], 'Doppelgänger (again)')} is called.")
        elif k == "wolves":
            seats = d["seats"]
            if len(seats) == 1:
                lines.append(f"  {names[seats[0]]} wakes as the only Werewolf.")
            else:
                lines.append(f"  {_names(st, seats)} wake as Werewolves and see each other.")
        elif k == "thumbs":
            lines.append(f"  {_who(e, st)} sees the Werewolves' thumbs: {_names(st, d['seats'])}.")
        elif k == "masons":
            lines.append(f"  Masons awake: {_names(st, d['seats'])}.")
        elif k == "became":
            lines.append(f"  {_who(e, st)} becomes a {_role(d['role'])}.")
        elif k == "saw":
            lines.append(f"  {_who(e, st)} looks at {_pos(st, d)}: {_role(d['card'])}.")
        elif k == "swapped":
            if "seats" in d:
                a, b = d["seats"]
                lines.append(f"  {_who(e, st)} swaps the cards of {names[a]} and {names[b]}.")
            else:
                lines.append(
                    f"  {_who(e, st)} swaps their card with center card {d['center'] + 1}."
                )
        elif k == "dawn":
            lines.append("Day: everyone wakes up.")
        elif k == "claim":
            who = names[d["seat"]]
            if "saw" in d:
                pos = d["saw"]
                where = names[pos] if pos < n else f"center card {pos - n + 1}"
                lines.append(f"  {who} says they saw that {where} was a {_role(d['role'])}.")
            elif "swapped" in d:
                a, b = (names[p] if p < n else f"center card {p - n + 1}" for p in d["swapped"])
                lines.append(f"  {who} says they swapped {a} and {b}.")
            else:
                lines.append(f"  {who} says they are the {_role(d['role'])}.")
        elif k == "votes":
            votes = ", ".join(
                f"{names[s]} → {names[v]}" for s, v in enumerate(d["votes"]) if v is not None
            )
            lines.append(f"Vote: {votes or 'nobody points'}.")
        elif k == "reveal":
            final = ", ".join(f"{names[s]}: {_role(st.final_role(s))}" for s in range(n))
            lines.append(f"Cards at the end: {final}.")
    if st.outcome is not None:
        lines.extend(st.outcome.explanation)
    return lines


assert set(DISPLAY_NAME) == set(ROLE_IDS)
