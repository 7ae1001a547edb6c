"""Ratings and the leaderboard, from the results in game order.

Each entrant has two openskill ratings (Plackett-Luce, the library's default
model): one for the games it began on the village side and one for those it
began on the werewolf side (its dealt card's side, as the simulator assigns its
bots: :func:`nightcall.sim.runner.is_wolf_side`, which puts the lone killers with
the werewolves and the Tanner with the village). In each game every seat is a competitor with the
rating of its side, and the game ranks its winners (tied first) above its
losers (tied second). Seats are not pooled into teams on purpose: openskill adds
up a team's ratings, so a village of three would always "outweigh" two
werewolves and every rating would drift to make up for the head count; one
competitor per seat keeps the ratings on one scale, and the duplicate format
gives every entrant the same teammates' luck. An entrant with two chairs at one
table counts once per rank (its moves add up when it sat with winners and losers).
A game that everybody won or everybody lost moves no rating. The model's drift
term is off (``tau=0``): a bot's skill does not change during a tournament, so
uncertainty only shrinks as games come in.

The score that orders the leaderboard is the mean of the two sides'
conservative ratings (``mu - 3 sigma``, openskill's ``ordinal``): being good at
both sides, and having shown it over enough games, puts an entrant on top.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from nightcall.arena import ArenaError
from nightcall.arena.config import Tournament
from nightcall.engine.jsontype import JSONObject
from nightcall.sim.runner import is_wolf_side
from nightcall.sim.tally import wilson

if TYPE_CHECKING:
    from pathlib import Path

    from rich.table import Table

    from nightcall.arena.seats import GameResult

SIDES = ("village", "werewolf")
MISSING = "the arena rates with openskill, which is not installed: pip install 'nightcall[arena]'"


def require_openskill() -> None:
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        raise ArenaError(MISSING) from None


def side_of(role: str) -> str:
    return "werewolf" if is_wolf_side(role) else "village"


class SideJson(TypedDict):
    """An entrant's rating on one side, as the leaderboard shows it."""

    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma
    seats: int
    wins: int
    win_rate: float | None  # (None before the entrant played this side)
    win_rate_95: list[float]  # the Wilson interval


@dataclass
class Side:
    mu: float
    sigma: float
    seats: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> SideJson:
        low, high = wilson(self.wins, self.seats)
        return SideJson(mu=round(self.mu, 4), sigma=round(self.sigma, 4),
                        ordinal=round(self.ordinal, 4), seats=self.seats, wins=self.wins,
                        win_rate=round(self.wins / self.seats, 4) if self.seats else None,
                        win_rate_95=[round(low, 4), round(high, 4)])


@dataclass
class Standing:
    sides: dict[str, Side]
    protocol: Counter[str] = field(default_factory=Counter)

    @property
    def score(self) -> float:
        return sum(s.ordinal for s in self.sides.values()) / len(self.sides)


@dataclass
class Ratings:
    tournament: Tournament
    games: int
    standings: list[Standing]
    unrated: int  # games that moved no rating (everybody won, or nobody did)
    # (entrant, side) -> [(games rated so far, mu, sigma), ...], for the plot
    history: dict[tuple[int, str], list[tuple[int, float, float]]]

    def leaderboard(self) -> list[dict[str, Any]]:
        t = self.tournament
        order = sorted(range(len(t.entrants)),
                       key=lambda i: (-self.standings[i].score, t.entrants[i].name))
        rows = []
        for rank, i in enumerate(order, 1):
            e, st = t.entrants[i], self.standings[i]
            seats = sum(s.seats for s in st.sides.values())
            wins = sum(s.wins for s in st.sides.values())
            row: dict[str, Any] = {
                "rank": rank, "name": e.name, "entrant": e.describe(),
                "score": round(st.score, 4), "seats": seats, "wins": wins,
                **{side: st.sides[side].to_json() for side in SIDES},
            }
            if not e.is_bot:
                p: dict[str, Any] = dict(st.protocol)
                if e.price_input is not None or e.price_output is not None:
                    p["cost"] = round(p.get("tokens_in", 0) / 1e6 * (e.price_input or 0)
                                      + p.get("tokens_out", 0) / 1e6 * (e.price_output or 0), 6)
                row["protocol"] = p
            rows.append(row)
        return rows

    def to_json(self) -> JSONObject:
        return {"tournament": self.tournament.to_json(), "games": self.games,
                "games_per_deal": self.tournament.games_per_deal, "unrated_games": self.unrated,
                "model": "openskill PlackettLuce", "leaderboard": self.leaderboard()}


