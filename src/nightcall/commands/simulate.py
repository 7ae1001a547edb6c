"""``nightcall simulate RULESET``: many seeded bot games, win rates with 95% intervals."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from nightcall.commands._options import RulesetArg

if TYPE_CHECKING:  # (the CLI imports what a command uses when it runs)
    from nightcall.engine.ruleset import Rules
    from nightcall.narration.locale import Locale
    from nightcall.sim.plot import PlotTexts
    from nightcall.sim.tally import Rate

EXIT_BAD_SETUP = 2


def resolve_deck(
    ruleset_id: str, players: int | None, scenario: str | None, roles: list[str] | None
) -> tuple[int, list[str]]:
    """The player count and deck from --players / --scenario / --roles (role ids, names
    in any language or playing cards, as ``nightcall deck`` reads them)."""
    from nightcall.engine.errors import DeckError, Said
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import parse_roles, scenario_asked

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
    return players, rs.default_deck(players, scenario_asked(rs, scenario))


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
    ruleset: RulesetArg,
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
        typer.Option("--bots", help="Who plays every seat: random, reasoning, reasoning:easy, "
                     "reasoning:normal or reasoning:hard (as in `nightcall play`)."),
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
    lang: Annotated[
        str, typer.Option(help="Language of the report and the plot: en, it or de.")
    ] = "en",
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
        named = _scenario_name(rs, n, scenario, bool(roles))
    except (NightcallError, LocaleError, ValueError) as exc:
        err.print(refused_in(lang, "cannot_simulate", "cannot simulate", exc),
                  style="bold red", highlight=False, markup=False)
        raise typer.Exit(EXIT_BAD_SETUP) from None
    setup = Setup(rs.id, n, tuple(deck), village, wolves, vampires=vampires)
    k = workers or default_workers()
    label = (locale.line("deck.title_scenario", title=rs.title, n=n,
                         scenario=locale.scenario(rs.id, *named))
             if named else locale.line("deck.title", title=rs.title, n=n))
    if roles:
        label += ", " + locale.line("simulate.own_deck")
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
    has_vampires = any(_vampire(r) for r in deck)
    result: dict[str, Any] = {
        "ruleset": rs.id,
        "players": n,
        "scenario": named[1] if named else None,
        "deck": deck,
        "names": [locale.role(rs.id, r) for r in deck],
        "village": village,
        "wolves": wolves,
        "vampires": (vampires or wolves) if has_vampires else None,
        "seed": seed,
        "workers": k,
        "games": tally.games,
        "interval": "95% Wilson score",
        "win_rates": rates,
        "average_deaths": tally.average_deaths,
        "games_per_second": tally.games / seconds if seconds > 0 else None,
    }
    if plot is not None:
        from nightcall.sim.plot import plot_win_rates

        try:
            plot_win_rates(rates, plot_texts(result, rs, locale, label), plot)
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
                   from_roles: bool) -> tuple[str, str] | None:
    from nightcall.commands.deck import _scenario_name as find

    return find(rs, players, scenario, from_roles)


def percent(x: float, lang: str, digits: int = 1) -> str:
    """A rate as the language writes it: 40.3% (en), 40,3% (it), 40,3 % (de)."""
    text = f"{x:.{digits}%}"
    if lang != "en":
        text = text.replace(".", ",")
    return text.replace("%", " %") if lang == "de" else text


def count(n: int, lang: str) -> str:
    """1,000 (en), 1.000 (it, de)."""
    return f"{n:,}" if lang == "en" else f"{n:,}".replace(",", ".")


def team_name(locale: Locale, ruleset: str, team: str) -> str:
    """A team's name: the village, werewolves and vampires have their own line; a team of
    one role (the Tanner, the Assassin, the Werehamster) is named by the role."""
    key = f"simulate.team.{team}"
    return locale.lines[key] if key in locale.lines else locale.role(ruleset, team)


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


def _deck_line(result: dict[str, Any], rs: Rules, locale: Locale) -> str:
    return locale.line("simulate.deck", cards=locale.deck(rs.id, result["deck"]))


def _bots_line(result: dict[str, Any], locale: Locale) -> str:
    if result["vampires"]:
        return locale.line("simulate.bots_vampires", village=result["village"],
                           wolves=result["wolves"], vampires=result["vampires"])
    return locale.line("simulate.bots", village=result["village"], wolves=result["wolves"])


def _run_line(result: dict[str, Any], locale: Locale, label: str) -> str:
    return locale.line("simulate.run", games=count(result["games"], locale.lang), label=label,
                       seed=result["seed"], workers=result["workers"])


def plot_texts(result: dict[str, Any], rs: Rules, locale: Locale, label: str) -> PlotTexts:
    """The chart's words: its title says the game, the deck, the bots, how many games and
    the seed, so a PNG on its own still says what it measured."""
    import textwrap

    from nightcall.sim.plot import PlotTexts

    lang = locale.lang
    title = "\n".join([
        *textwrap.wrap(_run_line(result, locale, label), 130),
        *textwrap.wrap(_deck_line(result, rs, locale), 130),
        _bots_line(result, locale),
    ])
    rates = result["win_rates"]
    return PlotTexts(
        title=title,
        by_team=locale.line("simulate.plot.by_team"),
        by_role=locale.line("simulate.plot.by_role"),
        axis=locale.line("simulate.plot.axis"),
        nobody=_capital(locale.line("simulate.nobody")),
        teams={t: _capital(team_name(locale, rs.id, t)) for t in rates["teams"]},
        roles={r: locale.role(rs.id, r) for r in rates["roles"]},
        percent=lambda x: percent(x, lang, 0),
    )


def _print(result: dict[str, Any], rs: Rules, locale: Locale, label: str) -> None:
    from rich.console import Console
    from rich.table import Table

    lang = locale.lang
    console = Console()
    rate = result["games_per_second"]
    run = _run_line(result, locale, label)
    if rate:
        run += " (" + locale.line("simulate.speed", rate=count(round(rate), lang)) + ")"
    for line in (run, _bots_line(result, locale), _deck_line(result, rs, locale)):
        console.print(line, highlight=False, markup=False)
    rates = result["win_rates"]

    def interval(r: Rate) -> str:
        return f"{percent(r['low'], lang)} – {percent(r['high'], lang)}"

    teams = Table(title=locale.line("simulate.teams"))
    for col, justify in (("team", "left"), ("wins", "right"), ("rate", "right"),
                         ("interval", "right")):
        teams.add_column(locale.line(f"simulate.col.{col}"), justify=justify)  # type: ignore[arg-type]
    rows = [(team_name(locale, rs.id, t), r) for t, r in rates["teams"].items()]
    for name, r in [*rows, (locale.line("simulate.nobody"), rates["nobody"])]:
        teams.add_row(_capital(name), count(r["wins"], lang),
                      percent(r["rate"], lang), interval(r))
    console.print(teams)
    total = sum(r["rate"] for r in rates["teams"].values()) + rates["nobody"]["rate"]
    if total > 1.0005:
        console.print(locale.line("simulate.together", total=percent(total, lang)),
                      style="dim", highlight=False, markup=False)
    roles = Table(title=locale.line("simulate.roles"))
    for col, justify in (("role", "left"), ("dealt", "right"), ("wins", "right"),
                         ("rate", "right"), ("interval", "right")):
        roles.add_column(locale.line(f"simulate.col.{col}"), justify=justify)  # type: ignore[arg-type]
    # (a role's rate is per seat dealt it: "dealt" is its denominator)
    named = sorted(((locale.role(rs.id, role), r) for role, r in rates["roles"].items()),
                   key=lambda item: item[0].casefold())
    for name, r in named:
        roles.add_row(name, count(r["seats"], lang), count(r["wins"], lang),
                      percent(r["rate"], lang), interval(r))
    console.print(roles)
    deaths = f"{result['average_deaths']:.2f}"
    console.print(locale.line("simulate.deaths",
                              deaths=deaths if lang == "en" else deaths.replace(".", ",")),
                  highlight=False, markup=False)
    if "plot" in result:
        console.print(locale.line("simulate.plot_written", path=result["plot"]),
                      highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("simulate", **command_options())(simulate)
