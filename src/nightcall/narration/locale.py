"""Locale files: ``locales/<lang>.json``, the same keys in every language.

A ruleset's own lines (``RULESET.*``, ``account.RULESET.*``, ``why.RULESET.*``) live in
its own folder, ``rulesets/<id>/locales/<lang>.json`` (``{"lines": {...}}``), so that a
ruleset is one folder; :func:`load` merges them with the shared ones below.

Structure of the shared files (also read by the web host screen)::

    {
      "language": "English",          # the language's own name
      "voice": "en",                  # the espeak-ng voice
      "lines": {"onuw.seer.wake": "Seer, open your eyes. ...", ...}
    }

``lines`` holds one key per line of narration (and per on-screen label, ``ui.*``),
with ``{placeholders}`` filled in by :func:`Locale.line`. Role names come from the
language's glossary, ``locales/glossary/<lang>.json`` (each role's name, gender and
plural, and the articles that agree with each gender): one place for them.
"""

from __future__ import annotations

import importlib
import json
import re
import string
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).parent / "locales"
LANGUAGES = ("en", "it", "de")
# Italian writes "ed" for "and" before a word that starts with e ("Dario ed Elena",
# "ed è"); a name filled into "{first} e {second}" decides it only once it is in.
_EUPHONIC = re.compile(r"(?<![\w'’])e(?= [EeÈèÉé])")


class LocaleError(ValueError):
    """A missing language, key or placeholder."""


@dataclass(frozen=True, slots=True)
class Locale:
    lang: str
    language: str
    voice: str
    roles: dict[str, dict[str, str]]
    lines: dict[str, str]
    glossary: dict[str, Any]  # locales/glossary/<lang>.json

    def line(self, key: str, **values: object) -> str:
        try:
            template = self.lines[key]
        except KeyError:
            raise LocaleError(f"the {self.lang} locale has no line {key!r}") from None
        try:
            text = template.format(**values)
        except KeyError as exc:
            raise LocaleError(f"line {key!r} needs a value for {exc.args[0]!r}") from None
        return _EUPHONIC.sub("ed", text) if self.lang == "it" else text

    def role(self, ruleset: str, role: str) -> str:
        """The role's name in this language, falling back to the id made readable."""
        return self.roles.get(ruleset, {}).get(role, role.replace("_", " ").title())

    def deck(self, ruleset: str, roles: Iterable[str]) -> str:
        """A deck in a few words, each role once in the order first met, with its count
        where there are more: "2 × Werewolf, Seer, 3 × Villager"."""
        counts = Counter(roles)
        return ", ".join(f"{k} × {self.role(ruleset, r)}" if k > 1 else self.role(ruleset, r)
                         for r, k in counts.items())

    def scenario(self, ruleset: str, scenario: str, default: str) -> str:
        """A named scenario's name in this language (``RULESET.scenario.<id>``), or
        ``default`` (the rulebook's) where none is written."""
        return self.lines.get(f"{ruleset}.scenario.{scenario}", default)

    def cause(self, cause: str, ruleset: str = "") -> str:
        """Why a player died ("voted out"): the ruleset's own word
        (``judge.<ruleset>.cause.<id>``) or the shared one (``judge.cause.<id>``), the
        id made readable when no line has it."""
        for key in (f"judge.{ruleset}.cause.{cause}", f"judge.cause.{cause}"):
            if key in self.lines:
                return self.lines[key]
        return cause.replace("_", " ")

    def role_inside(self, ruleset: str, role: str) -> str:
        """A role's name inside a sentence, a list say: a name that carries its article
        says it as a sentence does ("Vampiro, il Conte, Lupo"); the others as they are."""
        entry = self.glossary["roles"].get(ruleset, {}).get(role) or {}
        return entry.get("the") or self.role(ruleset, role)

    def role_as(self, ruleset: str, role: str, form: str) -> str:
        """:meth:`said_as` for a role of a ruleset (its name made readable when the
        glossary lacks it)."""
        entry = self.glossary["roles"].get(ruleset, {}).get(role)
        return self.said_as(entry or {"name": self.role(ruleset, role)}, form)

    def said_as(self, entry: dict[str, str], form: str) -> str:
        """A role's name (its glossary ``entry``) as a sentence says it: ``the`` with the
        definite article ("the Seer"; in Italian and German the bare name, "sei Veggente"),
        ``a`` with the indefinite ("a Seer", "an Owl"). A name that carries its own
        article ("The Count", "Il Conte", "Der Graf") declares how a sentence says it
        (``"the"``: "the Count", "il Conte", "der Graf"), in both forms: it is one of a
        kind.

        ``into`` is the role someone becomes ("becomes a Werewolf", "diventa un Lupo",
        "wird zum Werwolf"), ``into_one`` the same when the deck holds only that one
        card ("diventa l'Infetta"): the glossary's ``forms`` give a pattern per gender, a
        role declares its own where the name is declined ("zur Infizierten") or elided
        ("l'Ubriaco"), and a language without a pattern says the ``a`` form."""
        if form in ("into", "into_one"):
            return self._into(entry, form)
        if form not in ("the", "a"):
            raise LocaleError(f"no form {form!r} of a role's name")
        own = entry.get("the") or entry.get(form)
        return own or str(self.glossary["forms"][form]).format(name=entry["name"])

    def _into(self, entry: dict[str, str], form: str) -> str:
        names = ("into_one", "into") if form == "into_one" else ("into",)
        for name in names:
            if entry.get(name):
                return entry[name]
        if entry.get("the"):  # "il Conte", "the Count": one of a kind
            return entry["the"]
        forms: dict[str, Any] = self.glossary["forms"]
        for name in names:
            pattern = forms.get(name, {}).get(entry.get("gender", ""))
            if pattern:
                return str(pattern).format(name=entry["name"])
        return self.said_as(entry, "a")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def fields(template: str) -> set[str]:
    """:func:`placeholders` with a role's article forms folded into the role
    (``{card_the}`` is ``card``, ``{becomes_into}`` is ``becomes``): each language says a
    name with or without its article as its grammar wants ("the Count card", "la carta
    Il Conte"); the values a line needs are the same."""
    return {name.removesuffix("_the").removesuffix("_a").removesuffix("_into")
            for name in placeholders(template)}


