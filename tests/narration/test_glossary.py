"""The glossary (locales/glossary/<lang>.json): one place per language for the role names,
their gender, plural and articles; every role named in a line must agree with it."""

from __future__ import annotations

import re

import pytest

from nightcall.engine.ruleset import all_rulesets
from nightcall.narration.locale import LANGUAGES, load

RULESETS = ("onuw", "epic", "lupus")


def ruleset_of(key: str) -> tuple[str, ...]:
    """The rulesets whose role names a line may use, from its key."""
    parts = key.split(".")
    for part in parts[:2]:
        if part in RULESETS:
            return (part,)
    if parts[0] == "master":
        return ("lupus",)
    return RULESETS


def allowed_articles(lang: str, gender: str, plural: bool) -> set[str]:
    arts = load(lang).glossary["articles"]
    if lang == "it":
        if gender == "pl":
            return set(arts["pl_m"]) | set(arts["pl_f"])
        if plural:
            return set(arts["pl_m" if gender == "m" else "pl_f"])
        return set(arts[gender]) | set(arts["m_or_f"])
    if gender == "pl" or plural:
        return set(arts["pl"])
    return set(arts[gender])


def every_article(lang: str) -> set[str]:
    return {a for group in load(lang).glossary["articles"].values() for a in group}


def test_every_role_has_a_name_gender_and_plural_in_every_language() -> None:
    for lang in LANGUAGES:
        glossary = load(lang).glossary["roles"]
        for rid, ruleset in all_rulesets().items():
            for role in ruleset.role_ids:
                entry = glossary[rid][role]
                assert entry["name"] and entry["gender"] in ("m", "f", "n", "pl"), (lang, role)
                assert entry.get("plural"), (lang, rid, role)


def test_the_locale_role_names_are_the_glossarys() -> None:
    for lang in LANGUAGES:
        loc = load(lang)
        for rid, entries in loc.glossary["roles"].items():
            for role, entry in entries.items():
                assert loc.role(rid, role) == entry["name"]


def english_names(lang: str) -> set[str]:
    """The English role names (and plurals) that are not also this language's words."""
    own = {form for entries in load(lang).glossary["roles"].values() for e in entries.values()
           for form in (e["name"], e.get("plural", ""))}
    return {form for entries in load("en").glossary["roles"].values()
            for e in entries.values() for form in (e["name"], e.get("plural", ""))
            if form and form not in own and "(" not in form}


@pytest.mark.parametrize("lang", ["it", "de"])
def test_no_line_names_a_role_in_english(lang: str) -> None:
    """An English role name that is not also this language's word (the German lines once
    said "Der Doppelgänger" for the Doppelgängerin)."""
    loc = load(lang)
    english = english_names(lang)
    bad = []
    for key, line in loc.lines.items():
        for name in english:
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line):
                bad.append((key, name, line))
    assert not bad, bad