def rate(t: Tournament, results: Sequence[GameResult], keep_history: bool = False
         ) -> Ratings:
    """Rate ``results`` (game results, in game order) with openskill."""
    require_openskill()
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    mu0, sigma0 = model.mu, model.sigma
    standings = [Standing({side: Side(mu0, sigma0) for side in SIDES}) for _ in t.entrants]
    history: dict[tuple[int, str], list[tuple[int, float, float]]] = defaultdict(list)
    unrated = 0
    rated = 0
    for result in results:
        winners = set(result["winners"])
        dealt = result["dealt"]
        teams: tuple[dict[tuple[int, str], None], dict[tuple[int, str], None]] = ({}, {})
        for seat, e in enumerate(result["entrants"]):
            side = side_of(dealt[seat])
            won = seat in winners
            s = standings[e].sides[side]
            s.seats += 1
            s.wins += won
            teams[0 if won else 1][(e, side)] = None  # ordered, one member per entrant
        for seat_key, seat_stats in result.get("seats", {}).items():
            p = standings[result["entrants"][int(seat_key)]].protocol
            for key, value in seat_stats.items():
                if key == "crashed":
                    p["crashes"] += 1
                elif isinstance(value, int):
                    p[key] += value
        if not teams[0] or not teams[1]:
            unrated += 1
            continue
        competitors = [(key, rank) for rank, team in enumerate(teams) for key in team]
        new = model.rate(
            [[model.rating(mu=standings[e].sides[sd].mu, sigma=standings[e].sides[sd].sigma)]
             for (e, sd), _ in competitors],
            ranks=[rank for _, rank in competitors],
        )
        moved: dict[tuple[int, str], tuple[float, float]] = {}
        for ((e, sd), _), (r,) in zip(competitors, new, strict=True):
            old = standings[e].sides[sd]
            d_mu, sigma = r.mu - old.mu, r.sigma
            if (e, sd) in moved:  # among the winners and the losers: both moves count
                prev_mu, prev_sigma = moved[(e, sd)]
                moved[(e, sd)] = (prev_mu + d_mu, min(prev_sigma, sigma))
            else:
                moved[(e, sd)] = (d_mu, sigma)
        rated += 1
        for (e, sd), (d_mu, sigma) in moved.items():
            s = standings[e].sides[sd]
            s.mu += d_mu
            s.sigma = sigma
            if keep_history:
                history[(e, sd)].append((rated, s.mu, s.sigma))
    return Ratings(t, len(results), standings, unrated, dict(history))


# --- showing it ------------------------------------------------------------------------


def _side_text(side: SideJson) -> str:
    return f"{side['mu']:.1f} ± {side['sigma']:.1f}"


def _rate_text(side: SideJson) -> str:
    return "-" if side["win_rate"] is None else f"{side['win_rate']:.0%} of {side['seats']:,}"


def title(r: Ratings) -> str:
    """The tournament in a line, in words: "One Night Ultimate Werewolf, 5 players
    (2 × Werewolf, Seer, ...); 15 games (3 deals × 5 seatings), seed 0"."""
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.locale import load

    t, en = r.tournament, load("en")
    rs = get_ruleset(t.ruleset)
    if t.scenario:
        name = next(s["name"] for s in rs.scenarios() if s["id"] == t.scenario)
        what = f"scenario “{en.scenario(rs.id, t.scenario, name)}”"
    else:
        what = en.deck(rs.id, t.deck)
    return (f"{rs.title}, {t.players} players ({what}); {_count(r.games, 'game')} "
            f"({_count(t.deals, 'deal')} × {_count(t.games_per_deal, 'seating')}), "
            f"seed {t.seed}")


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


FLAG = "(!): some of its moves were not its own (see the warning)"


def _flagged(row: dict[str, Any]) -> bool:
    """Whether some of the entrant's moves were not its own (a crash, an unusable
    answer): its rating does not measure it, and the tables mark it (!)."""
    p = row.get("protocol", {})
    return bool(p.get("crashes") or p.get("fallbacks"))


def _name(row: dict[str, Any]) -> str:
    return f"{row['name']} (!)" if _flagged(row) else str(row["name"])


def warnings(r: Ratings) -> list[str]:
    """What went wrong with the programs and LLMs, which the ratings alone do not show:
    a program that crashed on every seat still gets a rating (it passed), so say so."""
    said = []
    for row in r.leaderboard():
        p = row.get("protocol", {})
        if p.get("crashes"):
            said.append(f"{row['name']}: its program stopped (it exited, closed its output "
                        f"or sent 50 refused messages) in {p['crashes']:,} of "
                        f"{row['seats']:,} seats, and passed for the rest of those games")
        if p.get("fallbacks"):
            said.append(f"{row['name']}: {p['fallbacks']:,} of {p.get('requests', 0):,} "
                        "answers of the endpoint were unusable (unreachable, an HTTP error, "
                        "no number in the reply) and became random moves")
    return said


