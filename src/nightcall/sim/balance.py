"""The balance report: every one-night ruleset's default deck at every player count (or,
for a ruleset with named scenarios, every scenario at every count it allows), with random
and (where the ruleset has one) reasoning bots.

    python -m nightcall.sim.balance [--games 4000] [--reasoning-games 1500]
        [--scenario-games 800] [--scenario-reasoning-games 300] [--workers K] [--seed 0]
        [--only RULESET] [--out docs]

writes ``docs/balance.md`` and its plots in ``docs/balance/`` (one per ruleset, named by
its id). Which rulesets and how their rows group come from the rulesets themselves
(``nights == 1``, ``scenarios()``), so the report names none. All the games of the
report go through one pool of workers; each game is seeded by its index, so the
report is the same for any number of workers. Re-run it when a ruleset changes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from nightcall.bots import reasoning_rulesets
from nightcall.engine.errors import DeckError
from nightcall.engine.ruleset import Rules, all_rulesets
from nightcall.sim.parallel import chunks, default_workers
from nightcall.sim.runner import Setup, run_games
from nightcall.sim.tally import Rate, Tally

# The designer's guide: written into every report (a test checks docs/balance.md holds it
# and that it names every key of `nightcall simulate --json`).
OWN_DECK = """## Your own deck: `nightcall simulate`

To try a house variant, simulate its deck and compare it with the deck it changes, same
seed and bots:

    nightcall simulate onuw -n 7 -g 4000                        # the recommended deck
    nightcall simulate onuw -n 7 -g 4000 --roles \\
        werewolf,werewolf,seer,robber,troublemaker,villager,villager,tanner,minion,drunk
    nightcall simulate epic -n 6 --scenario werewolf_night --plot wn6.png
    nightcall simulate lupus -n 15 --roles ... --lang it --plot lupus.png

`--roles` takes role ids, names in any language or playing cards (as `nightcall deck`
reads them); the deck must fit the player count (One Night and Epic Battle deal players + 3
cards). `--bots` (or `--village`, `--wolves`, `--vampires`) picks who plays; `--seed` fixes
the games, whatever `--workers`. Two decks clearly differ when their 95% intervals do not
overlap; 4,000 games give intervals of about ±1.5 points. The report and the plot (`--plot
FILE.png`) speak `--lang` (en, it, de); the plot's title says the game, the deck, the bots,
the games and the seed.

`--json` prints one object:

- `ruleset`, `players`, `scenario` (its name, or null for a `--roles` deck), `deck` (role
  ids), `names` (the same in `--lang`);
- `village`, `wolves`, `vampires` (the bots; `vampires` is null without vampires), `seed`,
  `workers`, `games`;
- `interval`: how `low` and `high` are computed (the 95% Wilson score interval);
- `win_rates`: `teams` (team id: `rate`, `low`, `high`, `wins`, over all games), `roles`
  (dealt role id: the same plus `seats`, how many seats were dealt it, the rate's
  denominator) and `nobody` (games nobody won); a game can count for several teams;
