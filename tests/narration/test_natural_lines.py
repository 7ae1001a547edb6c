"""Lines of the account as a native speaker says them: the role someone becomes, with
the article and case its language wants ("Dario wird zur Infizierten", "Dario diventa
l'Infetta", never "Dario wird Infizierte"), and a dawn that always tells its dead."""

from __future__ import annotations

import re

import pytest

from nightcall.engine.outcome import Reason, Term
from nightcall.engine.ruleset import all_rulesets
from nightcall.narration.locale import LANGUAGES, load
from nightcall.narration.render import Renderer
from nightcall.narration.telling import explain

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
# The role someone becomes: the article (or, in German, "zu" and the article) and the
# name, declined as the glossary declares it.
BECOMES = {
    "it": re.compile(
        r"^Dario diventa (?P<art>il|lo|la|l'|una|uno|un'|un)(?P<sp> ?)(?P<name>.+)\.$"),
    "de": re.compile(r"^Dario wird (?P<art>zum|zur) (?P<name>.+)\.$"),
}
ARTICLES = {"it": {"m": {"il", "lo", "l'", "un", "uno"}, "f": {"la", "l'", "una", "un'"}},
            "de": {"m": {"zum"}, "n": {"zum"}, "f": {"zur"}}}


def _becomes(rid: str, role: str, lang: str, copies: int = 1) -> str:
    deck = [role] * copies
    told = Renderer(rid, PLAYERS, None, lang, deck, master=True).event(
        {"kind": "became", "role": role}, 3)
    assert told is not None
    return told


@pytest.mark.parametrize(("lang", "role", "copies", "told"), [
    ("de", "infected", 1, "Dario wird zur Infizierten."),
    ("it", "infected", 1, "Dario diventa l'Infetta."),
    ("it", "infected", 2, "Dario diventa un'Infetta."),
    ("de", "werewolf", 2, "Dario wird zum Werwolf."),
    ("it", "werewolf", 2, "Dario diventa un Lupo."),
    ("it", "seer", 1, "Dario diventa il Veggente."),
    ("de", "insomniac", 1, "Dario wird zur Schlaflosen."),
    ("it", "insomniac", 1, "Dario diventa l'Insonne."),
    ("de", "the_count", 1, "Dario wird zum Grafen."),
    ("it", "the_count", 1, "Dario diventa il Conte."),
    ("de", "the_thing", 1, "Dario wird zum Ding."),
    ("de", "sight_wolf", 1, "Dario wird zum Sehenden Wolf."),
    ("it", "fortune_teller", 2, "Dario diventa un'Indovina."),
    ("en", "infected", 1, "Dario becomes an Infected."),
    ("en", "the_master", 1, "Dario becomes the Master."),
])
def test_a_mimic_becomes_a_role_with_its_article(lang: str, role: str, copies: int,
                                                 told: str) -> None:
    assert _becomes("epic", role, lang, copies) == told


@pytest.mark.parametrize("lang", ["it", "de"])
def test_every_role_someone_can_become_agrees_in_gender_and_case(lang: str) -> None:
    """Every role of every ruleset, alone in the deck and with a second copy: the
    article agrees with the role's gender, an Italian name opening with a vowel is
    elided (l'Ubriaco, un'Indovina) and is "the" one when the deck holds one, and a
    German adjective after "zum" is declined ("zum Betrunkenen", not "zum Betrunkener")."""
    glossary = load(lang).glossary["roles"]
    checked = 0
    for rid in ("onuw", "epic", "lupus"):
        for role in all_rulesets()[rid].role_ids:
            entry = glossary[rid][role]
            if entry["gender"] == "pl":
                continue  # a group call ("the Werewolves"), never one player's role
            for copies in (1, 2):
                told = _becomes(rid, role, lang, copies)
                m = BECOMES[lang].match(told)
                assert m, told
                art, name = m["art"], m["name"]
                assert art in ARTICLES[lang][entry["gender"]], told
                if lang == "it":
                    vowel = name[:1].lower() in "aeiou"
                    assert (art in ("l'", "un'") or (art == "un" and vowel)) == vowel, told
                    assert (m["sp"] == "") == art.endswith("'"), told
                    if "the" not in entry:  # ("il Conte" is one of a kind)
                        assert art in ("il", "lo", "la", "l'") if copies == 1 else \
                            art in ("un", "uno", "una", "un'"), told
                else:  # an adjective's nominative: "zum Betrunkener", "zum Sehender Wolf"
                    assert not re.search(r"(?:en|nd)er\b", name), told
                checked += 1
    assert checked > 40


