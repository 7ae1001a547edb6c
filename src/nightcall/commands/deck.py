"""``nightcall deck RULESET --players N``: which cards to play with, and what the rules warn."""

from __future__ import annotations

import json
from collections import Counter
from typing import Annotated

import typer

EXIT_REFUSED = 2


def deck(
    ruleset_id: Annotated[str, typer.Argument(metavar="RULESET", help="onuw, epic or lupus.")],
    players: Annotated[int, typer.Option("--players", "-n", help="How many players.")],
    scenario: Annotated[
        str | None, typer.Option(help="A scenario of the ruleset (Epic Battle).")
    ] = None,
    roles: Annotated[
        list[str] | None,
        typer.Option(help="The deck: role ids, names or playing cards, e.g. "
                     "'werewolf,werewolf,seer' or 'A♠ A♣ K♥' or '3xvillager'."),
    ] = None,
    lang: Annotated[str, typer.Option(help="Role names in en, it or de.")] = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print the deck as JSON.")] = False,
) -> None:
    """Say which roles to play with, the 52-card cards to pull, and the rules' warnings."""
    from rich.console import Console

    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import choose_deck
    from nightcall.narration.locale import LocaleError, load

    err = Console(stderr=True)
    try:
        locale = load(lang)
        ruleset = get_ruleset(ruleset_id)
        cards, warnings = choose_deck(ruleset, players, scenario, roles)
        pull = ruleset.card_map.cards_to_pull(cards) if ruleset.card_map is not None else None
        calls = ruleset.night_calls(cards, 1)
    except (NightcallError, LocaleError) as exc:
        err.print(f"[bold red]deck refused[/]: {exc}", highlight=False)
        raise typer.Exit(EXIT_REFUSED) from None

    def name(role: str) -> str:
        return locale.role(ruleset.id, role)

    # Epic Battle: with the Alpha Wolf the deck ends with the werewolf card that lies
    # face down beside the center (epic-battle-rulebook.txt, "Alpha Wolf", Setup).
    extra = cards[-1] if ruleset.id == "epic" and len(cards) == players + 4 else None

    if as_json:
        out = {
            "ruleset": ruleset.id,
            "players": players,
            "scenario": scenario,
            "roles": cards,
            "names": [name(r) for r in cards],
            "cards_to_pull": pull,
            "extra": extra,
            "night_calls": calls,
            "warnings": warnings,
        }
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    console = Console()
    console.print(f"[bold]{ruleset.title}[/] for {players} players"
                  + (f", scenario {scenario}" if scenario else ""), highlight=False)
    counts = Counter(cards)
    console.print(f"{len(cards)} cards:", highlight=False)
    for role in dict.fromkeys(cards):
        line = f"  {counts[role]} × {name(role)}"
        if pull is not None:
            mine = [c for c, r in zip(pull, cards, strict=True) if r == role]
            line += f"   ({' '.join(mine)})"
        console.print(line, highlight=False, markup=False)
    if pull is not None:
        console.print(f"Pull from a 52-card deck: {' '.join(pull)}", highlight=False,
                      markup=False)
    if extra is not None:
        console.print(f"For the Alpha Wolf: one {name(extra)} card lies face down beside "
                      "the center, apart from the three center cards.", highlight=False,
                      markup=False)
    console.print("Night order: " + (", ".join(name(c) for c in calls) or "nobody wakes"),
                  highlight=False, markup=False)
    for warning in warnings:
        console.print(f"[yellow]warning[/]: {warning}", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("deck")(deck)
