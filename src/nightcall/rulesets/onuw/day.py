"""The One Night day: claims, the one simultaneous vote, who dies, who wins.

Source: one-night-ultimate-werewolf.md, "Gameplay" (the vote, who dies) and
"Who wins"; rulings in docs/rulings.md (ONUW section).

Action kinds: ``vote`` (a=seat), ``abstain`` (does not point). Claims are talk,
not moves: ``claim`` (a=role index), ``claim_saw`` (a=position, b=role index),
``claim_swap`` (a, b=positions), where a position is a seat 0..n-1 or n+i for
center card i.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event
from nightcall.engine.outcome import Death, Outcome
from nightcall.rulesets.onuw.roles import (
    DISPLAY_NAME, HUNTER, MINION, ROLE_IDS, TANNER, TANNER_TEAM, TEAM, VILLAGE, WEREWOLF,
    WEREWOLVES,
)
from nightcall.rulesets.onuw.state import ABSTAIN, DAY, NOT_VOTED, OVER, OneNightState

MAX_CLAIMS_PER_SEAT = 40
ABSTAIN_ACTION = Action("abstain")


@cache
def vote_options(n: int, seat: int) -> tuple[Action, ...]:
    return (*(Action("vote", x) for x in range(n) if x != seat), ABSTAIN_ACTION)


@cache
def claim_options(n: int, roles: tuple[str, ...]) -> tuple[Action, ...]:
    """Everything a seat may say: its role, a card it saw, a swap it made."""
    idx = [ROLE_IDS.index(r) for r in roles]
    positions = range(n + 3)
    return (
        *(Action("claim", i) for i in idx),
        *(Action("claim_saw", p, i) for p in positions for i in idx),
        *(Action("claim_swap", a, b) for a, b in combinations(positions, 2)),
    )


def start_day(st: OneNightState) -> None:
    st.phase = DAY
    st.actor = -1
    st.log.append(Event("dawn", EVERYONE, {}))


def record_claim(st: OneNightState, seat: int, action: Action) -> None:
    data: dict[str, object] = {"seat": seat}
    if action.kind == "claim":
        data["role"] = ROLE_IDS[action.a]
    elif action.kind == "claim_saw":
        data["saw"] = action.a
        data["role"] = ROLE_IDS[action.b]
    else:
        data["swapped"] = [action.a, action.b]
    st.claims.append((seat, data))
    st.log.append(Event("claim", EVERYONE, data))


def cast_vote(st: OneNightState, seat: int, action: Action) -> None:
    st.votes[seat] = action.a if action.kind == "vote" else ABSTAIN
    if NOT_VOTED not in st.votes:
        resolve(st)


def resolve(st: OneNightState) -> None:
    """Count the votes, kill, reveal every card, and run the who-has-won check."""
    n = st.n
    names = st.names
    votes = st.votes
    st.log.append(
        Event("votes", EVERYONE, {"votes": [v if v >= 0 else None for v in votes]})
    )
    tally = [0] * n
    for v in votes:
        if v >= 0:
            tally[v] += 1
    top = max(tally)
    lines: list[str] = []
    deaths: list[Death] = []
    if top <= 1:
        lines.append("Nobody got more than one vote, so nobody dies.")
    else:
        voted_out = [s for s in range(n) if tally[s] == top]
        deaths = [Death(s, "votes") for s in voted_out]
        if len(voted_out) == 1:
            lines.append(f"{names[voted_out[0]]} got the most votes ({top}) and dies.")
        else:
            who = _join(names[s] for s in voted_out)
            lines.append(f"{who} tie with {top} votes each, and all of them die.")
    roles = [st.final_role(s) for s in range(n)]
    # A dead Hunter takes the player they point at; a Hunter taken that way fires too.
    dead = {d.seat for d in deaths}
    i = 0
    while i < len(deaths):
        s = deaths[i].seat
        target = votes[s]
        if roles[s] == HUNTER and target >= 0 and target not in dead:
            deaths.append(Death(target, "hunter"))
            dead.add(target)
            lines.append(f"{names[s]} was the Hunter and points at {names[target]}, "
                         f"so {names[target]} dies too.")
        i += 1
    st.log.append(Event("died", EVERYONE, {"deaths": [[d.seat, d.cause] for d in deaths]}))
    st.log.append(
        Event("reveal", EVERYONE, {"cards": list(st.cards), "copy": st.copy})
    )
    st.outcome = who_won(st, roles, deaths, lines)
    st.phase = OVER
    st.log.append(Event("over", EVERYONE, {}))


def who_won(
    st: OneNightState, roles: list[str], deaths: list[Death], lines: list[str]
) -> Outcome:
    """The who-has-won check, step by step, each step adding its sentence."""
    n = st.n
    names = st.names
    dead = {d.seat for d in deaths}
    wolves = [s for s in range(n) if roles[s] == WEREWOLF]
    dead_wolves = [s for s in wolves if s in dead]
    dead_tanners = [s for s in range(n) if roles[s] == TANNER and s in dead]
    minions = [s for s in range(n) if roles[s] == MINION]
    if st.copy is not None and "doppelganger" in st.cards[:n]:
        holder = st.cards.index("doppelganger")
        if holder < n:
            lines.append(
                f"{names[holder]} holds the Doppelgänger, which copied the "
                f"{DISPLAY_NAME[st.copy]}: they are a {DISPLAY_NAME[st.copy]}."
            )
    teams: list[str] = []

    # Step 1: is any player a Werewolf at the end?
    if wolves:
        lines.append(f"Werewolves among the players at the end: {_join(names[s] for s in wolves)}.")
    else:
        lines.append("No player holds a Werewolf at the end: they are all in the center.")

    # Step 2: the village.
    if wolves:
        if dead_wolves:
            lines.append(f"A Werewolf died ({_join(names[s] for s in dead_wolves)}): "
                         "the village wins.")
            teams.append(VILLAGE)
        else:
            lines.append("No Werewolf died: the village loses.")
    elif not dead:
        lines.append("No player is a Werewolf and nobody died: the village wins.")
        teams.append(VILLAGE)
    else:
        lines.append("No player is a Werewolf but somebody died: the village loses.")

    # Step 3: the werewolves, with the Minion.
    if wolves:
        if dead_wolves:
            lines.append("A Werewolf died, so the werewolves lose.")
        elif dead_tanners:
            lines.append("No Werewolf died, but the Tanner did: the werewolves do not win.")
        else:
            lines.append("No Werewolf died: the werewolves win"
                         + (", and the Minion with them." if minions else "."))
            teams.append(WEREWOLVES)
    elif minions:
        others_dead = [s for s in dead if roles[s] != MINION]
        if dead_tanners:
            lines.append("No player is a Werewolf and the Tanner died: the Minion does not win.")
        elif others_dead:
            lines.append("No player is a Werewolf and a player other than the Minion died: "
                         "the Minion wins.")
            teams.append(WEREWOLVES)
        else:
            lines.append("No player is a Werewolf and nobody but the Minion died: "
                         "the Minion loses.")

    # Step 4: the Tanner wins by dying.
    tanners = [s for s in range(n) if roles[s] == TANNER]
    for s in tanners:
        if s in dead:
            lines.append(f"{names[s]} was the Tanner and died: the Tanner wins.")
        else:
            lines.append(f"{names[s]} was the Tanner and lived: the Tanner loses.")
    if dead_tanners:
        teams.append(TANNER_TEAM)

    winners: list[int] = []
    for s in range(n):
        team = TEAM[roles[s]]
        if team == TANNER_TEAM:
            if s in dead:
                winners.append(s)
        elif team in teams:
            winners.append(s)
    if winners:
        lines.append(f"Winners: {_join(names[s] for s in winners)}.")
    else:
        lines.append("Nobody wins.")
    return Outcome(tuple(deaths), tuple(teams), tuple(winners), tuple(lines))


def _join(parts: Iterable[str]) -> str:
    items = list(parts)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