def markdown(r: Ratings) -> str:
    rows = r.leaderboard()
    protocol = any("protocol" in row for row in rows)
    llm = any("tokens_in" in row.get("protocol", {}) for row in rows)
    head = ["#", "entrant", "what", "score", "village μ ± σ", "werewolf μ ± σ",
            "village wins", "werewolf wins"]
    if protocol:
        head.append("timeouts")
    if llm:
        head += ["tokens in / out", "cost"]
    lines = [f"**{title(r)}**", "", "| " + " | ".join(head) + " |",
             "|" + "|".join("---:" if h in ("#", "score") else "---" for h in head) + "|"]
    for row in rows:
        cells = [str(row["rank"]), _name(row), row["entrant"], f"{row['score']:.2f}",
                 _side_text(row["village"]), _side_text(row["werewolf"]),
                 _rate_text(row["village"]), _rate_text(row["werewolf"])]
        p = row.get("protocol")
        if protocol:
            cells.append("-" if p is None else
                         f"{p.get('timeouts', 0):,} of {p.get('moves', 0):,} moves")
        if llm:
            cells += ["-", "-"] if p is None or "tokens_in" not in p else [
                f"{p['tokens_in']:,} / {p['tokens_out']:,}",
                f"{p['cost']:.4f}" if "cost" in p else "-"]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines.append("")
    lines.append("Score: the mean of the two sides' conservative ratings (μ − 3σ); "
                 "ratings by openskill (Plackett-Luce), starting at 25 ± 8.3."
                 + (f" {FLAG}." if any(_flagged(row) for row in rows) else ""))
    lines += [f"\n**Warning**: {w} (see `agents.log`)." for w in warnings(r)]
    return "\n".join(lines) + "\n"


def rich_table(r: Ratings) -> Table:
    """The leaderboard for a terminal (the description of each entrant is in the files)."""
    from rich.table import Table

    rows = r.leaderboard()
    flagged = any(_flagged(row) for row in rows)
    table = Table(caption="score: mean of the sides' μ − 3σ" + (f"; {FLAG}" if flagged else ""),
                  caption_justify="left")
    # (a narrow terminal wraps a number onto two lines rather than cutting it: "19.1±…")
    for name in ("#", "entrant", "score", "village", "won", "werewolf", "won", "seats"):
        table.add_column(name, justify="left" if name == "entrant" else "right",
                         overflow="fold")
    protocol = any("protocol" in row for row in rows)
    llm = any("tokens_in" in row.get("protocol", {}) for row in rows)
    if protocol:
        table.add_column("timeouts", justify="right", overflow="fold")
    if llm:
        table.add_column("tokens", justify="right", overflow="fold")
    for row in rows:
        v, w = row["village"], row["werewolf"]
        cells = [str(row["rank"]), _name(row), f"{row['score']:.2f}",
                 f"{v['mu']:.1f}±{v['sigma']:.1f}", _pct(v),
                 f"{w['mu']:.1f}±{w['sigma']:.1f}", _pct(w), f"{row['seats']:,}"]
        p = row.get("protocol")
        if protocol:
            cells.append("-" if p is None else f"{p.get('timeouts', 0):,}")
        if llm:
            cells.append("-" if p is None or "tokens_in" not in p
                         else f"{p['tokens_in'] + p['tokens_out']:,}")
        table.add_row(*cells)
    return table


def _pct(side: SideJson) -> str:
    return "-" if side["win_rate"] is None else f"{side['win_rate']:.0%}"


def plot(r: Ratings, path: Path) -> None:
    """Each entrant's rating (μ, with a band of ±σ) over the rated games, per side."""
    if not r.history:
        raise ArenaError("no rating history to plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, side in zip(axes, SIDES, strict=True):
        for i, e in enumerate(r.tournament.entrants):
            points = r.history.get((i, side), [])
            if not points:
                continue
            xs = [p[0] for p in points]
            mus = [p[1] for p in points]
            sig = [p[2] for p in points]
            colour = colours[i % len(colours)]
            ax.plot(xs, mus, label=e.name, color=colour, linewidth=1.4)
            ax.fill_between(xs, [m - s for m, s in zip(mus, sig, strict=True)],
                            [m + s for m, s in zip(mus, sig, strict=True)],
                            color=colour, alpha=0.15, linewidth=0)
        ax.set_title(f"as {side}")
        ax.set_xlabel("rated games")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("rating μ (band: ± σ)")
    axes[1].legend(loc="best", fontsize="small")
    fig.suptitle(title(r), fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
