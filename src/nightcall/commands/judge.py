"""``nightcall judge RULESET``: who won at a real table, from the final cards and the votes.

Give the table as JSON (``--file table.json``, or ``--file -`` for stdin) or answer
the questions one by one. The table format is in nightcall/rulesets/onuw/judge.py
(Epic adds ``tokens`` and ``artifacts``).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

EXIT_REFUSED = 2
JUDGES = {
    "onuw": "nightcall.rulesets.onuw.judge",
    "epic": "nightcall.rulesets.epic.judge",
}
NOBODY = ("", "-", "nobody", "none")


def _ask_table(ruleset_id: str) -> dict[str, Any]:
    """The table, question by question; an empty answer to a vote means 'did not point'."""
    raw = typer.prompt("Players, in seating order (comma-separated)")
    players = [p.strip() for p in raw.split(",") if p.strip()]
    table: dict[str, Any] = {"players": players, "cards": {}, "votes": {}}
    typer.echo("The card in front of each player now (a role or a playing card, e.g. K♥):")
    for p in players:
        table["cards"][p] = typer.prompt(f"  {p}")
    if ruleset_id == "onuw" and _holds_doppelganger(normalize("onuw", table)["cards"]):
        table["doppelganger"] = typer.prompt("Which role did the Doppelgänger copy")
    if ruleset_id == "epic":
        typer.echo("Each player's symbol token (empty: certainty):")
        table["tokens"] = {p: typer.prompt(f"  {p}", default="certainty",
                                           show_default=False) for p in players}
        typer.echo("Artifacts on cards (empty: none):")
        arts = {p: typer.prompt(f"  {p}", default="", show_default=False) for p in players}
        table["artifacts"] = {p: a for p, a in arts.items() if a.strip()}
    typer.echo("Who does each player point at? (empty: nobody)")
    for p in players:
        target = typer.prompt(f"  {p} →", default="", show_default=False).strip()
        if target.lower() not in NOBODY:
            table["votes"][p] = target
    return table


def _snake(value: Any) -> Any:
    return value.strip().lower().replace(" ", "_").replace("-", "_") \
        if isinstance(value, str) else value


def normalize(ruleset_id: str, table: Any) -> Any:
    """Role names in any language ("Veggente", "Sight Wolf") and token or artifact names
    ("Claw of the Werewolf") as the ids the rules use; anything unknown is left as it is,
    for the check to refuse with its reason."""
    from nightcall.engine.errors import DeckError
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import role_lookup

    if not isinstance(table, dict):
        return table
    try:
        lookup = role_lookup(get_ruleset(ruleset_id))
    except DeckError:
        return table

    def role(value: Any) -> Any:
        return lookup.get(_snake(value), value) if isinstance(value, str) else value

    out = dict(table)
    if isinstance(out.get("cards"), dict):
        out["cards"] = {p: role(c) for p, c in out["cards"].items()}
    if isinstance(out.get("center"), list):
        out["center"] = [role(c) for c in out["center"]]
    if isinstance(out.get("doppelganger"), str):
        out["doppelganger"] = role(out["doppelganger"])
    for key in ("tokens", "artifacts"):
        if isinstance(out.get(key), dict):
            out[key] = {p: _snake(v) for p, v in out[key].items()}
    return out


def _holds_doppelganger(cards: dict[str, Any]) -> bool:
    from nightcall.engine.errors import NightcallError
    from nightcall.rulesets.onuw.judge import read_card

    for where, card in cards.items():
        try:
            if read_card(card, where) == "doppelganger":
                return True
        except NightcallError:
            continue  # refused with its reason by the check itself
    return False


def _load_table(file: Path) -> Any:
    text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the table is not valid JSON ({exc.msg} at line {exc.lineno})") from None


def judge(
    ruleset_id: Annotated[str, typer.Argument(metavar="RULESET", help="onuw or epic.")],
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="The table as JSON; '-' for stdin.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Say who died and who won, and walk through the who-has-won check step by step."""
    from rich.console import Console

    from nightcall.engine.errors import NightcallError

    err = Console(stderr=True)
    module_name = JUDGES.get(ruleset_id)
    if module_name is None:
        err.print(f"[bold red]cannot judge[/]: {ruleset_id!r} has no end-of-game check here "
                  f"(known: {', '.join(JUDGES)}); Lupus ends inside `nightcall narrate lupus`",
                  highlight=False)
        raise typer.Exit(EXIT_REFUSED)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        err.print(f"[bold red]cannot judge[/]: the {ruleset_id} check is not installed yet",
                  highlight=False)
        raise typer.Exit(EXIT_REFUSED) from None
    try:
        table = _load_table(file) if file is not None else _ask_table(ruleset_id)
        outcome = module.judge(normalize(ruleset_id, table))
    except (NightcallError, ValueError, OSError) as exc:
        err.print(f"[bold red]cannot judge this table[/]: {exc}", highlight=False)
        raise typer.Exit(EXIT_REFUSED) from None
    names = table["players"]
    result = outcome.to_json(names)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    console = Console()
    dead = result["dead"]
    console.print("Dead: " + (", ".join(f"{d} ({result['causes'][d]})" for d in dead)
                              if dead else "nobody"), highlight=False, markup=False)
    console.print("Winners: " + (", ".join(result["winners"]) or "nobody")
                  + (f"  (teams: {', '.join(result['teams'])})" if result["teams"] else ""),
                  highlight=False, markup=False)
    console.print("The check, step by step:", highlight=False)
    for i, line in enumerate(result["explanation"], 1):
        console.print(f"  {i}. {line}", highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.command("judge")(judge)
