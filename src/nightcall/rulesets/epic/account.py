"""A readable account of an Epic Battle game from the master's log: twilight, night,
day, the vote and the who-has-won check. Used by ``nightcall replay`` and the end
screen, in the narrator's languages (``account.*`` lines, through ``say``: engine/words.py)."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import Event
from nightcall.engine.words import Words
from nightcall.rulesets.epic.state import EpicState

# Calls that name a group rather than one role have their own words.
GROUP_CALLS = frozenset({"vampires", "tokens", "lovers", "werewolves",
                         "werewolves_dream_wolf", "freemasons"})


def _who(st: EpicState, e: Event, say: Words) -> str:
    a = e.audience
    if isinstance(a, frozenset) and len(a) == 1:
        return st.names[next(iter(a))]
    if isinstance(a, frozenset):
        return ", ".join(st.names[s] for s in sorted(a))
    return (say("someone"))


def account(st: EpicState, say: Words, explain: bool = True) -> list[str]:
    """The account in the language of ``say``; ``explain`` adds the judge's reasoning."""
    role = say.role
    names, n = st.names, st.n

    def group(seats: list[int]) -> str:
        return say.commas([names[s] for s in seats])

    def token(t: str) -> str:
        return say(f"epic.token.{t}") if say.has(f"epic.token.{t}") else t

    def pos(d: dict[str, Any]) -> str:
        if "seat" in d:
            return say("card_of", name=names[d["seat"]])
        return say("center_card", n=d["center"] + 1)

    lines: list[str] = []
    for e in st.log:
        d, k = e.data, e.kind
        who = _who(st, e, say)
        if k == "deal" and "cards" in d:
            cards = d["cards"]
            dealt = ", ".join(say("pair", name=names[s], role=role(cards[s])) for s in range(n))
            center = ", ".join(role(c) for c in cards[n : n + 3])
            line = say("dealt_center", dealt=dealt, center=center)
            if len(cards) > n + 3:
                line += " " + say("epic.beside", role=role(cards[n + 3]))
            lines.append(line)
        elif k == "call":
            call = d["call"]
            title = say(f"epic.call.{call}") if call in GROUP_CALLS else role(call)
            lines.append(say("epic.called", call=title))
        elif k == "saw":
            lines.append("  " + say("saw", who=who, where=pos(d), role=role(d["card"])))
        elif k == "saw_token":
            lines.append("  " + say("epic.saw_token", who=who, name=names[d["seat"]],
                                    token=token(d["token"])))
        elif k == "became":
            lines.append("  " + say("became", who=who, role=role(d["role"])))
        elif k == "vampires" and "bitten" in d:
            bitten = d["bitten"]
            victim = names[bitten] if bitten is not None else say("nobody")
            lines.append("  " + say("epic.vampires_bitten", who=who, names=group(d["seats"]),
                                    victim=victim))
        elif k in ("vampires", "wolves", "freemasons", "lovers"):
            if d.get("dream_wolves"):
                lines.append("  " + say(f"epic.awake.{k}_dream", names=group(d["seats"]),
                                        dream=group(d["dream_wolves"])))
            else:
                lines.append("  " + say(f"epic.awake.{k}", names=group(d["seats"])))
        elif k == "bitten":
            lines.append("  " + say("epic.bitten", name=names[d["seat"]]))
        elif k == "gave_token":
            if d.get("seat") is not None and names[d["seat"]] == who:
                lines.append("  " + say("epic.took_token", who=who, token=token(d["token"])))
            else:
                target = group(d["seats"]) if "seats" in d else names[d["seat"]]
                lines.append("  " + say("epic.gave_token", who=who, target=target,
                                        token=token(d["token"])))
        elif k == "token":
            lines.append("  " + say("epic.token", name=names[d["seat"]], token=token(d["token"])))
        elif k == "swapped":
            if d.get("extra"):
                lines.append("  " + say("epic.swapped_extra", who=who, name=names[d["seats"][0]]))
            elif "center" in d:
                lines.append("  " + say("epic.swapped_center", who=who, n=d["center"] + 1,
                                        name=names[d["seats"][0]]))
            else:
                a, b = d["seats"]
                lines.append("  " + say("swapped_two", who=who, a=names[a], b=names[b]))
        elif k == "swapped_tokens":
            a, b = d["seats"]
            lines.append("  " + say("epic.swapped_tokens", who=who, a=names[a], b=names[b]))
        elif k == "tapped" and "by" in d:
            lines.append("  " + say("epic.tapped", by=names[d["by"]], who=who))
        elif k == "thumbs":
            lines.append("  " + say("epic.thumbs", who=who, names=group(d["seats"])))
        elif k == "concealed":
            lines.append("  " + say("epic.concealed", who=who, name=names[d["seat"]]))
        elif k == "artifact_drawn":
            lines.append("  " + say("epic.artifact_drawn", name=names[d["seat"]],
                                    artifact=say(f"epic.artifact.{d['artifact']}")))
        elif k == "dawn":
            lines.append(say("day"))
        elif k == "revealed":
            up = ", ".join(say("pair", name=names[int(s)], role=role(c))
                           for s, c in d["cards"].items())
            lines.append("  " + say("epic.revealed", cards=up))
        elif k == "claim":
            lines.append("  " + say("claim_am", who=names[d["seat"]], role=role(d["role"])))
        elif k == "votes":
            votes = ", ".join(say("vote_pair", name=names[s], target=names[v])
                              for s, v in enumerate(d["votes"]) if v is not None)
            lines.append(say("vote", votes=votes or say("nobody_points")))
        elif k == "reveal":
            final = ", ".join(  # the card as it lies, and what it counts as if that differs
                say("epic.final", name=names[s], role=role(d["roles"][s]),
                    token=token(d["tokens"][s]))
                if d["cards"][s] == d["roles"][s] else
                say("epic.final_as", name=names[s], card=role(d["cards"][s]),
                    role=role(d["roles"][s]), token=token(d["tokens"][s]))
                for s in range(n))
            lines.append(say("epic.end", cards=final))
    if explain and st.outcome is not None:
        lines.extend(say.explain(st.outcome.reasons))
    return lines
