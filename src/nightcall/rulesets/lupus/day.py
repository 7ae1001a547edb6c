"""Dawn and the Lupus day: the deaths, the accusation round, the Suspects, the execution.

Source: lupus-in-tabula.md, "Gameplay" (Dawn, The accusation round, The
defense, The execution), the role table (Bodyguard, Harlot), "Variants" (Owl,
Werehamster) and the FAQ. Rulings: docs/rulings.md (Lupus in Tabula).

Every tie in the game goes to whoever sits closer, clockwise, to the last player
to die (:meth:`LupusState.distance`). Action kinds: ``accuse`` (a=seat) or
``no_accusation`` in the accusation round, which goes one player at a time;
``execute`` (a=Suspect) or ``abstain`` in the execution, which is simultaneous.
"""

from __future__ import annotations

from functools import lru_cache

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, MASTER, Event
from nightcall.engine.outcome import Death
from nightcall.rulesets.lupus import night
from nightcall.rulesets.lupus.end import check_end
from nightcall.rulesets.lupus.roles import HARLOT, WEREHAMSTER, WEREWOLF
from nightcall.rulesets.lupus.state import (
    ACCUSE,
    DAY,
    EXECUTE,
    NOBODY,
    NOT_YET,
    LupusState,
)

NO_ACCUSATION = Action("no_accusation")
ABSTAIN = Action("abstain")


@lru_cache(maxsize=4096)
def execute_options(suspects: tuple[int, ...]) -> tuple[Action, ...]:
    return (*(Action("execute", s) for s in suspects), ABSTAIN)


def accuse_choices(st: LupusState) -> list[tuple[Action, ...]]:
    """Each seat's choices in today's accusation round: any living player but
    themselves, or nobody (a ghost accuses too, any living player)."""
    # Nobody dies during the round, so the choices are built once a day, from one row
    # sliced per living seat: a cache by living set missed on about half the turns
    # (4,096 living sets at 12 seats).
    living = st.living()
    accused = night.per_seat("accuse")
    row = (*[accused[s] for s in living], NO_ACCUSATION)
    choices = [row] * st.n
    for k, s in enumerate(living):
        choices[s] = row[:k] + row[k + 1:]
    return choices


def kill(st: LupusState, seat: int, cause: str) -> None:
    st.alive[seat] = False
    st.alive_mask &= ~(1 << seat)
    if st.roles[seat] == WEREWOLF:
        st.wolves -= 1
    else:
        st.humans -= 1
    st.deaths.append(Death(seat, cause))
    st.role_at_death[seat] = st.roles[seat]


# --- dawn ---------------------------------------------------------------------


def night_deaths(st: LupusState) -> list[tuple[int, str]]:
    """Who dies at this dawn and why (the why is for the Master only)."""
    deaths: list[tuple[int, str]] = []
    roles = st.roles
    harlots = st.living_with(HARLOT)
    harlot = harlots[0] if harlots else NOBODY
    away = harlot >= 0 and st.visit >= 0
    v = st.victim
    if v >= 0 and roles[v] != WEREHAMSTER and v != st.protected and not (v == harlot and away):
        deaths.append((v, "werewolves"))
        if away and st.visit == v:
            deaths.append((harlot, "harlot_host"))
    if away and roles[st.visit] == WEREWOLF and all(s != harlot for s, _ in deaths):
        deaths.append((harlot, "harlot_visited_werewolf"))
    for seen in night.hamster_seen(st):
        if all(s != seen for s, _ in deaths):
            deaths.append((seen, "seen_by_seer"))
    return deaths


def dawn(st: LupusState) -> None:
    """Announce the night's dead with no reason, pick the last to die, check the end."""
    deaths = night_deaths(st)
    # Announced clockwise from the left of the previous last to die; the last one
    # named counts as the last to die (rulings: "Two deaths at dawn").
    deaths.sort(key=lambda d: st.distance(d[0]))
    dead = [s for s, _ in deaths]
    for seat, cause in deaths:
        kill(st, seat, cause)
    if dead:
        st.last = dead[-1]
    st.dawn_dead = tuple(dead)
    st.night_deaths.append(dead)
    st.log.append(Event("dawn", EVERYONE, {
        "night": st.night, "dead": dead, "last": st.last if dead else None,
    }))
    st.log.append(Event("causes", MASTER, {"deaths": [[s, c] for s, c in deaths]}))
    if check_end(st):
        return
    start_day(st)


