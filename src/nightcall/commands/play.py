"""``nightcall play RULESET --players N``: one human against random legal bots, in the terminal.

The human sees exactly ``ruleset.view(state, seat)``: the events that seat may
know, rendered as sentences, and a numbered menu made from the view's ``legal``
list. Bots get their own views only. Whose turn it is stays secret: the menu
appears only when the human has something to do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

EXIT_REFUSED = 2


class Renderer:
    """Events and actions of a view as plain sentences for one seat."""

    def __init__(self, players: Sequence[str], seat: int, role_name: Callable[[str], str]):
        self.players = list(players)
        self.seat = seat
        self.role = role_name
        self.n = len(players)

    def who(self, s: int) -> str:
        return "you" if s == self.seat else self.players[s]

    def whose(self, s: int) -> str:
        return "your" if s == self.seat else f"{self.players[s]}'s"

    def seats(self, seats: Sequence[int]) -> str:
        return ", ".join(self.who(s) for s in seats) or "nobody"

    def place(self, d: dict[str, Any]) -> str:
        if "seat" in d:
            return f"{self.whose(d['seat'])} card"
        return f"center card {d['center'] + 1}"

    def event(self, e: dict[str, Any]) -> str | None:
        k = e.get("kind")
        if k == "deal" and "seat" in e:
            return f"You look at your card: you are the {self.role(e['card'])}."
        if k == "deal":
            return None
        if k == "call":
            return f"Night: the {self.role(e['role'])} is called."
        if k == "wolves":
            seats = e["seats"]
            return ("You are the only Werewolf." if len(seats) == 1
                    else f"The Werewolves are: {self.seats(seats)}.")
        if k == "thumbs":
            return f"Werewolf thumbs up: {self.seats(e['seats'])}."
        if k == "masons":
            return f"The Masons are: {self.seats(e['seats'])}."
        if k == "became":
            return f"You are now the {self.role(e['role'])}."
        if k == "saw":
            return f"You see {self.place(e)}: the {self.role(e['card'])}."
        if k == "swapped":
            if "seats" in e:
                a, b = e["seats"]
                return f"The cards of {self.who(a)} and {self.who(b)} are swapped."
            return f"Your card is swapped with center card {e['center'] + 1}."
        if k == "dawn":
            return "Morning: everyone wakes up. Time to talk, then vote."
        if k == "votes":
            pairs = [f"{self.who(s)} → {self.who(v)}" for s, v in enumerate(e["votes"])
                     if v is not None]
            return "The vote: " + (", ".join(pairs) or "nobody points") + "."
        if k == "died":
            deaths = [f"{self.who(s)} ({cause})" for s, cause in e["deaths"]]
            return "Dead: " + (", ".join(deaths) or "nobody") + "."
        if k == "reveal":
            cards = e["cards"]
            held = ", ".join(f"{self.who(s)}: {self.role(cards[s])}" for s in range(self.n))
            center = ", ".join(self.role(c) for c in cards[self.n:])
            copy = f" The Doppelgänger copied the {self.role(e['copy'])}." if e.get("copy") else ""
            return f"All cards turned over. {held}. Center: {center}.{copy}"
        if k in ("over", "claim"):
            return None
        extra = ", ".join(f"{key}={value}" for key, value in e.items() if key != "kind")
        return f"{k}: {extra}" if extra else str(k)

    def action(self, a: dict[str, Any]) -> str:
        kind = a["kind"]
        x, y = a.get("a", -1), a.get("b", -1)
        if kind == "vote":
            return f"Point at {self.players[x]}"
        if kind == "abstain":
            return "Point at nobody"
        if kind == "copy":
            return f"Copy {self.players[x]}'s card"
        if kind == "look":
            return f"Look at {self.players[x]}'s card"
        if kind == "look_center":
            return (f"Look at center cards {x + 1} and {y + 1}" if y >= 0
                    else f"Look at center card {x + 1}")
        if kind == "swap":
            return f"Swap your card with {self.players[x]}'s"
        if kind == "swap_two":
            return f"Swap the cards of {self.players[x]} and {self.players[y]}"
        if kind == "take_center":
            return f"Swap your card with center card {x + 1}"
        if kind == "skip":
            return "Do nothing"
        args = " ".join(str(v) for v in (x, y) if v != -1)
        return f"{kind} {args}".strip()


def _choose(legal: list[dict[str, Any]], render: Renderer) -> dict[str, Any]:
    for i, a in enumerate(legal, 1):
        typer.echo(f"  {i:>2}. {render.action(a)}")
    while True:
        raw = typer.prompt(f"Your choice (1-{len(legal)}, q to quit)").strip().lower()
        if raw in ("q", "quit"):
            raise typer.Exit(0)
        if raw.isdigit() and 1 <= int(raw) <= len(legal):
            return legal[int(raw) - 1]
        typer.echo(f"'{raw}' is not on the menu: type a number from 1 to {len(legal)}.")


def play(
    ruleset_id: Annotated[str, typer.Argument(metavar="RULESET", help="onuw, epic or lupus.")],
    players: Annotated[int, typer.Option("--players", "-n", help="How many players.")],
    scenario: Annotated[str | None, typer.Option(help="A scenario (Epic Battle).")] = None,
    roles: Annotated[
        list[str] | None, typer.Option(help="The deck (see `nightcall deck`).")
    ] = None,
    seat: Annotated[int, typer.Option(help="Your seat, from 1.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the shuffle and of the bots.")] = 0,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
) -> None:
    """Play one game against random bots, seeing only what your seat may know."""
    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import choose_deck
    from nightcall.narration.locale import load

    try:
        ruleset = get_ruleset(ruleset_id)
        deck, _ = choose_deck(ruleset, players, scenario, roles)
        if not 1 <= seat <= players:
            raise ValueError(f"--seat must be between 1 and {players}, not {seat}")
        names = [f"Bot {i}" for i in range(1, players + 1)]
        if name in names:
            raise ValueError(f"--name {name!r} is a bot's name; pick another")
        me = seat - 1
        names[me] = name
        state = ruleset.deal(names, deck, seed)
    except (NightcallError, ValueError) as exc:
        typer.echo(f"cannot start: {exc}", err=True)
        raise typer.Exit(EXIT_REFUSED) from None
    locale = load("en")
    render = Renderer(names, me, lambda r: locale.role(ruleset.id, r))
    typer.echo(f"{ruleset.title}: {players} players, you are {name} (seat {seat}).")
    typer.echo("Roles in play: " + ", ".join(render.role(r) for r in sorted(deck)) + ".")

    def ask(legal: list[dict[str, Any]]) -> dict[str, Any]:
        typer.echo("Your move:")
        return _choose(legal, render)

    outcome = play_game(ruleset, state, me, ask, typer.echo, render, seed)
    typer.echo("")
    for line in outcome.get("explanation", []):
        typer.echo(line)
    typer.echo("You win!" if name in outcome.get("winners", []) else "You lose.")


def play_game(
    ruleset: Any,
    state: Any,
    me: int,
    ask: Callable[[list[dict[str, Any]]], dict[str, Any]],
    echo: Callable[[str], Any],
    render: Renderer,
    seed: int = 0,
) -> dict[str, Any]:
    """Play to the end: ``ask`` picks the human's move from the view's legal list, random
    bots play the other seats, ``echo`` shows each event the human's view gains.
    Returns the outcome as the human's view has it."""
    from nightcall.bots.random_bot import RandomBot
    from nightcall.engine.actions import Action

    bots = {s: RandomBot(seed * 100 + s) for s in range(len(render.players)) if s != me}
    shown = 0

    def show_new() -> None:
        nonlocal shown
        events = ruleset.view(state, me)["events"]
        for e in events[shown:]:
            text = render.event(e)
            if text:
                echo(text)
        shown = len(events)

    while not ruleset.is_over(state):
        waiting = ruleset.waiting_for(state)
        if not waiting:  # pragma: no cover - a ruleset that stalls would loop forever
            raise RuntimeError("the game is stuck: nobody has a legal move")
        for s in waiting:
            if s == me:
                show_new()
                choice = Action.from_json(ask(ruleset.view(state, me)["legal"]))
                ruleset.apply(state, me, choice)
            else:
                action = bots[s].choose(ruleset.view(state, s))
                if action is not None:
                    ruleset.apply(state, s, action)
            show_new()
    result: dict[str, Any] = ruleset.view(state, me).get("outcome") or {}
    return result


def register(app: typer.Typer) -> None:
    app.command("play")(play)
