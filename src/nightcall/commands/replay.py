"""``nightcall replay FILE``: a readable account of a recorded game, or its outcome as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

EXIT_ILLEGAL = 2


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (shared/spec/game-record.md).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the outcome object of the spec.")
    ] = False,
) -> None:
    """Replay a game record step by step and say who won and why."""
    from rich.console import Console

    from nightcall.engine import records
    from nightcall.engine.errors import NightcallError

    err = Console(stderr=True)
    try:
        record = records.load(file)
        ruleset, state = records.replay(record)
    except NightcallError as exc:
        err.print(f"[bold red]illegal record[/]: {exc}", highlight=False, markup=True)
        raise typer.Exit(EXIT_ILLEGAL) from None
    outcome = ruleset.outcome_json(state)
    if as_json:
        typer.echo(json.dumps(outcome, ensure_ascii=False, indent=2))
        return
    console = Console()
    from nightcall.narration.telling import tell

    for line in tell(ruleset, state):
        console.print(line, highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
