"""A readable account of an Epic Battle game from the master's log: twilight, night,
day, the vote and the who-has-won check. Used by ``nightcall replay`` and the end
screen, in the narrator's languages, through ``say`` (nightcall.engine.words): each
event's sentence is the one renderer's (the ``event.*.master`` templates); only the
deal and the end, which read the state, are written here."""

from __future__ import annotations

from nightcall.engine.events import Event
from nightcall.engine.outcome import Term
from nightcall.engine.words import Words
from nightcall.rulesets.epic.state import EpicState

# The kinds the account tells, and how deep each is indented (the night's steps under
# their call).
INDENT = {"call": 0, "dawn": 0, "votes": 0, "saw": 2, "saw_token": 2, "became": 2,
          "vampires": 2, "wolves": 2, "freemasons": 2, "lovers": 2, "bitten": 2,
          "gave_token": 2, "token": 2, "swapped": 2, "swapped_tokens": 2, "tapped": 2,
          "thumbs": 2, "concealed": 2, "artifact_drawn": 2, "revealed": 2, "claim": 2}


def _actor(e: Event) -> int | tuple[int, ...] | None:
    """Who did or learned it: the seat (or seats) the event was for."""
    a = e.audience
    if isinstance(a, frozenset) and len(a) == 1:
        return next(iter(a))
    if isinstance(a, frozenset):
        return tuple(sorted(a))
    return None


def account(st: EpicState, say: Words, explain: bool = True) -> list[str]:
    """The account in the language of ``say``; ``explain`` adds the judge's reasoning."""
    role = say.role
    names, n = st.names, st.n

    def token(t: str) -> str:
        return say(f"epic.token.{t}") if say.has(f"epic.token.{t}") else t

    lines: list[str] = []
    for e in st.log:
        d, k = e.data, e.kind
        if k == "deal" and "cards" in d:
            cards = d["cards"]
            dealt = ", ".join(say("pair", name=names[s], role=role(cards[s])) for s in range(n))
            center = ", ".join(role(c) for c in cards[n : n + 3])
            line = say("dealt_center", dealt=dealt, center=center)
            if len(cards) > n + 3:
                line += " " + say("epic.beside", role=role(cards[n + 3]))
            lines.append(line)
        # The Thing's own tap is not told: the "tapped" with "by" says it.
        elif k in INDENT and not (k == "tapped" and "by" not in d):
            text = say.event(names, {"kind": k, **d}, _actor(e), st.deck)
            if text is not None:
                lines.append(" " * INDENT[k] + text)
        elif k == "reveal":
            final = []  # the card as it lies, and what it counts as if that differs
            for s in range(n):
                seat = (say("epic.final", name=names[s], role=role(d["roles"][s]))
                        if d["cards"][s] == d["roles"][s] else
                        say("epic.final_as", name=names[s], card=Term("role", d["cards"][s]),
                            role=Term("role", d["roles"][s])))
                # (without token roles every seat keeps its Certainty: nothing to tell)
                if st.tokens_in_play:
                    seat = say("epic.with_token", said=seat, token=token(d["tokens"][s]))
                final.append(seat)
            lines.append(say("epic.end", cards=", ".join(final)))
    if explain and st.outcome is not None:
        lines.extend(say.explain(st.outcome.reasons))
    return lines
