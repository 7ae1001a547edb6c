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
    lang: Annotated[str, typer.Option(help="en, it or de.")] = "en",
) -> None:
    """Replay a game record step by step and say who won and why."""
    from rich.console import Console

    from nightcall.engine import records
    from nightcall.engine.errors import NightcallError
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import refused_in

    err = Console(stderr=True)
    try:
        loc = load(lang)
    except LocaleError as exc:
        err.print(refused_in(lang, "cannot_replay", "cannot replay", exc), style="bold red",
                  highlight=False, markup=False)
        raise typer.Exit(EXIT_ILLEGAL) from None
    try:
        ruleset, state = records.replay(records.load(file))
    except ValueError as exc:  # the file itself: none, unreadable, not JSON
        err.print(refused_in(lang, "cannot_replay", "cannot replay", exc), style="bold red",
                  highlight=False, markup=False)
        raise typer.Exit(EXIT_ILLEGAL) from None
    except NightcallError as exc:  # JSON, but not a game that keeps the rules
        from nightcall.engine.errors import RecordError

        # ("illegal record: the record needs ...", not "illegal record: record: ...")
        why = exc.detail if isinstance(exc, RecordError) and exc.step is None else exc
        err.print(refused_in(lang, "bad_record", "illegal record", why), style="bold red",
                  highlight=False, markup=False)
        raise typer.Exit(EXIT_ILLEGAL) from None
    from nightcall.narration.telling import explained, tell

    if as_json:  # the spec's outcome: the facts, and the check as sentences in lang
        outcome = explained(ruleset.outcome_json(state), loc.lang)
        typer.echo(json.dumps(outcome, ensure_ascii=False, indent=2))
        return
    console = Console()

    lines = tell(ruleset, state, lang=loc.lang)
    if not ruleset.is_over(state):  # a record cut short: where it stops, and who leads
        lines += explained(ruleset.outcome_json(state), loc.lang).get("explanation", [])
    for line in lines:
        console.print(line, highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("replay", **command_options())(replay)
