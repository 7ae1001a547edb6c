"""The browser's table mode (``/table``): what the page asks the server, as plain data.

The page only shows, speaks and counts down. Everything that is a rule is here, on
top of the same code as the terminal commands: the deck and its 52-card pulls
(:mod:`.deckspec`), the night script (:mod:`.script`), the one who-has-won check of
each ruleset (``rulesets/*/judge.py``) and the Lupus Master (:mod:`.master`).

Each function takes a JSON request and returns a JSON answer, or raises
:class:`TableModeError` with a sentence in the request's language. The Lupus Master
is stateless here: the page sends the deal and every answer given so far, and the
game is replayed from them (the rules are deterministic), so a reload, a locked
phone or a second device loses nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console

from nightcall.engine.actions import Action
from nightcall.engine.errors import NightcallError
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import MasterChoice, Ruleset, all_rulesets, get_ruleset
from nightcall.narration.answers import menu_number
from nightcall.narration.deckspec import (
    cards_to_pull,
    choose_deck_cards,
    nearest_role,
    normal,
    role_lookup,
)
from nightcall.narration.locale import LANGUAGES, Locale, load
from nightcall.narration.refusals import said
from nightcall.narration.script import build_script
from nightcall.narration.telling import explained
from nightcall.narration.timing import timing_for

MAX_ANSWERS = 2000  # a Lupus game of 23 players asks far fewer questions than this


class TableModeError(ValueError):
    """A request the table mode refuses; the message says what is wrong."""


def _lang(request: Mapping[str, Any]) -> str:
    lang = request.get("lang", "en")
    if lang not in LANGUAGES:
        raise TableModeError(f"unknown language {lang!r}: use en, it or de")
    return str(lang)


def _game(request: Mapping[str, Any], loc: Locale, master: bool = False) -> Ruleset[Any]:
    """The request's ruleset: one with a narration script (with ``master``, one run by
    a game master, MasterChoice)."""
    games = {rid: rs for rid, rs in all_rulesets().items() if rs.narration_script is not None
             and (not master or isinstance(rs, MasterChoice))}
    rid = request.get("ruleset")
    if not isinstance(rid, str) or rid not in games:
        raise TableModeError(loc.line("tablemode.no_game", games=", ".join(games)))
    return games[rid]


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TableModeError(f"{what} must be a whole number from {low} to {high}")
    return value


def setup(request: Mapping[str, Any]) -> dict[str, Any]:
    """The deck for a table, its 52-card pulls, the night order, the rulebook's
    warnings and the whole narrated script (night, then the day)."""
    if not isinstance(request, Mapping):
        raise TableModeError("the request is a JSON object")
    lang = _lang(request)
    loc = load(lang)
    ruleset = _game(request, loc)
    players = _int(request.get("players"), "players", ruleset.min_players,
                   ruleset.max_players)
    scenario = request.get("scenario") or None
    roles = request.get("roles") or None
    if scenario is not None and not isinstance(scenario, str):
        raise TableModeError("scenario must be a scenario id")
    if roles is not None and (not isinstance(roles, list)
                              or not all(isinstance(r, str) for r in roles)):
        raise TableModeError("roles must be a list of role ids or playing cards")
    night = _int(request.get("night", 1), "night", 1, 30)
    if ruleset.nights is not None and night > ruleset.nights:
        raise TableModeError(loc.line("tablemode.one_night", title=ruleset.title))
    discussion = request.get("discussion")
    if discussion is not None and (isinstance(discussion, bool)
                                   or not isinstance(discussion, int | float)
                                   or not 0 <= discussion <= 3600):
        raise TableModeError("discussion is a number of seconds from 0 to 3600")
    speed = request.get("speed", "normal")
    try:
        deck, given, warnings = choose_deck_cards(ruleset, players, scenario, roles)
        if not ruleset.deck_order_kept:
            deck, given = _sorted_with_cards(ruleset, deck, given)
        pulls = cards_to_pull(ruleset, deck, given)
        timing = timing_for(ruleset.id, str(speed), discussion)
        steps = build_script(ruleset.id, deck, night=night, lang=lang, timing=timing)
        calls = ruleset.night_calls(list(deck), night)
        later = ruleset.night_calls(list(deck), 2) if ruleset.nights is None else []
    except (NightcallError, ValueError) as exc:
        raise TableModeError(said(loc, exc)) from None
    tokens, artifacts = ruleset.marks_at_end(deck)
    return {
        "copies": ruleset.copies_at_end(deck),  # the end asks what each copier became
        "ruleset": ruleset.id,
        "title": ruleset.title,
        # A game master runs it night by night (the page's Master, :func:`master`).
        "master": isinstance(ruleset, MasterChoice),
        "tokens": tokens,  # the marks to ask at the end, with the box's count (Epic)
        "artifacts": artifacts,  # the artifacts one may lie on (Epic with the Curator)
        "players": players,
        "deck": deck,
        "role_names": {r: loc.role(ruleset.id, r) for r in ruleset.role_ids},
        "cards": pulls,  # None: Epic needs its own box
        "calls": [{"id": c, "name": loc.role(ruleset.id, c)} for c in calls],
        "later_calls": [{"id": c, "name": loc.role(ruleset.id, c)} for c in later],
        "warnings": [said(loc, w) for w in warnings],
        "steps": [s.to_json() for s in steps],
        "timing": {"action": timing.action, "gap": timing.gap,
                   "discussion": timing.discussion, "count": timing.count},
    }


def _sorted_with_cards(ruleset: Any, deck: Sequence[str], given: Sequence[str | None]
                       ) -> tuple[list[str], list[str | None]]:
    """The deck in the ruleset's role order, each typed playing card kept with its role."""
    order = {r: i for i, r in enumerate(ruleset.role_ids)}
    pairs = sorted(zip(deck, given, strict=True), key=lambda p: order.get(p[0], len(order)))
    return [r for r, _ in pairs], [c for _, c in pairs]


