"""Every locale has every key, with the same placeholders, and the rulebooks' role names."""

from __future__ import annotations

import json
import re

import pytest

from nightcall.engine.ruleset import all_rulesets
from nightcall.narration import lines
from nightcall.narration.locale import LANGUAGES, LOCALES_DIR, LocaleError, fields, load

from .helpers import need_ruleset, rules_text

# Entries of "roles" that name a call rather than a card.
CALL_NAMES = {"tokens", "lovers", "vampires", "werewolves", "werewolves_dream_wolf", "freemasons"}


def raw(lang: str) -> dict[str, object]:
    data = json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_every_locale_has_the_same_keys_and_placeholders() -> None:
    english = load("en")
    for lang in LANGUAGES:
        other = load(lang)
        assert set(other.lines) == set(english.lines), lang
        for key, text in english.lines.items():
            assert fields(other.lines[key]) == fields(text), (lang, key)
            assert other.lines[key].strip(), (lang, key)
        for ruleset, names in english.roles.items():
            assert set(other.roles[ruleset]) == set(names), (lang, ruleset)


def test_every_key_a_script_uses_exists() -> None:
    for lang in LANGUAGES:
        missing = lines.all_keys() - set(load(lang).lines)
        assert not missing, (lang, sorted(missing))


def test_the_structure_is_the_documented_one() -> None:
    for lang in LANGUAGES:
        data = raw(lang)
        # The role names moved to the glossary (glossary/<lang>.json, issue 19).
        assert set(data) == {"language", "voice", "lines"}
        assert data["voice"] == lang  # the espeak-ng voice of the language
        glossary = json.loads((LOCALES_DIR / "glossary" / f"{lang}.json").read_text("utf-8"))
        assert set(glossary) == {"language", "about", "forms", "articles", "roles"}
        assert glossary["language"] == data["language"]


