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

    def token(self, token: str) -> str:
        return token.replace("_", " ")

    def event(self, e: dict[str, Any]) -> str | None:
        """One event as a sentence (None for bookkeeping events); unknown shapes stay
        readable as ``kind: key=value``."""
        try:
            return self._event(e)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            extra = ", ".join(f"{key}={value}" for key, value in e.items() if key != "kind")
            return f"{e.get('kind')}: {extra}"

    def _event(self, e: dict[str, Any]) -> str | None:
        k = e.get("kind")
        n = self.n
        if k == "deal":
            return (f"You look at your card: you are the {self.role(e['card'])}."
                    if "seat" in e else None)
        if k == "night":
            return f"Night {e['night']} falls."
        if k == "call":
            return f"Night: the {self.role(e.get('role') or e['call'])} is called."
        if k == "wolves":
            seats = e["seats"]
            dream = e.get("dream_wolves")
            text = ("You are the only Werewolf." if seats == [self.seat]
                    else f"The Werewolves are: {self.seats(seats)}.")
            return text + (f" Dream Wolf thumbs: {self.seats(dream)}." if dream else "")
        if k in GROUPS:
            return f"{GROUPS[k]}: {self.seats(e['seats'])}."
        if k == "became":
            return f"You are now the {self.role(e['role'])}."
        if k == "saw":
            return f"You see {self.place(e)}: the {self.role(e['card'])}."
        if k == "saw_token":
            return f"You see {self.whose(e['seat'])} token: {self.token(e['token'])}."
        if k == "token":
            return f"{self.whose(e['seat']).capitalize()} token is {self.token(e['token'])}."
        if k == "gave_token":
            return f"{self.who(e['seat']).capitalize()} gets the {self.token(e['token'])} token."
        if k == "bitten":
            return f"The vampires give {self.who(e['seat'])} the Vampire token."
        if k == "swapped":
            parts = [self.whose(s) + " card" for s in e.get("seats", [])]
            if "seat" in e:
                parts.append(self.whose(e["seat"]) + " card")
            if "center" in e:
                parts.append(f"center card {e['center'] + 1}")
            return f"Swapped: {' and '.join(parts)}."
        if k == "swapped_tokens":
            a, b = e["seats"]
            return f"The tokens of {self.who(a)} and {self.who(b)} are swapped."
        if k == "artifact":
            text = f"An artifact lies on your card: {self.token(e['artifact'])}."
            return f"{text} {e.get('instruction', '')}".strip()
        if k == "placed_artifact":
            return f"An artifact is placed on {self.whose(e['seat'])} card."
        if k == "tapped":
            return f"{self.who(e['by']).capitalize()} taps your shoulder."
        if k == "revealed":
            shown = ", ".join(f"{self.who(int(s))}: {self.role(c)}"
                              for s, c in e["cards"].items())
            return f"Face up on the table: {shown}."
        if k == "wolf_pick":
            return f"{self.who(e['seat']).capitalize()} points at {self.who(e['target'])}."
        if k == "victim":
            return f"The werewolves' victim: {self.who(e['seat'])}."
        if k == "protect":
            return f"You protect {self.who(e['seat'])} tonight."
        if k == "visit":
            return ("You stay home tonight." if e["seat"] is None
                    else f"You spend the night at {self.whose(e['seat'])} house.")
        if k == "seen":
            what = "a werewolf" if e["werewolf"] else "not a werewolf"
            return f"The Master tells you: {self.who(e['seat'])} is {what}."
        if k == "medium":
            what = "a werewolf" if e["werewolf"] else "not a werewolf"
            return f"The Master tells you: {self.who(e['seat'])}, executed, was {what}."
        if k == "imitate":
            becomes = e.get("becomes")
            return (f"You will be a {self.role(becomes)} from the next night." if becomes
                    else "You stay a plain human.")
        if k == "dawn":
            if "dead" not in e:
                return "Morning: everyone wakes up. Time to talk, then vote."
            dead = e["dead"]
            return "Dawn: " + (f"{self.seats(dead)} died in the night." if dead
                               else "nobody died in the night.")
        if k == "accusation":
            owl = e.get("owl")
            return (f"Day {e['day']}: accusations start with {self.who(e['order'][0])}."
                    + (f" The Owl pointed at {self.who(owl)}." if owl is not None else ""))
        if k == "accuse":
            target = e["target"]
            return (f"{self.who(e['seat']).capitalize()} accuses "
                    f"{self.who(target) if target is not None else 'nobody'}.")
        if k == "suspects":
            return f"Suspects: {self.seats(e['seats'])}."
        if k == "executed":
            return f"{self.who(e['seat']).capitalize()} is executed."
        if k == "votes":
            votes = e["votes"]
            pairs = votes if votes and isinstance(votes[0], list) else list(enumerate(votes))
            pointed = [f"{self.who(s)} → {self.who(v)}" for s, v in pairs if v is not None]
            return "The vote: " + (", ".join(pointed) or "nobody points") + "."
        if k == "died":
            deaths = [f"{self.who(s)} ({cause})" for s, cause in e["deaths"]]
            return "Dead: " + (", ".join(deaths) or "nobody") + "."
        if k == "reveal":
            cards = e.get("roles") or e["cards"]
            held = ", ".join(f"{self.who(s)}: {self.role(cards[s])}" for s in range(n))
            text = f"All cards turned over. {held}."
            center = e["cards"][n:n + 3]
            if center:
                text += " Center: " + ", ".join(self.role(c) for c in center) + "."
            if e.get("copy"):
                text += f" The Doppelgänger copied the {self.role(e['copy'])}."
            return text
        if k in ("over", "claim", "causes", "last"):
            return None
        extra = ", ".join(f"{key}={value}" for key, value in e.items() if key != "kind")
        return f"{k}: {extra}" if extra else str(k)

    def action(self, a: dict[str, Any]) -> str:
        kind = a["kind"]
        x, y = a.get("a", -1), a.get("b", -1)
        p = self.players
        if kind in ON_PLAYERS and 0 <= x < len(p) and (y == -1 or 0 <= y < len(p)):
            return ON_PLAYERS[kind].format(x=p[x], y=p[y] if y >= 0 else "")
        if kind == "look_center":
            return (f"Look at center cards {x + 1} and {y + 1}" if y >= 0
                    else f"Look at center card {x + 1}")
        if kind in ("take_center", "copy_center"):
            verb = "Swap your card with" if kind == "take_center" else "Copy"
            return f"{verb} center card {x + 1}"
        if kind in ON_NOBODY:
            return ON_NOBODY[kind]
        args = " ".join(str(v) for v in (x, y) if v != -1)
        return f"{kind} {args}".strip()


