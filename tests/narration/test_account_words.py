"""The end-of-game account in every language: every event English tells is told in
Italian and German too, line for line, in their own words."""

from __future__ import annotations

import random

import pytest

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.telling import tell
from nightcall.server.narration import timeline

TABLES = [("onuw", 5, None), ("epic", 8, None), ("lupus", 16, "extra")]


def _games(rid: str, n: int, deck: str | None, count: int = 5) -> list[object]:
    rs = get_ruleset(rid)
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        roles = rs.default_deck(n, deck) if deck else rs.default_deck(n)
        st = rs.deal([f"P{i}" for i in range(n)], roles, seed)
        while not rs.is_over(st):
            who = rng.choice(rs.waiting_for(st))
            rs.apply(st, who, rng.choice(rs.legal_actions(st, who)))
        out.append(st)
    return out


@pytest.mark.parametrize(("rid", "n", "deck"), TABLES)
def test_the_timeline_is_told_line_for_line_in_each_language(
        rid: str, n: int, deck: str | None) -> None:
    rs = get_ruleset(rid)
    for st in _games(rid, n, deck):
        english = timeline(rs, st, "en")
        # The web's timeline is the replay's account, the judge's reasoning included.
        assert english == tell(rs, st)
        for lang in ("it", "de"):
            other = timeline(rs, st, lang)
            assert len(other) == len(english), lang
            same = [line for line, en in zip(other, english, strict=True) if line == en]
            assert not same, (lang, same)
            # Sub-steps keep their indentation (the end screen indents them).
            assert [len(x) - len(x.lstrip()) for x in other] == \
                   [len(x) - len(x.lstrip()) for x in english]
