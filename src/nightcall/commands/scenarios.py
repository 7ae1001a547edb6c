"""``nightcall scenarios [RULESET]``: the named scenarios of a ruleset, or one scenario's deck."""

from __future__ import annotations

import json
from typing import Annotated

import typer

EXIT_BAD = 2


def scenarios(
    ruleset: Annotated[str | None, typer.Argument(
        metavar="RULESET", help="A ruleset with scenarios (default: the first installed "
                                "one that has any).")] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="Only scenarios for this many players; "
                                 "with --show, the deck for this many.")] = None,
    show: Annotated[
        str | None, typer.Option("--show", help="Print the deck of this scenario.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of Anarchy's random draw.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the scenarios with their parties, difficulty and player range."""
    from rich.console import Console
    from rich.table import Table

    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import all_rulesets, get_ruleset

    err = Console(stderr=True)
    if ruleset is None:
        with_scenarios = [r for r in all_rulesets().values() if r.scenarios()]
        if not with_scenarios:
            err.print("no installed ruleset has named scenarios.", highlight=False,
                      markup=False)
            raise typer.Exit(EXIT_BAD)
        ruleset = with_scenarios[0].id
    try:
        rs = get_ruleset(ruleset)
    except NightcallError as exc:
        err.print(f"error: {exc}", highlight=False, markup=False)
        raise typer.Exit(EXIT_BAD) from None
    if not rs.scenarios():
        err.print(f"{rs.title} has no named scenarios.", highlight=False, markup=False)
        raise typer.Exit(EXIT_BAD)
    if show is not None:
        if players is None:
            err.print("--show needs --players N", highlight=False, markup=False)
            raise typer.Exit(EXIT_BAD)
        try:
            deck = rs.scenario_deck(show, players, seed)
        except NightcallError as exc:
            err.print(f"error: {exc}", highlight=False, markup=False)
            raise typer.Exit(EXIT_BAD) from None
        cards, extra = deck[: players + 3], deck[players + 3 :]
        if as_json:
            typer.echo(json.dumps({"scenario": show, "players": players, "roles": cards,
                                   "extra": extra[0] if extra else None}))
            return
        typer.echo(f"{players} players, {len(cards)} cards: {', '.join(cards)}")
        if extra:
            typer.echo(f"beside the center for the Alpha Wolf: {extra[0]}")
        return
    rows = [s for s in rs.scenarios()
            if players is None or s["min_players"] <= players <= s["max_players"]]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    if not rows:  # (an empty table would read as "none installed")
        low = min(s["min_players"] for s in rs.scenarios())
        high = max(s["max_players"] for s in rs.scenarios())
        err.print(f"No scenario of {rs.title} is for {players} players; its scenarios are "
                  f"for {low} to {high}.", highlight=False, markup=False)
        raise typer.Exit(EXIT_BAD)
    table = Table(title=f"{rs.title}: scenarios")
    for col in ("scenario", "parties", "difficulty", "players"):
        table.add_column(col)
    for s in rows:
        table.add_row(s["name"], s["parties"], s["difficulty"],
                      f"{s['min_players']}-{s['max_players']}")
    Console(width=120).print(table)


def register(app: typer.Typer) -> None:
    app.command("scenarios")(scenarios)
