"""A role whose name carries its own article ("The Count", "Il Conte", "Der Graf") is
said with it once: "You see your card: the Count.", never "the The Count"; and the
English indefinite article fits the name ("an Owl")."""

from __future__ import annotations

import re
import string

import pytest

from nightcall.engine.outcome import Reason, Term
from nightcall.engine.ruleset import all_rulesets
from nightcall.narration.locale import LANGUAGES, load
from nightcall.narration.render import ROLE, Renderer
from nightcall.narration.telling import Teller, explain

from .test_glossary import ruleset_of

PLAYERS = ["Ann", "Bob", "Cy"]
# Two articles in a row, in any of the three languages ("the The", "il Il", "der Der").
ARTICLES = r"(?:the|a|an|il|lo|la|l'|i|gli|le|un|una|der|die|das|den|dem|ein|eine)"
DOUBLED = re.compile(rf"(?<![\w']){ARTICLES}\s+{ARTICLES}(?!\w)", re.IGNORECASE)
A_BEFORE_VOWEL = re.compile(r"(?<![\w'])a\s+[AEIOUaeiou]")


@pytest.mark.parametrize(("lang", "event", "seen", "told"), [
    ("en", {"kind": "deal", "seat": 0, "card": "the_count"},
     "You look at your card: you are the Count.", "You look at your card: you are the Count."),
    ("it", {"kind": "deal", "seat": 0, "card": "the_count"},
     "Guardi la tua carta: sei il Conte.", "Guardi la tua carta: sei il Conte."),
    ("de", {"kind": "deal", "seat": 0, "card": "the_count"},
     "Du siehst dir deine Karte an: du bist der Graf.",
     "Du siehst dir deine Karte an: du bist der Graf."),
    ("en", {"kind": "saw", "seat": 1, "card": "the_thing"},
     "You see Bob's card: the Thing.", "Ann looks at Bob's card: The Thing."),
    ("it", {"kind": "saw", "seat": 1, "card": "the_thing"},
     "Vedi la carta di Bob: la Cosa.", "Ann guarda la carta di Bob: La Cosa."),
    ("de", {"kind": "saw", "seat": 1, "card": "the_thing"},
     "Du siehst die Karte von Bob: das Ding.", "Ann sieht sich die Karte von Bob an: Das Ding."),
    ("en", {"kind": "became", "role": "the_master"},
     "You are now the Master.", "Ann becomes the Master."),
    ("it", {"kind": "became", "role": "the_master"},
     "Ora sei il Maestro.", "Ann diventa il Maestro."),
    ("de", {"kind": "became", "role": "the_master"},
     "Du bist jetzt der Meister.", "Ann wird zum Meister."),
    ("en", {"kind": "claim", "seat": 1, "role": "insomniac", "saw": 2},
     "Bob says: “I saw Cy's card: the Insomniac.”",
     "Bob says they saw that Cy was an Insomniac."),
])
def test_a_role_with_its_own_article_reads_once(lang: str, event: dict[str, object],
                                                seen: str, told: str) -> None:
    assert Renderer("epic", PLAYERS, 0, lang).event(event) == seen
    assert Renderer("epic", PLAYERS, None, lang, master=True).event(event, 0) == told


def test_the_judges_reason_names_the_count_once() -> None:
    reason = Reason("epic.artifact_role", {"name": "Ann", "card": Term("role", "seer"),
                                           "artifact": Term("artifact", "claw_of_the_werewolf"),
                                           "role": Term("role", "the_count")})
    assert explain((reason,), "en") == [
        "Ann holds the Seer card but the Claw of the Werewolf makes them the Count."]
    assert "come il Conte" in explain((reason,), "it")[0]
    assert "als der Graf" in explain((reason,), "de")[0]


