"""A table's history (issue 20): what a group's finished games say about its players.

A table is a private link under which every finished game of its rooms is kept: the
game record (shared/spec/game-record.md) with the names at the table, which of them
were bots, and when it ended. Names are the only identity ("Ada at this table"); the
host may merge two spellings of one player (``aliases``: spelling -> name).

Everything here is a pure function of those entries: each record is replayed by its
ruleset, and who won, each player's final role and the team it counts for are read
from the ruleset's outcome and ``Ruleset.final_team``, never worked out again here.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from nightcall.engine.jsontype import JSONObject, as_list, as_object, as_str_map, as_strs
from nightcall.engine.ruleset import get_ruleset

# Teams as the outcomes name them; a player "as Werewolf" or "as Villager" is one whose
# final role counts for that team.
WEREWOLVES = "werewolves"
VILLAGE = "village"
# On the werewolves' team but no werewolf: voting them out is not "voting out a werewolf".
HUMAN_ALLIES = frozenset({"minion", "possessed"})


@dataclass(frozen=True)
class Seat:
    """One player of one finished game, as the ruleset's outcome tells it."""

    name: str
    role: str
    team: str
    won: bool
    bot: bool


@dataclass(frozen=True)
class Game:
    id: str
    finished: float
    ruleset: str
    seats: tuple[Seat, ...]
    teams: tuple[str, ...]  # the winning teams
    # Voters whose vote helped put a werewolf out (one entry per such vote).
    wolf_voters: tuple[str, ...]


def read_game(entry: Mapping[str, object], aliases: Mapping[str, str] | None = None) -> Game:
    """Replay one entry's record and read its outcome (names through ``aliases``)."""
    record = as_object(entry["record"], "a game's record")
    rules = get_ruleset(str(record["ruleset"]))
    outcome = rules.outcome_json(rules.replay(record))
    final = as_object(outcome["final"], "the outcome's final")
    roles = as_str_map(final["roles"], "the final roles")
    tokens = as_str_map(final.get("tokens") or {}, "the final tokens")
    winners = set(as_strs(outcome["winners"], "the winners"))
    bots = set(as_strs(entry.get("bots", []), "the bots"))
    players = as_strs(record["players"], "the players")
    name = _namer(aliases or {})
    teams = {p: rules.final_team(roles[p], tokens.get(p)) for p in players}
    seats = tuple(Seat(name(p), roles[p], teams[p], p in winners, p in bots)
                  for p in players)
    wolves = {p for p in players if teams[p] == WEREWOLVES and roles[p] not in HUMAN_ALLIES}
    voters = [name(v) for v in _voted_out(record, outcome, wolves) if v not in bots]
    finished = entry.get("finished", 0.0)
    if not isinstance(finished, int | float):
        raise ValueError(f"a game's end time must be a number, got {finished!r}")
    return Game(str(entry["id"]), float(finished), rules.id, seats,
                tuple(as_strs(outcome["teams"], "the teams")), tuple(voters))


def _voted_out(record: Mapping[str, object], outcome: Mapping[str, object],
               wolves: set[str]) -> list[str]:
    """Who voted for a werewolf that the vote then put out of the game."""
    causes = as_str_map(outcome.get("causes") or {}, "the causes")
    steps = [as_object(s, "a step") for s in as_list(record.get("steps", []), "the steps")]
    out: list[str] = []
    if "executed" in outcome:
        # A game of many days (Lupus) names who each day's vote executed, in order:
        # day k's execution vote is the k-th ``execute`` step.
        days = [as_object(s["execute"], "an execution") for s in steps
                if isinstance(s.get("execute"), dict)]
        executed = as_strs(outcome.get("executed") or [], "the executed")
        if len(days) == len(executed):
            for votes, gone in zip(days, executed, strict=True):
                if gone in wolves:
                    out += [v for v, t in votes.items() if t == gone]
        return out
    voted_out = {p for p in as_strs(outcome["dead"], "the dead")
                 if causes.get(p) == "votes"} & wolves
    for step in steps:
        ballot = step.get("votes")
        if isinstance(ballot, dict):
            out += [str(v) for v, t in ballot.items() if t in voted_out]
    return out


def _namer(aliases: Mapping[str, str]) -> Callable[[str], str]:
    folded = {k.casefold(): v for k, v in aliases.items()}

    def name(spelling: str) -> str:
        return folded.get(spelling.casefold(), spelling)

    return name


