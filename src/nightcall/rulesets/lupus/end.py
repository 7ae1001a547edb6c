"""The end of a Lupus game, checked after every death: who won, as sentences.

Source: lupus-in-tabula.md, "Objective", "Gameplay" (The end, or another night),
the quick reference ("The end": at any moment) and "Variants" (the Werehamster
alive at the end wins alone). Rulings: docs/rulings.md (Lupus in Tabula), "The end".
"""

from __future__ import annotations

from collections.abc import Iterable

from nightcall.engine.events import EVERYONE, Event
from nightcall.engine.outcome import Outcome
from nightcall.rulesets.lupus.roles import (
    DISPLAY_NAME,
    HAMSTER_TEAM,
    POSSESSED,
    VILLAGE,
    WEREHAMSTER,
    WEREWOLF,
    WEREWOLVES,
    side_of,
)
from nightcall.rulesets.lupus.state import OVER, LupusState


def join(parts: Iterable[str]) -> str:
    items = list(parts)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _count(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


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
    wolves, humans = counts(st)
    names = st.names
    lines: list[str] = []
    if not wolves:
        team = VILLAGE
        lines.append("Every werewolf is dead: the humans win.")
    elif len(wolves) >= len(humans):
        team = WEREWOLVES
        with_possessed = ", and the Possessed with them" if POSSESSED in st.deck else ""
        lines.append(
            f"{_count(len(wolves), 'werewolf', 'werewolves')} and "
            f"{_count(len(humans), 'human', 'humans')} alive: the werewolves are as many "
            f"as the humans and win{with_possessed}."
        )
    else:
        return False
    teams = (team,)
    hamsters = [s for s in st.living() if st.roles[s] == WEREHAMSTER]
    if hamsters:
        teams = (HAMSTER_TEAM,)
        lines.append(
            f"{names[hamsters[0]]}, the Werehamster, is alive at the end and wins alone: "
            f"the {'humans' if team == VILLAGE else 'werewolves'} do not win."
        )
        winners = tuple(hamsters)
    else:
        winners = tuple(s for s in range(st.n) if side_of(st.roles[s]) == team)
    for s in range(st.n):
        if st.roles[s] != st.start[s]:
            lines.append(f"{names[s]}, the Mythomaniac, had become a "
                         f"{DISPLAY_NAME[st.roles[s]]} and plays as one.")
        if st.roles[s] == POSSESSED:
            lines.append(f"{names[s]} was the Possessed and wins or loses with the werewolves.")
    lines.append("Everyone wins or loses with their side, dead or alive.")
    lines.append(f"Winners: {join(names[s] for s in winners)}." if winners else "Nobody wins.")
    st.outcome = Outcome(
        tuple(st.deaths), teams, winners, tuple(lines),
        {"nights": [list(d) for d in st.night_deaths], "executed": list(st.executed)},
    )
    st.phase = OVER
    st.actors = ()
    st.log.append(Event("reveal", EVERYONE, {"cards": list(st.roles)}))
    st.log.append(Event("over", EVERYONE, {"teams": list(teams), "winners": list(winners)}))
    return True
