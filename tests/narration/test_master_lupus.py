"""The Lupus Master's loop, played through the rulebook's example round and on to the end."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.locale import load
from nightcall.narration.telling import explained
from nightcall.narration.timing import timing_for

from .helpers import need_ruleset

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Hamed", "Irene"]
# lupus-in-tabula.md, "Example round": the deal.
CARDS = {"Anna": "2♦", "Bruno": "A♠", "Carla": "3♣", "Dario": "4♥", "Elena": "K♥",
         "Fabio": "5♠", "Giulia": "A♣", "Hamed": "Q♠", "Irene": "6♦"}
DAY1_ACCUSE = {"Elena": "Bruno", "Fabio": "Bruno", "Giulia": "Carla", "Hamed": "Bruno",
               "Irene": "Bruno", "Anna": "Fabio", "Bruno": "Carla", "Carla": "Fabio",
               "Dario": "Bruno"}
DAY1_EXECUTE = {"Anna": "Bruno", "Carla": "Fabio", "Elena": "Bruno", "Giulia": "Fabio",
                "Hamed": "Bruno", "Irene": "Bruno"}


class Table:
    """Answers the Master's questions the way the example round went, then ends it."""

    def __init__(self) -> None:
        self.wolves = ["Dario", "Irene"]
        self.seer = ["Carla", "Giulia"]
        self.day = 0
        self.last_what = ""
        self.questions: list[str] = []

    def ask(self, question: str) -> str:
        self.questions.append(question)
        assert len(self.questions) < 200, "the Master keeps asking: a loop"
        if "press Enter" in question:
            return ""
        if question.startswith("The 9 players"):
            return ", ".join(PLAYERS)
        if question.strip() in PLAYERS:
            return CARDS[question.strip()]
        if "werewolves point at" in question:
            return self.wolves.pop(0)
        if "(Seer) point at" in question:
            return self.seer.pop(0)
        m = re.match(r"Whom does (\w+) (accuse|point at to execute)\?", question)
        assert m, question
        who, what = m.groups()
        if what != self.last_what and what == "accuse":
            self.day += 1  # the first accusation of a new day
        self.last_what = what
        if what == "accuse":
            if self.day == 1:
                return DAY1_ACCUSE[who]
            return "Fabio" if who == "Giulia" else "Giulia"
        return DAY1_EXECUTE[who] if self.day == 1 else "Giulia"


def test_the_example_round_and_the_end() -> None:
    need_ruleset("lupus")
    from nightcall.narration.master import run_master

    lupus = get_ruleset("lupus")
    spoken: list[str] = []
    out = io.StringIO()
    console = Console(file=out, width=200)
    table = Table()
    outcome = run_master(console, lupus, lupus.default_deck(9), load("en"),
                         timing_for("lupus"), speak=spoken.append, wait=False, ask=table.ask)
    text = out.getvalue()
    assert "During the night Dario died." in spoken
    assert "The suspects are Bruno and Fabio." in spoken  # the tie goes to Fabio
    assert "Bruno is executed." in spoken
    assert "Nod if Bruno was a werewolf — yes, nod." in text.replace("Medium: nod", "Nod")
    assert "During the night Irene died." in spoken
    assert "Giulia is executed." in spoken
    assert spoken[-1] == "Every werewolf is dead: the humans win."
    assert set(outcome["winners"]) == set(PLAYERS) - {"Bruno", "Giulia"}
    # Night 2 calls the Medium first, and the dead Bruno's role (werewolf) is still called.
    night2 = spoken[spoken.index("Bruno is executed."):]
    en = load("en")
    assert night2.index(en.line("lupus.medium.wake")) < night2.index(
        en.line("lupus.werewolf.wake"))
    # The Medium has nobody to ask: the Master presses Enter after the same pause.
    assert any("press Enter to go on" in q for q in table.questions)


def test_a_wrong_answer_is_explained_and_asked_again() -> None:
    need_ruleset("lupus")
    from nightcall.narration.master import run_master

    lupus = get_ruleset("lupus")
    table = Table()
    answers = iter(["Zorro", "99"])

    def ask(question: str) -> str:
        if "werewolves point at" in question and table.wolves == ["Dario", "Irene"]:
            bad = next(answers, None)
            if bad is not None:
                return bad
        return table.ask(question)

    out = io.StringIO()
    run_master(Console(file=out, width=200), lupus, lupus.default_deck(9), load("en"),
               timing_for("lupus"), wait=False, ask=ask)
    assert "'Zorro' is not one of the" in out.getvalue()
    assert "'99' is not one of the" in out.getvalue()


