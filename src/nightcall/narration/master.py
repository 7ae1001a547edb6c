"""The Lupus in Tabula Master's job, night after night, for a real table.

The human Master enters what the players pointed at; the Lupus ruleset keeps the
dead, the accusation order, the counts and the end check. This module only
listens to the Master's view of the game and speaks: it reads the events in
order, says each call's lines, and asks for the choices when the ruleset waits.

Fair timing: every call gets the same pause, counted down before the Master is
asked anything, whether its holder is alive (and then points) or dead (and then
nobody moves); the Master presses Enter in both cases, so even the typing sounds
the same (docs/rulings.md (The narrator), "Lupus: the Master's loop").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from nightcall.engine.actions import Action
from nightcall.engine.errors import DeckError
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import Ruleset
from nightcall.narration import lines as L
from nightcall.narration.deckspec import parse_roles
from nightcall.narration.locale import Locale
from nightcall.narration.runner import countdown
from nightcall.narration.script import minutes_text
from nightcall.narration.timing import Timing

Speaker = Callable[[str], None]
Ask = Callable[[str], str]
NOBODY_WORDS = ("", "-", "0", "nobody", "none")


def prompt(question: str) -> str:
    """A terminal question where a bare Enter is an answer (the empty string)."""
    answer: str = typer.prompt(question, default="", show_default=False)
    return answer


class Master:
    """One Lupus game run from the Master's seat."""

    def __init__(
        self,
        console: Console,
        ruleset: Ruleset,
        state: Any,
        locale: Locale,
        timing: Timing,
        speak: Speaker | None = None,
        wait: bool = True,
        ask: Ask = prompt,
        sleep: Callable[[float], None] | None = None,
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
        self.deck = frozenset(ruleset.view(state, MASTER)["roles_in_play"])
        self.names: list[str] = list(ruleset.view(state, MASTER)["players"])
        self.open_call: str | None = None
        self.paused = False

    # --- saying things ----------------------------------------------------------
    def say(self, key: str, **values: Any) -> None:
        text = self.locale.line(key, **values)
        self.console.print(Text.assemble(("[master] ", "bold cyan"), text))
        if self.speak is not None:
            self.speak(text)

    def note(self, text: str) -> None:
        """Something only the Master reads (never spoken)."""
        self.console.print(Text(f"  ({text})", style="yellow"))

    def pause(self, seconds: float, label: str) -> None:
        if self.wait and seconds > 0:
            if self.sleep is None:
                import time

                countdown(self.console, seconds, label, time.sleep)
            else:
                countdown(self.console, seconds, label, self.sleep)

    def call_lines(self, call: str) -> tuple[list[str], list[str]]:
        """The wake lines and the sleep lines of a call."""
        script = L.SCRIPTS["lupus"].calls.get(call, L.GENERIC)
        keys = [line.key for line in script if line.applies(self.deck, {})]
        return keys[:-1], keys[-1:]

    def role(self, role: str) -> str:
        return self.locale.role("lupus", role)

    # --- asking the Master ------------------------------------------------------------
    def pick(self, question: str, actions: Sequence[Action]) -> Action:
        """A choice among ``actions`` by number or by name; re-asks until it is one."""
        menu = []
        for i, action in enumerate(actions, 1):
            label = self.names[action.a] if action.a >= 0 else "nobody"
            menu.append(label)
            self.console.print(f"   {i:>2}. {label}", highlight=False, markup=False)
        while True:
            raw = self.ask(question).strip()
            if raw.isdigit() and 1 <= int(raw) <= len(actions):
                return actions[int(raw) - 1]
            for label, action in zip(menu, actions, strict=True):
                if raw.lower() == label.lower() or (
                    label == "nobody" and raw.lower() in NOBODY_WORDS
                ):
                    return action
            self.console.print(f"'{raw}' is not one of the {len(actions)} choices: "
                               "type its number or the name.", highlight=False, markup=False)

    # --- the loop -----------------------------------------------------------------
    def close_call(self) -> None:
        if self.open_call is None:
            return
        if not self.paused:
            self.pause(self.timing.for_call(self.open_call), self.locale.line("ui.pause"))
            self.ask("(nobody to ask: press Enter to go on)")
        for key in self.call_lines(self.open_call)[1]:
            self.say(key)
        self.open_call = None
        self.paused = False

    def handle(self, e: dict[str, Any]) -> None:
        kind = e["kind"]
        names = self.names
        if kind in ("call", "dawn", "over", "night"):
            self.close_call()
        if kind == "night":
            self.console.rule(Text(f"Night {e['night']}"))
            self.say("lupus.night.start")
            self.pause(self.timing.short, self.locale.line("ui.pause"))
        elif kind == "call":
            self.open_call = e["role"]
            for key in self.call_lines(e["role"])[0]:
                self.say(key)
        elif kind == "medium":
            self.note(f"Medium: nod if {names[e['seat']]} was a werewolf — "
                      + ("yes, nod." if e["werewolf"] else "no, shake your head."))
        elif kind == "seen":
            self.note(f"Seer points at {names[e['seat']]}: "
                      + ("a werewolf, nod." if e["werewolf"] else "not a werewolf, shake."))
        elif kind == "imitate":
            becomes = e.get("becomes")
            self.note(f"Mythomaniac points at {names[e['seat']]}: "
                      + (f"becomes a {self.role(becomes)} from the next night, nod."
                         if becomes else "stays human, shake your head."))
        elif kind == "victim":
            self.note(f"the werewolves' victim: {names[e['seat']]}")
        elif kind == "transformed":
            self.note(f"{names[e['seat']]} is now a {self.role(e['role'])}")
        elif kind == "dawn":
            self.say("lupus.night.dawn")
            dead = e["dead"]
            if not dead:
                self.say("lupus.dawn.none")
            elif len(dead) == 1:
                self.say("lupus.dawn.one", name=names[dead[0]])
            else:
                last = self.choose_last(dead, e["last"])
                self.say("lupus.dawn.two", first=names[dead[0]], second=names[dead[1]],
                         last=names[last])
        elif kind == "causes":
            for seat, cause in e["deaths"]:
                self.note(f"{names[seat]} died of: {cause.replace('_', ' ')}")
        elif kind == "accusation":
            current = self.ruleset.view(self.state, MASTER)["accusation_order"]
            if not current or names[e["order"][0]] != current[0]:
                return  # superseded: the Master named another last to die
            self.console.rule(Text(f"Day {e['day']}"))
            self.say("lupus.day.discussion",
                     minutes=minutes_text(self.timing.discussion, self.locale.lang))
            self.pause(self.timing.discussion, self.locale.line("ui.discussion"))
            if e.get("owl") is not None:
                self.say("lupus.day.owl", name=names[e["owl"]])
            self.say("lupus.day.accuse", name=names[e["order"][0]])
        elif kind == "suspects":
            first, second = (names[s] for s in e["seats"])
            self.say("lupus.day.suspects", first=first, second=second)
            self.say("lupus.day.defense")
            self.ask("(press Enter when both have spoken)")
            self.say("lupus.day.execute")
        elif kind == "executed":
            self.say("lupus.day.executed", name=names[e["seat"]])
        elif kind == "over":
            teams = e.get("teams", [])
            if "werehamster" in teams:  # alive at the end, it beats either side
                self.say("lupus.end.werehamster")
            else:
                self.say("lupus.end.humans" if "village" in teams else "lupus.end.werewolves")

    def choose_last(self, dead: list[int], default: int) -> int:
        """Two deaths at dawn: the Master says which counts as the last to die
        (lupus-in-tabula.md, "Dawn"); Enter keeps the ruleset's choice."""
        if self.ruleset.is_over(self.state):
            return default  # the game ended at dawn: nobody accuses any more
        options = [Action("last", s) for s in dead]
        for i, seat in enumerate(dead, 1):
            self.console.print(f"   {i:>2}. {self.names[seat]}", highlight=False, markup=False)
        question = f"Which counts as the last to die? (Enter: {self.names[default]})"
        while True:
            raw = self.ask(question).strip()
            if not raw:
                return default
            chosen = next((a.a for i, a in enumerate(options, 1)
                           if raw == str(i) or raw.lower() == self.names[a.a].lower()), None)
            if chosen is not None:
                break
            self.console.print(f"'{raw}' died neither tonight: name one of "
                               f"{' and '.join(self.names[s] for s in dead)}.",
                               highlight=False, markup=False)
        if chosen != default:
            self.ruleset.choose_last(self.state, chosen)  # type: ignore[attr-defined]
        return chosen

    def choices(self) -> None:
        """Ask the Master for what the ruleset is waiting for, and apply it."""
        r, st = self.ruleset, self.state
        view = r.view(st, MASTER)
        waiting = list(r.waiting_for(st))
        if view["phase"] == "night":
            if not self.paused:
                self.pause(self.timing.for_call(self.open_call or ""),
                           self.locale.line("ui.pause"))
                self.paused = True
            call = view["call"]
            if call == "werewolf":
                # The pack points at one victim together: one answer for all of them.
                options = list(r.legal_actions(st, waiting[0]))
                choice = self.pick("Whom did the werewolves point at?", options)
                for seat in waiting:
                    r.apply(st, seat, choice)
                return
            for seat in waiting:
                question = f"Whom did {self.names[seat]} ({self.role(call)}) point at?"
                r.apply(st, seat, self.pick(question, list(r.legal_actions(st, seat))))
            return
        for seat in waiting:
            verb = "accuse" if view["stage"] == "accuse" else "point at to execute"
            question = f"Whom does {self.names[seat]} {verb}?"
            r.apply(st, seat, self.pick(question, list(r.legal_actions(st, seat))))
            if view["stage"] == "accuse":
                return  # one accuser at a time, in order

    def run(self) -> dict[str, Any]:
        cursor = 0
        r = self.ruleset
        while True:
            events = r.view(self.state, MASTER)["events"]
            if cursor < len(events):
                self.handle(events[cursor])
                cursor += 1
                continue
            if r.is_over(self.state):
                self.close_call()
                break
            self.choices()
        outcome: dict[str, Any] = r.view(self.state, MASTER).get("outcome") or {}
        for line in outcome.get("explanation", []):
            self.console.print(line, highlight=False, markup=False)
        return outcome


def ask_deal(
    console: Console, ruleset: Ruleset, deck: Sequence[str], ask: Ask = prompt
) -> tuple[list[str], list[str]]:
    """The seating and the card each player was dealt, as the Master saw them."""
    n = len(deck)
    while True:
        raw = ask(f"The {n} players, clockwise (comma-separated)")
        names = [p.strip() for p in raw.split(",") if p.strip()]
        if len(names) == n and len(set(names)) == n:
            break
        repeats = ", with repeats" if len(set(names)) < len(names) else ""
        console.print(f"Give {n} different names separated by commas "
                      f"(got {len(names)}{repeats}).", highlight=False, markup=False)
    console.print("The card you dealt each player (a role or a playing card):",
                  highlight=False)
    cards: list[str] = []
    for name in names:
        while True:
            raw = ask(f"  {name}").strip()
            try:
                (role,) = parse_roles(ruleset, [raw.replace(" ", "_")])
            except (DeckError, ValueError) as exc:
                console.print(f"{exc}; try again.", highlight=False, markup=False)
                continue
            cards.append(role)
            break
    want, got = Counter(deck), Counter(cards)
    if want != got:
        missing = ", ".join(sorted((want - got).elements())) or "nothing"
        extra = ", ".join(sorted((got - want).elements())) or "nothing"
        raise ValueError(f"the cards entered are not the deck: missing {missing}; "
                         f"extra {extra}")
    return names, cards


def run_master(
    console: Console,
    ruleset: Ruleset,
    deck: Sequence[str],
    locale: Locale,
    timing: Timing,
    speak: Speaker | None = None,
    wait: bool = True,
    ask: Ask = prompt,
) -> dict[str, Any]:
    """Set up the table, then run nights and days until a side wins."""
    names, cards = ask_deal(console, ruleset, deck, ask)
    state = ruleset.new_game(names, cards)
    return Master(console, ruleset, state, locale, timing, speak, wait, ask).run()