# --- the judge ---------------------------------------------------------------------


def judge(request: Mapping[str, Any]) -> dict[str, Any]:
    """Who died and who won, and why, in the request's language: the same check as
    ``nightcall judge`` and the phones' end of game. A table that cannot happen (more
    copies of a card than the box or the deck has, hands and center that are not the
    deck) is refused with the reason.

    Beyond the judge's own table format the page may send ``center`` (the cards left
    in the middle) and ``copies`` ({card: what its holder became}: the Doppelgänger's
    and the Mimic's copy, a Ghost Hunter's transformation)."""
    from nightcall.commands.judge import judge_module, normalize

    if not isinstance(request, Mapping):
        raise TableModeError("the request is a JSON object")
    lang = _lang(request)
    loc = load(lang)
    rid = request.get("ruleset")
    module = judge_module(rid) if isinstance(rid, str) else None
    if module is None:
        raise TableModeError(loc.line("tablemode.no_judge"))
    table = request.get("table")
    if not isinstance(table, Mapping):
        raise TableModeError(loc.line("tablemode.no_table"))
    ruleset = get_ruleset(str(rid))
    table = normalize(str(rid), _played_cards(ruleset, dict(table)))
    deck = request.get("deck")
    deck = list(deck) if isinstance(deck, list) and all(isinstance(r, str) for r in deck) \
        else None
    _check_counts(loc, module, str(rid), table, deck)
    table = _apply_copies(loc, str(rid), table, deck)
    try:
        outcome = module.judge(table)
    except NightcallError as exc:
        raise TableModeError(loc.line("judge.refused", reason=said(loc, exc).rstrip("."))) \
            from None
    names = list(table["players"])
    result = explained(outcome.to_json(names), lang)
    result["causes"] = {p: loc.cause(c) for p, c in result["causes"].items()}
    return result


def _played_cards(ruleset: Any, table: dict[str, Any]) -> dict[str, Any]:
    """Playing cards ("K♥") in the hands and the center as the roles they stand for."""
    if ruleset.card_map is None:
        return table

    def role(value: Any) -> Any:
        return (ruleset.card_map.role_of(value) or value) if isinstance(value, str) else value

    if isinstance(table.get("cards"), Mapping):
        table["cards"] = {p: role(c) for p, c in table["cards"].items()}
    if isinstance(table.get("center"), list):
        table["center"] = [role(c) for c in table["center"]]
    return table


