"""``nightcall scenarios [RULESET]``: the named scenarios of a ruleset, or one scenario's deck."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from nightcall.commands._options import LangOpt

EXIT_BAD = 2


def scenarios(
    ruleset: Annotated[str | None, typer.Argument(
        metavar="RULESET", help="A ruleset with scenarios (default: the first installed "
                                "one that has any).")] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="Only scenarios for this many players; "
                                 "with --show, the deck for this many.")] = None,
    show: Annotated[
        str | None, typer.Option("--show", help="Print the deck of this scenario (its name "
                                 "in any language, or its id).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of Anarchy's random draw.")] = 0,
    lang: LangOpt = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the scenarios with their parties, difficulty and player range."""
    from rich.console import Console
    from rich.table import Table

    from nightcall.engine.errors import NightcallError, Said
    from nightcall.engine.ruleset import all_rulesets, get_ruleset
    from nightcall.narration.deckspec import scenario_asked
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import said_in

    err = Console(stderr=True)

    def refuse(what: BaseException | str) -> typer.Exit:
        err.print(said_in(lang, what), style="bold red", highlight=False, markup=False)
        return typer.Exit(EXIT_BAD)

    try:
        loc = load(lang)
        if ruleset is None:
            with_scenarios = [r for r in all_rulesets().values() if r.scenarios()]
            if not with_scenarios:
                raise refuse(Said("no installed ruleset has named scenarios",
                                  "scenarios.none_installed"))
            ruleset = with_scenarios[0].id
        rs = get_ruleset(ruleset)
    except (NightcallError, LocaleError) as exc:
        raise refuse(exc) from None
    if not rs.scenarios():
        raise refuse(Said(f"{rs.title} has no named scenarios", "scenarios.none_in",
                          title=rs.title))
    if show is not None:
        if players is None:
            raise refuse(Said("--show needs --players N", "scenarios.show_players"))
        try:
            sid = rs.scenario_id(scenario_asked(rs, show) or show)
            deck = rs.scenario_deck(sid, players, seed)
        except NightcallError as exc:
            raise refuse(exc) from None
        cards, extra = deck[: players + 3], deck[players + 3 :]
        if as_json:
            typer.echo(json.dumps({"scenario": sid, "players": players, "roles": cards,
                                   "extra": extra[0] if extra else None}))
            return
        typer.echo(loc.line("scenarios.deck", n=players, cards=len(cards),
                            roles=", ".join(loc.role(rs.id, r) for r in cards)))
        if extra:
            typer.echo(loc.line("deck.alpha", role=loc.role(rs.id, extra[0])))
        return
    rows = [s for s in rs.scenarios()
            if players is None or s["min_players"] <= players <= s["max_players"]]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    if not rows:  # (an empty table would read as "none installed")
        low = min(s["min_players"] for s in rs.scenarios())
        high = max(s["max_players"] for s in rs.scenarios())
        raise refuse(Said(f"No scenario of {rs.title} is for {players} players; its "
                          f"scenarios are for {low} to {high}.", "scenarios.none_for",
                          title=rs.title, n=players, low=low, high=high))
    words = _page_words(lang)
    table = Table(title=loc.line("scenarios.title", title=rs.title))
    for col in ("scenario", "parties", "difficulty", "players"):
        table.add_column(loc.line(f"scenarios.col.{col}"))
    for s in rows:
        table.add_row(loc.scenario(rs.id, s["id"], s["name"]),
                      words.get(f"parties.{s['parties']}", s["parties"]),
                      words.get(f"difficulty.{s['difficulty']}", s["difficulty"]),
                      f"{s['min_players']}–{s['max_players']}")
    console = Console()
    if not console.is_terminal:  # a file or a pipe gets whole rows; a terminal, its width
        console.width = 120
    console.print(table)


def _page_words(lang: str) -> dict[str, Any]:
    """The pages' words (the front page names the parties and difficulties too)."""
    from nightcall.server.narration import page_words

    table = page_words(lang)
    return dict(json.loads(table)) if table else {}


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("scenarios", **command_options())(scenarios)
