"""The game master's job, night after night, for a real table (Lupus in Tabula).

It runs any ruleset with a game master (the :class:`MasterChoice` capability): the
human Master enters what the players pointed at; the ruleset keeps the dead, the
accusation order, the counts and the end check. The lines it speaks are the ruleset's
own: its declared script's opening, calls, closing and day (``narration_script``),
and the locale keys ``<id>.dawn.none|one|two``, ``<id>.day.owl|accuse|suspects|
defense|execute|executed`` and ``<id>.end.<winning team>`` (docs/architecture.md). This module only
listens to the Master's view of the game and speaks: it reads the events in
order, says each call's lines, and asks for the choices when the ruleset waits.
Everything on the Master's screen (questions, notes, the final explanation) is in
the narrator's language.

Fair timing: every call gets the same pause, counted down before the Master is
asked anything, whether its holder is alive (and then points) or dead (and then
nobody moves); the Master presses Enter in both cases, so even the typing sounds
the same (docs/rulings.md (The narrator), "Lupus: the Master's loop").

Nothing typed is lost: every question is asked again at once, with the reason,
until the answer is one the rules allow; and after every answer the game is saved
(:class:`SavedGame`) as its record plus the answers of the night or day still in
progress, so ``narrate lupus --resume`` goes on exactly where a closed terminal
left it (the rules are deterministic: the same answers give the same game).

The engine keeps the clock (engine/clock.py), as the server's timer does: the game
is dealt with a clock, every call (the holder's, or nobody's when the card is in
nobody's hands alive) stays open until the Master ends it, and the loop ends it with
``END_CALL`` from ``CLOCK_SEAT`` once the Master has answered and pressed Enter. The
Master answers for every seat before a call ends, so no default move is ever made.
"""

from __future__ import annotations

import json
import os
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from nightcall.engine.actions import Action
from nightcall.engine.clock import CLOCK_SEAT, END_CALL
from nightcall.engine.errors import IllegalAction, NightcallError, Said
from nightcall.engine.events import MASTER
from nightcall.engine.records import read_json
from nightcall.engine.ruleset import MasterChoice, PackVote, Ruleset, S
from nightcall.narration import lines as L
from nightcall.narration.answers import menu_choice, typed
from nightcall.narration.deckspec import nearest_role, normal, role_lookup
from nightcall.narration.locale import Locale
from nightcall.narration.render import Renderer
from nightcall.narration.runner import PauseKey, Speaker, countdown
from nightcall.narration.script import duration_text
from nightcall.narration.telling import explain, listed
from nightcall.narration.timing import Timing

Ask = Callable[[str], str]
NOBODY_WORDS = ("", "-", "0", "nobody", "none", "nessuno", "niemand")
BACK_WORDS = ("<", "back", "indietro", "zurück")
SAVE_FORMAT = "nightcall-lupus-master/2"
# Saves of the loop before it kept the engine's clock: their answers replay without one
# (each call ended by itself), and the game goes on from there as it was.
OLD_SAVE_FORMATS = ("nightcall-lupus-master/1",)
# The clock's seed. It draws a silent seat's default move, which the Master's table
# never makes (every seat is answered for before a call ends); kept in the save.
MASTER_CLOCK = 0


def prompt(question: str) -> str:
    """A terminal question where a bare Enter is an answer (the empty string)."""
    return typed(question, default="")


