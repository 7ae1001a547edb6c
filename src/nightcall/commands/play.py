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

from nightcall.commands._options import DeckOpt, LangOpt, RulesetArg, ScenarioOpt

EXIT_REFUSED = 2


class Renderer:
    """Events and actions of a view as plain sentences for one seat, in ``lang``."""

    def __init__(self, players: Sequence[str], seat: int, role_name: Callable[[str], str],
                 lang: str = "en", ruleset: str = ""):
        from nightcall.narration.locale import load

        self.ruleset = ruleset  # whose words name tokens and artifacts (its account's)
        self.players = list(players)
        self.seat = seat
        self.role = role_name
        self.n = len(players)
        self.loc = load(lang)

    def t(self, key: str, **values: Any) -> str:
        return self.loc.line(f"play.{key}", **values)

    def who(self, s: int, case: str = "") -> str:
        """A seat's name, or "you" in the case the sentence needs: "" (subject), "obj"
        (accusative: "Bot 2 accusa te", "zeigt auf dich"), "dat" ("gibt dir")."""
        if s != self.seat:
            return self.players[s]
        return self.t(f"you_{case}" if case else "you")

    def card_of(self, s: int) -> str:
        return self.t("card_mine") if s == self.seat else self.t("card_of", name=self.players[s])

    def token_of(self, s: int) -> str:
        return self.t("token_mine") if s == self.seat else self.t("token_of", name=self.players[s])

    def seats(self, seats: Sequence[int]) -> str:
        return ", ".join(self.who(s) for s in seats) or self.t("nobody")

    def place(self, d: dict[str, Any]) -> str:
        if "seat" in d:
            return self.card_of(d["seat"])
        return self.t("center", n=d["center"] + 1)

    def position(self, p: int) -> str:
        """A claim's position: a seat 0..n-1, or n+i for center card i."""
        return self.card_of(p) if p < self.n else self.t("center", n=p - self.n + 1)

    def token(self, token: str) -> str:
        return self._word("token", token)

    def artifact(self, artifact: str) -> str:
        return self._word("artifact", artifact)

    def _word(self, what: str, word: str) -> str:
        """A token's or artifact's name, as the ruleset's account says it (one place for
        those words); the id made readable for a renderer told no ruleset."""
        key = f"account.{self.ruleset}.{what}.{word}"
        return self.loc.line(key) if self.ruleset else word.replace("_", " ")

    def cause(self, cause: str) -> str:
        key = f"judge.cause.{cause}"
        return self.loc.line(key) if key in self.loc.lines else cause.replace("_", " ")

    def mine(self, s: int, key: str, **values: Any) -> str:
        """The sentence about seat ``s``: its second-person form when it is the human."""
        if s == self.seat:
            return self.t(f"{key}_you", **values)
        return self.t(key, name=self.players[s], **values)

    def event(self, e: dict[str, Any]) -> str | None:
        """One event as a sentence (None for bookkeeping events). A kind with no sentence
        here (another ruleset's) stays readable as ``kind: key=value``; a known kind of
        the wrong shape is a bug and raises (tests/engine/test_event_sentences.py renders
        every kind of every ruleset, in every language)."""
        k = e.get("kind")
        n = self.n
        t = self.t
        if k == "deal":
            return t("deal", role=self.role(e["card"])) if "seat" in e else None
        if k == "night":
            return t("night", n=e["night"])
        if k == "call":
            return t("call", role=self.role(e.get("role") or e["call"]))
        if k == "wolves":
            seats = e["seats"]
            dream = e.get("dream_wolves")
            text = (t("wolf_alone") if seats == [self.seat]
                    else t("wolves", names=self.seats(seats)))
            return text + (t("dream", names=self.seats(dream)) if dream else "")
        if k in GROUPS:
            return t(f"group.{k}", names=self.seats(e["seats"]))
        if k == "became":
            return t("became", role=self.role(e["role"]))
        if k == "saw":
            return t("saw", where=self.place(e), role=self.role(e["card"]))
        if k == "saw_token":
            return t("saw_token", where=self.token_of(e["seat"]), token=self.token(e["token"]))
        if k == "token":
            where = self.token_of(e["seat"])
            return t("token", where=where[:1].upper() + where[1:],
                     token=self.token(e["token"]))
        if k == "gave_token" and "seats" in e:  # Venus: the two Love tokens
            return t("gave_tokens", names=self.seats(e["seats"]), token=self.token(e["token"]))
        if k == "gave_token":
            return self.mine(e["seat"], "gave_token", token=self.token(e["token"]))
        if k == "bitten":
            return t("bitten", name=self.who(e["seat"], "dat"))
        if k == "swapped":
            parts = [self.card_of(s) for s in e.get("seats", [])]
            if "seat" in e:
                parts.append(self.card_of(e["seat"]))
            if "center" in e:
                parts.append(t("center", n=e["center"] + 1))
            places = parts[0] if len(parts) == 1 else t(
                "and", first=", ".join(parts[:-1]), second=parts[-1])
            return t("swapped", places=places)
        if k == "swapped_tokens":
            a, b = e["seats"]
            return t("swapped_tokens", a=self.who(a, "dat"), b=self.who(b, "dat"))
        if k == "artifact":
            text = t("artifact", artifact=self.artifact(e["artifact"]))
            return f"{text} {e.get('instruction', '')}".strip()
        if k == "placed_artifact":
            return t("placed_artifact", where=self.card_of(e["seat"]))
        if k == "tapped" and "by" not in e:  # the Thing's own tap
            return t("tapped_you", name=self.players[e["seat"]])
        if k == "tapped":
            return t("tapped", name=self.who(e["by"]))
        if k == "concealed":
            return t("concealed", where=self.card_of(e["seat"]))
        if k == "mark":
            return t("mark", name=self.players[e["seat"]])
        if k == "revealed":
            shown = ", ".join(t("pair", name=self.who(int(s)), role=self.role(c))
                              for s, c in e["cards"].items())
            return t("revealed", cards=shown)
        if k == "wolf_pick":
            return self.mine(e["seat"], "wolf_pick", target=self.who(e["target"], "obj"))
        if k == "victim":
            return t("victim", name=self.who(e["seat"]))
        if k == "protect":
            return t("protect", name=self.who(e["seat"]))
        if k == "visit":
            return (t("stay_home") if e["seat"] is None
                    else t("visit", name=self.players[e["seat"]]))
        if k == "seen":
            return t("seen_wolf" if e["werewolf"] else "seen_human", name=self.who(e["seat"]))
        if k == "medium":
            return t("medium_wolf" if e["werewolf"] else "medium_human",
                     name=self.who(e["seat"]))
        if k == "imitate":
            becomes = e.get("becomes")
            return t("imitate", role=self.role(becomes)) if becomes else t("imitate_nothing")
        if k == "dawn":
            if "dead" not in e:
                return t("morning")
            dead = e["dead"]
            return t("dawn_dead", names=self.seats(dead)) if dead else t("dawn_none")
        if k == "accusation":
            owl = e.get("owl")
            return (t("accusation", day=e["day"], name=self.who(e["order"][0]))
                    + (t("owl", name=self.who(owl)) if owl is not None else ""))
        if k == "accuse":
            target = e["target"]
            return self.mine(e["seat"], "accuse",
                             target=self.who(target, "obj") if target is not None
                             else t("nobody"))
        if k == "suspects":
            return t("suspects", names=self.seats(e["seats"]))
        if k == "executed":
            return self.mine(e["seat"], "executed")
        if k == "votes":
            votes = e["votes"]
            pairs = votes if votes and isinstance(votes[0], list) else list(enumerate(votes))
            pointed = [t("vote_pair_you" if s == self.seat else "vote_pair",
                         name=self.players[s], target=self.who(v, "obj"))
                       for s, v in pairs if v is not None]
            return t("votes", votes=", ".join(pointed) or t("nobody_points"))
        if k == "died":
            deaths = [t("death", name=self.who(s), cause=self.cause(cause))
                      for s, cause in e["deaths"]]
            return t("died", deaths=", ".join(deaths) or t("nobody"))
        if k == "reveal":
            cards = e.get("roles") or e["cards"]
            held = ", ".join(t("pair", name=self.who(s), role=self.role(cards[s]))
                             for s in range(n))
            text = t("reveal", cards=held[:1].upper() + held[1:])
            center = e["cards"][n:n + 3]
            if center:
                text += t("reveal_center", cards=", ".join(self.role(c) for c in center))
            if e.get("copy"):
                text += t("reveal_copy", role=self.role(e["copy"]))
            return text
        if k == "claim":
            s = e["seat"]
            if "swapped" in e:
                a, b = e["swapped"]
                return self.mine(s, "claim_swapped", a=self.position(a), b=self.position(b))
            if "saw" in e:
                return self.mine(s, "claim_saw", where=self.position(e["saw"]),
                                 role=self.role(e["role"]))
            return self.mine(s, "claim_am", role=self.role(e["role"]))
        if k in ("over", "causes", "last"):
            return None
        extra = ", ".join(f"{key}={value}" for key, value in e.items() if key != "kind")
        return f"{k}: {extra}" if extra else str(k)

    def action(self, a: dict[str, Any]) -> str:
        kind = a["kind"]
        x, y = a.get("a", -1), a.get("b", -1)
        p = self.players

        def act(key: str, **values: Any) -> str:
            return self.loc.line(f"play.act.{key}", **values)

        if kind in ON_PLAYERS and 0 <= x < len(p) and (y == -1 or 0 <= y < len(p)):
            return act(kind, x=p[x], y=p[y] if y >= 0 else "")
        if kind == "look_center":
            return (act("look_center_two", x=x + 1, y=y + 1) if y >= 0
                    else act("look_center", x=x + 1))
        if kind in ("take_center", "copy_center"):
            return act(kind, x=x + 1)
        if kind in ON_NOBODY:
            return act(kind)
        args = " ".join(str(v) for v in (x, y) if v != -1)
        return f"{kind} {args}".strip()


