"""``nightcall arena [TOURNAMENT.toml]``: a duplicate tournament of bots and agents, rated.

See docs/arena.md. Writes, in ``--out`` (default ``arena-out``): ``results.jsonl``
(one line per game, as they finish: run the same command again to resume),
``leaderboard.json`` and ``leaderboard.md``; with ``--plot``, the ratings over games.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from nightcall.commands._options import command_options

if TYPE_CHECKING:  # (the CLI imports what a command uses when it runs)
    from rich.console import Console

EXIT_BAD_SETUP = 2
EXIT_INTERRUPTED = 130


def arena(
    config: Annotated[Path | None, typer.Argument(
        help="A TOML file naming the entrants and the games (docs/arena.md).",
        show_default=False)] = None,
    entrant: Annotated[list[str] | None, typer.Option(
        "--entrant", "-e",
        help="[NAME=]SPEC, repeatable: random, reasoning[:easy|hard], stdio:COMMAND, "
             "llm:MODEL@URL, python:MODULE:ATTR. Replaces the file's entrants.",
        show_default=False)] = None,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", "-r", help="onuw, epic or lupus (default onuw).", show_default=False)] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Seats per table (default 5, or the ruleset's least).",
        show_default=False)] = None,
    scenario: Annotated[str | None, typer.Option(
        "--scenario", help="A named deck (Epic scenarios).", show_default=False)] = None,
    roles: Annotated[str | None, typer.Option(
        "--roles", help="The deck: roles by name or id, comma-separated, as for deck "
        "('2x Villager').", show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-g", help="Games at least (rounded up to whole deals).",
        show_default=False)] = None,
    deals: Annotated[int | None, typer.Option(
        "--deals", help="Deals, each played in every seating.",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Same seed, same tournament (default 0).", show_default=False)] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Processes (default: all cores).",
        show_default=False)] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Folder for the results and the leaderboard (default arena-out).",
        show_default=False)] = None,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Start over, overwriting the results in --out.")] = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Draw the ratings over the games to this PNG.",
        show_default=False)] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the leaderboard as JSON instead of a table.")] = False,
) -> None:
    """Play a duplicate tournament between bots and agents; rate them per side with openskill."""
    from rich.console import Console

    from nightcall.arena import ArenaError

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        _arena(err, config, entrant or [], {
            "ruleset": ruleset, "players": players, "scenario": scenario, "deck": roles,
            "games": games, "deals": deals, "seed": seed, "workers": workers,
        }, out, fresh, plot, as_json)
    except ArenaError as exc:
        from rich.markup import escape

        err.print(f"[bold red]nightcall arena[/]: {escape(str(exc))}")
        raise typer.Exit(EXIT_BAD_SETUP) from None


def _arena(err: Console, config: Path | None, entrants: list[str], flags: dict[str, Any],
           out: Path | None, fresh: bool, plot: Path | None, as_json: bool) -> None:
    from nightcall.arena import ArenaError
    from nightcall.arena.config import build, read_toml
    from nightcall.arena.ratings import markdown, rate, require_openskill, rich_table, warnings
    from nightcall.arena.ratings import plot as draw
    from nightcall.arena.results import ResultsFile
    from nightcall.arena.run import run
    from nightcall.sim.parallel import default_workers

    require_openskill()
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ArenaError("--plot needs matplotlib: pip install 'nightcall[plot]'") from None
    data = read_toml(config) if config is not None else {}
    t = build(data, flags, entrants, str(config) if config else "the tournament")
    workers = flags["workers"] if flags["workers"] is not None else data.get("workers")
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArenaError("workers must be a whole number >= 1")
    folder = out or Path(data.get("out", "arena-out"))
    results = ResultsFile(folder / "results.jsonl", t, fresh)
    before = len(results.done)
    if before:
        err.print(f"resuming {folder / 'results.jsonl'}: {before:,} of {t.games:,} games "
                  "already played", markup=False)
        from nightcall import __version__

        if results.written_by != __version__:
            # The bots may play differently in another version: say so, do not refuse.
            err.print(f"note: those games were played by nightcall {results.written_by}, "
                      f"this is {__version__}", markup=False)
    log = None if t.all_bots else folder / "agents.log"
    try:
        if as_json:
            run(t, results, workers, log)
        else:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TimeRemainingColumn,
            )

            with Progress("[progress.description]{task.description}", BarColumn(),
                          MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                          transient=True) as bar:
                task = bar.add_task(f"{t.ruleset}, {len(t.entrants)} entrants",
                                    total=t.games, completed=before)
                run(t, results, workers, log, lambda k: bar.advance(task, k))
    except KeyboardInterrupt:
        results.close()
        err.print(f"interrupted: {len(results.done):,} of {t.games:,} games are saved in "
                  f"{results.path}; run the same command again to go on", markup=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        results.close()
    ratings = rate(t, results.ordered(), keep_history=plot is not None)
    board = ratings.to_json()
    try:
        (folder / "leaderboard.json").write_text(
            json.dumps(board, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (folder / "leaderboard.md").write_text(markdown(ratings), encoding="utf-8")
        if plot is not None:
            draw(ratings, plot)
    except OSError as exc:
        raise ArenaError(f"cannot write the leaderboard: {exc}") from None
    if as_json:
        typer.echo(json.dumps(board, indent=2, ensure_ascii=False))
        _warn(err, warnings(ratings), folder)
        return
    from rich.console import Console

    from nightcall.arena.ratings import title

    console = Console()
    console.print(title(ratings), highlight=False, soft_wrap=True, markup=False)
    console.print(rich_table(ratings))
    console.print(f"results: {results.path}; leaderboard: {folder / 'leaderboard.md'}, "
                  f"{folder / 'leaderboard.json'}" + (f"; plot: {plot}" if plot else ""),
                  highlight=False, soft_wrap=True, markup=False)
    _warn(err, warnings(ratings), folder)


def _warn(err: Console, said: list[str], folder: Path) -> None:
    # After the table, on stderr (so that --json stays one document): a program that
    # crashed on every seat still has a rating, and nothing else on screen says so.
    for warning in said:
        err.print(f"warning: {warning}: see {folder / 'agents.log'}", markup=False,
                  soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("arena", **command_options())(arena)
