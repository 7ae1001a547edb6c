"""A role name nightcall does not know is refused with the nearest role's name, in the
reader's language and as the glossary writes it ("Sehrin" -> "meintest du „Seherin“?"),
wherever role names are read: --roles, the judge's prompts and files, the Lupus
Master's deal, the /table page. Garbage gets the plain refusal, no guess."""

from __future__ import annotations

import json
from typing import Any

import pytest

from nightcall.engine.errors import DeckError
from nightcall.engine.ruleset import get_ruleset
from nightcall.narration import tablemode
from nightcall.narration.deckspec import nearest_role, normal, parse_roles
from nightcall.narration.locale import load
from nightcall.narration.refusals import said

from .helpers import need_ruleset, run_cli

ONUW_DECK = "werewolf, werewolf, robber, troublemaker, villager, villager, villager"
MEANT = {"en": "– did you mean 'Seer'?", "it": "– intendevi «Veggente»?",
         "de": "– meintest du „Seherin“?"}


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_the_nearest_role_is_found_from_a_name_in_any_language() -> None:
    onuw = get_ruleset("onuw")
    assert nearest_role(onuw, "Sehrin") == "seer"  # German, a letter left out
    assert nearest_role(onuw, "Veggnte") == "seer"  # Italian
    assert nearest_role(onuw, "Trublemaker") == "troublemaker"
    assert nearest_role(onuw, "seer", among=["werewolf"]) is None  # only the deck's roles
    for garbage in ("xyzzy", "unicorn", "Zorro", "banana", "qwerty123", "Der", ""):
        assert nearest_role(onuw, garbage) is None, garbage
    # A piece of one role's names only is that role; a piece of two is nobody's.
    lupus, epic = get_ruleset("lupus"), get_ruleset("epic")
    assert nearest_role(lupus, "Wolf") == "werewolf"  # (session 26: a German table's word)
    assert nearest_role(lupus, "Hamster") == "werehamster"
    assert nearest_role(onuw, "stifter") == "troublemaker"
    assert nearest_role(lupus, "mannaro") is None  # lupo mannaro, criceto mannaro
    assert nearest_role(epic, "Wolf") is None  # Werwolf, Alphawolf, Traumwolf ...
    assert nearest_role(lupus, "olf") is None  # (too short to be a name's piece)


def test_normal_is_the_lookups_spelling() -> None:
    assert normal("  Sight-Wolf ") == "sight_wolf"
    assert normal("Doppelgänger-Insomniac") == "doppelgänger_insomniac"


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_deck_suggests_the_role_meant_in_the_readers_language(lang: str) -> None:
    code, out, err = run_cli("deck", "onuw", "-n", "5", "--lang", lang,
                             "--roles", f"Sehrin, {ONUW_DECK}")
    text = flat(out + err)
    assert code == 2 and "Traceback" not in text
    assert MEANT[lang] in text, text
    roles = {"en": "Doppelgänger, Werewolf", "it": "Doppelgänger, Lupo",
             "de": "Doppelgängerin, Werwolf"}[lang]
    assert roles in text  # (the roles are still listed)


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_deck_guesses_nothing_for_garbage(lang: str) -> None:
    code, out, err = run_cli("deck", "onuw", "-n", "5", "--lang", lang,
                             "--roles", f"xyzzy, {ONUW_DECK}")
    text = flat(out + err)
    assert code == 2 and "xyzzy" in text
    assert not any(m.split()[1] in text for m in MEANT.values()), text  # no "did you"...


def test_the_refusal_of_parse_roles_is_said_with_the_glossarys_name() -> None:
    with pytest.raises(DeckError) as info:
        parse_roles(get_ruleset("onuw"), ["Werwolff", "seer"])
    assert "did you mean 'Werewolf'?" in str(info.value)
    assert "meintest du „Werwolf“?" in said(load("de"), info.value)
    assert "intendevi «Lupo»?" in said(load("it"), info.value)


def test_simulate_roles_suggest_too() -> None:
    code, out, err = run_cli("simulate", "onuw", "-n", "5", "--games", "1", "--lang", "de",
                             "--roles", f"Sehrin, {ONUW_DECK}")
    assert code == 2 and MEANT["de"] in flat(out + err), flat(out + err)


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_judge_file_suggests_the_role_meant(lang: str) -> None:
    table = {"players": ["Anna", "Bruno", "Carla"],
             "cards": {"Anna": "werewolf", "Bruno": "Sehrin", "Carla": "robber"},
             "votes": {"Anna": "Bruno"}}
    code, out, err = run_cli("judge", "onuw", "-f", "-", "--lang", lang,
                             stdin=json.dumps(table))
    text = flat(out + err)
    assert code == 2 and MEANT[lang] in text, text
    garbage = {**table, "cards": {**table["cards"], "Bruno": "xyzzy"}}
    code, out, err = run_cli("judge", "onuw", "-f", "-", "--lang", lang,
                             stdin=json.dumps(garbage))
    text = flat(out + err)
    assert code == 2 and "xyzzy" in text and MEANT[lang] not in text, text