# Events that only list who is in a group (play.group.* says it).
GROUPS = ("thumbs", "masons", "freemasons", "vampires", "lovers")
# Actions on one or two players (a, b are seats), across the three rulesets
# (play.act.* says each).
ON_PLAYERS = frozenset({
    "vote", "copy", "look", "swap", "swap_two", "kill", "see", "protect", "visit", "accuse",
    "execute", "mark", "imitate", "tap", "swap_tokens", "artifact", "token", "token_two",
    "look_token", "reveal", "swap_center",
})
ON_NOBODY = frozenset({"abstain", "skip", "stay_home", "no_accusation"})


def _choose(legal: list[dict[str, Any]], render: Renderer) -> dict[str, Any]:
    for i, a in enumerate(legal, 1):
        typer.echo(f"  {i:>2}. {render.action(a)}")
    while True:
        raw = typer.prompt(render.t("choice", n=len(legal))).strip().lower()
        if raw in ("q", "quit"):
            raise typer.Exit(0)
        if raw.isdigit() and 1 <= int(raw) <= len(legal):
            return legal[int(raw) - 1]
        typer.echo(render.t("not_on_menu", answer=raw, n=len(legal)))


def _menu(options: list[str], question: str, render: Renderer) -> int | None:
    """A numbered menu with a way back; the index chosen, or None for back."""
    for i, label in enumerate(options, 1):
        typer.echo(f"  {i:>2}. {label[:1].upper()}{label[1:]}")
    typer.echo(f"   0. {render.t('back')}")
    while True:
        raw = typer.prompt(question).strip()
        if raw.isdigit() and 0 <= int(raw) <= len(options):
            return int(raw) - 1 if raw != "0" else None
        typer.echo(render.t("not_on_menu", answer=raw, n=len(options)))


