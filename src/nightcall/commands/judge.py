"""``nightcall judge RULESET``: who won at a real table, from the final cards and the votes.

Give the table as JSON (``--file table.json``, or ``--file -`` for stdin) or answer
the questions one by one. The table format is in nightcall/rulesets/onuw/judge.py
(Epic adds ``tokens`` and ``artifacts``).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, NotRequired, TypedDict, TypeVar, cast

import typer

from nightcall.narration.answers import menu_number, typed

EXIT_REFUSED = 2
NOBODY = ("", "-", "nobody", "none")
T = TypeVar("T")

if TYPE_CHECKING:
    from nightcall.engine.jsontype import JSON
    from nightcall.narration.locale import Locale


def listed(loc: Locale, names: Sequence[str]) -> str:
    """"A, B and C" in the reader's language (narration.telling's list)."""
    from nightcall.narration.telling import listed as and_list

    return and_list(loc, names)


class Table(TypedDict):
    """The table as the questions build it (the format of rulesets/onuw/judge.py)."""

    players: list[str]
    cards: dict[str, str]
    votes: dict[str, str]
    tokens: NotRequired[dict[str, str]]
    artifacts: NotRequired[dict[str, str]]
    doppelganger: NotRequired[str]


class _Questions:
    """The table, question by question, each answer checked as soon as it is typed and
    asked again with the reason (issue 19: one typo must not mean retyping the table)."""

    def __init__(self, ruleset_id: str, lang: str, module: ModuleType) -> None:
        from nightcall.engine.ruleset import get_ruleset
        from nightcall.narration.deckspec import role_lookup
        from nightcall.narration.locale import load

        self.rid = ruleset_id
        self.ruleset = get_ruleset(ruleset_id)
        self.module = module
        self.loc = load(lang)
        self.lookup = role_lookup(self.ruleset)
        self.table: Table = {"players": [], "cards": {}, "votes": {}}
        # What a held copying card became ({player: role id}; "" for nothing): the
        # Mimic's copy, a Ghost Hunter's transformation (the Doppelgänger keeps its own
        # ``doppelganger`` answer). The cards are typed as they lie (docs/rulings.md 24a).
        self.became: dict[str, str] = {}

    def t(self, key: str, **values: object) -> str:
        return self.loc.line(f"judge.{key}", **values)

    def say(self, text: str) -> None:
        typer.echo(text)

    def ask(self, question: str, check: Callable[[str], T], default: str | None = None) -> T:
        """Ask until ``check(answer)`` returns a value instead of raising ValueError."""
        while True:
            raw = typed(question, default)
            try:
                return check(str(raw).strip())
            except ValueError as exc:
                self.say(f"{exc}")

    # --- the checks of one answer -----------------------------------------------
    def players(self, raw: str) -> list[str]:
        names = [p.strip() for p in raw.split(",") if p.strip()]
        rs = self.ruleset
        folded = [p.casefold() for p in names]
        twice = next((p for p in names if folded.count(p.casefold()) > 1), None)
        if twice is not None:
            raise ValueError(self.t("twice", name=twice))
        if not rs.min_players <= len(names) <= rs.max_players:
            raise ValueError(self.t("player_count", got=len(names), low=rs.min_players,
                                    high=rs.max_players))
        return names

    def role(self, raw: str) -> str:
        """A role id from a role name in any language, or a playing card."""
        from nightcall.narration.deckspec import nearest_role, normal

        role = self.lookup.get(normal(raw))
        if role is None and self.ruleset.card_map is not None:
            role = self.ruleset.card_map.role_of(raw)
        if role is None:
            known = ", ".join(self.loc.role(self.rid, r) for r in self.ruleset.role_ids)
            cards = self.t("cards_hint") if self.ruleset.card_map else ""
            near = nearest_role(self.ruleset, raw, lookup=self.lookup)
            if near is not None:
                raise ValueError(self.t("not_a_card_near", card=raw, roles=known, cards=cards,
                                        role=self.loc.role(self.rid, near)))
            raise ValueError(self.t("not_a_card", card=raw, roles=known, cards=cards))
        return role

    def card(self, player: str) -> Callable[[str], str]:
        """A card's check for ``player``: a card of the game that the box still has once
        the other players' cards are counted (``copies_allowed``, the ruleset's box). A
        copying card is typed as itself and asked later what it became, so every card
        counts as what it is (docs/rulings.md 24a)."""
        def check(raw: str) -> str:
            role = self.role(raw)
            others = {p: self.role(c) for p, c in self.table["cards"].items() if p != player}
            holders = [p for p, r in others.items() if r == role]
            limit = self.module.copies_allowed(role)
            if limit is not None and len(holders) >= limit:
                raise ValueError(self.t(
                    "too_many" if len(holders) == 1 else "too_many_held",
                    role=self.loc.role(self.rid, role), k=limit,
                    names=listed(self.loc, holders)))
            return raw
        return check

    def became_check(self, card: str, options: Sequence[str]) -> Callable[[str], str]:
        """What a held copying ``card`` became: one of ``options`` ("" allowed when it is
        one of them: a Ghost Hunter who found nobody to turn into)."""
        from nightcall.narration.deckspec import normal

        def check(raw: str) -> str:
            if not raw.strip() and "" in options:
                return ""
            role = self.lookup.get(normal(raw)) if raw.strip() else None
            if role is None or role not in options:
                raise ValueError(self.t(
                    "became_not", card=self.loc.role(self.rid, card), became=raw,
                    roles=", ".join(self.loc.role(self.rid, o) for o in options if o)))
            return role
        return check

    def in_play(self) -> set[str]:
        """The roles of the final cards and of what the copying cards became."""
        roles = {self.role(c) for c in self.table["cards"].values()}
        return roles | {r for r in self.became.values() if r}

    def asks_artifact(self) -> bool:
        """An artifact may lie on the table only with one of the cards of the ruleset's
        ``ASKS_ARTIFACT_WITH`` at the end (the Curator: docs/rulings.md)."""
        return bool(self.module.ASKS_TOKENS and self.in_play() & self.module.ASKS_ARTIFACT_WITH)

    def judged(self) -> Table:
        """The table as the ruleset's check reads it: each copying card as the role its
        holder plays."""
        cards = {p: self.became.get(p) or c for p, c in self.table["cards"].items()}
        return cast("Table", {**self.table, "cards": cards})

    def copied(self, raw: str) -> str:
        role = self.role(raw)
        if role == "doppelganger":
            raise ValueError(self.t("copy_self"))
        return raw

    def token(self, player: str) -> Callable[[str], str]:
        """A token's check for ``player``: a symbol token the box still has once the
        other players' answers are counted (TOKEN_SUPPLY, the judge's own count)."""
        from nightcall.rulesets.epic.roles import TOKEN_SUPPLY, TOKENS

        def check(raw: str) -> str:
            token = self._mark("token", TOKENS, raw) if raw.strip() else "certainty"
            if token is None:
                names = self._names_in(self.loc, "token", TOKENS)
                raise ValueError(self.t("not_a_token", token=raw, tokens=", ".join(names)))
            holders = [p for p, t in self.table.get("tokens", {}).items()
                       if t == token and p != player]
            if len(holders) >= TOKEN_SUPPLY[token]:
                raise ValueError(self.t(
                    "token_taken" if len(holders) == 1 else "token_taken_held",
                    token=self._names_in(self.loc, "token", [token])[0],
                    k=TOKEN_SUPPLY[token], names=listed(self.loc, holders)))
            return token
        return check

    def artifact(self, player: str) -> Callable[[str], str]:
        """An artifact's check for ``player``: one of the six, and none while another
        card carries one (one Curator, one artifact a night: docs/rulings.md)."""
        def check(raw: str) -> str:
            artifact = self.artifact_named(raw)
            placed = {p: a for p, a in self.table.get("artifacts", {}).items() if p != player}
            if artifact and placed:
                holder, other = next(iter(placed.items()))
                raise ValueError(self.t(
                    "one_artifact", name=holder,
                    artifact=self._names_in(self.loc, "artifact", [other])[0]))
            return artifact
        return check

    def artifact_named(self, raw: str) -> str:
        """One of the six artifacts by name or id; "" for nothing typed."""
        from nightcall.rulesets.epic.roles import ARTIFACTS

        artifact = self._mark("artifact", ARTIFACTS, raw) if raw.strip() else ""
        if artifact is None:
            names = self._names_in(self.loc, "artifact", ARTIFACTS)
            raise ValueError(self.t("not_an_artifact", artifact=raw,
                                    artifacts=", ".join(names)))
        return artifact

    def _mark(self, kind: str, ids: Sequence[str], raw: str) -> str | None:
        """The token or artifact typed: its id, or its name in the reader's language or
        in English ("Amore", "love", "Claw of the Werewolf"), or the start of one name
        alone ("Liebe" for "Liebes-Marker"); None if it is none of them."""
        from nightcall.narration.deckspec import normal
        from nightcall.narration.locale import load

        typed = normal(raw)
        words = {(i, normal(name)) for loc in (self.loc, load("en"))
                 for i, name in zip(ids, self._names_in(loc, kind, ids), strict=True)}
        exact = {i for i, word in words if typed in (i, word)}
        started = {i for i, word in words if len(typed) >= 3 and word.startswith(typed)}
        found = exact or started
        return found.pop() if len(found) == 1 else None

    def _names_in(self, loc: Locale, kind: str, ids: Sequence[str]) -> list[str]:
        """Tokens' or artifacts' names in ``loc``'s language (the account's words)."""
        return [loc.lines.get(f"account.{self.rid}.{kind}.{i}", i) for i in ids]

    def _seated(self, raw: str) -> str | None:
        """The player named ``raw`` (in any case) or sitting at seat number ``raw``."""
        players: list[str] = self.table["players"]
        target = next((p for p in players if p.casefold() == raw.casefold()), None)
        seat = menu_number(raw, 1, len(players)) if target is None else None
        return players[seat - 1] if seat is not None else target

    def _near(self, raw: str) -> str:
        """" Did you mean Bruno?" for a name typed nearly right ("Brno"), else ""."""
        import difflib

        from nightcall.engine.errors import NEAR

        players: list[str] = self.table["players"]
        folded = {p.casefold(): p for p in players}
        near = difflib.get_close_matches(raw.casefold(), list(folded), n=1, cutoff=NEAR)
        return self.t("seated_near", name=folded[near[0]]) if near else ""

    def seated(self, raw: str) -> str:
        """A player at the table, by name or seat number (an answer is needed)."""
        players: list[str] = self.table["players"]
        target = self._seated(raw)
        if target is None:
            raise ValueError(self.t("not_seated_needed", name=raw, players=", ".join(players),
                                     n=len(players)) + self._near(raw))
        return target

    def vote(self, voter: str) -> Callable[[str], str]:
        players: list[str] = self.table["players"]

        def check(raw: str) -> str:
            if raw.casefold() in NOBODY or raw.casefold() == self.t("nobody").casefold():
                return ""
            target = self._seated(raw)
            if target is None:
                raise ValueError(self.t("not_seated", name=raw, players=", ".join(players),
                                         n=len(players)) + self._near(raw))
            if target == voter:
                raise ValueError(self.t("self_vote", name=voter))
            return target
        return check

    # --- the questions --------------------------------------------------------------
    def ask_player(self, p: str) -> None:
        """Everything about one player: card, token, artifact, vote."""
        self.table["cards"][p] = self.ask(f"  {p}", self.card(p))

    def ask_all(self) -> Table:
        table = self.table
        table["players"] = players = self.ask(self.t("players"), self.players)
        # (a game without a playing-card deck takes role names only: no "e.g. K♥")
        self.say(self.t("cards" if self.ruleset.card_map is not None else "cards_roles"))
        for p in players:
            self.ask_player(p)
        self.ask_copy()
        if self.module.ASKS_TOKENS:
            # (filled answer by answer: each check counts the answers before it)
            self.say(self.t("tokens"))
            table["tokens"] = {}
            for p in players:
                table["tokens"][p] = self.ask(f"  {p}", self.token(p), default="")
            # The Curator places one artifact a night: asked once, then on whose card;
            # not asked when no card at the end could have placed one.
            table["artifacts"] = {}
            art = self.ask(self.t("artifact_which"), self.artifact_named, default="") \
                if self.asks_artifact() else ""
            if art:
                name = self._names_in(self.loc, "artifact", [art])[0]
                table["artifacts"][self.ask(self.t("artifact_whose", artifact=name),
                                            self.seated)] = art
        self.say(self.t("votes"))
        for p in players:
            self.ask_vote(p)
        return table

    def ask_copy(self) -> None:
        """What each copying card a player holds became (the ruleset's
        ``copies_at_end``): the Doppelgänger's copy, the Mimic's, a Ghost Hunter's find."""
        table = self.table
        held = {self.role(c): p for p, c in table["cards"].items()}
        self.became = {}
        for entry in self.ruleset.copies_at_end(self.ruleset.role_ids):
            card, options = entry["card"], entry["options"]
            if card in held and card != "doppelganger":
                self.became[held[card]] = self.ask(
                    self.t("became_empty" if "" in options else "became",
                           card=self.loc.role(self.rid, card), name=held[card]),
                    self.became_check(card, options), default="" if "" in options else None)
        if not self.module.ASKS_COPY:
            return
        if any(self.role(c) == "doppelganger" for c in table["cards"].values()):
            table["doppelganger"] = self.ask(self.t("doppelganger"), self.copied)
        else:
            table.pop("doppelganger", None)

    def ask_vote(self, p: str) -> None:
        target = self.ask(f"  {p} →", self.vote(p), default="")
        if target:
            self.table["votes"][p] = target
        else:
            self.table["votes"].pop(p, None)

    def fix(self, reason: str) -> bool:
        """The whole table was refused: say why and let the user change one player's
        answers instead of starting again. False when they give up."""
        self.say(self.t("refused", reason=reason))
        players: list[str] = self.table["players"]

        def who(raw: str) -> str:
            if not raw:
                return ""
            name = next((p for p in players if p.casefold() == raw.casefold()), None)
            if name is None:
                raise ValueError(self.t("not_seated", name=raw, players=", ".join(players),
                                         n=len(players)) + self._near(raw))
            return name

        name = self.ask(self.t("fix"), who, default="")
        if not name:
            return False
        self.ask_player(name)
        self.ask_copy()
        if self.module.ASKS_TOKENS:
            self.table["tokens"][name] = self.ask(self.t("token_of", name=name),
                                                  self.token(name), default="")
            art = self.ask(self.t("artifact_of", name=name), self.artifact(name),
                           default="") if self.asks_artifact() else ""
            self.table["artifacts"].pop(name, None)
            if art:
                self.table["artifacts"][name] = art
        self.ask_vote(name)
        return True