def test_translations_are_not_copies_of_english() -> None:
    """A line with words of its own is translated; one that only arranges its values
    ("{name} ({cause})") may read the same in every language."""
    english = load("en").lines
    for lang in ("it", "de"):
        other = load(lang).lines
        same = [k for k, v in english.items() if other[k] == v and not k.startswith("count.")
                and re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", v))]
        assert not same, (lang, same)


def test_every_role_of_every_registered_ruleset_has_a_name() -> None:
    for rid, ruleset in all_rulesets().items():
        for lang in LANGUAGES:
            names = load(lang).roles.get(rid, {})
            missing = [r for r in ruleset.role_ids if r not in names]
            assert not missing, (rid, lang, missing)


def test_italian_one_night_names_are_the_italian_rulebooks() -> None:
    text = rules_text("one-night-ultimate-werewolf.it.txt")
    names = load("it").roles["onuw"]
    for role in ("werewolf", "minion", "mason", "seer", "robber", "troublemaker", "drunk",
                 "insomniac", "hunter", "tanner", "villager", "doppelganger"):
        stem = names[role][:-1]  # "Lupo" / "Lupi", "Massone" / "Massoni"
        assert stem in text, (role, names[role])


def test_german_epic_names_are_the_rulebooks() -> None:
    text = rules_text("epic-battle-rulebook.txt")
    german = load("de").roles["epic"]
    english = load("en").roles["epic"]
    for role, name in german.items():
        if role in CALL_NAMES or role in ("renfield", "venus"):
            continue  # names of calls, not roles; or the same word in both languages
        # The rulebook writes "Alpha Wolf (Alphawolf): ..." for each role.
        assert re.search(rf"{re.escape(english[role])} \({re.escape(name)}\)", text), (
            role, name)


def test_a_missing_line_or_value_is_a_clear_error() -> None:
    en = load("en")
    with pytest.raises(LocaleError, match="no line 'nope'"):
        en.line("nope")
    with pytest.raises(LocaleError, match="minutes"):
        en.line("onuw.day.discussion")
    with pytest.raises(LocaleError, match="unknown language 'fr'"):
        load("fr")


def test_epic_and_lupus_calls_all_have_lines() -> None:
    """No call of a registered ruleset falls back to the generic wording."""
    from nightcall.narration.script import build_script

    for rid in ("epic", "lupus"):
        need_ruleset(rid)
    epic = all_rulesets()["epic"]
    every = [r for r in epic.role_ids]
    for night in (1,):
        fallbacks = [s for s in build_script("epic", every, night=night) if s.fallback]
        assert not fallbacks, fallbacks
    lupus = all_rulesets()["lupus"]
    for night in (1, 2, 3):
        steps = build_script("lupus", list(lupus.role_ids), night=night)
        assert not [s for s in steps if s.fallback]


def test_lines_are_our_own_words_not_the_rulebooks_quotes() -> None:
    """No narration line of some length is a near copy of a line the rulebooks quote."""
    import difflib

    books = ["one-night-ultimate-werewolf.md", "epic-battle-rulebook.txt",
             "lupus-in-tabula.md", "one-night-narrator-guide.txt",
             "one-night-ultimate-werewolf.it.txt"]
    quotes: list[str] = []
    for book in books:
        text = rules_text(book)
        quotes += re.findall(r'"([^"]{12,})"', text) + re.findall(r"“([^”]{12,})”", text)
    assert len(quotes) > 100  # the books' narrator lines were found

    def norm(s: str) -> str:
        return re.sub(r"[^a-zà-ü0-9 ]", "", s.lower())

    normalized = [norm(q) for q in quotes]
    for lang in LANGUAGES:
        for key, line in load(lang).lines.items():
            if len(line.split()) < 7:
                continue  # "Seer, close your eyes." can only be said so many ways
            matcher = difflib.SequenceMatcher(None)
            matcher.set_seq2(norm(line))  # analysed once, compared with every quote
            for quote in normalized:
                matcher.set_seq1(quote)
                # The quick ratios are upper bounds: most quotes are ruled out cheaply.
                if matcher.real_quick_ratio() < 0.72 or matcher.quick_ratio() < 0.72:
                    continue
                assert matcher.ratio() < 0.72, (lang, key, line, quote)


def test_a_rulesets_own_lines_live_in_its_folder() -> None:
    """A ruleset is one folder: its lines are in rulesets/<id>/locales, none of them in
    the shared files, and each of its languages has the same keys."""
    from nightcall.narration.locale import ruleset_locales_dir

    for rid, ruleset in all_rulesets().items():
        folder = ruleset_locales_dir(ruleset)
        own = {lang: json.loads((folder / f"{lang}.json").read_text("utf-8"))["lines"]
               for lang in LANGUAGES}
        assert own["en"], rid
        for lang in LANGUAGES:
            assert set(own[lang]) == set(own["en"]), (rid, lang)
            assert all(k.split(".")[0] == rid or k.split(".")[1] == rid for k in own[lang])
            shared = raw(lang)["lines"]
            assert isinstance(shared, dict)
            strays = [k for k in shared if rid in k.split(".")[:2]]
            assert not strays, (rid, lang, strays[:5])
            assert own[lang].items() <= load(lang).lines.items()  # and load() reads them


def test_every_scenario_is_named_in_every_language() -> None:
    """The English name is the rulebook's (scenarios.py); Italian and German have names
    of their own, and no two scenarios share one."""
    for rid, ruleset in all_rulesets().items():
        listing = ruleset.scenarios()
        for lang in LANGUAGES:
            loc = load(lang)
            names = [loc.scenario(rid, str(s["id"]), "") for s in listing]
            assert all(names), (rid, lang)
            assert len(set(names)) == len(names), (rid, lang)
            if lang == "en":
                assert names == [s["name"] for s in listing]


def test_italian_says_ed_before_a_word_that_starts_with_e() -> None:
    """ "Carla, Dario ed Elena" (session 26: "Dario e Elena" in the judge's reasons). """
    it = load("it")
    assert it.line("unit.and", first="Carla, Dario", second="Elena") == "Carla, Dario ed Elena"
    assert it.line("unit.and", first="Carla", second="Bruno") == "Carla e Bruno"
    assert it.line("unit.and", first="Ada", second="Èrica") == "Ada ed Èrica"
    assert it.line("lupus.dawn.two", first="Ada", second="Ettore", last="Ettore").startswith(
        "Stanotte il villaggio ha perso Ada ed Ettore;")
    # only the word "e": not a name's last letter, not an elision, not other languages
    assert it.line("unit.and", first="Dante", second="Ugo") == "Dante e Ugo"
    assert load("de").line("unit.and", first="Carla", second="Elena") == "Carla und Elena"