def ruleset_locales_dir(ruleset: object) -> Path:
    """The ``locales`` folder inside the ruleset's own package."""
    module = importlib.import_module(type(ruleset).__module__)
    assert module.__file__ is not None
    return Path(module.__file__).parent / "locales"


def ruleset_lines(lang: str) -> dict[str, str]:
    """Every installed ruleset's own lines in ``lang``; a key that two rulesets (or a
    ruleset and the shared file) both define is refused, never silently replaced."""
    from nightcall.engine.ruleset import all_rulesets

    out: dict[str, str] = {}
    for rid, ruleset in sorted(all_rulesets().items()):
        path = ruleset_locales_dir(ruleset) / f"{lang}.json"
        if not path.exists():
            continue
        own = json.loads(path.read_text(encoding="utf-8"))["lines"]
        clash = sorted(set(own) & set(out))
        if clash:
            raise LocaleError(f"the {rid} ruleset's {lang} lines repeat keys: {clash[:3]}")
        out.update(own)
    return out


@cache
def load(lang: str) -> Locale:
    if lang not in LANGUAGES:
        raise LocaleError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    data = json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    glossary = json.loads((LOCALES_DIR / "glossary" / f"{lang}.json").read_text(encoding="utf-8"))
    lines = data["lines"]
    own = ruleset_lines(lang)
    if clash := sorted(set(own) & set(lines)):
        raise LocaleError(f"keys both shared and a ruleset's own ({lang}): {clash[:3]}")
    roles = {rid: {role: entry["name"] for role, entry in entries.items()}
             for rid, entries in glossary["roles"].items()}
    return Locale(
        lang=lang,
        language=data["language"],
        voice=data["voice"],
        roles=roles,
        lines={**lines, **own},
        glossary=glossary,
    )
