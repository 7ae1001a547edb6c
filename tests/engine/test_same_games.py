"""Engine speed-ups change nothing anyone could see: random games of every ruleset give
the same legal actions, views, records and outcomes as main did before them.

Source: the session-6 engine assignment (issues 13 and 21): "Records, outcomes, events
and views must stay byte-identical: ... a test that random games of each ruleset give
the same record/outcome as before for fixed seeds (compare against stored digests
generated from main at your branch point)". tests/engine/same_games.json holds the
digests made on main at cb4b51d (tests/engine/same_games.py says what a digest covers).
"""

from __future__ import annotations

import json

import pytest

from .same_games import FIXTURE, RULESETS, digests


@pytest.mark.parametrize("rid", RULESETS)
def test_random_games_are_those_main_played_before_the_speed_ups(rid: str) -> None:
    stored: list[str] = json.loads(FIXTURE.read_text())[rid]
    now = digests(rid)
    assert len(now) == len(stored)
    differ = [i for i, (a, b) in enumerate(zip(now, stored, strict=True)) if a != b]
    assert differ == [], f"{len(differ)} of {len(now)} games differ, the first: game {differ[:5]}"
