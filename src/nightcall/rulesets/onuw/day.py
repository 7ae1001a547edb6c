"""The One Night day: claims, the one simultaneous vote, who dies, who wins.

Source: one-night-ultimate-werewolf.md, "Gameplay" (the vote, who dies) and
"Who wins"; rulings in docs/rulings.md (ONUW section).

Action kinds: ``vote`` (a=seat), ``abstain`` (does not point). Claims are talk,
not moves: ``claim`` (a=role index), ``claim_saw`` (a=position, b=role index),
``claim_swap`` (a, b=positions), where a position is a seat 0..n-1 or n+i for
center card i.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, partial

from nightcall.engine.actions import Action
from nightcall.engine.events import EVERYONE, Event
from nightcall.engine.outcome import Death, Outcome, Reason, Term, why
from nightcall.rulesets.onenight import ABSTAIN_ACTION as ABSTAIN_ACTION
from nightcall.rulesets.onenight import MAX_CLAIMS_PER_SEAT as MAX_CLAIMS_PER_SEAT
from nightcall.rulesets.onenight import claim_data, claim_options_for, vote_table
from nightcall.rulesets.onenight import vote_options as vote_options
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


@cache
def claim_options(n: int, roles: tuple[str, ...]) -> tuple[Action, ...]:
    """Everything a seat may say: its role, a card it saw, a swap it made."""
    return claim_options_for(ROLE_IDS, n, roles)


def start_day(st: OneNightState) -> None:
    st.phase = DAY
    st.vote_options = vote_table(st.n)
    st.actor = -1
    st.log.append(Event("dawn", EVERYONE, {}))


def record_claim(st: OneNightState, seat: int, action: Action) -> None:
    data = claim_data(ROLE_IDS, seat, action)
    st.claims.append((seat, data))
    st.log.append(Event("claim", EVERYONE, data))


def resolve(st: OneNightState) -> None:
    """Count the votes, kill, reveal every card, and run the who-has-won check."""
    votes = st.votes
    log = st.log
    if ABSTAIN in votes or NOT_VOTED in votes:  # an abstention shows as None
        shown: list[int | None] = [v if v >= 0 else None for v in votes]
    else:
        shown = [*votes]
    log.append(Event("votes", EVERYONE, {"votes": shown}))
    names, cards, copy = st.names, st.cards, st.copy
    # decide(..., explain_now=False), inlined: this runs once per simulated game.
    outcome = _Check(names, cards, votes, copy, False).run(
        partial(_reasons, names, cards, votes, copy))
    died = []
    for d in outcome.deaths:
        died.append([*d])
    log.append(Event("died", EVERYONE, {"deaths": died}))
    log.append(Event("reveal", EVERYONE, {"cards": cards.copy(), "copy": copy}))
    st.outcome = outcome
    st.phase = OVER


def decide(
    names: tuple[str, ...], cards: list[str], votes: list[int], copy: str | None,
    explain_now: bool = True,
) -> Outcome:
    """The vote and the who-has-won check for the final cards (players' and center's),
    the votes (a seat, or below 0 for none) and what the Doppelgänger copied.

    With ``explain_now=False`` the reasons are worked out only when the outcome's
    explanation is first read: the same check, run again with words. The outcome holds
    no reference to the game's state: state -> outcome -> state would be a cycle, and
    every finished game would then wait for the cyclic GC instead of being freed at once.
    """
    if explain_now:
        return _Check(names, cards, votes, copy, True).run()
    return _Check(names, cards, votes, copy, False).run(
        partial(_reasons, names, cards, votes, copy))


def _reasons(
    names: tuple[str, ...], cards: list[str], votes: list[int], copy: str | None
) -> tuple[Reason, ...]:
    return _Check(names, cards, votes, copy, True).run().reasons


class _Check:
    """One run of the check (rulebook "Gameplay": the vote; "Who wins"), as named steps.

    Each step decides its part and, when ``talk`` is set, gives the reason of the branch
    it took (a ``why.onuw.*`` locale key and its values), so the verdict and its
    explanation come from the same tests. A quiet run (every simulated game) builds no
    reasons; the decisions use C-level membership tests on the dead players' roles, as
    this runs once per simulated game.
    """

    __slots__ = ("cards", "copy", "dead", "deaths", "lines", "n", "names", "roles", "talk",
                 "teams", "votes")

    def __init__(self, names: tuple[str, ...], cards: list[str], votes: list[int],
                 copy: str | None, talk: bool) -> None:
        n = len(names)
        self.names = names
        self.n = n
        self.cards = cards
        self.votes = votes
        self.copy = copy
        self.talk = talk
        roles = cards[:n]  # what each seat counts as: the Doppelgänger card as its copy
        if copy is not None and DOPPELGANGER in roles:
            roles[roles.index(DOPPELGANGER)] = copy
        self.roles = roles
        self.lines: list[Reason] = []
        self.deaths: list[Death] = []
        self.dead: set[int] = set()
        self.teams: list[str] = []

    def who(self, seats: Iterable[int]) -> tuple[str, ...]:
        return tuple(self.names[s] for s in seats)

    def step_vote(self) -> None:
        """"The player with the most votes dies"; on a tie all of them; nobody dies
        unless somebody has more than one vote."""
        n = self.n
        # Counted by hand: min() and max() cost as much as this whole loop.
        tally = [0] * n
        top = 0
        for v in self.votes:
            if v >= 0:
                t = tally[v] + 1
                tally[v] = t
                if t > top:
                    top = t
        if top < 2:
            pass
        elif tally.count(top) == 1:  # the usual case: one player dies
            s = tally.index(top)
            self.deaths.append(Death(s, "votes"))
            self.dead.add(s)
        else:
            dead = self.dead = {s for s in range(n) if tally[s] == top}
            self.deaths = [Death(s, "votes") for s in sorted(dead)]
        if self.talk:
            voted_out = [d.seat for d in self.deaths]
            if not voted_out:
                self.lines.append(why("onuw.no_majority"))
            elif len(voted_out) == 1:
                self.lines.append(why("onuw.voted_out", name=self.names[voted_out[0]],
                                      votes=top))
            else:
                self.lines.append(why("onuw.tie", names=self.who(voted_out), votes=top))

    def step_hunter(self) -> None:
        """A dead Hunter takes the player they point at; a Hunter taken that way fires too."""
        roles, votes, deaths, dead = self.roles, self.votes, self.deaths, self.dead
        i = 0
        while i < len(deaths):
            s = deaths[i].seat
            target = votes[s]
            if roles[s] == HUNTER and target >= 0 and target not in dead:
                deaths.append(Death(target, "hunter"))
                dead.add(target)
                if self.talk:
                    self.lines.append(why("onuw.hunter", hunter=self.names[s],
                                          name=self.names[target]))
            i += 1

    def step_doppelganger(self) -> None:
        """Says who holds the Doppelgänger card and what it counts as (it decides
        nothing: ``roles`` has resolved the card already)."""
        if self.copy is not None and DOPPELGANGER in self.cards[: self.n]:
            holder = self.cards.index(DOPPELGANGER)
            self.lines.append(why("onuw.doppelganger", name=self.names[holder],
                                  role=Term("role", self.copy)))

    def step_village(self, dead_roles: list[str]) -> None:
        """Steps 1 and 2: is any player a Werewolf at the end? The village wins if a
        Werewolf died, or if no player is a Werewolf and nobody died."""
        wolf_died = WEREWOLF in dead_roles
        any_wolf = wolf_died or WEREWOLF in self.roles
        if wolf_died or not (any_wolf or dead_roles):
            self.teams.append(VILLAGE)
        if self.talk:
            wolves = [s for s, r in enumerate(self.roles) if r == WEREWOLF]
            lines = self.lines
            if any_wolf:
                lines.append(why("onuw.wolves", names=self.who(wolves)))
                lines.append(why("onuw.village_wins",
                                 names=self.who(s for s in wolves if s in self.dead))
                             if wolf_died else why("onuw.village_loses"))
            else:
                lines.append(why("onuw.no_wolves"))
                lines.append(why("onuw.village_loses_no_wolf") if dead_roles
                             else why("onuw.village_wins_no_wolf"))

    def step_werewolves(self, dead_roles: list[str]) -> None:
        """Step 3: the werewolves (the Minion with them) win if no Werewolf and no Tanner
        died; with no Werewolf among the players, the Minion wins if somebody other than
        the Minion died, and no Tanner."""
        roles = self.roles
        tanner_died = TANNER in dead_roles
        if WEREWOLF in roles:
            if WEREWOLF in dead_roles:
                key = "onuw.wolves_lose"
            elif tanner_died:
                key = "onuw.wolves_lose_tanner"
            else:
                self.teams.append(WEREWOLVES)
                key = "onuw.wolves_win_minion" if MINION in roles else "onuw.wolves_win"
        elif MINION in roles:
            if tanner_died:
                key = "onuw.minion_loses_tanner"
            elif dead_roles.count(MINION) < len(dead_roles):
                self.teams.append(WEREWOLVES)
                key = "onuw.minion_wins"
            else:
                key = "onuw.minion_loses"
        else:  # pragma: no cover - run() calls this step only with one of them
            return
        if self.talk:
            self.lines.append(why(key))

    def step_tanner(self, dead_roles: list[str]) -> None:
        """Step 4: the Tanner wins if he dies."""
        if TANNER in dead_roles:
            self.teams.append(TANNER_TEAM)
        if self.talk:
            for s, r in enumerate(self.roles):
                if r == TANNER:
                    self.lines.append(why("onuw.tanner_wins" if s in self.dead
                                          else "onuw.tanner_loses", name=self.names[s]))

    def step_winners(self) -> list[int]:
        """Every player on a winning team; a Tanner only by dying himself."""
        teams, dead = self.teams, self.dead
        winners = []
        if teams:
            for s, r in enumerate(self.roles):
                if (s in dead) if r == TANNER else (TEAM[r] in teams):
                    winners.append(s)
        if self.talk:
            self.lines.append(why("winners", names=self.who(winners)) if winners
                              else why("nobody_wins"))
        return winners

    def run(self, reasons: Callable[[], tuple[Reason, ...]] | None = None) -> Outcome:
        """The steps in the rulebook's order; ``reasons`` works the words out later."""
        roles = self.roles
        self.step_vote()
        if self.deaths and HUNTER in roles:
            self.step_hunter()
        if self.talk:
            self.step_doppelganger()
        dead_roles = []
        for s in self.dead:
            dead_roles.append(roles[s])
        self.step_village(dead_roles)
        if WEREWOLF in roles or MINION in roles:  # else the step has nothing to decide or say
            self.step_werewolves(dead_roles)
        if TANNER in roles:
            self.step_tanner(dead_roles)
        winners = self.step_winners()
        return Outcome(self.deaths, self.teams, winners,
                       self.lines if reasons is None else reasons)