def beyond_the_box(module: ModuleType, roles: list[str], first: str) -> str | None:
    """A role of ``roles`` (the players' final cards) held more often than the box has
    it, which no card typed as another role (a Mimic as its copy) explains; ``first``
    if it is one. A copier limited to some roles (the Ghost Hunter's finds) takes its
    own first; None when the box can hold the table."""
    over: list[str] = []
    for r in dict.fromkeys(roles):
        limit = module.copies_allowed(r)
        over += [r] * (roles.count(r) - limit) if limit is not None else []
    copiers = [can for card, can in module.PLAYED_AS_ANOTHER.items() if card not in roles]
    limited = [can for can in copiers if can is not None]
    unexplained = []
    for role in over:
        mine = next((can for can in limited if role in can), None)
        if mine is None:
            unexplained.append(role)
        else:
            limited.remove(mine)
    if len(unexplained) <= sum(1 for can in copiers if can is None):
        return None
    return first if first in unexplained else unexplained[0]


def _check_box(loc: Locale, ruleset_id: str, module: ModuleType, table: object) -> None:
    """A table from a file holds no card the box lacks ("Seer" typed for two players)."""
    from nightcall.engine.ruleset import get_ruleset

    cards = table.get("cards") if isinstance(table, dict) else None
    if not isinstance(cards, dict):
        return  # (the judge says what is missing)
    rs = get_ruleset(ruleset_id)
    roles = {p: c if c in rs.role_ids else rs.card_map.role_of(c) if rs.card_map else None
             for p, c in cards.items() if isinstance(c, str)}
    known = {p: r for p, r in roles.items() if r is not None}
    too_many = beyond_the_box(module, list(known.values()), "")
    if too_many is not None:
        raise ValueError(loc.line("tablemode.too_many_box", k=module.copies_allowed(too_many),
                                  role=loc.role(ruleset_id, too_many),
                                  names=listed(loc, [p for p, r in known.items()
                                                     if r == too_many])))


