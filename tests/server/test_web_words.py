"""The pages' words: one table per language in web/locales, the same keys and
placeholders in each, real translations, and every key the pages ask for exists."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from nightcall.server.app import web_dir

LANGS = ("en", "it", "de")
# Keys that are only placeholders and punctuation: the same in every language.
FORMAT_ONLY = {"act.other", "tag.bot", "end.dealt_final", "pack.pick"}


def words(lang: str) -> dict[str, str]:
    data = json.loads((web_dir() / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def slots(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", ["it", "de"])
def test_every_english_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    english, other = words("en"), words(lang)
    missing = sorted(set(english) - set(other))
    assert not missing, f"{lang} lacks {missing}"
    assert not set(other) - set(english), "a key English does not have (a typo?)"
    for key, text in english.items():
        assert other[key].strip(), (lang, key)
        assert slots(other[key]) == slots(text), (lang, key)


@pytest.mark.parametrize("lang", ["it", "de"])
def test_translations_are_not_copies_of_english(lang: str) -> None:
    english, other = words("en"), words(lang)
    same = [k for k, v in english.items() if other[k] == v and k not in FORMAT_ONLY]
    assert not same, (lang, same)


def _sources() -> list[Path]:
    root = web_dir()
    return sorted((root / "js").glob("*.js")) + sorted(root.glob("*.html"))


def test_every_key_the_pages_use_exists_in_english() -> None:
    english = words("en")
    used: set[str] = set()
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt\("([a-z_.]+)"', text))
        used |= set(re.findall(r'data-t(?:-placeholder)?="([a-z_.]+)"', text))
    assert used, "the pattern found no keys: the pages changed shape"
    assert not used - set(english), sorted(used - set(english))


def _random_games() -> tuple[set[str], list[tuple[str, list[str], int, dict[str, Any]]]]:
    """The action kinds offered to seats, and each seat's view at the end (with every
    event it saw), in random games."""
    import random

    from nightcall.engine.ruleset import get_ruleset

    actions: set[str] = set()
    views: list[tuple[str, list[str], int, dict[str, Any]]] = []
    for rid, n, deck in (("onuw", 5, None), ("epic", 8, None), ("lupus", 16, "extra")):
        rs = get_ruleset(rid)
        for seed in range(6):
            rng = random.Random(seed)
            roles = rs.default_deck(n, deck) if deck else rs.default_deck(n)
            st = rs.deal([f"P{i}" for i in range(n)], roles, seed)
            while not rs.is_over(st):
                who = rng.choice(rs.waiting_for(st))
                legal = rs.legal_actions(st, who)
                actions |= {a.kind for a in legal}
                rs.apply(st, who, rng.choice(legal))
            views += [(rid, roles, seat, rs.view(st, seat)) for seat in range(n)]
    return actions, views


def test_every_action_and_event_a_phone_meets_has_words() -> None:
    """The phone's actions have the pages' words; its events are told by the server's
    one renderer (the pages write no sentence of their own), in every language, each
    seen event kind with a sentence unless it is a bookkeeping one."""
    from nightcall.narration.render import Told

    english = words("en")
    actions, views = _random_games()
    assert not {k for k in actions if f"act.{k}" not in english}, actions
    told: set[str] = set()
    kinds: set[str] = set()
    for rid, roles, seat, view in views:
        for lang in LANGS:
            said = Told(rid, view["players"], seat, lang, roles)(view["events"])
            assert len(said) == len(view["events"])
            told |= {e["kind"] for e, line in zip(view["events"], said, strict=True) if line}
        kinds |= {e["kind"] for e in view["events"]}
    assert kinds - told <= {"over", "causes", "transformed", "artifact_drawn"}, kinds - told
    assert "eventText" not in (web_dir() / "js" / "text.js").read_text(encoding="utf-8")


def test_every_stage_has_a_name() -> None:
    english = words("en")
    for stage in ("lobby", "night", "discussion", "vote", "day", "accuse", "defense",
                  "execute", "over"):
        assert f"stage.{stage}" in english