def default_save_path() -> Path:
    """Where a Lupus game is saved unless ``--save`` says otherwise."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nightcall" / "lupus-game.json"


def resume_command(ruleset_id: str, path: Path) -> str:
    """The command that goes on with the game saved at ``path`` (its language is saved
    with it)."""
    where = "" if path == default_save_path() else f" --save {shlex.quote(str(path))}"
    return f"nightcall narrate {ruleset_id} --resume{where}"


@dataclass
class SavedGame:
    """A game as the Master entered it: the seating, the deal, and every answer in
    order (``[seat, action]``; seat -1, ``CLOCK_SEAT``, for the Master's own moves: the
    end of a call, the pick of the last to die). Saved as a game record (``nightcall
    replay`` reads it) with the answers beside it, since a record leaves out a night
    or a day still in progress. ``clock``: the seed of the game's clock (None for a
    game saved before the loop kept the engine's clock)."""

    names: list[str]
    cards: list[str]
    lang: str = "en"
    moves: list[tuple[int, Action]] = field(default_factory=list)
    clock: int | None = MASTER_CLOCK

    def document(self, ruleset: Ruleset[S], state: S) -> dict[str, Any]:
        record = ruleset.to_record(state)
        record["master"] = {
            "format": SAVE_FORMAT,
            "lang": self.lang,
            "deal": list(self.cards),
            "clock": self.clock,
            "moves": [[seat, action.to_json()] for seat, action in self.moves],
        }
        return record

    def write(self, path: Path, ruleset: Ruleset[S], state: S) -> None:
        """Write atomically: a closed terminal mid-write leaves the last good save."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.document(ruleset, state), ensure_ascii=False,
                                  indent=1), encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def read(cls, path: Path) -> SavedGame:
        """The saved game, or ValueError saying what is wrong with the file (a Said:
        ``narrate --lang it --resume`` says it in Italian)."""
        where = str(path)
        try:
            doc: Any = read_json(path)
        except ValueError as exc:  # the file's own refusal, but two say more of a save
            key = getattr(exc.args[0], "key", "")
            if key == "file.missing":
                raise ValueError(Said(f"there is no saved game at {path}: start a new game "
                                      "without --resume", "save.missing", path=where)) from None
            if key == "file.not_text":
                raise ValueError(Said(f"{path} is not a game saved by `nightcall narrate "
                                      "lupus`", "save.foreign", path=where)) from None
            raise
        master = doc.get("master") if isinstance(doc, dict) else None
        form = master.get("format") if isinstance(master, dict) else None
        if not isinstance(master, dict) or form not in (SAVE_FORMAT, *OLD_SAVE_FORMATS):
            raise ValueError(Said(f"{path} is not a game saved by `nightcall narrate lupus`",
                                  "save.foreign", path=where))
        try:
            moves = [(int(seat), Action.from_json(action)) for seat, action in master["moves"]]
            clock = None if form in OLD_SAVE_FORMATS else master["clock"]
            if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int)):
                raise ValueError(f"the clock's seed is {clock!r}, not a whole number")
            return cls([str(p) for p in doc["players"]], [str(c) for c in master["deal"]],
                       str(master.get("lang", "en")), moves, clock)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(Said(f"{path} is damaged ({exc}): it cannot be resumed",
                                  "save.damaged", path=where, reason=str(exc))) from None

    def replay(self, ruleset: Ruleset[S]) -> S:
        """The state these answers lead to (the same checked moves as a live game)."""
        state = ruleset.new_game(self.names, self.cards, clock=self.clock)
        for seat, action in self.moves:
            master_move(ruleset, state, seat, action)
        return state


def master_move(ruleset: Ruleset[S], state: S, seat: int, action: Action) -> None:
    """Apply one saved answer: a seat's move, or one of the Master's own (the end of
    a call; naming the last to die, which only a ruleset with ``MasterChoice`` has)."""
    if seat != CLOCK_SEAT or action == END_CALL:
        ruleset.apply(state, seat, action)
    elif isinstance(ruleset, MasterChoice):
        ruleset.choose_last(state, action.a)
    else:
        raise IllegalAction(str(action), f"{ruleset.title} has no choice of the master")


class Master:
    """One game run from the Master's seat (a ruleset with a MasterChoice)."""

    def __init__(
        self,
        console: Console,
        ruleset: Ruleset[Any],
        state: Any,
        locale: Locale,
        timing: Timing,
        speak: Speaker | None = None,
        wait: bool = True,
        ask: Ask = prompt,
        sleep: Callable[[float], None] | None = None,
        saved: SavedGame | None = None,
        save_path: Path | None = None,
        keys: PauseKey | None = None,
    ) -> None:
        self.console = console
        self.ruleset = ruleset
        self.state = state
        self.locale = locale
        self.timing = timing
        self.speak = speak
        self.wait = wait
        self.ask = ask
        self.sleep = sleep
        self.keys = keys
        view = ruleset.view(state, MASTER)
        self.deck = frozenset(view["roles_in_play"])
        self.names: list[str] = list(view["players"])
        self.saved = saved
        self.save_path = save_path
        self.open_call: str | None = None
        self.paused = False
        self.closed = ""  # the verdict said aloud at the end
        self.script = L.script_of(ruleset.id)

    def own(self, key: str) -> str:
        """The ruleset's own locale key for ``key`` ("day.accuse": "<id>.day.accuse")."""
        return f"{self.ruleset.id}.{key}"

    def say_part(self, part: Sequence[L.Line], **values: Any) -> None:
        """The lines of a part of the script (opening, closing, day) this deck says."""
        for line in part:
            if line.applies(self.deck, dict(self.script.options)):
                self.say(line.key, **values)

    # --- saying things ----------------------------------------------------------
    def t(self, key: str, **values: Any) -> str:
        """A line of the Master's screen in the narrator's language."""
        return self.locale.line(key, **values)

    def told(self, event: dict[str, Any]) -> str:
        """An event of the Master's view as the account tells it (the one renderer)."""
        renderer = Renderer(self.ruleset.id, self.names, None, self.locale.lang, master=True)
        return renderer.event(event) or ""

    def say(self, key: str, **values: Any) -> None:
        text = self.locale.line(key, **values)
        self.console.print(Text.assemble(("[master] ", "bold cyan"), text))
        if self.speak is not None:
            self.speak(text)

    def note(self, text: str) -> None:
        """Something only the Master reads (never spoken)."""
        self.console.print(Text(f"  ({text})", style="yellow"))

    def tell(self, text: str) -> None:
        self.console.print(text, highlight=False, markup=False)

    def pause(self, seconds: float, label: str) -> None:
        if self.wait and seconds > 0:
            if self.sleep is None:
                import time

                countdown(self.console, seconds, label, time.sleep, self.keys,
                          self.t("ui.paused"), self.t("ui.pause_hint"))
            else:
                countdown(self.console, seconds, label, self.sleep)

    def call_lines(self, call: str) -> tuple[list[str], list[str]]:
        """The wake lines and the sleep lines of a call."""
        lines = self.script.calls.get(self.script.aliases.get(call, call), L.GENERIC)
        keys = [line.key for line in lines if line.applies(self.deck, dict(self.script.options))]
        return keys[:-1], keys[-1:]

    def role(self, role: str) -> str:
        return self.locale.role(self.ruleset.id, role)

    # --- playing and saving -------------------------------------------------------
    def play(self, seat: int, action: Action) -> None:
        """Apply one answer and save the game at once."""
        master_move(self.ruleset, self.state, seat, action)
        if self.saved is not None:
            self.saved.moves.append((seat, action))
            if self.save_path is not None:
                self.saved.write(self.save_path, self.ruleset, self.state)

    # --- asking the Master ------------------------------------------------------------
    def pick(self, question: str, actions: Sequence[Action]) -> Action:
        """A choice among ``actions`` by number or by name; re-asks until it is one."""
        nobody = self.t("master.nobody")
        menu = []
        for i, action in enumerate(actions, 1):
            label = self.names[action.a] if action.a >= 0 else nobody
            menu.append(label)
            self.tell(f"   {i:>2}. {label}")
        while True:
            raw = self.ask(question).strip()
            nobody_action = next((a for a in actions if a.a < 0), None)
            if nobody_action is not None and raw.casefold() in NOBODY_WORDS:
                return nobody_action
            found = menu_choice(raw, menu)
            if isinstance(found, int):
                return actions[found - 1]
            self.tell(self.t("play.ambiguous", answer=raw, numbers=", ".join(map(str, found)))
                      if found else self.t(self._wrong_choice(raw), answer=raw, n=len(actions)))

    def _wrong_choice(self, raw: str) -> str:
        """Which refusal fits an answer that names no choice: nothing typed, a player
        who is at the table but not on this menu, or a word that is neither."""
        if not raw:
            return "master.empty_choice"
        if raw.casefold() in (name.casefold() for name in self.names):
            return "master.not_on_this_menu"
        return "master.not_a_choice"

    # --- the loop -----------------------------------------------------------------
    def close_call(self) -> None:
        if self.open_call is None:
            return
        if not self.paused:
            self.pause(self.timing.for_call(self.open_call), self.t("ui.pause"))
            self.ask(self.t("master.enter"))
        for key in self.call_lines(self.open_call)[1]:
            self.say(key)
        self.open_call = None
        self.paused = False
        # a breath before the next role opens its eyes
        self.pause(self.timing.gap, self.t("ui.pause"))

    def count(self) -> None:
        """"On my count": one, two, three, a beat each."""
        for n in (1, 2, 3):
            self.say(f"count.{n}")
            self.pause(self.timing.count, self.t("ui.vote"))

    def handle(self, e: dict[str, Any]) -> None:
        kind = e["kind"]
        names = self.names
        if kind in ("call", "dawn", "over", "night"):
            self.close_call()
        if kind == "night":
            self.console.rule(Text(self.t("master.night", n=e["night"])))
            self.say_part(self.script.opening)
            self.pause(self.timing.short, self.t("ui.pause"))
        elif kind == "call":
            self.open_call = e["role"]
            for key in self.call_lines(e["role"])[0]:
                self.say(key)
        elif kind == "medium":
            self.note(self.t("master.medium_yes" if e["werewolf"] else "master.medium_no",
                             name=names[e["seat"]]))
        elif kind == "seen":
            self.note(self.t("master.seer_yes" if e["werewolf"] else "master.seer_no",
                             name=names[e["seat"]]))
        elif kind == "imitate":
            becomes = e.get("becomes")
            self.note(self.t("master.imitate_becomes", name=names[e["seat"]],
                             role_a=self.locale.role_as(self.ruleset.id, becomes, "a"))
                      if becomes
                      else self.t("master.imitate_stays", name=names[e["seat"]]))
        elif kind == "victim":
            self.note(self.t("master.victim", name=names[e["seat"]]))
        elif kind == "transformed":
            self.note(self.told(e))
        elif kind == "dawn":
            self.say_part(self.script.closing)
            dead = e["dead"]
            if not dead:
                self.say(self.own("dawn.none"))
            elif len(dead) == 1:
                self.say(self.own("dawn.one"), name=names[dead[0]])
            else:
                last = self.choose_last(dead, e["last"])
                self.say(self.own("dawn.two"), first=names[dead[0]], second=names[dead[1]],
                         last=names[last])
        elif kind == "causes":
            for seat, cause in e["deaths"]:  # (the words of the verdict's causes)
                why = self.locale.cause(cause, self.ruleset.id)
                self.note(self.t("master.died", name=names[seat], cause=why))
        elif kind == "accusation":
            current = self.ruleset.view(self.state, MASTER)["accusation_order"]
            if not current or names[e["order"][0]] != current[0]:
                return  # superseded: the Master named another last to die
            self.console.rule(Text(self.t("master.day", n=e["day"])))
            self.say_part(self.script.day,
                          minutes=duration_text(self.timing.discussion, self.locale.lang))
            self.pause(self.timing.discussion, self.t("ui.discussion"))
            if e.get("owl") is not None:
                self.say(self.own("day.owl"), name=names[e["owl"]])
            self.say(self.own("day.accuse"), name=names[e["order"][0]])
        elif kind == "accuse":
            self.tell("   ✓ " + self.told(e))
        elif kind == "suspects":
            first, second = (names[s] for s in e["seats"])
            self.say(self.own("day.suspects"), first=first, second=second)
            self.say(self.own("day.defense"))
            self.ask(self.t("master.defense_done"))
            self.say(self.own("day.execute"))
            self.count()
        elif kind == "executed":
            self.say(self.own("day.executed"), name=names[e["seat"]])
        elif kind == "over":
            closing = L.end_key(self.ruleset.id, e.get("teams", []), self.locale.lines)
            if closing is not None:
                self.say(closing)
                self.closed = self.t(closing)

    def choose_last(self, dead: list[int], default: int) -> int:
        """Two deaths at dawn: the Master says which counts as the last to die
        (lupus-in-tabula.md, "Dawn"); Enter keeps the ruleset's choice."""
        if self.ruleset.is_over(self.state):
            return default  # the game ended at dawn: nobody accuses any more
        for i, seat in enumerate(dead, 1):
            self.tell(f"   {i:>2}. {self.names[seat]}")
        question = self.t("master.last_ask", name=self.names[default])
        while True:
            raw = self.ask(question).strip()
            if not raw:
                return default
            chosen = next((s for i, s in enumerate(dead, 1)
                           if raw == str(i) or raw.casefold() == self.names[s].casefold()),
                          None)
            if chosen is not None:
                break
            self.tell(self.t("master.last_wrong", answer=raw,
                             names=self.t("account.and", rest=self.names[dead[0]],
                                          last=self.names[dead[1]])))
        if chosen != default:
            self.play(-1, Action("last", chosen))
        return chosen

    def choices(self) -> None:
        """Ask the Master for what the ruleset is waiting for, and apply it."""
        r, st = self.ruleset, self.state
        view = r.view(st, MASTER)
        waiting = list(r.waiting_for(st))
        if view["phase"] == "night":
            if not self.paused:
                self.pause(self.timing.for_call(self.open_call or ""), self.t("ui.pause"))
                self.paused = True
            call = view["call"]
            if isinstance(r, PackVote) and call == r.pack_call:
                # The pack points at one victim together: one answer for all of them.
                options = list(r.legal_actions(st, waiting[0]))
                choice = self.pick(self.t("master.wolves_ask"), options)
                for seat in waiting:
                    self.play(seat, choice)
                return
            for seat in waiting:
                question = self.t("master.role_ask", name=self.names[seat],
                                  role=self.role(call))
                self.play(seat, self.pick(question, list(r.legal_actions(st, seat))))
            return
        for seat in waiting:
            key = "master.accuse_ask" if view["stage"] == "accuse" else "master.execute_ask"
            question = self.t(key, name=self.names[seat])
            self.play(seat, self.pick(question, list(r.legal_actions(st, seat))))
            if view["stage"] == "accuse":
                return  # one accuser at a time, in order

    def resume_at(self) -> int:
        """Where a resumed game picks up, said again from there: the open call (its
        role opens its eyes once more), the dawn if nobody has accused yet, the
        Suspects if the execution vote is on. Answers already given are kept."""
        view = self.ruleset.view(self.state, MASTER)
        events = view["events"]

        def last(*kinds: str) -> int:
            return max((i for i, e in enumerate(events) if e["kind"] in kinds),
                       default=len(events))

        if view["phase"] == "night":
            where, start = self.t("master.where_night", n=view["night"]), last("call", "night")
        elif view["stage"] == "accuse":
            where = self.t("master.where_accuse", n=view["day"])
            dawn = last("dawn")
            accused = any(e["kind"] == "accuse" for e in events[dawn:])
            start = len(events) if accused else dawn
        else:
            where, start = self.t("master.where_execute", n=view["day"]), last("suspects")
        self.note(self.t("master.resumed", where=where))
        return start

    def run(self, resume: bool = False) -> dict[str, Any]:
        r = self.ruleset
        cursor = self.resume_at() if resume else 0
        while True:
            events = r.view(self.state, MASTER)["events"]
            if cursor < len(events):
                self.handle(events[cursor])
                cursor += 1
                continue
            if r.is_over(self.state):
                self.close_call()
                break
            if r.waiting_for(self.state):
                self.choices()
                continue
            # Nobody is choosing: the open call (or the dusk) ends when the Master says
            # so, as the server's timer ends it (engine/clock.py). A game without a
            # clock (a save from before) never rests here: its calls end by themselves.
            self.close_call()
            self.play(CLOCK_SEAT, END_CALL)
        result = r.outcome(self.state)
        outcome: dict[str, Any] = r.view(self.state, MASTER).get("outcome") or {}
        if result is not None:  # the reasons, but not again the verdict just said aloud
            for line in explain(result.reasons, self.locale.lang):
                if line != self.closed:
                    self.tell(line)
        return outcome