def _check_names(ruleset_id: str, table: object) -> None:
    """A card of a table from a file that names no role but is near one ("Sehrin") is
    refused with the name meant; any other unknown card is left for the judge to refuse
    with its own reason."""
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import nearest_role, not_a_role, role_lookup

    if not isinstance(table, dict):
        return
    rs = get_ruleset(ruleset_id)
    lookup = role_lookup(rs)
    cards = table.get("cards")
    center = table.get("center")
    typed = [(f"card of {p}: ", c) for p, c in cards.items()] if isinstance(cards, dict) \
        else []
    typed += [(f"center card {i}: ", c) for i, c in enumerate(center, 1)] \
        if isinstance(center, list) else []
    typed += [("doppelganger: ", table.get("doppelganger"))]
    for where, card in typed:
        if not isinstance(card, str) or card in rs.role_ids \
                or (rs.card_map is not None and rs.card_map.role_of(card) is not None):
            continue
        if nearest_role(rs, card, lookup=lookup) is not None:
            raise ValueError(not_a_role(rs, card, where=where, lookup=lookup))


def judge_module(ruleset_id: str) -> ModuleType | None:
    """The module of the ruleset's end-of-game check (``Ruleset.judge``), or None."""
    from nightcall.engine.errors import DeckError
    from nightcall.engine.ruleset import get_ruleset

    try:
        path = get_ruleset(ruleset_id).judge
    except DeckError:
        return None
    return None if path is None else importlib.import_module(path)