@pytest.mark.parametrize(("lang", "told"), [
    ("en", "Anna, the Mythomaniac, had become a Werewolf and plays as one."),
    ("it", "Il Mitomane, Anna, era diventato un Lupo Mannaro e gioca come tale."),
    ("de", "Anna, der Mythomane, ist zum Werwolf geworden und spielt nun in dieser Rolle."),
])
def test_the_judges_say_what_the_mythomaniac_became(lang: str, told: str) -> None:
    reason = Reason("lupus.mythomaniac", {"name": "Anna", "role": Term("role", "werewolf")})
    assert explain((reason,), lang) == [told]
    # (a Seer too: "als solcher" read wrong after "zur Seherin")
    seer = Reason("lupus.mythomaniac", {"name": "Anna", "role": Term("role", "seer")})
    assert "Seherin" in explain((seer,), "de")[0] and "solche" not in explain((seer,), "de")[0]


def test_the_doppelganger_reason_says_what_she_became_in_german() -> None:
    """It said "und sie hat Schlaflose kopiert": a role with no article."""
    reason = Reason("onuw.doppelganger", {"name": "Anna", "role": Term("role", "insomniac")})
    assert explain((reason,), "de") == [
        "Anna hat die Karte der Doppelgängerin, die zur Schlaflosen geworden ist: "
        "Anna zählt als Schlaflose."]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("dead", [[1], [1, 2]])
def test_a_dawn_with_its_dead_but_no_last_names_them(lang: str, dead: list[int]) -> None:
    """With no ``last`` the Master's account chose the "nobody died" line."""
    told = Renderer("lupus", PLAYERS, None, lang, master=True).event(
        {"kind": "dawn", "night": 2, "dead": dead, "last": None}, None)
    nobody = Renderer("lupus", PLAYERS, None, lang, master=True).event(
        {"kind": "dawn", "night": 2, "dead": [], "last": None}, None)
    assert told is not None and told != nobody
    assert all(PLAYERS[s] in told for s in dead), told
    assert "2" in told


@pytest.mark.parametrize(("lang", "rid", "kind", "told"), [
    ("de", "epic", "vampires", "Die Vampire erwachen: Anna, Bruno."),
    ("de", "epic", "lovers", "Die Verliebten erwachen: Anna, Bruno."),
    ("de", "onuw", "masons", "Die Freimaurer erwachen: Anna, Bruno."),
    ("it", "epic", "lovers", "Si svegliano gli innamorati: Anna, Bruno."),
    ("it", "onuw", "masons", "Si svegliano i Massoni: Anna, Bruno."),
])
def test_a_group_waking_is_said_as_a_native_would(lang: str, rid: str, kind: str,
                                                  told: str) -> None:
    """It was "Wach als Verliebte: ..." and "Svegli come innamorati: ...": a label, not
    a sentence."""
    assert Renderer(rid, PLAYERS, None, lang, master=True).event(
        {"kind": kind, "seats": [0, 1]}, None) == told


@pytest.mark.parametrize(("lang", "key", "said"), [
    ("de", "onuw.village_wins", "Mindestens ein Werwolf ist gestorben (Anna und Bruno)"),
    ("it", "onuw.village_wins", "È morto almeno un Lupo (Anna e Bruno)"),
    ("de", "epic.wolf_died", "Mindestens ein Werwolf ist gestorben (Anna und Bruno)"),
    ("it", "epic.vampire_died", "È morto almeno un vampiro (Anna e Bruno)"),
])
def test_two_dead_wolves_are_not_one(lang: str, key: str, said: str) -> None:
    """"Ein Werwolf ist gestorben (Anna und Bruno)" counted two players as one."""
    assert explain((Reason(key, {"names": ("Anna", "Bruno")}),), lang)[0].startswith(said)


def test_the_master_protected_from_a_vampire_is_this_person_in_german() -> None:
    """It said "Sie ist der Meister", a "she" nobody was named as."""
    reason = Reason("epic.protected", {"name": "Anna", "why": Reason(
        "epic.safe.master", {"names": ("Bruno",)})})
    assert explain((reason,), "de") == [
        "Anna kann nicht getötet werden: Diese Person ist der Meister, und ein Vampir "
        "zeigt auf sie (Bruno)."]


@pytest.mark.parametrize(("lang", "told"), [
    ("en", "Called: the Count."), ("it", "Chiamata: il Conte."), ("de", "Aufgerufen: der Graf."),
])
def test_a_role_whose_name_has_its_article_is_called_mid_sentence(lang: str, told: str) -> None:
    """Session 25: a phone's list read "Aufgerufen: Der Graf." beside "die Vampire"."""
    assert Renderer("epic", ["A", "B", "C"], 0, lang=lang).event(
        {"kind": "call", "call": "the_count"}) == told


def test_the_opening_list_says_a_name_with_its_article_in_lower_case() -> None:
    loc = load("de")
    assert [loc.role_inside("epic", r) for r in ("vampire", "the_count", "the_thing")] == [
        "Vampir", "der Graf", "das Ding"]
    assert load("en").role_inside("epic", "seer") == "Seer"  # (no article added)
    from .helpers import run_cli

    code, out, _ = run_cli("narrate", "epic", "-n", "5", "--scenario", "nightfall", "--print",
                           "--lang", "de")
    assert code == 0 and ": Nachahmer, Vampir, der Graf, Priester, das Ding," in out