def card_unknown(loc: Locale, ruleset: Ruleset[Any], raw: str, in_deck: str,
                 deck: Iterable[str], lookup: dict[str, str]) -> str:
    """The Master typed ``raw`` for a player's card, no role nor playing card: the deck,
    and the role of the deck whose name is nearest where one is near."""
    near = nearest_role(ruleset, raw, among=deck, lookup=lookup)
    if near is None:
        return loc.line("master.card_unknown", card=raw, deck=in_deck)
    return loc.line("master.card_unknown_near", card=raw, deck=in_deck,
                    role=loc.role(ruleset.id, near))


def ask_deal(
    console: Console, ruleset: Ruleset[Any], deck: Sequence[str], ask: Ask = prompt,
    locale: Locale | None = None,
) -> tuple[list[str], list[str]]:
    """The seating and the card each player was dealt, as the Master saw them. Each
    answer is checked at once against the deck (a role or playing card of the game,
    not dealt more often than the deck has it) and asked again with the reason."""
    from nightcall.narration.locale import load

    loc = locale or load("en")
    n = len(deck)

    def tell(text: str) -> None:
        console.print(text, highlight=False, markup=False)

    while True:
        raw = ask(loc.line("master.players", n=n))
        names = [p.strip() for p in raw.split(",") if p.strip()]
        repeated = [p for p, k in Counter(p.casefold() for p in names).items() if k > 1]
        if len(names) == n and not repeated:
            break
        if repeated:
            twice = next(p for p in names if p.casefold() == repeated[0])
            tell(loc.line("master.players_twice", n=n, name=twice))
        else:
            tell(loc.line("master.players_count", n=n, got=len(names)))
    tell(loc.line("master.cards"))
    lookup = role_lookup(ruleset)
    want = Counter(deck)
    cards: list[str] = []
    while len(cards) < n:
        name = names[len(cards)]
        raw = ask(f"  {name}").strip()
        if raw.casefold() in BACK_WORDS:
            if cards:
                cards.pop()
            continue
        role = lookup.get(normal(raw))
        if role is None and ruleset.card_map is not None:
            role = ruleset.card_map.role_of(raw)
        in_deck = ", ".join(f"{k} × {loc.role(ruleset.id, r)}" for r, k in want.items())
        if role is None:
            tell(card_unknown(loc, ruleset, raw, in_deck, want, lookup))
            continue
        if role not in want:
            tell(loc.line("master.card_not_in_deck", role=loc.role(ruleset.id, role),
                          deck=in_deck))
            continue
        holders = [names[i] for i, c in enumerate(cards) if c == role]
        if len(holders) >= want[role]:
            tell(loc.line("master.card_used_up", role=loc.role(ruleset.id, role),
                          k=want[role], names=listed(loc, holders)))
            continue
        cards.append(role)
    return names, cards