def _judged() -> list[str]:
    from nightcall.engine.ruleset import all_rulesets

    return [rid for rid, rs in all_rulesets().items() if rs.judge is not None]


def normalize(ruleset_id: str, table: Any) -> Any:
    """Role names in any language ("Veggente", "Sight Wolf") and token or artifact names
    ("Claw of the Werewolf") as the ids the rules use; anything unknown is left as it is,
    for the check to refuse with its reason (the table comes from the wire, a file or the
    questions and goes on to the check unread, hence untyped)."""
    from nightcall.engine.errors import DeckError
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import normal, role_lookup

    if not isinstance(table, dict):
        return table
    try:
        lookup = role_lookup(get_ruleset(ruleset_id))
    except DeckError:
        return table

    def role(value: object) -> object:
        return lookup.get(normal(value), value) if isinstance(value, str) else value

    out = dict(table)
    if isinstance(out.get("cards"), dict):
        out["cards"] = {p: role(c) for p, c in out["cards"].items()}
    if isinstance(out.get("center"), list):
        out["center"] = [role(c) for c in out["center"]]
    if isinstance(out.get("doppelganger"), str):
        out["doppelganger"] = role(out["doppelganger"])
    for key in ("tokens", "artifacts"):
        if isinstance(out.get(key), dict):
            out[key] = {p: normal(v) if isinstance(v, str) else v for p, v in out[key].items()}
    return out