def _check_counts(loc: Locale, module: Any, rid: str, table: Mapping[str, Any],
                  deck: list[str] | None) -> None:
    """No more of a card in the hands and the center than the box and tonight's deck
    hold; the center has the deck's cards that nobody holds."""
    cards = table.get("cards")
    if not isinstance(cards, Mapping):
        return  # (the judge says what is missing)
    center = table.get("center")
    center = [c for c in center if isinstance(c, str)] if isinstance(center, list) else []
    players = table.get("players")
    if deck is not None and center and isinstance(players, list) \
            and len(center) != len(deck) - len(players):
        raise TableModeError(loc.line("tablemode.center_count", k=len(deck) - len(players),
                                      got=len(center)))
    where: dict[str, list[str]] = {}
    for p, c in cards.items():
        if isinstance(c, str):
            where.setdefault(c, []).append(str(p))
    for i, c in enumerate(center, 1):
        where.setdefault(c, []).append(loc.line("tablemode.center_n", n=i))
    in_deck = Counter(deck) if deck is not None else None
    for role, places in where.items():
        name = loc.role(rid, role)
        limit = module.copies_allowed(role)
        if limit is not None and len(places) > limit:
            raise TableModeError(loc.line("tablemode.too_many_box", k=limit, role=name,
                                          names=", ".join(places)))
        if in_deck is not None and len(places) > in_deck[role]:
            raise TableModeError(loc.line("tablemode.too_many_deck", k=in_deck[role],
                                          role=name, names=", ".join(places)))


def _apply_copies(loc: Locale, rid: str, table: dict[str, Any],
                  deck: list[str] | None) -> dict[str, Any]:
    """The page's ``copies`` as the judge reads them: One Night's ``doppelganger``;
    in Epic the Mimic's and a transformed Ghost Hunter's holder as the role they play."""
    copies = table.pop("copies", None)
    if copies is None:
        return table
    if not isinstance(copies, Mapping):
        raise TableModeError(loc.line("tablemode.bad_copies"))
    ruleset = get_ruleset(rid)
    lookup = role_lookup(ruleset)
    wanted = {c["card"]: c["options"]
              for c in ruleset.copies_at_end(deck or list(lookup.values()))}
    cards = table.get("cards")
    held = {c: p for p, c in cards.items()} if isinstance(cards, Mapping) else {}
    for card, raw in copies.items():
        became = lookup.get(normal(raw), raw) if isinstance(raw, str) else raw
        options = wanted.get(card)
        if options is None or not isinstance(became, str) or became not in options:
            near = nearest_role(ruleset, raw, among=options, lookup=lookup) \
                if options and isinstance(raw, str) and became not in lookup.values() \
                else None
            said_as = {"role": loc.role(rid, near)} if near else {}
            raise TableModeError(loc.line(
                "tablemode.bad_copy_near" if near else "tablemode.bad_copy",
                card=loc.role(rid, str(card)),
                became=loc.role(rid, became) if became in lookup.values() else str(raw),
                options=", ".join(loc.role(rid, o) for o in (options or []) if o), **said_as))
        if card == "doppelganger":
            table["doppelganger"] = became
        elif card in held and became:
            table["cards"] = {**table["cards"], held[card]: became}
    # A Mimic held by a player must say what it copied (the Doppelgänger's copy is
    # optional in the judge, but a page that asks it gets it asked).
    for card in ("mimic", "doppelganger"):
        if card in wanted and card in held and card not in copies:
            raise TableModeError(loc.line("tablemode.copy_missing", card=loc.role(rid, card),
                                          name=held[card]))
    return table


# --- the game master's assistant (Lupus in Tabula) -----------------------------------


class _NeedAnswer(Exception):
    """The Master's loop waits for an answer the page has not sent yet."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(question.get("text", ""))
        self.question = question


class _Refused(Exception):
    """An answer the Master's loop did not accept."""


