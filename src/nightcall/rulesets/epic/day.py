"""The Epic Battle day: dawn (artifacts, revealed cards), the vote, the end.

Source: epic-battle-rulebook.txt, "Day", "Vote", the Curator's "Day phase".
Action kinds: ``vote`` (a=seat, a fellow player), ``abstain`` (does not point).
Talk, as in One Night ("You may claim anything"): ``claim`` (a=role index),
``claim_saw`` (a=position, b=role index), ``claim_swap`` (a, b=positions), where a
position is a seat 0..n-1 or n+i for center card i.
Who dies and who wins is :mod:`nightcall.rulesets.epic.judge`.
"""

from __future__ import annotations

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event
from nightcall.rulesets.epic.common import ONLY
from nightcall.rulesets.epic.judge import NO_VOTE, EndOfNight, decide
from nightcall.rulesets.epic.roles import ARTIFACT_INSTRUCTION, ROLE_IDS
from nightcall.rulesets.epic.state import DAY, NOT_VOTED, OVER, EpicState
from nightcall.rulesets.onenight import (
    MAX_CLAIMS_PER_SEAT,
    claim_data,
    claim_options_for,
    vote_options,  # the same vote: a fellow player or none
    vote_table,
)

__all__ = ["MAX_CLAIMS_PER_SEAT", "cast_vote", "claim_options", "end_of_night",
           "record_claim", "resolve", "start_day", "vote_options"]


def claim_options(n: int, roles: tuple[str, ...]) -> tuple[Action, ...]:
    """Everything a seat may say: a role of the deck, a card it saw, a swap it made."""
    return claim_options_for(ROLE_IDS, n, roles)


def record_claim(st: EpicState, seat: int, action: Action) -> None:
    st.log.append(Event("claim", EVERYONE, claim_data(ROLE_IDS, seat, action)))



def start_day(st: EpicState) -> None:
    st.phase = DAY
    st.actor = -1
    st.choices = ()
    st.vote_options = vote_table(st.n)
    st.log.append(Event("dawn", EVERYONE, {}))
    if st.revealed:
        st.log.append(Event("revealed", EVERYONE,
                            {"cards": {str(s): c for s, c in sorted(st.revealed.items())}}))
    for s, artifact in enumerate(st.artifacts):
        if artifact is not None:
            st.log.append(Event("artifact", ONLY[s], {
                "artifact": artifact, "instruction": ARTIFACT_INSTRUCTION[artifact]}))


def cast_vote(st: EpicState, seat: int, action: Action) -> None:
    st.votes[seat] = action.a if action.kind == "vote" else NO_VOTE
    if NOT_VOTED not in st.votes:
        resolve(st)


def end_of_night(st: EpicState) -> EndOfNight:
    return EndOfNight(
        st.names,
        st.final_roles(),
        tuple(st.tokens),
        tuple(st.artifacts),
        tuple(v if v >= 0 else NO_VOTE for v in st.votes),
    )


def resolve(st: EpicState) -> None:
    """Count the votes, reveal everything, and run the who-has-won check."""
    st.log.append(Event("votes", EVERYONE,
                        {"votes": [v if v >= 0 else None for v in st.votes]}))
    end = end_of_night(st)
    outcome = decide(end, explain_now=False)
    st.log.append(Event("died", EVERYONE,
                        {"deaths": [[d.seat, d.cause] for d in outcome.deaths]}))
    st.log.append(Event("reveal", EVERYONE, {
        "cards": list(st.cards), "roles": list(end.roles),
        "tokens": list(st.tokens), "artifacts": list(st.artifacts)}))
    st.outcome = outcome
    st.phase = OVER
    st.log.append(Event("over", EVERYONE, {}))