def test_cards_that_are_not_the_deck_are_refused_at_once_and_asked_again() -> None:
    """A card that is not in the deck, or one more of a role than the deck has, is
    refused with the reason as soon as it is typed; the Master types it again and
    nothing else is asked twice (issue 19: "Every prompt re-asks at once")."""
    need_ruleset("lupus")
    from nightcall.narration.master import ask_deal

    lupus = get_ruleset("lupus")
    answers = {name: [card] for name, card in CARDS.items()}
    answers["Irene"] = ["K♠", "unicorn", "6♦"]  # a Bodyguard (not in this deck), a typo
    answers["Fabio"] = ["K♥", "<", "5♠"]  # a second Seer, then back one player
    answers["Elena"] = ["K♥", "Veggente"]  # typed again after the "<"
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question.strip())
        if question.startswith("The 9"):
            return ", ".join(PLAYERS)
        return answers[question.strip()].pop(0)

    out = io.StringIO()
    names, cards = ask_deal(Console(file=out, width=200), lupus, lupus.default_deck(9), ask)
    text = " ".join(out.getvalue().split())
    assert names == PLAYERS
    assert cards == [lupus.card_map.role_of(CARDS[p]) for p in PLAYERS]  # type: ignore[union-attr]
    assert "There is no Bodyguard in this deck" in text
    assert "'unicorn' is neither a role of this game nor a playing card" in text
    assert "The deck has 1 × Seer, already dealt to Elena: type the card again." in text
    assert asked.count("Irene") == 3 and asked.count("Fabio") == 3
    assert asked.count("Elena") == 2  # "<" went back once
    assert asked.count("Anna") == 1


class Stop(Exception):
    """Ends a scripted game early, once the test has seen what it came for."""


@pytest.mark.parametrize("answer", ["", "1", "2"])
def test_two_deaths_at_dawn_the_master_names_the_last(answer: str) -> None:
    """The Harlot visits the werewolves' victim: both die, and the Master says which of
    them counts as the last to die; the accusations start at that player's left."""
    need_ruleset("lupus")
    from nightcall.narration.master import run_master

    lupus = get_ruleset("lupus")
    deck = lupus.default_deck(12)
    names = [f"P{i}" for i in range(12)]
    roles = ["werewolf", "werewolf", "seer", "medium", "possessed", "bodyguard", "harlot",
             "villager", "villager", "villager", "villager", "villager"]
    assert sorted(roles) == sorted(deck)
    seen: dict[str, str] = {}
    out = io.StringIO()

    def ask(question: str) -> str:
        if question.startswith("The 12 players"):
            return ", ".join(names)
        if question.strip() in names:
            return roles[names.index(question.strip())]
        if "(Harlot) point at" in question or "werewolves point at" in question:
            return "P9"
        if "(Seer) point at" in question:
            return "P0"
        if question.startswith("Which counts as the last"):
            seen["default"] = question.split("Enter: ")[1].rstrip(")")
            seen["menu"] = out.getvalue()
            return answer
        if question.startswith("Whom does"):
            seen["first accuser"] = question.split()[2]
            raise Stop
        return ""

    with pytest.raises(Stop):
        run_master(Console(file=out, width=200), lupus, deck, load("en"),
                   timing_for("lupus"), wait=False, ask=ask)
    text = out.getvalue()
    # (the causes in the verdict's words: one place says why someone died)
    assert "P6 is dead: caught at the victim's house" in text
    assert "P9 is dead: eaten by the werewolves" in text
    dead = [line.split(". ")[1].strip() for line in seen["menu"].splitlines()
            if re.match(r"^\s+[12]\. P\d+$", line)][-2:]
    assert sorted(dead) == ["P6", "P9"]
    last = seen["default"] if answer == "" else dead[int(answer) - 1]
    assert "counts as the last to die" in text and f"{last} counts as the last" in text
    after = names[(names.index(last) + 1) % 12]
    assert seen["first accuser"] == after
    assert text.count("Accusations, starting from") == 1  # the superseded order is not said