def _web_master() -> Any:
    from nightcall.narration.master import Master

    class WebMaster(Master):
        """The terminal Master's loop, recording what it would say, note and ask
        instead of printing it: the page plays the items in order."""

        def __init__(self, *args: Any, answers: Sequence[str], **kw: Any) -> None:
            super().__init__(*args, **kw)
            self.items: list[dict[str, Any]] = []
            self.answers = list(answers)
            self.used = 0
            self.menu: list[dict[str, Any]] = []
            self.ask = self.answer  # (the terminal's prompt, replaced by the page's answers)

        def say(self, key: str, **values: Any) -> None:
            self.items.append({"kind": "say", "key": key,
                               "text": self.locale.line(key, **values)})

        def note(self, text: str) -> None:
            self.items.append({"kind": "note", "text": text})

        def tell(self, text: str) -> None:
            if not self.menu:
                self.items.append({"kind": "tell", "text": text.strip()})

        def pause(self, seconds: float, label: str) -> None:
            if seconds > 0:
                kind = "discussion" if label == self.t("ui.discussion") else "pause"
                self.items.append({"kind": kind, "seconds": round(seconds, 2),
                                   "label": label})

        def answer(self, question: str) -> str:
            if self.used < len(self.answers):
                self.used += 1
                return self.answers[self.used - 1]
            menu, self.menu = self.menu, []
            kind = "defense" if question == self.t("master.defense_done") else \
                "choice" if menu else "go_on"
            raise _NeedAnswer({"kind": kind, "text": question, "options": menu})

        def pick(self, question: str, actions: Sequence[Action]) -> Action:
            nobody = self.t("master.nobody")
            self.menu = [{"answer": str(i), "seat": a.a if a.a >= 0 else None,
                          "label": (f"{a.a + 1}. {self.names[a.a]}" if a.a >= 0 else nobody)}
                         for i, a in enumerate(actions, 1)]
            raw = self.ask(question)
            self.menu = []
            n = menu_number(raw, 1, len(actions))
            if n is not None:
                return actions[n - 1]
            raise _Refused(self.t("master.not_a_choice", answer=raw, n=len(actions)))

        def choose_last(self, dead: list[int], default: int) -> int:
            if self.ruleset.is_over(self.state):
                return default
            self.menu = [{"answer": str(i), "seat": s, "label": f"{s + 1}. {self.names[s]}"}
                         for i, s in enumerate(dead, 1)]
            raw = self.ask(self.t("master.last_ask", name=self.names[default]))
            self.menu = []
            if raw not in ("1", "2"):
                raise _Refused(self.t("master.not_a_choice", answer=raw, n=2))
            chosen = dead[int(raw) - 1]
            if chosen != default:
                self.play(-1, Action("last", chosen))
            return chosen

    return WebMaster


def _master_deal(ruleset: Any, loc: Locale, names: Any, cards: Any,
                deck: Sequence[str]) -> tuple[list[str], list[str]]:
    """The seating and the card dealt to each seat, checked against the deck."""
    from nightcall.narration.master import card_unknown

    n = len(deck)
    if not isinstance(names, list) or not all(isinstance(p, str) and p.strip() for p in names):
        raise TableModeError(loc.line("master.players_count", n=n, got=0))
    names = [p.strip() for p in names]
    if len(names) != n:
        raise TableModeError(loc.line("master.players_count", n=n, got=len(names)))
    folded = [p.casefold() for p in names]
    twice = next((p for p in names if folded.count(p.casefold()) > 1), None)
    if twice is not None:
        raise TableModeError(loc.line("master.players_twice", n=n, name=twice))
    if any(len(p) > 40 for p in names):
        raise TableModeError("a name is at most 40 characters")
    if not isinstance(cards, list) or len(cards) != n:
        raise TableModeError(loc.line("tablemode.cards_count", n=n))
    lookup = role_lookup(ruleset)
    want = Counter(deck)
    in_deck = ", ".join(f"{k} × {loc.role(ruleset.id, r)}" for r, k in want.items())
    dealt: list[str] = []
    for name, raw in zip(names, cards, strict=True):
        role = lookup.get(normal(raw)) if isinstance(raw, str) else None
        if role is None and isinstance(raw, str) and ruleset.card_map is not None:
            role = ruleset.card_map.role_of(raw)
        if role is None:
            raise TableModeError(card_unknown(loc, ruleset, str(raw), in_deck, want, lookup)
                                 if isinstance(raw, str) else
                                 loc.line("master.card_unknown", card=raw, deck=in_deck))
        if role not in want:
            raise TableModeError(loc.line("master.card_not_in_deck",
                                          role=loc.role(ruleset.id, role), deck=in_deck))
        holders = [names[i] for i, c in enumerate(dealt) if c == role]
        if len(holders) >= want[role]:
            raise TableModeError(loc.line("master.card_used_up", role=loc.role(ruleset.id, role),
                                          k=want[role], names=", ".join(holders)) +
                                 f" ({name})")
        dealt.append(role)
    return names, dealt


