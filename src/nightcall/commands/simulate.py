"""``nightcall simulate RULESET``: many seeded bot games, win rates with 95% intervals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

EXIT_BAD_SETUP = 2


def resolve_deck(
    ruleset_id: str, players: int | None, scenario: str | None, roles: list[str] | None
) -> tuple[int, list[str]]:
    """The player count and deck from --players / --scenario / --roles."""
    from nightcall.engine.errors import DeckError
    from nightcall.engine.ruleset import get_ruleset

    rs = get_ruleset(ruleset_id)
    if roles:
        deck = [r.strip() for item in roles for r in item.replace(",", " ").split() if r.strip()]
        if players is None:
            fits = []
            for n in range(rs.min_players, rs.max_players + 1):
                try:
                    rs.validate_deck(n, deck)
                except DeckError:
                    continue
                fits.append(n)
            if len(fits) != 1:
                raise DeckError("give --players: the roles alone do not fix the player count")
            players = fits[0]
        rs.validate_deck(players, deck)
        return players, deck
    if players is None:
        raise DeckError("give --players N (or --roles)")
    return players, rs.default_deck(players, scenario)


def simulate(
    ruleset: Annotated[str, typer.Argument(help="onuw, epic or lupus.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Players.")] = None,
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="A named deck (Epic scenarios).")
    ] = None,
    roles: Annotated[
        list[str] | None,
        typer.Option("--roles", help="The deck: role ids, comma- or space-separated."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play.")] = 10_000,
    village: Annotated[
        str, typer.Option("--village", help="Bot of the village: random, reasoning[:easy|hard].")
    ] = "random",
    wolves: Annotated[str, typer.Option("--wolves", help="Bot of the werewolf side.")] = "random",
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes (default: all cores).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same results.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the win rates to this PNG.")
    ] = None,
) -> None:
    """Play many bot games and report win rates per team and per dealt role."""
    from rich.console import Console

    from nightcall.bots import make_bot
    from nightcall.engine.errors import NightcallError
    from nightcall.sim.parallel import default_workers
    from nightcall.sim.parallel import simulate as run
    from nightcall.sim.runner import Setup

    err = Console(stderr=True)
    try:
        n, deck = resolve_deck(ruleset, players, scenario, roles)
        for spec in (village, wolves):
            make_bot(spec, ruleset, 0)
    except (NightcallError, ValueError) as exc:
        err.print(f"[bold red]cannot simulate[/]: {exc}", highlight=False)
        raise typer.Exit(EXIT_BAD_SETUP) from None
    setup = Setup(ruleset, n, tuple(deck), village, wolves)
    k = workers or default_workers()
    if as_json:
        tally, seconds = run(setup, games, seed, k)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=err, transient=True,
        ) as bar:
            task = bar.add_task(f"{ruleset}, {n} players", total=games)
            tally, seconds = run(setup, games, seed, k, lambda done: bar.advance(task, done))
    result: dict[str, Any] = {
        "ruleset": ruleset,
        "players": n,
        "deck": deck,
        "village": village,
        "wolves": wolves,
        "seed": seed,
        "workers": k,
        "games": tally.games,
        "win_rates": tally.win_rates(),
        "average_deaths": tally.average_deaths,
        "games_per_second": tally.games / seconds if seconds > 0 else None,
    }
    if plot is not None:
        from nightcall.sim.plot import plot_win_rates

        plot_win_rates(result["win_rates"], f"{ruleset}, {n} players, {village} v {wolves}", plot)
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    _print(result)


def _print(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"{result['games']:,} games of {result['ruleset']}, {result['players']} players "
        f"({result['village']} village, {result['wolves']} wolves), seed {result['seed']}, "
        f"{result['workers']} worker(s): {result['games_per_second']:,.0f} games/s",
        highlight=False,
    )
    for key, label in (("teams", "Team"), ("roles", "Dealt role")):
        table = Table(title=label + " win rates")
        table.add_column(label)
        table.add_column("wins", justify="right")
        table.add_column("rate", justify="right")
        table.add_column("95% interval", justify="right")
        for name, r in result["win_rates"][key].items():
            table.add_row(name, f"{r['wins']:,}", f"{r['rate']:.1%}",
                          f"{r['low']:.1%} - {r['high']:.1%}")
        console.print(table)
    console.print(f"Average deaths per game: {result['average_deaths']:.2f}", highlight=False)


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("simulate", **command_options())(simulate)