def _load_table(file: Path) -> JSON:
    from nightcall.engine.records import parse_json, read_json

    if str(file) == "-":
        return cast("JSON", parse_json(sys.stdin.read(), "stdin"))
    return cast("JSON", read_json(file))


def judge(
    ruleset_id: Annotated[str, typer.Argument(metavar="RULESET", help="onuw or epic.")],
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="The table as JSON; '-' for stdin.")
    ] = None,
    lang: Annotated[str, typer.Option(help="en, it or de.")] = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Say who died and who won, and walk through the who-has-won check step by step.

    Without --file it asks for the table player by player; a wrong answer is explained
    and asked again at once."""
    from rich.console import Console

    from nightcall.engine.errors import NightcallError
    from nightcall.engine.jsontype import as_object, as_strs
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import said
    from nightcall.narration.telling import explained

    err = Console(stderr=True)
    try:
        loc = load(lang)
    except LocaleError as exc:
        err.print(f"[bold red]cannot judge[/]: {exc}", highlight=False)
        raise typer.Exit(EXIT_REFUSED) from None
    module = judge_module(ruleset_id)
    if module is None:
        err.print(loc.line("refusal.judge.no_check", name=ruleset_id,
                           known=", ".join(_judged())),
                  style="bold red", highlight=False, markup=False)
        raise typer.Exit(EXIT_REFUSED)
    try:
        table: JSON | Table
        if file is not None:
            table = normalize(ruleset_id, _load_table(file))
            _check_names(ruleset_id, table)
            _check_box(loc, ruleset_id, module, table)
            outcome = module.judge(table)
        else:
            questions = _Questions(ruleset_id, lang, module)
            table = questions.ask_all()
            while True:
                try:
                    outcome = module.judge(normalize(ruleset_id, questions.judged()))
                    break
                except NightcallError as exc:
                    if not questions.fix(said(loc, exc).rstrip(".")):
                        raise typer.Exit(EXIT_REFUSED) from None
    except (NightcallError, ValueError, OSError) as exc:
        err.print(loc.line("refusal.cannot_judge", reason=said(loc, exc)),
                  style="bold red", highlight=False, markup=False)
        raise typer.Exit(EXIT_REFUSED) from None
    except (typer.Abort, EOFError, KeyboardInterrupt):
        err.print("\n" + loc.line("ui.stopped"), highlight=False)
        raise typer.Exit(130) from None
    names = as_strs(as_object(table, "the table")["players"], "the players")
    result = explained(outcome.to_json(names), lang)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    console = Console()

    def t(key: str, **values: object) -> str:
        return loc.line(f"judge.{key}", **values)

    dead = result["dead"]
    nobody = t("nobody")
    console.print(t("dead", names=", ".join(f"{d} ({loc.cause(result['causes'][d])})"
                                            for d in dead) or nobody),
                  highlight=False, markup=False)
    console.print(t("winners", names=", ".join(result["winners"]) or nobody),
                  highlight=False, markup=False)
    console.print(t("steps"), highlight=False)
    for i, line in enumerate(result["explanation"], 1):
        console.print(f"  {i}. {line}", highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("judge", **command_options())(judge)
