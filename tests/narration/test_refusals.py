"""The rules' refusals and warnings follow --lang (issue 19): a deck the rules forbid,
a rulebook warning and an impossible table are said in Italian and German by the
terminal commands and the table mode, with the role names of that language's
glossary; English keeps the rules' own sentences."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from nightcall.engine.errors import DeckError, NightcallError, Said
from nightcall.narration.locale import LANGUAGES, load, placeholders
from nightcall.narration.refusals import said
from nightcall.rulesets.epic import deck as epic_deck
from nightcall.rulesets.lupus import deck as lupus_deck
from nightcall.rulesets.onuw import deck as onuw_deck
from nightcall.rulesets.onuw import judge as onuw_judge

from .helpers import run_cli

SRC = Path(__file__).resolve().parents[2] / "src" / "nightcall"


def said_calls() -> list[tuple[str, set[str], str]]:
    """Every ``Said(text, "key", name=...)`` in the source: key, value names, file."""
    out = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Said":
                keys = [a.value for a in node.args[1:] if isinstance(a, ast.Constant)]
                if not keys and isinstance(node.args[1], ast.IfExp):
                    keys = [node.args[1].body.value, node.args[1].orelse.value]  # type: ignore[attr-defined]
                for key in keys:
                    out.append((str(key), {k.arg for k in node.keywords if k.arg}, path.name))
    return out


def test_every_sentence_of_the_rules_with_a_key_has_a_line_in_every_language() -> None:
    calls = said_calls()
    assert len(calls) >= 25
    for lang in LANGUAGES:
        loc = load(lang)
        for key, values, where in calls:
            line = loc.lines.get(f"refusal.{key}")
            assert line is not None, (lang, key, where)
            assert placeholders(line) <= values - {"game"}, (lang, key, line, values)


def refused(fn: object, *args: object) -> NightcallError:
    with pytest.raises(NightcallError) as info:
        fn(*args)  # type: ignore[operator]
    return info.value


@pytest.mark.parametrize(("error", "it", "de"), [
    (lambda: onuw_deck.validate(3, ["werewolf"] * 3 + ["seer", "robber", "villager"]),
     "La scatola ha due Lupi; questo mazzo ne ha 3.",
     "Die Schachtel hat zwei Werwölfe; dieser Stapel hat 3."),
    (lambda: onuw_deck.validate(3, ["seer", "seer", "werewolf", "robber", "villager",
                                    "villager"]),
     "La scatola ha una sola carta Veggente; questo mazzo ne ha 2.",
     "Die Schachtel hat nur eine Karte „Seherin“; dieser Stapel hat 2."),
    (lambda: lupus_deck.validate(9, ["werewolf"] * 2 + ["seer", "medium", "bodyguard"] +
                                 ["villager"] * 4),
     "La carta Guardia del Corpo entra in gioco da 11 giocatori, non in 9.",
     "Die Karte „Leibwächter“ kommt erst ab 11 Spielern ins Spiel, nicht bei 9."),
    (lambda: onuw_judge.judge({"players": ["A", "B", "C"], "cards": {"A": "werewolf",
                                                                    "B": "seer"},
                               "votes": {}}),
     "Manca la carta finale di C.", "Für C fehlt die Karte am Ende."),
])
def test_a_refusal_in_italian_and_german(error: object, it: str, de: str) -> None:
    exc = refused(error)
    assert said(load("it"), exc) == it
    assert said(load("de"), exc) == de
    assert said(load("en"), exc) == str(exc)  # the rules' own English


def test_the_warnings_are_said_in_the_readers_language() -> None:
    warnings = onuw_deck.validate(3, ["werewolf", "werewolf", "seer", "insomniac",
                                      "villager", "villager"])
    assert said(load("de"), warnings[0]).startswith("Die Schlaflose ist für Runden mit dem Räuber")
    epic = epic_deck.validate(3, ["werewolf", "seer", "renfield", "villager", "villager",
                                  "villager"])
    assert "Renfield gehört in einen Stapel mit Vampiren." in [said(load("de"), w)
                                                            for w in epic]


def test_a_said_sentence_is_still_the_english_string_and_pickles() -> None:
    import pickle

    s = Said("the Masons are used both or neither", "onuw.masons", k=1)
    assert s == "the Masons are used both or neither"
    back = pickle.loads(pickle.dumps(DeckError(s)))
    assert str(back) == str(s)


@pytest.mark.parametrize(("args", "words"), [
    (["deck", "onuw", "-n", "3", "--roles", "werewolf,mason,seer,robber,villager,villager",
      "--lang", "it"], "Mazzo rifiutato: I due Massoni giocano insieme o per niente"),
    (["narrate", "lupus", "-n", "9", "--roles", "2xwerewolf seer medium bodyguard 4xvillager",
      "--lang", "de", "--print"], "Erzählen nicht möglich: Die Karte „Leibwächter“"),
])
def test_the_commands_refuse_in_the_chosen_language(args: list[str], words: str) -> None:
    code, _, err = run_cli(*args)
    assert code == 2
    assert words in " ".join(err.split())


def test_deck_warns_in_the_chosen_language() -> None:
    code, out, _ = run_cli("deck", "onuw", "-n", "3", "--roles",
                           "werewolf,werewolf,seer,insomniac,villager,villager", "--lang", "it")
    assert code == 0
    assert "L'Insonne va giocato con il Ladro o il Combinaguai" in " ".join(out.split())
    assert not re.search(r"\bmeant to\b", out)


def test_judge_refuses_in_the_chosen_language(tmp_path: Path) -> None:
    table = tmp_path / "t.json"
    table.write_text('{"players": ["A", "B", "C"], "cards": {"A": "werewolf", "B": "seer", '
                     '"C": "villager"}, "votes": {"A": "A"}}', encoding="utf-8")
    code, _, err = run_cli("judge", "onuw", "--file", str(table), "--lang", "de")
    assert code == 2
    assert "A zeigt auf sich selbst" in " ".join(err.split())