def ask_claim(legal: Sequence[Any], render: Renderer) -> Any:
    """What the human says before voting (One Night): their role, a card they saw or a
    swap they made, built from the ruleset's legal claims; None to vote now."""
    from nightcall.rulesets.onuw.roles import ROLE_IDS

    while True:
        raw = typer.prompt(render.t("talk"), default="", show_default=False).strip()
        if not raw:
            return None
        if raw not in ("1", "2", "3"):
            typer.echo(render.t("talk_wrong", answer=raw))
            continue
        kind = {"1": "claim", "2": "claim_saw", "3": "claim_swap"}[raw]
        options = [a for a in legal if a.kind == kind]
        if kind == "claim":
            roles = [a.a for a in options]
            i = _menu([render.role(ROLE_IDS[r]) for r in roles], render.t("claim_role"), render)
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
            i = _menu([render.role(ROLE_IDS[r]) for r in roles], render.t("claim_role"), render)
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
        str | None, typer.Option(help="Your name at the table (default: You, Tu, Du).")
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

    if seed is None:
        seed = int(time.time()) % 1_000_000
    try:
        locale = load(lang)
        name = name or locale.line("play.default_name")
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
    render = Renderer(names, me, lambda r: locale.role(ruleset.id, r), lang, ruleset.id)
    typer.echo(render.t("start", title=ruleset.title, n=players, name=name, seat=seat))
    typer.echo(render.t("roles", roles=", ".join(render.role(r)
                                                 for r in sorted_deck(ruleset, deck))))
    typer.echo(render.t("seed", seed=seed))

    def ask(legal: list[dict[str, Any]]) -> dict[str, Any]:
        typer.echo(render.t("your_move"))
        return _choose(legal, render)

    try:
        outcome = play_game(ruleset, state, me, ask, typer.echo, render, seed, bots,
                            claim=lambda legal: ask_claim(legal, render))
    except (typer.Abort, EOFError, KeyboardInterrupt):
        typer.echo("\n" + locale.line("ui.stopped"), err=True)
        raise typer.Exit(130) from None
    typer.echo("")
    result = ruleset.outcome(state)
    for line in (result.explain(lang) if result is not None else ()):
        typer.echo(line)
    typer.echo(render.t("win") if name in outcome.get("winners", []) else render.t("lose"))


def play_game(
    ruleset: Any,
    state: Any,
    me: int,
    ask: Callable[[list[dict[str, Any]]], dict[str, Any]],
    echo: Callable[[str], Any],
    render: Renderer,
    seed: int = 0,
    bot_name: str = "random",
    claim: Callable[[Sequence[Any]], Any] | None = None,
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
    talks: Talk[Any] | None = ruleset if isinstance(ruleset, Talk) else None

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
        others = [s for s in waiting if s != me]
        for s in others:
            talk = getattr(bots[s], "talk", None)
            if talk is not None:  # a talking bot says its piece once, at dawn
                for said in talk(ruleset.view(state, s)):
                    ruleset.apply(state, s, said)
        show_new()
        if me in waiting:
            if claim is not None and talks is not None:
                options = list(talks.legal_claims(state, me))
                while options:
                    said = claim(options)
                    if said is None:
                        break
                    ruleset.apply(state, me, said)
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
