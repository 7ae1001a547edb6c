"""The end of a Lupus game, checked after every death: who won, and why (as reasons).

Source: lupus-in-tabula.md, "Objective", "Gameplay" (The end, or another night),
the quick reference ("The end": at any moment) and "Variants" (the Werehamster
alive at the end wins alone). Rulings: docs/rulings.md (Lupus in Tabula), "The end".
"""

from __future__ import annotations

from nightcall.engine.events import EVERYONE, Event
from nightcall.engine.outcome import Outcome, Reason, Term, why
from nightcall.rulesets.lupus.roles import (
    HAMSTER_TEAM,
    POSSESSED,
    VILLAGE,
    WEREHAMSTER,
    WEREWOLF,
    WEREWOLVES,
    side_of,
)
from nightcall.rulesets.lupus.state import OVER, LupusState


def counts(st: LupusState) -> tuple[list[int], list[int]]:
    """The living werewolves and the living humans (everyone else, Possessed included)."""
    wolves: list[int] = []
    humans: list[int] = []
    roles = st.roles
    for s in st.living():
        (wolves if roles[s] == WEREWOLF else humans).append(s)
    return wolves, humans


def check_end(st: LupusState) -> bool:
    """End the game if a side has won; True if it is over."""
    # Checked after every death (and nearly always not over): counts kept by day.kill.
    wolves, humans = st.wolves, st.humans
    names = st.names
    reasons: list[Reason] = []
    if not wolves:
        team = VILLAGE
        reasons.append(why("lupus.humans_win"))
    elif wolves >= humans:
        team = WEREWOLVES
        reasons.append(why(
            "lupus.wolves_win_possessed" if POSSESSED in st.deck else "lupus.wolves_win",
            wolves=Term("count", "werewolves", wolves),
            humans=Term("count", "humans", humans),
        ))
    else:
        return False
    teams = (team,)
    hamsters = [s for s in st.living() if st.roles[s] == WEREHAMSTER]
    if hamsters:
        teams = (HAMSTER_TEAM,)
        reasons.append(why("lupus.hamster_over_humans" if team == VILLAGE
                           else "lupus.hamster_over_wolves", name=names[hamsters[0]]))
        winners = tuple(hamsters)
    else:
        winners = tuple(s for s in range(st.n) if side_of(st.roles[s]) == team)
    for s in range(st.n):
        if st.roles[s] != st.start[s]:
            reasons.append(why("lupus.mythomaniac", name=names[s],
                               role=Term("role", st.roles[s])))
        if st.roles[s] == POSSESSED:
            reasons.append(why("lupus.possessed", name=names[s]))
    reasons.append(why("lupus.sides"))
    reasons.append(why("winners", names=tuple(names[s] for s in winners)) if winners
                   else why("nobody_wins"))
    st.outcome = Outcome(
        tuple(st.deaths), teams, winners, tuple(reasons),
        {"nights": [list(d) for d in st.night_deaths], "executed": list(st.executed)},
    )
    st.phase = OVER
    st.actors = ()
    st.log.append(Event("reveal", EVERYONE, {"cards": list(st.roles)}))
    st.log.append(Event("over", EVERYONE, {"teams": list(teams), "winners": list(winners)}))
    return True
