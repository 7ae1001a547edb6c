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
from functools import cache, partial
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event, new_event
from nightcall.engine.outcome import Death, Outcome, Reason, Term, why
from nightcall.rulesets.onuw.roles import (
    DOPPELGANGER,
    HUNTER,
    MINION,
    ROLE_IDS,
    TANNER,
    TANNER_TEAM,
    TEAM,
    VILLAGE,
    WEREWOLF,
    WEREWOLVES,
)
from nightcall.rulesets.onuw.state import ABSTAIN, DAY, NOT_VOTED, OVER, OneNightState

MAX_CLAIMS_PER_SEAT = 40
_new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level constructor
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


@cache
def vote_table(n: int) -> tuple[tuple[Action, ...], ...]:
    return tuple(vote_options(n, seat) for seat in range(n))


def start_day(st: OneNightState) -> None:
    st.phase = DAY
    st.vote_options = vote_table(st.n)
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


def resolve(st: OneNightState) -> None:
    """Count the votes, kill, reveal every card, and run the who-has-won check.

    Runs once per simulated game, so it is written with plain loops and C-level calls:
    in 3.11 every comprehension is one more function call.
    """
    n = st.n
    votes = st.votes
    log = st.log
    cards = st.cards
    copy = st.copy
    # Counted by hand: min() and max() cost as much as this whole loop.
    tally = [0] * n
    top = 0
    for v in votes:
        if v >= 0:
            t = tally[v] + 1
            tally[v] = t
            if t > top:
                top = t
    if ABSTAIN in votes or NOT_VOTED in votes:  # an abstention shows as None
        shown: list[int | None] = [v if v >= 0 else None for v in votes]
    else:
        shown = [*votes]
    log.append(new_event(Event, ("votes", EVERYONE, {"votes": shown})))
    if top < 2:
        deaths: list[Death] = []
        dead: set[int] = set()
    elif tally.count(top) == 1:  # the usual case: one player dies
        s = tally.index(top)
        deaths = [_new_tuple(Death, (s, "votes"))]
        dead = {s}
    else:
        dead = {s for s in range(n) if tally[s] == top}
        deaths = [_new_tuple(Death, (s, "votes")) for s in sorted(dead)]
    roles = cards[:n]  # st.final_roles(), inlined
    if copy is not None and DOPPELGANGER in roles:
        roles[roles.index(DOPPELGANGER)] = copy
    # A dead Hunter takes the player they point at; a Hunter taken that way fires too.
    if deaths and HUNTER in roles:
        i = 0
        while i < len(deaths):
            s = deaths[i].seat
            target = votes[s]
            if roles[s] == HUNTER and target >= 0 and target not in dead:
                deaths.append(_new_tuple(Death, (target, "hunter")))
                dead.add(target)
            i += 1
    died = []
    for d in deaths:
        died.append([*d])
    log.append(new_event(Event, ("died", EVERYONE, {"deaths": died})))
    log.append(new_event(Event, ("reveal", EVERYONE, {"cards": cards.copy(), "copy": copy})))
    st.outcome = who_won(st, roles, deaths, dead, tally)
    st.phase = OVER


def who_won(
    st: OneNightState, roles: list[str], deaths: list[Death], dead: set[int], tally: list[int]
) -> Outcome:
    """The who-has-won check (rulebook "Who wins"), as facts; the sentences come on demand.

    Written with C-level membership tests rather than loops: it runs once per simulated game.
    """
    dead_roles = []
    for s in dead:
        dead_roles.append(roles[s])
    any_wolf = WEREWOLF in roles
    wolf_died = WEREWOLF in dead_roles
    tanner_died = TANNER in dead_roles
    teams: list[str] = []
    # The village: a Werewolf died; or no player is a Werewolf and nobody died.
    if wolf_died or not (any_wolf or dead):
        teams.append(VILLAGE)
    if any_wolf:
        # The werewolves (Minion included): no Werewolf died, and no Tanner either.
        if not wolf_died and not tanner_died:
            teams.append(WEREWOLVES)
    elif MINION in roles and not tanner_died and any(r != MINION for r in dead_roles):
        # The Minion without Werewolves: somebody other than the Minion died.
        teams.append(WEREWOLVES)
    if tanner_died:
        teams.append(TANNER_TEAM)
    winners = []
    if teams:
        for s, r in enumerate(roles):
            if (s in dead) if r == TANNER else (TEAM[r] in teams):
                winners.append(s)
    return Outcome(
        deaths, teams, winners,
        # Not ``st`` itself: state -> outcome -> state would be a cycle, and every
        # finished game would then wait for the cyclic GC instead of being freed at once.
        partial(explain, st.names, st.cards, st.votes, st.copy, roles, deaths, tally, teams,
                winners),
    )


