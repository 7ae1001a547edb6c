"""``nightcall play RULESET --players N``: one human against random legal bots, in the terminal.

The human sees exactly ``ruleset.view(state, seat)``: the events that seat may
know, rendered as sentences, and a numbered menu made from the view's ``legal``
list. Bots get their own views only. Whose turn it is stays secret: the menu
appears only when the human has something to do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from nightcall.commands._options import DeckOpt, LangOpt, RulesetArg, ScenarioOpt
from nightcall.narration.answers import menu_choice, typed

if TYPE_CHECKING:  # imported where used: ``nightcall --help`` stays quick
    from nightcall.engine.actions import Action, ActionJSON
    from nightcall.engine.ruleset import Ruleset
    from nightcall.narration.seat import Renderer

S = TypeVar("S")

EXIT_REFUSED = 2
QUIT = ("q", "quit")


class Quit(Exception):
    """The human typed q: the game ends here, and the command says how to play it again."""


def _picked(raw: str, labels: list[str], low: int, render: Renderer, refusal: str) -> int | None:
    """The item (from 1; 0 for back where ``low`` is 0) ``raw`` names by number or by
    its words ("bot 5", "rauber"); None after saying why it names none."""
    found = menu_choice(raw, labels, low)
    if isinstance(found, int):
        return found
    typer.echo(render.t("ambiguous", answer=raw, numbers=", ".join(map(str, found))) if found
               else render.t(refusal, answer=raw, n=len(labels)))
    return None


def _choose(legal: list[ActionJSON], render: Renderer) -> ActionJSON:
    labels = [render.action(a) for a in legal]
    for i, label in enumerate(labels, 1):
        typer.echo(f"  {i:>2}. {label}")
    while True:
        raw = typed(render.t("choice", n=len(legal))).strip()
        if raw.lower() in QUIT:
            raise Quit
        n = _picked(raw, labels, 1, render, "not_on_menu")
        if n is not None:
            return legal[n - 1]


def _menu(options: list[str], question: str, render: Renderer) -> int | None:
    """A numbered menu with a way back; the index chosen, or None for back."""
    for i, label in enumerate(options, 1):
        typer.echo(f"  {i:>2}. {label[:1].upper()}{label[1:]}")
    typer.echo(f"   0. {render.t('back')}")
    while True:
        raw = typed(question)
        if raw.strip().lower() in QUIT:
            raise Quit
        # (0, back, is on this menu too: the refusal says so)
        n = _picked(raw.strip(), options, 0, render, "not_on_menu_back")
        if n is not None:
            return n - 1 if n else None


def ask_claim(legal: Sequence[Action], render: Renderer,
              role_ids: Sequence[str]) -> Action | None:
    """What the human says before voting (One Night, Epic Battle): their role, a card
    they saw or a swap they made, built from the ruleset's legal claims (which name a
    role by its index in ``role_ids``); None to vote now."""
    while True:
        typer.echo(render.t("talk"))
        for n, what in enumerate(("talk_am", "talk_saw", "talk_swapped"), 1):
            typer.echo(f"  {n:>2}. {render.t(what)}")
        raw = typed(render.t("talk_choice"), default="").strip()
        if not raw:
            return None
        if raw.lower() in QUIT:
            raise Quit
        if raw not in ("1", "2", "3"):
            typer.echo(render.t("talk_wrong", answer=raw))
            continue
        kind = {"1": "claim", "2": "claim_saw", "3": "claim_swap"}[raw]
        # Role indices follow the ruleset's role order, the order "Roles in play" says.
        options = sorted((a for a in legal if a.kind == kind), key=lambda a: (a.a, a.b))
        if kind == "claim":
            roles = [a.a for a in options]
            i = _menu([render.role(role_ids[r]) for r in roles], render.t("claim_role"), render)
            if i is not None:
                return options[i]
            continue
        positions = sorted({a.a for a in options} | {a.b for a in options if kind != "claim_saw"})
        places = [render.position(q) for q in positions]
        first = _menu(places, render.t("claim_where" if kind == "claim_saw" else "claim_first"),
                      render)
        if first is None:
            continue
        if kind == "claim_saw":
            pos = positions[first]
            roles = [a.b for a in options if a.a == pos]
            i = _menu([render.role(role_ids[r]) for r in roles], render.t("claim_role"), render)
            if i is not None:
                return next(a for a in options if a.a == pos and a.b == roles[i])
            continue
        rest = [q for q in positions if q != positions[first]]
        second = _menu([render.position(q) for q in rest], render.t("claim_second"), render)
        if second is not None:
            a, b = sorted((positions[first], rest[second]))
            return next(x for x in options if (x.a, x.b) == (a, b))


def play(
    ruleset_id: RulesetArg,
    players: Annotated[int, typer.Option("--players", "-n", help="How many players.")],
    scenario: ScenarioOpt = None,
    roles: DeckOpt = None,
    seat: Annotated[int, typer.Option(help="Your seat, from 1.")] = 1,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the shuffle and of the bots (default: from the clock, "
                     "printed so the game can be played again)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="Your name at the table (default: Player N, N your seat).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(help="Who plays the other seats: random, reasoning, reasoning:easy or "
                     "reasoning:hard."),
    ] = "reasoning",
    lang: LangOpt = "en",
) -> None:
    """Play one game against bots, seeing only what your seat may know."""
    import time

    from nightcall.bots import make_bot
    from nightcall.commands._options import check_bot
    from nightcall.engine.errors import NightcallError, Said
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import choose_deck
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import refused_in
    from nightcall.narration.script import sorted_deck
    from nightcall.narration.seat import Renderer
    from nightcall.narration.telling import explain

    if seed is None:
        seed = int(time.time()) % 1_000_000
    try:
        locale = load(lang)
        if name is not None and not name.strip():
            raise ValueError(Said("the name given to --name is empty; write one, or leave "
                                  "--name out", "play.blank_name"))
        name = name.strip() if name else None
        named = bool(name)
        # (a name, not "you": the verdict's account names every player in the third
        # person, and "Die Abstimmung tötet Du" is no German; the game's own lines
        # still say "you" to this seat)
        name = name or locale.line("play.default_name", seat=seat)
        ruleset = get_ruleset(ruleset_id)
        deck, _ = choose_deck(ruleset, players, scenario, roles)
        if not 1 <= seat <= players:
            raise ValueError(Said(f"--seat must be between 1 and {players}, not {seat}",
                                  "play.seat", high=players, seat=seat))
        names = [f"Bot {i}" for i in range(1, players + 1)]
        if name in names:
            raise ValueError(Said(f"--name {name!r} is a bot's name; pick another",
                                  "play.bot_name", name=name))
        me = seat - 1
        names[me] = name
        state = ruleset.deal(names, deck, seed)
        check_bot(bots)
        make_bot(bots, ruleset.id, 0)  # refuse an unknown bot name before the game starts
    except (NightcallError, LocaleError, ValueError) as exc:
        typer.echo(refused_in(lang, "cannot_play", "cannot start", exc), err=True)
        raise typer.Exit(EXIT_REFUSED) from None
    render = Renderer(names, me, ruleset.id, lang, deck)
    # "you are You" reads oddly: without --name the greeting gives only the seat
    typer.echo(render.t("start" if named else "start_unnamed", title=ruleset.title, n=players,
                        name=name, seat=seat))
    typer.echo(render.t("roles", roles=locale.deck(ruleset.id, sorted_deck(ruleset, deck))))
    typer.echo(render.t("seed", seed=seed))

    def ask(legal: list[ActionJSON]) -> ActionJSON:
        typer.echo(render.t("your_move"))
        return _choose(legal, render)

    try:
        outcome = play_game(ruleset, state, me, ask, typer.echo, render, seed, bots,
                            claim=lambda legal: ask_claim(legal, render, ruleset.role_ids))
    except (typer.Abort, EOFError, KeyboardInterrupt):
        typer.echo("\n" + locale.line("ui.stopped"), err=True)
        raise typer.Exit(130) from None
    except Quit:
        typer.echo(render.t("quit", seed=seed))
        raise typer.Exit(0) from None
    typer.echo("")
    result = ruleset.outcome(state)
    for line in (explain(result.reasons, lang) if result is not None else ()):
        typer.echo(line)
    typer.echo(render.t("win") if name in outcome.get("winners", []) else render.t("lose"))


def play_game(
    ruleset: Ruleset[S],
    state: S,
    me: int,
    ask: Callable[[list[ActionJSON]], ActionJSON],
    echo: Callable[[str], object],
    render: Renderer,
    seed: int = 0,
    bot_name: str = "random",
    claim: Callable[[Sequence[Action]], Action | None] | None = None,
) -> dict[str, Any]:
    """Play to the end: ``ask`` picks the human's move from the view's legal list, bots
    (``bot_name``, see :func:`nightcall.bots.make_bot`) play the other seats; ``echo``
    shows each event the human's view gains. At dawn the bots talk first, then the
    human may make claims (``claim`` returns one of the ruleset's legal claims, or None
    to stop talking), and only then does anyone vote.
    Returns the outcome as the human's view has it."""
    from nightcall.bots import make_bot
    from nightcall.engine.actions import Action
    from nightcall.engine.ruleset import Talk

    bots = {
        s: make_bot(bot_name, ruleset.id, seed * 100 + s)
        for s in range(len(render.players)) if s != me
    }
    shown = 0
    ghost = False
    talks: Talk[S] | None = ruleset if isinstance(ruleset, Talk) else None

    def show_new() -> None:
        nonlocal shown, ghost
        view = ruleset.view(state, me)
        for e in view["events"][shown:]:
            text = render.event(e)
            if text:
                echo(text)
        shown = len(view["events"])
        if view.get("ghost") and not ghost and not ruleset.is_over(state):
            ghost = True  # (Lupus: the dead still accuse, once a day)
            echo(render.t("ghost"))

    while not ruleset.is_over(state):
        waiting = ruleset.waiting_for(state)
        if not waiting:  # pragma: no cover - a ruleset that stalls would loop forever
            raise RuntimeError("the game is stuck: nobody has a legal move")
        others = [s for s in waiting if s != me]
        for s in others:
            talk = getattr(bots[s], "talk", None)
            if talk is not None:  # a talking bot says its piece once, at dawn
                for said in talk(ruleset.view(state, s)):
                    ruleset.apply(state, s, said)
        show_new()
        if me in waiting:
            if claim is not None and talks is not None:
                told: list[Action] = []  # (a claim once made is not offered again)
                options = list(talks.legal_claims(state, me))
                while options:
                    said = claim(options)
                    if said is None:
                        break
                    ruleset.apply(state, me, said)
                    told.append(said)
                    options = [a for a in talks.legal_claims(state, me) if a not in told]
                    show_new()
            show_new()
            choice = Action.from_json(ask(ruleset.view(state, me)["legal"]))
            ruleset.apply(state, me, choice)
        for s in others:
            if s in ruleset.waiting_for(state):
                action = bots[s].choose(ruleset.view(state, s))
                if action is not None:
                    ruleset.apply(state, s, action)
        show_new()
    result: dict[str, Any] = ruleset.view(state, me).get("outcome") or {}
    return result


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("play", **command_options())(play)
