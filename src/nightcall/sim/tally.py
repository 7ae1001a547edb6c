"""What a batch of games adds up to: wins per team and per dealt role, deaths.

Tallies are plain counts, so merging the workers' tallies in any order gives
the same result; rates come with 95% Wilson score intervals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import sqrt
from typing import NotRequired, TypedDict

Z95 = 1.959963984540054


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sane at 0 and at 1)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    mid = (p + z * z / (2 * games)) / denom
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # (rounding can put an end a hair past p at 0 or 1: the interval must hold p)
    return min(p, max(0.0, mid - half)), max(p, min(1.0, mid + half))


class Rate(TypedDict):
    """A win rate with its 95% Wilson interval and the wins it counts."""

    rate: float
    low: float
    high: float
    wins: int


class RoleRate(Rate):
    seats: int  # how many seats were dealt the role


class WinRates(TypedDict):
    teams: dict[str, Rate]
    roles: dict[str, RoleRate]
    nobody: NotRequired[Rate]  # (``nightcall simulate`` adds the games nobody won)


@dataclass
class Tally:
    games: int = 0
    team_wins: Counter[str] = field(default_factory=Counter)
    role_seats: Counter[str] = field(default_factory=Counter)  # seats dealt each role
    role_wins: Counter[str] = field(default_factory=Counter)  # ... that ended on the winners
    deaths: int = 0
    nobody_won: int = 0
    teams: set[str] = field(default_factory=set)  # every team that can win here

    def add(self, dealt: list[str], teams: tuple[str, ...], winners: tuple[int, ...],
            deaths: int) -> None:
        self.games += 1
        team_wins = self.team_wins
        for team in teams:
            team_wins[team] += 1
            self.teams.add(team)
        role_seats = self.role_seats
        for role in dealt:
            role_seats[role] += 1
        for seat in winners:
            self.role_wins[dealt[seat]] += 1
        self.deaths += deaths
        if not winners:
            self.nobody_won += 1

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.team_wins.update(other.team_wins)
        self.role_seats.update(other.role_seats)
        self.role_wins.update(other.role_wins)
        self.deaths += other.deaths
        self.nobody_won += other.nobody_won
        self.teams |= other.teams

    def win_rates(self) -> WinRates:
        """``{"teams": {team: {rate, low, high, wins}}, "roles": {role: {...}}}``."""
        teams: dict[str, Rate] = {}
        for team in sorted(self.teams | set(self.team_wins)):
            wins = self.team_wins[team]
            low, high = wilson(wins, self.games)
            teams[team] = _rate(wins, self.games, low, high)
        roles: dict[str, RoleRate] = {}
        for role in sorted(self.role_seats):
            seats, wins = self.role_seats[role], self.role_wins[role]
            low, high = wilson(wins, seats)
            rate = _rate(wins, seats, low, high)
            roles[role] = RoleRate(rate=rate["rate"], low=low, high=high, wins=wins,
                                   seats=seats)
        return {"teams": teams, "roles": roles}

    @property
    def average_deaths(self) -> float:
        return self.deaths / self.games if self.games else 0.0


def _rate(wins: int, n: int, low: float, high: float) -> Rate:
    return Rate(rate=wins / n if n else 0.0, low=low, high=high, wins=wins)