@pytest.mark.parametrize(("lang", "meant"), [
    ("en", "'Sehrin' is not a card of this game – did you mean 'Seer'? Type a role ("),
    ("it", "«Sehrin» non è una carta di questo gioco – intendevi «Veggente»? Scrivi un "
           "ruolo ("),
    ("de", "„Sehrin“ ist keine Karte dieses Spiels – meintest du „Seherin“? Gib eine "
           "Rolle ein ("),
])
def test_the_judges_prompt_suggests_the_role_meant(lang: str, meant: str) -> None:
    from nightcall.commands.judge import _Questions, judge_module

    module = judge_module("onuw")
    assert module is not None
    questions = _Questions("onuw", lang, module)
    with pytest.raises(ValueError) as info:
        questions.role("Sehrin")
    assert str(info.value).startswith(meant), str(info.value)
    with pytest.raises(ValueError) as info:
        questions.role("xyzzy")
    assert MEANT[lang] not in str(info.value) and "xyzzy" in str(info.value)


def master_request(cards: list[str], lang: str) -> dict[str, Any]:
    deck = get_ruleset("lupus").default_deck(9)
    names = [f"P{i}" for i in range(1, 10)]
    return {"ruleset": "lupus", "lang": lang, "deck": deck, "names": names, "cards": cards}


@pytest.mark.parametrize(("lang", "meant"), [
    ("en", "did you mean 'Seer'? The deck: "), ("it", "intendevi «Veggente»? Il mazzo: "),
    ("de", "meintest du „Seherin“? Der Stapel: ")])
def test_the_masters_deal_suggests_a_role_of_the_deck(lang: str, meant: str) -> None:
    need_ruleset("lupus")
    deck = get_ruleset("lupus").default_deck(9)
    with pytest.raises(tablemode.TableModeError) as info:
        tablemode.master(master_request(["Sehrin", *deck[1:]], lang))
    assert meant in str(info.value), str(info.value)
    with pytest.raises(tablemode.TableModeError) as info:
        tablemode.master(master_request(["xyzzy", *deck[1:]], lang))
    assert meant not in str(info.value) and "xyzzy" in str(info.value)


def test_the_masters_prompt_suggests_and_asks_again() -> None:
    need_ruleset("lupus")
    import io

    from rich.console import Console

    from nightcall.narration.master import ask_deal

    lupus = get_ruleset("lupus")
    deck = lupus.default_deck(9)
    names = [f"P{i}" for i in range(1, 10)]
    answers = ["Veggnte", *deck]  # a typo for P1's card, then the deck's roles

    def ask(question: str) -> str:
        return answers.pop(0) if question.strip() in names else ", ".join(names)

    out = io.StringIO()
    got, cards = ask_deal(Console(file=out, width=300), lupus, deck, ask, load("it"))
    assert got == names and len(cards) == 9
    assert "«Veggnte» non è né un ruolo di questo gioco né una carta da gioco – intendevi " \
           "«Veggente»?" in out.getvalue()


def test_the_pages_copy_suggests_one_of_its_options() -> None:
    deck = ["doppelganger", "werewolf", "seer", "robber", "villager", "villager"]
    table = {"players": ["Ada", "Bruno", "Carla"],
             "cards": {"Ada": "doppelganger", "Bruno": "werewolf", "Carla": "seer"},
             "votes": {"Ada": "Bruno", "Bruno": "Ada", "Carla": "Ada"}}
    for lang, meant in (("en", "did you mean “Robber”?"), ("it", "intendevate «Ladro»?"),
                        ("de", "meintet ihr „Räuber“?")):
        with pytest.raises(tablemode.TableModeError) as info:
            tablemode.judge({"ruleset": "onuw", "lang": lang, "deck": deck,
                             "table": {**table, "copies": {"doppelganger": "Robbr"}}})
        assert meant in str(info.value), str(info.value)
        with pytest.raises(tablemode.TableModeError) as info:
            tablemode.judge({"ruleset": "onuw", "lang": lang, "deck": deck,
                             "table": {**table, "copies": {"doppelganger": "xyzzy"}}})
        assert meant not in str(info.value) and "xyzzy" in str(info.value)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The card “Doppelgänger” cannot have become “xyzzy”: choose one of "),
    ("it", "La carta «Doppelgänger» non può essere diventata «xyzzy»: scegliete tra "),
    ("de", "Die Karte „Doppelgängerin“ kann nicht zur Rolle „xyzzy“ geworden sein: "),
])
def test_a_copy_that_is_no_role_is_quoted_not_declined(lang: str, said: str) -> None:
    """What was typed is quoted as typed: "zu xyzzy geworden" or "diventata Ubriaco"
    declined (or not) a word the sentence cannot know the gender of."""
    deck = ["doppelganger", "werewolf", "seer", "robber", "villager", "villager"]
    table = {"players": ["Ada", "Bruno", "Carla"],
             "cards": {"Ada": "doppelganger", "Bruno": "werewolf", "Carla": "seer"},
             "votes": {"Ada": "Bruno", "Bruno": "Ada", "Carla": "Ada"},
             "copies": {"doppelganger": "xyzzy"}}
    with pytest.raises(tablemode.TableModeError) as info:
        tablemode.judge({"ruleset": "onuw", "lang": lang, "deck": deck, "table": table})
    assert str(info.value).startswith(said), str(info.value)


