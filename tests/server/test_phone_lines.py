"""The host screen says "vote on your phone" where the players choose on phones;
the table narrator (the script, ``nightcall narrate``) keeps "point"."""

from __future__ import annotations

import re

import pytest

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.locale import load, placeholders
from nightcall.server.narration import call_line, on_phones, stage_line

POINT = {"en": ("point",), "it": ("indica", "indicate", "indichi"), "de": ("zeig",)}
PHONE = {"en": "phone", "it": "telefon", "de": "handy"}
LUPUS = ["werewolf", "werewolf", "seer", "medium", "owl", "harlot", "bodyguard",
         "mythomaniac", "villager", "werehamster", "possessed", "freemason", "freemason"]
VIEW = {"players": ["Ada", "Bea", "Cy"], "events": [
    {"kind": "accusation", "order": [1, 2, 0]}, {"kind": "suspects", "seats": [0, 1]}]}


def says_point(text: str, lang: str) -> bool:
    # (word starts only: "gezeigt", shown, is not "zeigt", points)
    return any(re.search(rf"\b{w}", text.lower()) for w in POINT[lang])


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_every_vote_and_accusation_says_to_use_the_phone(lang: str) -> None:
    for ruleset, stage in (("onuw", "vote"), ("epic", "vote"), ("lupus", "accuse"),
                           ("lupus", "execute")):
        line = stage_line(ruleset, stage, lang, VIEW)
        assert PHONE[lang] in line.lower(), (ruleset, stage, line)
        assert not says_point(line, lang), (ruleset, stage, line)
    assert "Bea" in stage_line("lupus", "accuse", lang, VIEW)  # who starts, still said


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_no_lupus_night_call_asks_to_point(lang: str) -> None:
    rs = get_ruleset("lupus")
    for night in (1, 2):
        for call in rs.night_calls(LUPUS, night):
            line = call_line("lupus", call, lang, LUPUS, night)
            assert not says_point(line, lang), (call, line)
    wolves = call_line("lupus", "werewolf", lang, LUPUS, 1)
    assert PHONE[lang] in wolves.lower()


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_the_table_narrator_keeps_pointing(lang: str) -> None:
    words = load(lang)
    for key in ("onuw.vote.ready", "lupus.werewolf.wake", "lupus.day.execute"):
        assert says_point(words.line(key, name="Ada"), lang), key


def test_each_phone_line_replaces_a_narrator_line_with_the_same_blanks() -> None:
    # (the rulesets keep these lines as "<key>.phones" in their own locale files)
    phones = {lang: on_phones(lang) for lang in ("en", "it", "de")}
    assert all(phones.values()) and on_phones("xx") == {}
    assert set(phones["it"]) == set(phones["en"]) == set(phones["de"])
    for lang, lines in phones.items():
        script = load(lang).lines
        for key, text in lines.items():
            assert key in script, (lang, key)
            assert placeholders(text) == placeholders(script[key]), (lang, key)


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_the_host_wakes_the_room_with_the_scripts_closing_but_nudges_no_card(lang: str) -> None:
    """At dawn the host says the script's end of the night: One Night's "open your eyes"
    without "give your card a small push" (the phones hold the cards), Epic's artifact
    line only where the Curator can have put one."""
    words = load(lang)
    onuw = stage_line("onuw", "discussion", lang, {"roles_in_play": ["werewolf", "seer"]})
    assert onuw.startswith(words.line("onuw.night.wake"))
    assert words.line("onuw.night.nudge") not in onuw
    artifacts = words.line("epic.day.artifacts")
    plain = stage_line("epic", "discussion", lang, {"roles_in_play": ["werewolf", "seer"]})
    curator = stage_line("epic", "discussion", lang, {"roles_in_play": ["curator", "seer"]})
    assert plain.startswith(words.line("epic.night.wake")) and artifacts not in plain
    assert artifacts in curator


def test_the_host_names_the_winning_side_of_a_game_with_a_master() -> None:
    words = load("en")
    for team in ("village", "werewolves", "werehamster"):
        line = stage_line("lupus", "over", "en", {"outcome": {"teams": [team], "winners": []}})
        assert line.startswith(words.line(f"lupus.end.{team}")), (team, line)
    # A game without a master's closing line says only who won.
    assert stage_line("onuw", "over", "en", {"outcome": {"teams": ["village"],
                                                         "winners": []}}) \
        == words.line("why.nobody_wins")