def run_master(
    console: Console,
    ruleset: Ruleset[Any],
    deck: Sequence[str],
    locale: Locale,
    timing: Timing,
    speak: Speaker | None = None,
    wait: bool = True,
    ask: Ask = prompt,
    save_path: Path | None = None,
    resume: bool = False,
    keys: PauseKey | None = None,
) -> dict[str, Any]:
    """Set up the table (or pick up the game saved at ``save_path``), then run nights
    and days until a side wins, saving after every answer."""
    if resume:
        if save_path is None:
            raise ValueError("--resume needs the saved game's file")
        saved = SavedGame.read(save_path)
        try:
            state = saved.replay(ruleset)
        except NightcallError as exc:
            raise ValueError(f"{save_path} does not replay: {exc}") from None
        if ruleset.is_over(state):
            raise ValueError(locale.line("master.over_already", path=save_path))
    else:
        names, cards = ask_deal(console, ruleset, deck, ask, locale)
        saved = SavedGame(names, cards, locale.lang)
        state = ruleset.new_game(names, cards, clock=saved.clock)
        if save_path is not None:
            if save_path.exists():
                # A new game never wipes the last one: it is kept beside, resumable.
                kept = save_path.with_name(save_path.stem + ".previous" + save_path.suffix)
                os.replace(save_path, kept)
                console.print(Text(locale.line("master.kept", path=str(kept), command=(
                    resume_command(ruleset.id, kept))), style="dim"))
            saved.write(save_path, ruleset, state)
            console.print(Text(locale.line("master.saving", path=str(save_path), command=(
                resume_command(ruleset.id, save_path))), style="dim"))
    master = Master(console, ruleset, state, locale, timing, speak, wait, ask,
                    saved=saved, save_path=save_path, keys=keys)
    return master.run(resume=resume)
