"""``nightcall simulate RULESET``: many seeded bot games, win rates with 95% intervals."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # (the CLI imports what a command uses when it runs)
    from nightcall.engine.ruleset import Rules
    from nightcall.narration.locale import Locale

EXIT_BAD_SETUP = 2


def resolve_deck(
    ruleset_id: str, players: int | None, scenario: str | None, roles: list[str] | None
) -> tuple[int, list[str]]:
    """The player count and deck from --players / --scenario / --roles (role ids, names
    in any language or playing cards, as ``nightcall deck`` reads them)."""
    from nightcall.engine.errors import DeckError, Said
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import parse_roles

    rs = get_ruleset(ruleset_id)
    if roles:
        if scenario:
            raise DeckError(Said("give either --scenario or --roles, not both",
                                 "deck.scenario_and_roles"))
        deck = parse_roles(rs, roles)
        if players is None:
            fits = []
            for n in range(rs.min_players, rs.max_players + 1):
                try:
                    rs.validate_deck(n, deck)
                except DeckError:
                    continue
                fits.append(n)
            if len(fits) != 1:
                raise DeckError(Said("give --players: the roles alone do not fix the player "
                                     "count", "simulate.players_from_roles"))
            players = fits[0]
        rs.validate_deck(players, deck)
        return players, deck
    if players is None:
        raise DeckError(Said("give --players N (or --roles)", "simulate.players"))
    return players, rs.default_deck(players, scenario)


def check_plot_path(plot: Path) -> Path:
    """Refuse a plot file that cannot be written before any game is played."""
    from nightcall.engine.errors import Said

    folder = plot.parent if str(plot.parent) else Path(".")
    if plot.suffix.lower() != ".png":
        raise ValueError(Said(f"--plot {plot}: the plot is a PNG file; give a name ending "
                              "in .png", "simulate.plot_png", plot=str(plot)))
    if not folder.is_dir():
        raise ValueError(Said(f"--plot {plot}: the folder {folder} does not exist",
                              "simulate.plot_folder", plot=str(plot), folder=str(folder)))
    if not os.access(folder, os.W_OK):
        raise ValueError(Said(f"--plot {plot}: the folder {folder} is not writable",
                              "simulate.plot_writable", plot=str(plot), folder=str(folder)))
    if plot.is_dir():
        raise ValueError(f"--plot {plot} is a folder; give a file name ending in .png")
    return plot


def simulate(
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="onuw, epic or lupus.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Players.")] = None,
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="A scenario (Epic Battle).")
    ] = None,
    roles: Annotated[
        list[str] | None,
        typer.Option("--roles", help="The deck: role ids, names or playing cards "
                     "(see `nightcall deck`)."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play.")] = 10_000,
    bots: Annotated[
        str,
        typer.Option("--bots", help="Who plays every seat: random, reasoning, reasoning:easy "
                     "or reasoning:hard (as in `nightcall play`)."),
    ] = "reasoning",
    village: Annotated[
        str | None, typer.Option("--village", help="The village's bot (default: --bots).")
    ] = None,
    wolves: Annotated[
        str | None, typer.Option("--wolves", help="The werewolf side's bot (default: --bots).")
    ] = None,
    vampires: Annotated[
        str | None,
        typer.Option("--vampires", help="Epic Battle: the vampire side's bot "
                     "(default: --wolves)."),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes (default: all cores).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same results.")] = 0,
    lang: Annotated[str, typer.Option(help="Role names in en, it or de.")] = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the win rates to this PNG.")
    ] = None,
) -> None:
    """Play many bot games and report win rates per team and per dealt role."""
    from rich.console import Console

    from nightcall.bots import make_bot
    from nightcall.commands._options import check_bot
    from nightcall.engine.errors import NightcallError, Said
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import refused_in
    from nightcall.sim.parallel import default_workers
    from nightcall.sim.parallel import simulate as run
    from nightcall.sim.runner import Setup

    err = Console(stderr=True)
    village = village or bots
    wolves = wolves or bots
    try:
        locale = load(lang)
        rs = get_ruleset(ruleset)
        n, deck = resolve_deck(rs.id, players, scenario, roles)
        if vampires is not None and not any(rs.side_of(r) == "vampires" for r in rs.role_ids):
            raise ValueError(Said("--vampires is for Epic Battle, where vampires play",
                                  "simulate.vampires"))
        for spec in (village, wolves, vampires or wolves):
            check_bot(spec)
            make_bot(spec, rs.id, 0)
        if plot is not None:
            check_plot_path(plot)
        scenario_name = _scenario_name(rs, n, scenario, bool(roles))
    except (NightcallError, LocaleError, ValueError) as exc:
        err.print(refused_in(lang, "cannot_simulate", "cannot simulate", exc),
                  style="bold red", highlight=False, markup=False)
        raise typer.Exit(EXIT_BAD_SETUP) from None
    setup = Setup(rs.id, n, tuple(deck), village, wolves, vampires=vampires)
    k = workers or default_workers()
    label = f"{rs.title}, {n} players" + (f", “{scenario_name}”" if scenario_name else "")
    if as_json:
        tally, seconds = run(setup, games, seed, k)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=err, transient=True,
        ) as bar:
            task = bar.add_task(label, total=games)
            tally, seconds = run(setup, games, seed, k, lambda done: bar.advance(task, done))
    rates = tally.win_rates()
    from nightcall.sim.tally import _rate, wilson

    low, high = wilson(tally.nobody_won, tally.games)
    rates["nobody"] = _rate(tally.nobody_won, tally.games, low, high)
    result: dict[str, Any] = {
        "ruleset": rs.id,
        "players": n,
        "scenario": scenario_name,
        "deck": deck,
        "names": [locale.role(rs.id, r) for r in deck],
        "village": village,
        "wolves": wolves,
        "vampires": vampires or wolves if any(_vampire(r) for r in deck) else None,
        "seed": seed,
        "workers": k,
        "games": tally.games,
        "win_rates": rates,
        "average_deaths": tally.average_deaths,
        "games_per_second": tally.games / seconds if seconds > 0 else None,
    }
    if plot is not None:
        from nightcall.sim.plot import plot_win_rates

        try:
            plot_win_rates(rates, f"{label}, {village} v {wolves}", plot)
        except OSError as exc:
            err.print(locale.line("refusal.cannot_plot", reason=str(exc)), style="bold red",
                      highlight=False, markup=False)
            raise typer.Exit(EXIT_BAD_SETUP) from None
        result["plot"] = str(plot.resolve())
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    _print(result, rs, locale, label)


def _vampire(role: str) -> bool:
    from nightcall.sim.runner import is_vampire_side

    return is_vampire_side(role)


def _scenario_name(rs: Rules, players: int, scenario: str | None,
                   from_roles: bool) -> str | None:
    from nightcall.commands.deck import _scenario_name as find

    found = find(rs, players, scenario, from_roles)
    return found[1] if found else None


def _print(result: dict[str, Any], rs: Rules, locale: Locale, label: str) -> None:
    from collections import Counter

    from rich.console import Console
    from rich.table import Table

    console = Console()
    sides = f"{result['village']} village, {result['wolves']} wolves"
    if result["vampires"]:
        sides += f", {result['vampires']} vampires"
    rate = result["games_per_second"]
    console.print(
        f"{result['games']:,} games of {label} ({sides}), seed {result['seed']}, "
        f"{result['workers']} worker(s)" + (f": {rate:,.0f} games/s" if rate else ""),
        highlight=False,
    )
    counts = Counter(result["deck"])
    console.print("Deck: " + ", ".join(
        f"{k} × {locale.role(rs.id, r)}" if k > 1 else locale.role(rs.id, r)
        for r, k in counts.items()), highlight=False)
    rates = result["win_rates"]
    teams = Table(title="Team win rates")
    for col, justify in (("Team", "left"), ("wins", "right"), ("rate", "right"),
                         ("95% interval", "right")):
        teams.add_column(col, justify=justify)  # type: ignore[arg-type]
    for name, r in [*rates["teams"].items(), ("nobody wins", rates["nobody"])]:
        teams.add_row(name[:1].upper() + name[1:], f"{r['wins']:,}", f"{r['rate']:.1%}",
                      f"{r['low']:.1%} - {r['high']:.1%}")
    console.print(teams)
    total = sum(r["rate"] for r in rates["teams"].values()) + rates["nobody"]["rate"]
    if total > 1.0005:
        console.print(f"[dim](the rows add to {total:.1%}: some teams win together, such "
                      "as the Tanner with the village)[/]", highlight=False)
    roles = Table(title="Dealt role win rates")
    for col, justify in (("Dealt role", "left"), ("wins", "right"), ("rate", "right"),
                         ("95% interval", "right")):
        roles.add_column(col, justify=justify)  # type: ignore[arg-type]
    for role, r in rates["roles"].items():
        roles.add_row(locale.role(rs.id, role), f"{r['wins']:,}", f"{r['rate']:.1%}",
                      f"{r['low']:.1%} - {r['high']:.1%}")
    console.print(roles)
    console.print(f"Average deaths per game: {result['average_deaths']:.2f}", highlight=False)
    if "plot" in result:
        console.print(f"Plot written to {result['plot']}", highlight=False)


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("simulate", **command_options())(simulate)