def misused_articles(lang: str, lines: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(key, role form, article, line) for each article that does not fit the role named
    after it. A form two roles share (German "Freimaurer" is one and many; Italian
    "Veggente" is the Seer and part of "Lupo Veggente") is right if any reading fits."""
    loc = load(lang)
    articles = every_article(lang)
    bad = []
    for key, line in lines.items():
        forms: dict[str, set[str]] = {}
        for rid in ruleset_of(key):
            for entry in loc.glossary["roles"][rid].values():
                for form, plural in ((entry["name"], False), (entry.get("plural"), True)):
                    if form and form.split()[0].lower() not in articles:  # not "Das Ding"
                        forms.setdefault(form, set()).update(
                            allowed_articles(lang, entry["gender"], plural))
        for form, ok in forms.items():
            for m in re.finditer(rf"(?:^|(?<=[\s(«„“\"]))([\w']+?)(\s|(?<='))"
                                 rf"{re.escape(form)}(?!\w)", line):
                word = m.group(1).lower()
                if word in articles and word not in ok:
                    bad.append((key, form, word, line))
    return bad


@pytest.mark.parametrize("lang", ["it", "de"])
def test_every_role_named_after_an_article_agrees_with_the_glossary(lang: str) -> None:
    """"il Veggente", "la Doppelgänger", "die Seherin", "der Werwolf": the article before a
    role name fits the role's gender and number."""
    bad = misused_articles(lang, load(lang).lines)
    assert not bad, bad


def test_the_check_catches_the_defects_the_issue_names() -> None:
    """The checks, on wrong lines like those issue 19 quotes."""
    wrong_it = {"onuw.x": "Notte: viene chiamato di nuovo il Doppelgänger.",
                "lupus.y": "La Veggente indica un giocatore."}
    assert [(k, f, w) for k, f, w, _ in misused_articles("it", wrong_it)] == [
        ("onuw.x", "Doppelgänger", "il"), ("lupus.y", "Veggente", "la")]
    wrong_de = {"onuw.x": "Die Werwolf erwacht.", "epic.y": "Der Hexe zeigt auf jemanden."}
    assert sorted(f for _, f, _, _ in misused_articles("de", wrong_de)) == ["Werwolf"]
    # "der Hexe" is a right dative; "Die Werwolf" is wrong in any case.
    right = {"onuw.z": "Die Doppelgängerin kopiert, der Werwolf schläft, die Werwölfe wachen."}
    assert misused_articles("de", right) == []


@pytest.mark.parametrize("lang", ["it", "de"])
def test_the_pages_words_name_roles_as_the_glossary_does(lang: str) -> None:
    """The pages' texts (web/locales) too: no English role name, and the article before
    a role fits its gender ("la Doppelgänger", "die Doppelgängerin", "il Veggente")."""
    import json
    from pathlib import Path

    import nightcall

    web = Path(nightcall.__file__).parent / "web" / "locales" / f"{lang}.json"
    words = {f"page.{k}": v for k, v in json.loads(web.read_text(encoding="utf-8")).items()
             if isinstance(v, str)}
    # (a help line's ruleset is in its key: help.lupus.seer names Lupus roles)
    lines = {(f"{k.split('.')[2]}.{k}" if k.startswith("page.help.") else k): v
             for k, v in words.items()}
    assert misused_articles(lang, lines) == []
    bad = [(k, name) for k, line in words.items() for name in english_names(lang)
           if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line)]
    assert bad == []


def test_the_words_the_issue_names_are_gone_from_lines_and_pages() -> None:
    """Issue 19, "Words": "Al mio conto" (say "Al mio tre"), "tutti indicano" where an
    imperative is meant, "Morgen 2" (write "2. Morgen"), British spelling mixed into
    the American English."""
    import json
    from pathlib import Path

    import nightcall

    def everything(lang: str) -> list[str]:
        web = Path(nightcall.__file__).parent / "web" / "locales" / f"{lang}.json"
        page = json.loads(web.read_text(encoding="utf-8"))
        return [*load(lang).lines.values(), *(v for v in page.values() if isinstance(v, str))]

    italian = " ".join(everything("it"))
    assert "Al mio conto" not in italian and "tutti indicano" not in italian
    assert not re.search(r"\bMorgen \d", " ".join(everything("de")))
    english = " ".join(everything("en"))
    assert not re.search(r"\b(centre|colour|favour|realise|recognise)s?\b", english)


def test_italian_never_gives_a_players_name_a_gender() -> None:
    """A player's name is Anna or Bruno, so an Italian line about {name} never uses a
    word that agrees with it: "Anna indica se stesso" and "è morto Carla" were both
    shipped. (A role's noun, "il Conciatore", agrees with the glossary instead.)"""
    import json
    from pathlib import Path

    import nightcall

    web = Path(nightcall.__file__).parent / "web" / "locales" / "it.json"
    page = json.loads(web.read_text(encoding="utf-8"))
    lines = {**load("it").lines, **{k: v for k, v in page.items() if isinstance(v, str)}}
    agrees = re.compile(
        r"\bs[eé] stess[oa]\b|\bnon può indicare sé\b"
        r"|\b(?:è|sono) (?:mort|uccis|protett|salvat|sbranat)[oaie] \{names?\}"
        r"|\{names?\} (?:è|sono) (?:mort|uccis|protett|salvat|sbranat)[oaie]\b")
    wrong = {k: v for k, v in lines.items() if agrees.search(v)}
    assert not wrong, wrong
    assert agrees.search("{name} indica se stesso") and agrees.search("è morto {name}")