def merge_aliases(aliases: Mapping[str, str], spelling: str, into: str) -> dict[str, str]:
    """The aliases once ``spelling`` is the same player as ``into`` (names that pointed
    to ``spelling`` follow it). Raises ValueError for a merge of a name with itself."""
    name = _namer(aliases)
    target = name(into)
    if name(spelling).casefold() == target.casefold():
        raise ValueError(f"{spelling} and {into} are already the same player")
    out = {k: (target if v.casefold() == spelling.casefold() else v)
           for k, v in aliases.items()}
    out[spelling] = target
    return out


# --- the numbers --------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    wins: int = 0

    @property
    def losses(self) -> int:
        return self.games - self.wins

    def add(self, won: bool) -> None:
        self.games += 1
        self.wins += won

    def to_json(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "losses": self.losses}


@dataclass
class Player:
    name: str
    all: Tally = field(default_factory=Tally)
    teams: dict[str, Tally] = field(default_factory=dict)
    roles: dict[str, Tally] = field(default_factory=dict)
    results: list[bool] = field(default_factory=list)  # oldest first
    wolves_voted_out: int = 0

    def add(self, seat: Seat) -> None:
        self.all.add(seat.won)
        self.teams.setdefault(seat.team, Tally()).add(seat.won)
        self.roles.setdefault(seat.role, Tally()).add(seat.won)
        self.results.append(seat.won)

    def to_json(self) -> JSONObject:
        return {
            "name": self.name, **self.all.to_json(),
            "as_werewolf": self.teams.get(WEREWOLVES, Tally()).to_json(),
            "as_villager": self.teams.get(VILLAGE, Tally()).to_json(),
            "teams": {t: n.to_json() for t, n in sorted(self.teams.items())},
            "roles": {r: n.to_json() for r, n in sorted(self.roles.items())},
            "streak": current_streak(self.results),
            "best_streak": best_streak(self.results),
            "wolves_voted_out": self.wolves_voted_out,
            "results": self.results,
        }


def current_streak(results: Sequence[bool]) -> int:
    """The run the player is on: +3 is three wins in a row, -2 two losses."""
    if not results:
        return 0
    last, n = results[-1], 0
    for r in reversed(results):
        if r != last:
            break
        n += 1
    return n if last else -n


def best_streak(results: Iterable[bool]) -> int:
    """The most wins in a row."""
    best = run = 0
    for r in results:
        run = run + 1 if r else 0
        best = max(best, run)
    return best


def table_stats(entries: Sequence[Mapping[str, object]],
                aliases: Mapping[str, str] | None = None) -> JSONObject:
    """Games played, and per person (bots left out) wins and losses in all, by team and
    by role, streaks and werewolves voted out; players by wins, then win rate."""
    games = sorted((read_game(e, aliases) for e in entries), key=lambda g: (g.finished, g.id))
    players: dict[str, Player] = {}
    for g in games:
        for s in g.seats:
            if not s.bot:
                players.setdefault(s.name.casefold(), Player(s.name)).add(s)
        for v in g.wolf_voters:
            if v.casefold() in players:
                players[v.casefold()].wolves_voted_out += 1
    ranked = sorted(players.values(),
                    key=lambda p: (-p.all.wins, -p.all.wins / max(1, p.all.games), p.name))
    hunters = [p for p in ranked if p.wolves_voted_out]
    top = max((p.wolves_voted_out for p in hunters), default=0)
    return {
        "games": len(games),
        "by_ruleset": _count(g.ruleset for g in games),
        "team_wins": _count(t for g in games for t in g.teams),
        "players": [p.to_json() for p in ranked],
        # Every player tied at the top: "who voted out a werewolf most often".
        "wolf_hunters": [p.name for p in hunters if p.wolves_voted_out == top],
        "list": [{"id": g.id, "finished": g.finished, "ruleset": g.ruleset,
                  "teams": list(g.teams),
                  "players": [{"name": s.name, "role": s.role, "team": s.team,
                               "won": s.won, "bot": s.bot} for s in g.seats]}
                 for g in reversed(games)],
    }


def _count(items: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return out


CSV_COLUMNS = ("game", "finished_utc", "ruleset", "player", "bot", "role", "team", "won")


def table_csv(entries: Sequence[Mapping[str, object]],
              aliases: Mapping[str, str] | None = None) -> str:
    """One row per player per game, oldest game first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    games = sorted((read_game(e, aliases) for e in entries), key=lambda g: (g.finished, g.id))
    for g in games:
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(g.finished))
        for s in g.seats:
            writer.writerow([g.id, when, g.ruleset, _cell(s.name), int(s.bot), s.role,
                             s.team, int(s.won)])
    return out.getvalue()


def _cell(text: str) -> str:
    """A name a spreadsheet will not run as a formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
