"""Records written before the rules' second pass keep replaying to the same outcome.

Source: issue 13, "Records written before this change still replay to the same
outcome: keep a set of recorded games from main as fixtures and replay them". The
fixtures in from-main/ are live random games played on main at d0d9ad4 (by
from-main/generate.py), each saved with the outcome main printed for it.

Since then ``final.cards`` lists the physical cards (shared/spec/game-record.md,
"The outcome") and ``final.roles`` what each player counts as. Main printed the
resolved card there (a Doppelgänger or Mimic card as its copy, no artifact or token
applied): that is ``final.roles`` where no artifact or Vampire token changed the
player, and the card itself where no copy was made. And the werewolves' line of the
One Night check no longer repeats the village's "No Werewolf died" (issue #13, session
6: REWORDED). Everything else is unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.telling import explained

# Lines of main's explanation reworded since, and what they read now.
REWORDED = {
    "No Werewolf died: the werewolves win.": "So the werewolves win.",
    "No Werewolf died: the werewolves win, and the Minion with them.":
        "So the werewolves win, and the Minion with them.",
    "A Werewolf died, so the werewolves lose.": "So the werewolves lose.",
    "No Werewolf died, but the Tanner did: the werewolves do not win.":
        "But the Tanner died, so the werewolves do not win.",
    "P3 holds the Doppelgänger card, which copied the Insomniac: they count as a Insomniac.":
        "P3 holds the Doppelgänger card, which copied the Insomniac: they count as an Insomniac.",
}
# Openings reworded since (session 17: two dead wolves are not "a" wolf).
REWORDED_OPENINGS = {
    "A Werewolf died (": "At least one Werewolf died (",
    "A werewolf died (": "At least one werewolf died (",
    "A vampire died (": "At least one vampire died (",
}
FIXTURES = sorted((Path(__file__).parent / "from-main").glob("*.json"))


def _reworded(line: str) -> str:
    for old, new in REWORDED_OPENINGS.items():
        if line.startswith(old):
            return new + line.removeprefix(old)
    return REWORDED.get(line, line)


def test_there_are_fixtures_of_every_ruleset() -> None:
    kinds = {json.loads(p.read_text())["record"]["ruleset"] for p in FIXTURES}
    assert kinds == {"onuw", "epic", "lupus"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_record_from_main_replays_to_the_outcome_main_gave(path: Path) -> None:
    saved: dict[str, Any] = json.loads(path.read_text())
    ruleset = get_ruleset(saved["record"]["ruleset"])
    now = explained(ruleset.outcome_json(ruleset.replay(saved["record"])))
    before = dict(saved["outcome"])
    before["explanation"] = [_reworded(line) for line in before["explanation"]]
    for key in ("dead", "causes", "winners", "teams", "explanation", "status"):
        assert now.get(key) == before.get(key), key
    old_final = dict(before["final"])
    new_final = dict(now["final"])
    old_cards, cards, roles = old_final.pop("cards"), new_final.pop("cards"), \
        new_final.pop("roles")
    assert set(old_cards) == set(cards) == set(roles) == set(saved["record"]["players"])
    artifacts, tokens = new_final.get("artifacts", {}), new_final.get("tokens", {})
    for name, resolved in old_cards.items():
        if name not in artifacts and tokens.get(name) != "vampire":
            assert roles[name] == resolved, name
        if cards[name] not in ("doppelganger", "mimic", "ghost_hunter", "assassin"):
            assert cards[name] == resolved, name  # a card that copies nothing is itself
    assert new_final == old_final
