"""A readable account of a One Night game, from the master's log: the whole night in order,
the day, the deaths and the who-has-won check. Used by ``nightcall replay`` and the end
screen, in the narrator's languages, through ``say`` (nightcall.engine.words): each
event's sentence is the one renderer's (the ``event.*.master`` templates); only the deal
and the end, which read the state, are written here."""

from __future__ import annotations

from nightcall.engine.events import Event
from nightcall.engine.outcome import Term
from nightcall.engine.words import Words
from nightcall.rulesets.onuw.state import OneNightState

# The kinds the account tells, and how deep each is indented (the night's steps under
# their call).
INDENT = {"call": 0, "dawn": 0, "votes": 0, "claim": 2, "wolves": 2, "thumbs": 2,
          "masons": 2, "became": 2, "saw": 2, "swapped": 2}


def _actor(e: Event) -> int | None:
    audience = e.audience
    if isinstance(audience, frozenset) and len(audience) == 1:
        return next(iter(audience))
    return None


def account(st: OneNightState, say: Words, explain: bool = True) -> list[str]:
    """The account in the language of ``say``; ``explain`` adds the judge's reasoning."""
    role = say.role
    names = st.names
    n = st.n
    lines: list[str] = []
    for e in st.log:
        d = e.data
        if e.kind == "deal" and "cards" in d:
            dealt = ", ".join(say("pair", name=names[s], role=role(d["cards"][s]))
                              for s in range(n))
            center = ", ".join(role(c) for c in d["cards"][n:])
            lines.append(say("dealt_center", dealt=dealt, center=center))
        elif e.kind == "reveal":  # the card as it lies, and what it counts as if that differs
            final = ", ".join(
                say("pair", name=names[s], role=role(st.final_role(s)))
                if d["cards"][s] == st.final_role(s) else
                say("pair_as", name=names[s], card=Term("role", d["cards"][s]),
                    role=Term("role", st.final_role(s)))
                for s in range(n))
            lines.append(say("onuw.end", cards=final))
        elif e.kind in INDENT:
            text = say.event(names, {"kind": e.kind, **d}, _actor(e), st.deck)
            if text is not None:
                lines.append(" " * INDENT[e.kind] + text)
    if explain and st.outcome is not None:
        lines.extend(say.explain(st.outcome.reasons))
    return lines