- `average_deaths`, `games_per_second`, and `plot` (the PNG's full path, with `--plot`).
"""


@dataclass(frozen=True)
class Row:
    group: str  # the ruleset's id, or the scenario's id for a ruleset with scenarios
    title: str
    setup: Setup
    games: int


def report_rulesets() -> list[Rules]:
    """The rulesets the report covers: the one-night games (a game of many nights is
    balanced by its Master's table, not by one deal)."""
    return [rs for rs in all_rulesets().values() if rs.nights == 1]


def deck_rows(rs: Rules, games: int, reasoning_games: int) -> list[Row]:
    """The default deck at every player count."""
    rows = []
    for n in range(rs.min_players, rs.max_players + 1):
        try:
            deck = tuple(rs.default_deck(n))
        except DeckError:
            continue
        rows.append(Row(rs.id, "random", Setup(rs.id, n, deck), games))
        if reasoning_games and rs.id in reasoning_rulesets():
            rows.append(Row(rs.id, "reasoning",
                            Setup(rs.id, n, deck, "reasoning", "reasoning"), reasoning_games))
    return rows


def scenario_rows(rs: Rules, games: int, reasoning_games: int = 0) -> list[Row]:
    """Every scenario at every player count it has a deck for."""
    rows = []
    for sc in rs.scenarios():
        for n in range(sc["min_players"], sc["max_players"] + 1):
            try:
                deck = tuple(rs.default_deck(n, sc["id"]))
            except DeckError:
                continue
            rows.append(Row(sc["id"], sc["name"], Setup(rs.id, n, deck), games))
            if reasoning_games and rs.id in reasoning_rulesets():
                rows.append(Row(sc["id"], sc["name"],
                                Setup(rs.id, n, deck, "reasoning", "reasoning"),
                                reasoning_games))
    return rows


def _job(args: tuple[int, Setup, int, int, int]) -> tuple[int, Tally]:
    i, setup, seed, first, count = args
    return i, run_games(setup, seed, first, count)


def run_rows(rows: list[Row], seed: int, workers: int) -> list[Tally]:
    jobs = [(i, row.setup, seed, first, count)
            for i, row in enumerate(rows) for first, count in chunks(row.games, workers, 100)]
    tallies = [Tally() for _ in rows]
    done = 0
    t0 = time.perf_counter()

    def collect(results: Iterable[tuple[int, Tally]]) -> None:
        nonlocal done
        for i, tally in results:
            tallies[i].merge(tally)
            done += 1
            if done % 100 == 0 or done == len(jobs):
                print(f"{done}/{len(jobs)} chunks, {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr)

    if workers == 1:
        collect(map(_job, jobs))
    else:
        import multiprocessing

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(workers) as pool:
            collect(pool.imap_unordered(_job, jobs, chunksize=4))
    return tallies


def _cell(rate: Rate) -> str:
    return f"{rate['rate']:.0%} ({rate['low']:.0%}-{rate['high']:.0%})"


def write_report(rows: list[Row], tallies: list[Tally], out: Path, seed: int,
                 seconds: float, command: str = "python -m nightcall.sim.balance") -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "balance").mkdir(exist_ok=True)
    lines = [
        "# Balance report",
        "",
        f"Generated by `{command}` (seed "
        f"{seed}, {sum(t.games for t in tallies):,} games in {seconds:.0f} s). Win rates per "
        "team with 95% Wilson intervals; a team wins when the who-has-won check names it "
        "(several teams can win the same game, e.g. the Tanner and the village). "
        "`random`: every seat plays uniformly random legal moves and says nothing. "
        "`reasoning`: every seat is the normal reasoning bot (docs/rulings.md (Beliefs, bots)): "
        "truthful village claims, werewolf cover stories, votes from beliefs and claims.",
        "",
    ]
    for rs in report_rulesets():
        mine = [(r, t) for r, t in zip(rows, tallies, strict=True) if r.setup.ruleset_id == rs.id]
        if not mine:
            continue
        if rs.scenarios():
            lines += _scenario_section(rs, mine, out)
        else:
            lines += _deck_section(rs, mine, out)
    lines += ["", OWN_DECK.rstrip("\n")]
    (out / "balance.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _teams(rows: list[tuple[Row, Tally]]) -> list[str]:
    """Every team that won a game in these rows, the most winning first."""
    wins: Counter[str] = Counter()
    for _, t in rows:
        wins.update({team: t.team_wins[team] for team in t.win_rates()["teams"]})
    return sorted(wins, key=lambda team: (-wins[team], team))


def _deck_section(rs: Rules, rows: list[tuple[Row, Tally]], out: Path) -> list[str]:
    teams = _teams(rows)
    lines = [
        f"## {rs.title}: the default decks",
        "",
        "Each player count's `default_deck(players)` (the rulebook's recommended deck).",
        "",
        f"![{rs.title} win rates](balance/{rs.id}.png)",
        "",
        "| players | bots | games | " + " | ".join(teams) + " | nobody wins | deaths |",
        "| --- | --- | --- | " + "--- | " * len(teams) + "--- | --- |",
    ]
    for row, t in rows:
        rates = t.win_rates()["teams"]
        cells = [_cell(rates[k]) if k in rates else "-" for k in teams]
        lines.append(
            f"| {row.setup.players} | {row.title} | {t.games:,} | {' | '.join(cells)} | "
            f"{t.nobody_won / t.games:.0%} | {t.average_deaths:.2f} |"
        )
    lines += ["", "Decks:", ""]
    for row, _ in rows:
        if row.title == "random":
            lines.append(f"- {row.setup.players} players: {', '.join(row.setup.deck)}")
    lines += ["", "Win rates by dealt role (reasoning bots):", "",
              "| players | " + " | ".join(["role: rate"]) + " |", "| --- | --- |"]
    for row, t in rows:
        if row.title != "reasoning":
            continue
        roles = t.win_rates()["roles"]
        lines.append(f"| {row.setup.players} | "
                     + ", ".join(f"{r} {v['rate']:.0%}" for r, v in roles.items()) + " |")
    lines.append("")
    _plot_decks(rs.title, rows, teams, out / "balance" / f"{rs.id}.png")
    return lines


def _scenario_section(rs: Rules, rows: list[tuple[Row, Tally]],
                      out: Path) -> list[str]:
    lines = [
        f"## {rs.title}: every scenario",
        "",
        "Each scenario's deck from `default_deck(players, scenario)`; random bots, and the "
        "ruleset's reasoning bot (normal difficulty) where it has one.",
        "",
        f"![{rs.title} village win rates](balance/{rs.id}.png)",
        "",
        "| scenario | players | bots | games | team win rates | nobody wins | deaths |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row, t in rows:
        teams = t.win_rates()["teams"]
        cell = ", ".join(f"{k} {_cell(v)}" for k, v in teams.items())
        lines.append(f"| {row.title} | {row.setup.players} | {row.setup.village} | "
                     f"{t.games:,} | {cell} | {t.nobody_won / t.games:.0%} | "
                     f"{t.average_deaths:.2f} |")
    lines.append("")
    _plot_scenarios(rows, out / "balance" / f"{rs.id}.png")
    return lines


def _plot_decks(title: str, rows: list[tuple[Row, Tally]], teams: list[str],
                path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = sorted({r.title for r, _ in rows})
    colors = ("#3b7dd8", "#c0392b", "#8e7d3a", "#6c3483", "#1e8449", "#566573")
    fig, axes = plt.subplots(1, len(bots), figsize=(5 * len(bots), 3.6), squeeze=False)
    for ax, bot in zip(axes[0], bots, strict=True):
        sel = [(r, t) for r, t in rows if r.title == bot]
        for i, team in enumerate(teams):
            color = colors[i % len(colors)]
            xs, ys, lo, hi = [], [], [], []
            for r, t in sel:
                rates = t.win_rates()["teams"]
                if team in rates:
                    v = rates[team]
                    xs.append(r.setup.players)
                    ys.append(v["rate"])
                    lo.append(v["rate"] - v["low"])
                    hi.append(v["high"] - v["rate"])
            if xs:
                ax.errorbar(xs, ys, yerr=[lo, hi], label=team, color=color, marker="o",
                            capsize=3)
        ax.set_title(f"{bot} bots")
        ax.set_xlabel("players")
        ax.set_ylabel("win rate")
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8)
    fig.suptitle(f"{title}, default decks")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _plot_scenarios(rows: list[tuple[Row, Tally]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(r.title for r, _ in rows))
    players = sorted({r.setup.players for r, _ in rows})
    bots = list(dict.fromkeys(r.setup.village for r, _ in rows))
    fig, axes = plt.subplots(1, len(bots), figsize=(4.5 * len(bots) + 2.5,
                                                    0.3 * len(names) + 1.5), squeeze=False)
    im = None
    for ax, bot in zip(axes[0], bots, strict=True):
        grid = [[float("nan")] * len(players) for _ in names]
        for r, t in rows:
            if r.setup.village == bot:
                grid[names.index(r.title)][players.index(r.setup.players)] = (
                    t.team_wins["village"] / t.games
                )
        im = ax.imshow(grid, vmin=0, vmax=1, cmap="coolwarm_r", aspect="auto")
        ax.set_xticks(range(len(players)), [str(p) for p in players])
        ax.set_yticks(range(len(names)), names if ax is axes[0][0] else [], fontsize=7)
        ax.set_xlabel("players")
        ax.set_title(f"village win rate, {bot} bots", fontsize=9)
    if im is not None:
        fig.colorbar(im, ax=list(axes[0]), fraction=0.03)
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000,
                        help="per random row of a ruleset without scenarios")
    parser.add_argument("--reasoning-games", type=int, default=1500)
    # (--epic-games: the name the report was generated with before the rows came from
    # the rulesets; docs/balance.md's command line still says it)
    parser.add_argument("--scenario-games", "--epic-games", type=int, default=800,
                        help="per random row of a scenario")
    parser.add_argument("--scenario-reasoning-games", "--epic-reasoning-games", type=int,
                        default=300)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", metavar="RULESET", default=None,
                        help="one ruleset's section (default: every one-night ruleset)")
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args(argv)
    covered = report_rulesets()
    if args.only is not None and args.only not in {rs.id for rs in covered}:
        parser.error(f"--only: {args.only!r} is not a one-night ruleset installed here "
                     f"(the report covers: {', '.join(rs.id for rs in covered)})")
    rows: list[Row] = []
    for rs in covered:
        if args.only not in (None, rs.id):
            continue
        if rs.scenarios():
            rows += scenario_rows(rs, args.scenario_games, args.scenario_reasoning_games)
        else:
            rows += deck_rows(rs, args.games, args.reasoning_games)
    workers = args.workers or default_workers()
    t0 = time.perf_counter()
    tallies = run_rows(rows, args.seed, workers)
    command = (f"python -m nightcall.sim.balance --games {args.games} --reasoning-games "
               f"{args.reasoning_games} --scenario-games {args.scenario_games} "
               f"--scenario-reasoning-games {args.scenario_reasoning_games} --seed {args.seed}")
    write_report(rows, tallies, args.out, args.seed, time.perf_counter() - t0, command)
    print(f"wrote {args.out / 'balance.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
