"""``nightcall deck RULESET --players N``: which cards to play with, and what the rules warn."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Annotated

import typer

from nightcall.commands._options import RulesetArg

if TYPE_CHECKING:
    from nightcall.engine.ruleset import Rules

EXIT_REFUSED = 2

# Where nightcall's deck differs from a scenario's list in the rulebook: the rulebook's
# words (quoted as printed), and what we do instead in the line
# ``deck.adjustment.<scenario>`` (docs/rulings.md, Epic Battle, "Decks and scenarios").
ADJUSTMENTS: dict[str, str] = {
    "a_fearsome_opponent": '"3 players: Alpha Wolf, Witch, Ghost Hunter, Bodyguard, Villager" '
                           '(epic-battle-rulebook.txt, "A Fearsome Opponent")',
    "election_day": '"Election Day (medium, 3-6 players)" '
                    '(epic-battle-rulebook.txt, "Election Day")',
}


def deck(
    ruleset_id: RulesetArg,
    players: Annotated[int, typer.Option("--players", "-n", help="How many players.")],
    scenario: Annotated[
        str | None, typer.Option(help="A scenario of the ruleset (Epic Battle).")
    ] = None,
    roles: Annotated[
        list[str] | None,
        typer.Option(help="The deck: role ids, names or playing cards, e.g. "
                     "'werewolf,werewolf,seer' or 'A♠ A♣ K♥' or '3xvillager'."),
    ] = None,
    lang: Annotated[str, typer.Option(help="en, it or de.")] = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print the deck as JSON.")] = False,
) -> None:
    """Say which roles to play with, the 52-card cards to pull, and the rules' warnings."""
    from rich.console import Console
    from rich.text import Text

    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import cards_to_pull, choose_deck_cards
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import refused_in, said_in

    err = Console(stderr=True)
    try:
        locale = load(lang)
        ruleset = get_ruleset(ruleset_id)
        cards, given, warnings = choose_deck_cards(ruleset, players, scenario, roles)
        pull = cards_to_pull(ruleset, cards, given)
        calls = ruleset.night_calls(cards, 1)
        # Lupus: the Medium and the Bodyguard wake from the second night on.
        later = ruleset.night_calls(cards, 2) if ruleset.nights is None else None
        scenario_name = _scenario_name(ruleset, players, scenario, bool(roles))
    except (NightcallError, LocaleError) as exc:
        err.print(refused_in(lang, "deck_refused", "deck refused", exc), style="bold red",
                  highlight=False, markup=False)
        raise typer.Exit(EXIT_REFUSED) from None
    scenario_id = scenario_name[0] if scenario_name else None
    quoted = ADJUSTMENTS.get(scenario_id or "")
    adjustment = (quoted, locale.line(f"deck.adjustment.{scenario_id}")) if quoted else None

    def name(role: str) -> str:
        return locale.role(ruleset.id, role)

    # A card past the players' and the center's lies apart, last in a deck whose order
    # is kept (Epic Battle's Alpha Wolf: the werewolf card face down beside the center,
    # epic-battle-rulebook.txt, "Alpha Wolf", Setup).
    beyond = len(cards) > players + ruleset.center_cards
    extra = cards[-1] if ruleset.deck_order_kept and beyond else None

    if as_json:
        out = {
            "ruleset": ruleset.id,
            "players": players,
            "scenario": scenario_id,
            "scenario_name": scenario_name[1] if scenario_name else None,
            "roles": cards,
            "names": [name(r) for r in cards],
            "cards_to_pull": pull,
            "box_cards": pull is None,
            "extra": extra,
            "night_calls": calls,
            "night_calls_from_night_2": later,
            "adjustment": ({"rulebook": adjustment[0], "nightcall": adjustment[1]}
                           if adjustment else None),
            "warnings": warnings,
        }
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    console = Console()

    def say(key: str, style: str = "", **values: object) -> None:
        text = locale.line(f"deck.{key}", **values)
        console.print(Text(text, style=style))

    say("title_scenario" if scenario_name else "title", "bold", title=ruleset.title, n=players,
        scenario=locale.scenario(ruleset.id, *scenario_name) if scenario_name else "")
    counts = Counter(cards)
    say("cards", n=len(cards))
    for role in dict.fromkeys(cards):
        line = f"  {counts[role]} × {name(role)}"
        if pull is not None:
            mine = [c for c, r in zip(pull, cards, strict=True) if r == role]
            line += f"   ({' '.join(mine)})"
        console.print(line, highlight=False, markup=False)
    if pull is not None:
        say("pull", cards=" ".join(pull))
    else:
        say("box", title=ruleset.title)
    if extra is not None:
        say("alpha", role=name(extra))
    nobody = locale.line("deck.nobody_wakes")
    order = ", ".join(name(c) for c in calls) or nobody
    if later is not None and later != calls:
        say("night_1", order=order)
        say("from_night_2", order=", ".join(name(c) for c in later) or nobody)
    else:
        say("order", order=order)
    if adjustment is not None:
        say("note", "yellow", rulebook=adjustment[0], change=adjustment[1])
    for warning in warnings:
        say("warning", "yellow", text=said_in(lang, warning))


def _scenario_name(ruleset: Rules, players: int, scenario: str | None,
                   from_roles: bool) -> tuple[str, str] | None:
    """The scenario the deck comes from (id, name): the one asked for, or the one the
    ruleset picks by default (Epic Battle); None for a deck given with --roles."""
    listing = ruleset.scenarios()
    if from_roles or not listing:
        return None
    known = {s["id"]: s for s in listing}
    from nightcall.engine.errors import DeckError

    if scenario is None:
        # The ruleset's default deck is one of its scenarios: name the one it is.
        default = ruleset.default_deck(players)
        for s in known.values():
            if s["min_players"] <= players <= s["max_players"]:
                try:
                    if ruleset.scenario_deck(s["id"], players) == default:
                        return s["id"], s["name"]
                except DeckError:
                    continue
        return None

    from nightcall.narration.deckspec import scenario_asked

    match = known[ruleset.scenario_id(scenario_asked(ruleset, scenario) or scenario)]
    return match["id"], match["name"]


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("deck", **command_options())(deck)