def start_day(st: LupusState) -> None:
    st.phase = DAY
    st.day = st.night
    st.actors = ()
    st.picks = {}
    st.choices = {}
    st.days_log.append({})
    start_accusation(st)


def start_accusation(st: LupusState) -> None:
    n = st.n
    st.stage = ACCUSE
    seats = tuple(range(n))
    first = (st.last + 1) % n
    st.accuse_order = seats[first:] + seats[:first]
    st.accuse_i = 0
    st.turn = st.accuse_order[0]
    st.accuse_choices = accuse_choices(st)
    st.accusations = [NOT_YET] * n
    owl = st.owl_pick if st.owl_pick >= 0 and st.alive[st.owl_pick] else None
    st.log.append(Event("accusation", EVERYONE, {
        "day": st.day, "order": list(st.accuse_order), "owl": owl,
    }))


def choose_last(st: LupusState, seat: int) -> None:
    """The Master names which of this dawn's dead counts as the last to die
    (checked by the caller); the accusation round restarts from its left."""
    st.last = seat
    st.log.append(Event("last", EVERYONE, {"seat": seat}))
    st.nights_log[-1]["last"] = seat
    start_accusation(st)


def accuser(st: LupusState) -> int:
    return st.turn if st.phase == DAY and st.stage == ACCUSE else NOBODY


def accuse(st: LupusState, seat: int, action: Action) -> None:
    target = action.a if action.kind == "accuse" else NOBODY
    st.accusations[seat] = target
    today = st.days_log[-1]
    if st.accuse_i == 0:
        today["accuse"] = {}
    today["accuse"][seat] = target
    st.log.append(Event("accuse", EVERYONE, {"seat": seat, "target": target
                                              if target >= 0 else None}))
    i = st.accuse_i = st.accuse_i + 1
    if i == st.n:
        st.turn = NOBODY
        st.accuse_choices = []
        start_execution(st)
    else:
        st.turn = st.accuse_order[i]


def choose_suspects(st: LupusState) -> tuple[int, ...]:
    """The two most accused living players, ties to the closer clockwise to the last to
    die; the Owl's pick, if alive and not among them, replaces the second."""
    tally = [0] * st.n
    for target in st.accusations:
        if target >= 0:
            tally[target] += 1
    # The accusation order is by distance from the last to die, and a stable sort by
    # tally keeps that order among equals (reverse=True keeps it too).
    alive = st.alive
    ranked = sorted([s for s in st.accuse_order if alive[s]], key=tally.__getitem__,
                    reverse=True)
    top = ranked[:2]
    owl = st.owl_pick
    if owl >= 0 and st.alive[owl] and owl not in top:
        top = [ranked[0], owl]
    return tuple(top)


def start_execution(st: LupusState) -> None:
    st.suspects = choose_suspects(st)
    st.owl_pick = NOBODY
    st.stage = EXECUTE
    st.voters = tuple(s for s in st.living() if s not in st.suspects)
    st.votes = [NOT_YET] * st.n
    st.vote_choices = execute_options(st.suspects)
    st.log.append(Event("suspects", EVERYONE, {"seats": list(st.suspects)}))


def vote(st: LupusState, seat: int, action: Action) -> None:
    target = st.votes[seat] = action.a if action.kind == "execute" else NOBODY
    cast = st.days_log[-1].setdefault("execute", {})
    cast[seat] = target
    if len(cast) == len(st.voters):  # each voter votes once: the last ballot is in
        execute(st)


def execute(st: LupusState) -> None:
    """Somebody is always executed: the most pointed-at Suspect, ties to the closer."""
    tally = {s: 0 for s in st.suspects}
    for voter in st.voters:
        if st.votes[voter] >= 0:
            tally[st.votes[voter]] += 1
    chosen = min(st.suspects, key=lambda s: (-tally[s], st.distance(s)))
    st.log.append(Event("votes", EVERYONE, {
        "votes": [[v, st.votes[v] if st.votes[v] >= 0 else None] for v in st.voters],
    }))
    kill(st, chosen, "execution")
    st.last = chosen
    st.executed.append(chosen)
    st.log.append(Event("executed", EVERYONE, {"day": st.day, "seat": chosen}))
    if check_end(st):
        return
    next_night(st)


def next_night(st: LupusState) -> None:
    st.suspects = ()
    st.voters = ()
    if st.night + 1 >= 3:
        night.transform_mythomaniac(st)
        # A Mythomaniac turned werewolf changes the count: the end is checked at any moment.
        if check_end(st):
            return
    if night.begin_night(st):
        dawn(st)
