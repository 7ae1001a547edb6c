"""Records written before the rules' second pass keep replaying to the same outcome.

Source: issue 13, "Records written before this change still replay to the same
outcome: keep a set of recorded games from main as fixtures and replay them". The
fixtures in from-main/ are live random games played on main at d0d9ad4 (by
from-main/generate.py), each saved with the outcome main printed for it.

Since then ``final.cards`` lists the physical cards (shared/spec/game-record.md,
"The outcome") and what main printed there, the counted-as roles, is now
``final.roles``; everything else must be unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nightcall.engine.ruleset import get_ruleset

FIXTURES = sorted((Path(__file__).parent / "from-main").glob("*.json"))


def test_there_are_fixtures_of_every_ruleset() -> None:
    kinds = {json.loads(p.read_text())["record"]["ruleset"] for p in FIXTURES}
    assert kinds == {"onuw", "epic", "lupus"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_record_from_main_replays_to_the_outcome_main_gave(path: Path) -> None:
    saved: dict[str, Any] = json.loads(path.read_text())
    ruleset = get_ruleset(saved["record"]["ruleset"])
    now = ruleset.outcome_json(ruleset.replay(saved["record"]))
    before = saved["outcome"]
    for key in ("dead", "causes", "winners", "teams", "explanation", "status"):
        assert now.get(key) == before.get(key), key
    old_final = dict(before["final"])
    new_final = dict(now["final"])
    if "roles" in new_final and "roles" not in old_final:
        assert new_final.pop("roles") == old_final.pop("cards")
        new_final.pop("cards")
    assert new_final == old_final