def _step_label(ruleset: Ruleset[Any], state: Any, loc: Locale) -> str:
    """The open step for the Master's screen: "Night 2: Seer", "Day 1: accusations"
    ("" before the first call and at the end)."""
    from nightcall.engine.clock import DUSK

    step = ruleset.open_call(state)
    view = ruleset.view(state, MASTER)
    if step is None or step == DUSK:
        return ""
    if view["phase"] == "night":
        return loc.line("master.step_night", n=view["night"], role=loc.role(ruleset.id, step))
    key = f"master.step_{step}"
    return loc.line(key, n=view["day"]) if key in loc.lines else step


def master(request: Mapping[str, Any]) -> dict[str, Any]:
    """The Master's game so far, replayed from the deal and the answers: every item to
    say, show or time in order, then the question waiting (or the end).

    The game runs on the engine's clock, as ``narrate --master`` does (ruling 30a): each
    call stays open until the Master's "go on" ends it (``END_CALL``), so the answer
    names which step is open (``open``: the call, the day's stage, None at the end)."""
    from nightcall.narration.master import MASTER_CLOCK, SavedGame

    if not isinstance(request, Mapping):
        raise TableModeError("the request is a JSON object")
    lang = _lang(request)
    loc = load(lang)
    ruleset = _game(request, loc, master=True)
    deck = request.get("deck")
    if not isinstance(deck, list) or not all(isinstance(r, str) for r in deck):
        raise TableModeError(loc.line("tablemode.no_deck"))
    try:
        ruleset.validate_deck(len(deck), deck)
    except NightcallError as exc:
        raise TableModeError(said(loc, exc)) from None
    names, cards = _master_deal(ruleset, loc, request.get("names"), request.get("cards"), deck)
    answers = request.get("answers", [])
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers) \
            or len(answers) > MAX_ANSWERS:
        raise TableModeError(f"answers must be a list of at most {MAX_ANSWERS} strings")
    discussion = request.get("discussion")
    if discussion is not None and (isinstance(discussion, bool)
                                   or not isinstance(discussion, int | float)
                                   or not 0 <= discussion <= 3600):
        raise TableModeError("discussion is a number of seconds from 0 to 3600")
    timing = timing_for(ruleset.id, str(request.get("speed", "normal")), discussion)
    saved = SavedGame(names, cards, lang, clock=MASTER_CLOCK)
    state = ruleset.new_game(names, cards, clock=saved.clock)
    master = _web_master()(Console(file=None, quiet=True), ruleset, state, loc, timing,
                           answers=answers, saved=saved)
    waiting: dict[str, Any] | None = None
    try:
        master.run()
    except _NeedAnswer as need:
        waiting = need.question
    except _Refused as exc:
        raise TableModeError(str(exc)) from None
    except NightcallError as exc:
        raise TableModeError(said(loc, exc)) from None
    if master.used < len(answers):
        raise TableModeError(loc.line("tablemode.too_many_answers", n=len(answers),
                                      used=master.used))
    return {"names": names, "items": master.items, "waiting": waiting,
            "over": waiting is None, "answers": master.used,
            "open": ruleset.open_call(state),  # the step the engine has open (public)
            "step": _step_label(ruleset, state, loc),  # the same, in words
            # The game as a record with the Master's moves (``narrate --resume`` reads it).
            "record": saved.document(ruleset, state)}