def test_everything_the_master_sees_follows_the_language() -> None:
    """Issue 19: prompts, notes and the final explanation in --lang (here Italian)."""
    need_ruleset("lupus")
    from nightcall.narration.master import run_master

    lupus = get_ruleset("lupus")
    names = ["Ada", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus"]
    cards = ["A♠", "A♣", "K♥", "2♥", "3♥", "4♥", "5♥"]
    questions: list[str] = []

    def ask(question: str) -> str:
        questions.append(question)
        assert len(questions) < 300
        if question.startswith("I nomi dei giocatori (7)"):
            return ", ".join(names)
        if question.strip() in names:
            return cards[names.index(question.strip())]
        return "1"

    out = io.StringIO()
    outcome = run_master(Console(file=out, width=200), lupus, lupus.default_deck(7),
                         load("it"), timing_for("lupus"), wait=False, ask=ask)
    text = out.getvalue()
    assert any(q == "Chi hanno indicato i lupi mannari?" for q in questions)
    assert any(re.fullmatch(r"Chi è accusato da \w+\?", q) for q in questions)
    assert any(re.fullmatch(r"Il voto di \w+: chi va al rogo\?", q) for q in questions)
    assert not [q for q in questions if "Whom" in q or "press Enter" in q]
    assert "Notte 1" in text and "Giorno 1" in text
    assert "la vittima dei lupi mannari: " in text
    assert "Morte di " in text and "is dead" not in text
    # The final explanation is the judge's reasons in Italian, not the English ones.
    english = explained(outcome)["explanation"]
    assert english and not [line for line in english if line in text]
    last = [line for line in text.splitlines() if line.strip()][-1]
    assert last.startswith("Vincitori: "), last


def test_the_master_keeps_the_engines_clock_and_the_save_replays(tmp_path: Path) -> None:
    """Every call of every night, and the dusk, ends by the Master's end_call
    (engine/clock.py), a dead holder's call too; the saved answers replay to the game."""
    need_ruleset("lupus")
    from nightcall.engine.clock import CLOCK_SEAT, END_CALL
    from nightcall.engine.events import MASTER
    from nightcall.narration.master import SavedGame, run_master

    lupus = get_ruleset("lupus")
    save = tmp_path / "game.json"
    deck = lupus.default_deck(9)
    outcome = run_master(Console(file=io.StringIO(), width=200), lupus, deck, load("en"),
                         timing_for("lupus"), wait=False, ask=Table().ask, save_path=save)
    saved = SavedGame.read(save)
    assert saved.clock == 0
    ends = [m for m in saved.moves if m == (CLOCK_SEAT, END_CALL)]
    state = saved.replay(lupus)
    view = lupus.view(state, MASTER)
    nights = max(e["night"] for e in view["events"] if e["kind"] == "night")
    calls = [c for k in range(1, nights + 1) for c in lupus.night_calls(deck, k)]
    # (the last night may end the game before its last calls: count the calls opened)
    opened = sum(1 for e in view["events"] if e["kind"] == "call")
    assert len(ends) == 1 + opened and opened <= len(calls)
    assert lupus.is_over(state) and view["outcome"] == outcome


def test_a_game_saved_before_the_clock_resumes(tmp_path: Path) -> None:
    """A save of format 1 (answers only, each call ended by itself) still goes on."""
    need_ruleset("lupus")
    from nightcall.engine.actions import Action
    from nightcall.narration.master import SavedGame, run_master

    lupus = get_ruleset("lupus")
    names = PLAYERS
    cards = [lupus.card_to_role(CARDS[p], "test") for p in names]
    old = SavedGame(names, cards, "en", [(1, Action("kill", 3)), (6, Action("kill", 3))],
                    clock=None)
    doc = old.document(lupus, old.replay(lupus))
    doc["master"]["format"] = "nightcall-lupus-master/1"
    del doc["master"]["clock"]
    save = tmp_path / "old.json"
    save.write_text(json.dumps(doc), encoding="utf-8")
    table = Table()
    table.wolves = ["Irene"]  # night 1's answer was saved (Bruno and Giulia: Dario)
    outcome = run_master(Console(file=io.StringIO(), width=200), lupus,
                         lupus.default_deck(9), load("en"), timing_for("lupus"), wait=False,
                         ask=table.ask, save_path=save, resume=True)
    assert outcome["winners"]
    assert SavedGame.read(save).clock is None  # it goes on as it was saved


def test_a_damaged_clock_seed_is_refused(tmp_path: Path) -> None:
    need_ruleset("lupus")
    from nightcall.narration.master import SavedGame

    lupus = get_ruleset("lupus")
    game = SavedGame(PLAYERS, [lupus.card_to_role(CARDS[p], "test") for p in PLAYERS])
    doc = game.document(lupus, game.replay(lupus))
    doc["master"]["clock"] = "soon"
    save = tmp_path / "bad.json"
    save.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match=r"damaged.*clock's seed"):
        SavedGame.read(save)


