"""A readable account of a One Night game, from the master's log: the whole night in order,
the day, the deaths and the who-has-won check. Used by ``nightcall replay`` and the end
screen, in the narrator's languages (``account.*`` lines, through ``say``: engine/words.py)."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import Event
from nightcall.engine.words import Words
from nightcall.rulesets.onuw.roles import DISPLAY_NAME, ROLE_IDS
from nightcall.rulesets.onuw.state import OneNightState


def _pos(st: OneNightState, data: dict[str, Any], say: Words) -> str:
    if "seat" in data:
        return (say("card_of", name=st.names[data["seat"]]))
    return (say("center_card", n=data["center"] + 1))


def _who(e: Event, st: OneNightState, say: Words) -> str:
    audience = e.audience
    if isinstance(audience, frozenset) and len(audience) == 1:
        return st.names[next(iter(audience))]
    return (say("someone"))


def account(st: OneNightState, say: Words, explain: bool = True) -> list[str]:
    """The account in the language of ``say``; ``explain`` adds the judge's reasoning."""
    role = say.role
    names = st.names
    n = st.n

    def group(seats: list[int]) -> str:
        return say.commas([names[s] for s in seats])

    def pos(p: int) -> str:
        return names[p] if p < n else say("center_card", n=p - n + 1)

    lines: list[str] = []
    for e in st.log:
        d = e.data
        k = e.kind
        who = _who(e, st, say)
        if k == "deal" and "cards" in d:
            dealt = ", ".join(say("pair", name=names[s], role=role(d["cards"][s]))
                              for s in range(n))
            center = ", ".join(role(c) for c in d["cards"][n:])
            lines.append(say("dealt_center", dealt=dealt, center=center))
        elif k == "call":
            if d["role"] in DISPLAY_NAME:
                lines.append(say("onuw.call", role=role(d["role"])))
            else:
                lines.append(say("onuw.call_again"))
        elif k == "wolves":
            seats = d["seats"]
            if len(seats) == 1:
                lines.append("  " + say("onuw.wolf_alone", name=names[seats[0]]))
            else:
                lines.append("  " + say("onuw.wolves", names=group(seats)))
        elif k == "thumbs":
            lines.append("  " + say("onuw.thumbs", who=who, names=group(d["seats"])))
        elif k == "masons":
            lines.append("  " + say("onuw.masons", names=group(d["seats"])))
        elif k == "became":
            lines.append("  " + say("became", who=who, role=role(d["role"])))
        elif k == "saw":
            lines.append("  " + say("saw", who=who, where=_pos(st, d, say),
                                    role=role(d["card"])))
        elif k == "swapped":
            if "seats" in d:
                a, b = d["seats"]
                lines.append("  " + say("swapped_two", who=who, a=names[a], b=names[b]))
            else:
                lines.append("  " + say("onuw.swapped_center", who=who, n=d["center"] + 1))
        elif k == "dawn":
            lines.append(say("day"))
        elif k == "claim":
            speaker = names[d["seat"]]
            if "saw" in d:
                lines.append("  " + say("claim_saw", who=speaker, where=pos(d["saw"]),
                                        role=role(d["role"])))
            elif "swapped" in d:
                a, b = (pos(p) for p in d["swapped"])
                lines.append("  " + say("claim_swapped", who=speaker, a=a, b=b))
            else:
                lines.append("  " + say("claim_am", who=speaker, role=role(d["role"])))
        elif k == "votes":
            votes = ", ".join(say("vote_pair", name=names[s], target=names[v])
                              for s, v in enumerate(d["votes"]) if v is not None)
            lines.append(say("vote", votes=votes or say("nobody_points")))
        elif k == "reveal":  # the card as it lies, and what it counts as if that differs
            final = ", ".join(
                say("pair", name=names[s], role=role(st.final_role(s)))
                if d["cards"][s] == st.final_role(s) else
                say("pair_as", name=names[s], card=role(d["cards"][s]),
                    role=role(st.final_role(s)))
                for s in range(n))
            lines.append(say("onuw.end", cards=final))
    if explain and st.outcome is not None:
        lines.extend(say.explain(st.outcome.reasons))
    return lines


assert set(DISPLAY_NAME) == set(ROLE_IDS)