def explain(
    names: tuple[str, ...],
    cards: list[str],
    votes: list[int],
    copy: str | None,
    roles: list[str],
    deaths: list[Death],
    tally: list[int],
    teams: list[str],
    winners: list[int],
) -> list[Reason]:
    """The who-has-won check as reasons, one per step, in the order it is made
    (the locale's ``why.onuw.*`` lines write them out)."""
    n = len(names)
    dead = {d.seat for d in deaths}
    out: list[Reason] = []

    def who(seats: Iterable[int]) -> tuple[str, ...]:
        return tuple(names[s] for s in seats)

    voted_out = [d.seat for d in deaths if d.cause == "votes"]
    if not voted_out:
        out.append(why("onuw.no_majority"))
    elif len(voted_out) == 1:
        out.append(why("onuw.voted_out", name=names[voted_out[0]], votes=tally[voted_out[0]]))
    else:
        out.append(why("onuw.tie", names=who(voted_out), votes=tally[voted_out[0]]))
    for d in deaths:
        if d.cause == "hunter":
            hunter = next(s for s in dead if roles[s] == HUNTER and votes[s] == d.seat)
            out.append(why("onuw.hunter", hunter=names[hunter], name=names[d.seat]))
    if copy is not None and "doppelganger" in cards[:n]:
        holder = cards.index("doppelganger")
        out.append(why("onuw.doppelganger", name=names[holder], role=Term("role", copy)))
    wolves = [s for s in range(n) if roles[s] == WEREWOLF]
    dead_wolves = [s for s in wolves if s in dead]
    dead_tanners = [s for s in range(n) if roles[s] == TANNER and s in dead]
    minions = [s for s in range(n) if roles[s] == MINION]

    # Step 1: is any player a Werewolf at the end?
    if wolves:
        out.append(why("onuw.wolves", names=who(wolves)))
    else:
        out.append(why("onuw.no_wolves"))
    # Step 2: the village.
    if wolves:
        if dead_wolves:
            out.append(why("onuw.village_wins", names=who(dead_wolves)))
        else:
            out.append(why("onuw.village_loses"))
    elif not dead:
        out.append(why("onuw.village_wins_no_wolf"))
    else:
        out.append(why("onuw.village_loses_no_wolf"))
    # Step 3: the werewolves, with the Minion.
    if wolves:
        if dead_wolves:
            out.append(why("onuw.wolves_lose"))
        elif dead_tanners:
            out.append(why("onuw.wolves_lose_tanner"))
        else:
            out.append(why("onuw.wolves_win_minion" if minions else "onuw.wolves_win"))
    elif minions:
        if dead_tanners:
            out.append(why("onuw.minion_loses_tanner"))
        elif any(roles[s] != MINION for s in dead):
            out.append(why("onuw.minion_wins"))
        else:
            out.append(why("onuw.minion_loses"))
    # Step 4: the Tanner wins by dying.
    for s in range(n):
        if roles[s] == TANNER:
            out.append(why("onuw.tanner_wins" if s in dead else "onuw.tanner_loses",
                           name=names[s]))
    out.append(why("winners", names=who(winners)) if winners else why("nobody_wins"))
    return out