@pytest.mark.parametrize(("lang", "typed", "token", "artifact", "listed"), [
    ("it", "Amore", "love", "Maschera del silenzio", "Certezza, Amore, Pipistrello"),
    ("de", "Liebe", "love", "Maske des Schweigens",
     "Gewissheits-Marker, Liebes-Marker, Fledermaus-Marker"),
    ("de", "Gewissheit", "certainty", "maske", "Gewissheits-Marker, Liebes-Marker"),
    ("it", "bounty", "bounty", "claw of the werewolf", "Certezza, Amore, Pipistrello"),
])
def test_the_judges_prompt_takes_tokens_and_artifacts_in_the_readers_words(
        lang: str, typed: str, token: str, artifact: str, listed: str) -> None:
    """An Italian table typed "Certezza" and was told to type one of "certainty, love,
    ...": a token or an artifact is read by its name in the reader's language (or in
    English, or its id), and a refusal lists the names the reader knows."""
    from nightcall.commands.judge import _Questions, judge_module

    module = judge_module("epic")
    assert module is not None
    questions = _Questions("epic", lang, module)
    token_of, artifact_of = questions.token("Ann"), questions.artifact("Ann")
    assert token_of(typed) == token
    assert token_of("") == "certainty"
    drawable = get_ruleset("epic").marks_at_end(["curator", "werewolf", "vampire"])[1]
    assert artifact_of(artifact) in drawable
    assert artifact_of("") == ""
    with pytest.raises(ValueError):
        token_of("pa")  # too short to be the start of one name (Panik, Pest)
    with pytest.raises(ValueError) as info:
        token_of("gold")
    assert listed in str(info.value) and "certainty" not in str(info.value)
    with pytest.raises(ValueError) as info:
        artifact_of("crown")
    assert "claw_of_the_werewolf" not in str(info.value) and "crown" in str(info.value)


# (each language says the scenario's name in that language, which --scenario takes)
SCENARIO_MEANT = {"en": "(did you mean 'Nightfall'?)", "it": "– intendevi «Il calar della notte»?",
                  "de": "– meintest du „Einbruch der Nacht“?"}
FIRST_NIGHT = {"en": "The First Night", "it": "La prima notte", "de": "Die erste Nacht"}


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_a_mistyped_scenario_is_refused_with_the_one_meant_in_the_readers_language(
        lang: str) -> None:
    code, out, err = run_cli("deck", "epic", "-n", "5", "--lang", lang,
                             "--scenario", "nightfal")
    text = flat(out + err)
    assert code == 2 and "Traceback" not in text
    assert SCENARIO_MEANT[lang] in text, text
    assert FIRST_NIGHT[lang] in text  # (the scenarios are still listed)
    code, out, err = run_cli("deck", "epic", "-n", "5", "--lang", lang, "--scenario", "xyzzy")
    text = flat(out + err)
    assert code == 2 and "xyzzy" in text
    assert not any(m.split()[-1] in text for m in SCENARIO_MEANT.values()), text


@pytest.mark.parametrize("typed", ["the-first-night", "The First Night", "THE_FIRST_NIGHT"])
def test_deck_takes_a_scenario_as_every_other_command_does(typed: str) -> None:
    """The deck command named the scenario by its own lookup, stricter than the one that
    builds the deck: "the-first-night" built the deck, then was refused."""
    assert get_ruleset("epic").scenario_id(typed) == "the_first_night"
    code, out, err = run_cli("deck", "epic", "-n", "5", "--scenario", typed)
    assert code == 0, flat(out + err)
    assert "The First Night" in flat(out)


def test_an_epic_battle_is_found_without_its_prefix_and_guessed_when_mistyped() -> None:
    epic = get_ruleset("epic")
    assert epic.scenario_id("blood moon") == "epic_battle_blood_moon"
    with pytest.raises(DeckError, match="did you mean 'Epic Battle: Blood Moon'"):
        epic.scenario_id("blod moon")
    with pytest.raises(DeckError, match="did you mean 'The First Night'"):
        epic.scenario_id("frist night")
    # "The" left out, as people say them
    assert epic.scenario_id("first night") == "the_first_night"
    assert epic.scenario_id("Last Showdown") == "epic_battle_the_last_showdown"
    with pytest.raises(DeckError, match="One Night Ultimate Werewolf has no scenarios"):
        get_ruleset("onuw").scenario_id("nightfall")