@pytest.mark.parametrize(("lang", "missing", "foreign", "broken"), [
    ("en", "there is no saved game at", "is not a game saved by", "is not valid JSON"),
    ("it", "non c'è nessuna partita salvata", "non è una partita salvata da",
     "non è un JSON valido"),
    ("de", "ist kein Spiel gespeichert", "ist kein Spiel, das", "ist kein gültiges JSON"),
])
def test_a_save_that_cannot_be_resumed_is_refused_in_the_language_asked(
    tmp_path: Path, lang: str, missing: str, foreign: str, broken: str,
) -> None:
    """``--resume`` said "no saved game at ..." and "... is not a saved game (bad JSON)"
    in English whatever --lang asked."""
    from .helpers import run_cli

    need_ruleset("lupus")
    (tmp_path / "other.json").write_text('{"players": ["A"]}', encoding="utf-8")
    (tmp_path / "cut.json").write_text('{"master": {', encoding="utf-8")
    (tmp_path / "bytes.json").write_bytes(b"\xff\xfe")
    for name, words in (("none", missing), ("other", foreign), ("cut", broken),
                        ("bytes", foreign)):
        code, out, err = run_cli("narrate", "lupus", "--resume", "--lang", lang,
                                 "--save", str(tmp_path / f"{name}.json"))
        assert code == 2 and words in " ".join(err.split()), (name, err)
        assert "Traceback" not in out + err


def test_the_master_picks_a_player_by_a_name_typed_without_its_accents() -> None:
    """"Zoe" for Zoë, "nessuno" for nobody; "anna" fits two players and is asked again
    with their numbers."""
    need_ruleset("lupus")
    from nightcall.engine.actions import Action
    from nightcall.narration.master import Master

    lupus = get_ruleset("lupus")
    names = ["Zoë", "Anna Maria", "Anna Lisa", "Ben", "Carla", "Dario", "Eva", "Fede", "Gino"]
    state = lupus.deal(names, lupus.default_deck(9), 1)
    answers = iter(["zoe", "anna", "anna lisa", "nessuno"])
    out = io.StringIO()
    master = Master(Console(file=out, width=200), lupus, state, load("it"),
                    timing_for("lupus"), wait=False, ask=lambda q: next(answers))
    actions = [Action("vote", a=i) for i in range(3)] + [Action("vote", a=-1)]
    assert master.pick("?", actions).a == 0
    assert master.pick("?", actions).a == 2
    assert "«anna» corrisponde a più voci (2, 3)" in out.getvalue()
    assert master.pick("?", actions).a == -1


def test_a_question_at_the_terminal_ends_in_its_question_mark(tmp_path: Path) -> None:
    """Session 26: "Auf wen haben die Werwölfe gezeigt?:" (the prompt's colon after a
    question mark); a name to answer for keeps its colon ("  Anna: A♠")."""
    from typer.testing import CliRunner

    from nightcall.cli import app

    deal = "Anna, Bruno, Carla, Dario, Elena, Fabio, Gina\nA♠\nA♣\nK♥\n2♥\n3♥\n4♥\n5♥\n"
    result = CliRunner().invoke(app, ["narrate", "lupus", "-n", "7", "--lang", "de",
                                      "--no-wait", "--no-speech", "--save",
                                      str(tmp_path / "save.json")], input=deal)
    assert re.search(r"Auf wen haben die Werwölfe gezeigt\? ?\n", result.output), result.output
    assert "?:" not in result.output and "  Anna: A♠" in result.output


def test_the_verdict_is_said_once_then_the_reasons() -> None:
    """The Master's screen said "Every werewolf is dead: the humans win." twice: aloud,
    then again as the first of the reasons."""
    need_ruleset("lupus")
    from nightcall.narration.master import run_master

    lupus = get_ruleset("lupus")
    out = io.StringIO()
    run_master(Console(file=out, width=200), lupus, lupus.default_deck(9), load("en"),
               timing_for("lupus"), wait=False, ask=Table().ask)
    text = out.getvalue()
    assert text.count("Every werewolf is dead: the humans win.") == 1
    assert text.index("the humans win.") < text.index("Everyone wins or loses with their side")