def test_a_card_named_with_its_article_is_the_count_card() -> None:
    """"Ann holds the The Count card" was the account's and the judge's line until
    session 10: the card is said with the name's own article, once."""
    reason = Reason("epic.artifact_role_lost", {
        "name": "Ann", "card": Term("role", "the_master"),
        "artifact": Term("artifact", "claw_of_the_werewolf"), "role": Term("role", "werewolf")})
    assert explain((reason,), "en") == [
        "Ann holds the Master card but the Claw of the Werewolf makes them a Werewolf "
        "(the card's vote ability is lost)."]
    # A name that opens with its article is quoted mid-sentence (session 16; it was
    # "die Karte Der Meister", "la carta Il Maestro").
    assert "la carta «Il Maestro», ma" in explain((reason,), "it")[0]
    assert "die Karte „Der Meister“, aber" in explain((reason,), "de")[0]
    assert _final_as("en", "the_count", "werewolf") == \
        "Ann: the Count card, counting as a Werewolf"


def _final_as(lang: str, card: str, role: str) -> str:
    say = Teller("epic", lang)  # (a Term fills {card}, {card_the} and {card_a})
    return say("epic.final_as", name="Ann", card=Term("role", card), role=Term("role", role))


def test_a_counted_role_named_with_its_article_is_said_mid_sentence() -> None:
    """Until session 14 the end of an account said "zählt als Der Graf" and "counting as
    The Count": a name that carries its article is said the way a sentence says it."""
    assert _final_as("en", "vampire", "the_count").endswith(
        "counting as the Count")
    assert "vale come il Conte" in _final_as("it", "vampire", "the_count")
    assert "zählt als der Graf" in _final_as("de", "vampire", "the_count")
    assert "zählt als Vampir" in _final_as("de", "the_count", "vampire")


def _roles(key: str) -> list[tuple[str, str]]:
    return [(rid, role) for rid in ruleset_of(key) for role in all_rulesets()[rid].role_ids]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_line_puts_an_article_before_a_name_that_has_one(lang: str) -> None:
    """Every line of the language, every role of its ruleset in every place a line names
    a role (``{card}``, ``{role_the}``, ``{becomes_a}``, ...): the word before it and the
    name as the line says it are never two articles ("the The Count", "il Il Conte",
    "der Der Graf"), nor English "a" before a vowel."""
    loc = load(lang)
    checked = 0
    for key, template in loc.lines.items():
        if (lang == "en" and key.startswith("refusal.")) or ".deck." in f".{key}":
            continue  # (English refusals are the rules' own sentences, never shown; a
            # deck's {card} is a playing card)
        text = ""
        for literal, name, _, _ in string.Formatter().parse(template):
            text += literal
            if not name:
                continue
            field, _, form = name.partition("_")
            if field in ROLE and form in ("", "the", "a", "into"):
                before = text.split()[-1] if text.split() and text[-1:].isspace() else ""
                for rid, role in _roles(key):
                    said = loc.role_as(rid, role, form) if form else loc.role(rid, role)
                    phrase = f"{before} {said}"
                    assert not DOUBLED.search(phrase), (key, phrase)
                    assert lang != "en" or not A_BEFORE_VOWEL.search(phrase), (key, phrase)
                    checked += 1
            text += "x"
    assert checked > 1000


@pytest.mark.parametrize(("lang", "mine", "theirs", "looked"), [
    ("en", "Your token is the Vampire token.", "Bob's token is the Bat token.",
     "You look at Bob's token: it is the Love token."),
    ("it", "Hai il segnalino Vampiro.", "Bob ha il segnalino Pipistrello.",
     "Vedi il segnalino di Bob: Amore."),
    ("de", "Du hast den Vampir-Marker.", "Bob hat den Fledermaus-Marker.",
     "Du siehst den Marker von Bob: Es ist der Liebes-Marker."),
])
def test_a_token_is_named_in_a_sentence(lang: str, mine: str, theirs: str,
                                        looked: str) -> None:
    r = Renderer("epic", PLAYERS, 0, lang)
    assert r.event({"kind": "token", "seat": 0, "token": "vampire"}) == mine
    assert r.event({"kind": "token", "seat": 1, "token": "bat"}) == theirs
    assert r.event({"kind": "saw_token", "seat": 1, "token": "love"}) == looked


def test_the_master_gives_the_love_tokens_to_two_named_players() -> None:
    told = Renderer("epic", PLAYERS, None, "en", master=True).event(
        {"kind": "gave_token", "seats": [1, 2], "token": "love"}, 0)
    assert told == "Ann gives Bob and Cy the Love tokens."