# Events that only list who is in a group, and how to say it.
GROUPS = {"thumbs": "Werewolf thumbs up", "masons": "The Masons are",
          "freemasons": "The Freemasons are", "vampires": "The vampires are",
          "lovers": "The lovers are"}
# Actions on one or two players (a, b are seats), across the three rulesets.
ON_PLAYERS = {
    "vote": "Point at {x}", "copy": "Copy {x}'s card", "look": "Look at {x}'s card",
    "swap": "Swap your card with {x}'s", "swap_two": "Swap the cards of {x} and {y}",
    "kill": "Kill {x}", "see": "See {x}", "protect": "Protect {x}",
    "visit": "Spend the night at {x}'s", "accuse": "Accuse {x}", "execute": "Execute {x}",
    "mark": "Point at {x}", "imitate": "Point at {x}", "tap": "Tap {x}'s shoulder",
    "swap_tokens": "Swap the tokens of {x} and {y}",
    "artifact": "Place an artifact on {x}'s card", "token": "Give {x} the token",
    "token_two": "Give {x} and {y} the tokens", "look_token": "Look at {x}'s token",
    "reveal": "Turn {x}'s card face up", "swap_center": "Swap it with {x}'s card",
}
ON_NOBODY = {"abstain": "Point at nobody", "skip": "Do nothing", "stay_home": "Stay home",
             "no_accusation": "Accuse nobody"}


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
    bots: Annotated[
        str,
        typer.Option(help="Who plays the other seats: random, reasoning, reasoning:easy or "
                     "reasoning:hard."),
    ] = "reasoning",
) -> None:
    """Play one game against bots, seeing only what your seat may know."""
    from nightcall.bots import make_bot
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
        make_bot(bots, ruleset.id, 0)  # refuse an unknown bot name before the game starts
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

    outcome = play_game(ruleset, state, me, ask, typer.echo, render, seed, bots)
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
    bot_name: str = "random",
) -> dict[str, Any]:
    """Play to the end: ``ask`` picks the human's move from the view's legal list, bots
    (``bot_name``, see :func:`nightcall.bots.make_bot`) play the other seats, talking at
    dawn if they talk; ``echo`` shows each event the human's view gains.
    Returns the outcome as the human's view has it."""
    from nightcall.bots import make_bot
    from nightcall.engine.actions import Action

    bots = {
        s: make_bot(bot_name, ruleset.id, seed * 100 + s)
        for s in range(len(render.players)) if s != me
    }
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
                bot = bots[s]
                talk = getattr(bot, "talk", None)
                if talk is not None:  # a talking bot says its piece once, at dawn
                    for claim in talk(ruleset.view(state, s)):
                        ruleset.apply(state, s, claim)
                action = bot.choose(ruleset.view(state, s))
                if action is not None:
                    ruleset.apply(state, s, action)
            show_new()
    result: dict[str, Any] = ruleset.view(state, me).get("outcome") or {}
    return result


def register(app: typer.Typer) -> None:
    app.command("play")(play)
