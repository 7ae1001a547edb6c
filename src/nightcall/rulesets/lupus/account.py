"""A readable account of a Lupus game, from the Master's log: every night's calls and
choices, each dawn, the accusations, the Suspects, the execution, and who won and why.
In the narrator's languages, through ``say`` (nightcall.engine.words): each event's
sentence is the one renderer's (the ``event.lupus.*.master`` templates of this
ruleset's locales); only the deal and the end, which read the state, are written here."""

from __future__ import annotations

from nightcall.engine.events import Event
from nightcall.engine.outcome import Term
from nightcall.engine.words import Words
from nightcall.rulesets.lupus.state import LupusState

# The kinds the account tells, and how deep each is indented (the night's steps under
# their call).
INDENT = {
    "night": 0, "dawn": 0, "accusation": 0,
    "call": 2, "transformed": 2, "causes": 2, "last": 2, "accuse": 2, "suspects": 2,
    "votes": 2, "executed": 2,
    "wolves": 4, "wolf_pick": 4, "victim": 4, "protect": 4, "visit": 4, "seen": 4,
    "medium": 4, "mark": 4, "freemasons": 4, "imitate": 4,
}


def _actor(e: Event) -> int | None:
    audience = e.audience
    if isinstance(audience, frozenset) and len(audience) == 1:
        return next(iter(audience))
    return None


def _line(st: LupusState, e: Event, say: Words) -> str | None:
    names = st.names
    if e.kind == "deal" and "cards" in e.data:
        dealt = ", ".join(say("pair", name=names[s], role=say.role(c))
                          for s, c in enumerate(e.data["cards"]))
        return say("lupus.dealt", dealt=dealt)
    if e.kind == "reveal":
        cards = ", ".join(  # the card as it lies, and what it counts as if that differs
            say("pair", name=names[s], role=say.role(c)) if st.start[s] == c else
            say("pair_as", name=names[s], card=Term("role", st.start[s]),
                role=Term("role", c))
            for s, c in enumerate(e.data["cards"]))
        return say("lupus.reveal", cards=cards)
    if e.kind not in INDENT:
        return None
    text = say.event(names, {"kind": e.kind, **e.data}, _actor(e), st.deck)
    return None if text is None else " " * INDENT[e.kind] + text


def account(st: LupusState, say: Words, explain: bool = True) -> list[str]:
    """The account in the language of ``say``; ``explain`` adds the judge's reasoning."""
    lines = [line for e in st.log if (line := _line(st, e, say)) is not None]
    if explain and st.outcome is not None:
        lines.extend(say.explain(st.outcome.reasons))
    return lines
