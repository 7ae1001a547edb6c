"""The leak audit over a few hundred random games per ruleset: bots in every seat, every
seat's and the spectator's view checked after every step. Zero findings is the only pass
(a leak, or a fact the rules tell a seat that its view lacks)."""

from __future__ import annotations

import itertools
import random

from nightcall.audit import epic as epic_audit
from nightcall.audit import lupus as lupus_audit
from nightcall.audit.core import AuditResult, audit_configs, run_audit
from nightcall.engine.ruleset import get_ruleset


def assert_clean(result: AuditResult, games: int) -> None:
    assert result.games == games
    # Every game is checked after the deal and after every action, for n seats + spectator.
    assert result.messages >= games * 4 + result.actions
    report = "\n".join(str(f) for f in result.findings[:20])
    assert result.findings == [], f"{len(result.findings)} findings:\n{report}"


def test_onuw_random_decks() -> None:
    result = run_audit({"onuw": 300}, seed=1)
    assert_clean(result, 300)
    assert result.actions > 300 * 3  # night moves, talk and votes were really played


def test_epic_every_scenario_and_player_count() -> None:
    mix = epic_audit.games(get_ruleset("epic"), random.Random("audit-test"))
    configs = list(itertools.islice(mix, 300))
    labels = {c.label for c in configs}
    assert len(labels) == 31  # the 30 scenarios and Anarchy
    assert_clean(audit_configs(configs), 300)


def test_lupus_several_sizes() -> None:
    lupus = get_ruleset("lupus")
    small = itertools.islice(lupus_audit.games(lupus, random.Random("audit-small"),
                                               (7, 8, 9, 10, 11, 12)), 120)
    large = itertools.islice(lupus_audit.games(lupus, random.Random("audit-large"),
                                               (13, 16, 23)), 12)
    configs = [*small, *large]
    assert {c.label for c in configs} == {"lupus/base", "lupus/extra"}
    assert_clean(audit_configs(configs), 132)
