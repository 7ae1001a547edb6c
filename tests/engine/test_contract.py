"""The ruleset contract (engine/ruleset.py): what a ruleset declares is what callers
find, and callers never guess it (issue #13: no getattr on a ruleset, no id checks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nightcall.engine.errors import DeckError
from nightcall.engine.ruleset import MasterChoice, Ruleset, Talk, get_ruleset, load

SRC = Path(__file__).resolve().parents[2] / "src" / "nightcall"
BUILT_IN = ("onuw", "epic", "lupus")


def test_capabilities_are_declared_by_inheritance() -> None:
    assert isinstance(get_ruleset("onuw"), Talk)
    assert isinstance(get_ruleset("epic"), Talk)  # Epic claims by day too (#17)
    assert isinstance(get_ruleset("lupus"), MasterChoice)
    assert not any(isinstance(get_ruleset(r), MasterChoice) for r in ("onuw", "epic"))


@pytest.mark.parametrize("rid", BUILT_IN)
def test_every_declared_part_loads_and_is_what_its_field_says(rid: str) -> None:
    rs = get_ruleset(rid)
    for path in (rs.reasoning_bot, rs.audit_model, rs.audit_games, rs.narration_script,
                 rs.action_space):
        assert path is not None, f"{rid} declares every part but the judge"
        assert callable(load(path)) or path == rs.narration_script
    from nightcall.narration.lines import Script

    assert isinstance(load(rs.narration_script or ""), Script)
    if rs.judge is not None:
        import importlib

        module = importlib.import_module(rs.judge)
        assert callable(module.judge) and callable(module.copies_allowed)
    assert set(rs.call_seconds_by_call) <= set(rs.role_ids) | {"priest", "goblin"}
    assert all(rs.side_of(r) for r in rs.role_ids), "every card plays for a side"


def test_lupus_is_the_game_of_many_nights_and_no_judge() -> None:
    assert get_ruleset("lupus").nights is None and get_ruleset("lupus").judge is None
    assert get_ruleset("onuw").nights == get_ruleset("epic").nights == 1


def test_the_default_options_refuse_an_unknown_option_by_name() -> None:
    with pytest.raises(DeckError, match="Lupus in Tabula has no options, got: colour"):
        get_ruleset("lupus").options({"colour": True})
    assert get_ruleset("lupus").options(None) == {}
    assert get_ruleset("onuw").options(None) == dict(get_ruleset("onuw").default_options)


def test_a_ruleset_without_scenarios_says_so() -> None:
    assert get_ruleset("onuw").scenarios() == []
    with pytest.raises(DeckError, match="has no scenarios"):
        Ruleset.scenario_deck(get_ruleset("onuw"), "x", 5)


def test_load_names_a_missing_attribute() -> None:
    with pytest.raises(ImportError, match="has no 'NOPE'"):
        load("nightcall.engine.ruleset:NOPE")


def test_no_caller_guesses_a_rulesets_capabilities() -> None:
    """No ``getattr`` or ``hasattr`` on a ruleset, no ``sys.modules`` lookup of one's
    module, no test of ``ruleset.id`` against a built-in id, outside the rulesets."""
    pattern = re.compile(
        r"(getattr|hasattr)\((rs|ruleset|room\.ruleset|self\.ruleset)\b"
        r"|sys\.modules\.get\(type\("
        r"|\b(rs|ruleset|self\.ruleset)\.id\s*[!=]=\s*[\"'](onuw|epic|lupus)[\"']")
    # (the Alpha Wolf's extra card is declared: Ruleset.deck_order_kept, center_cards)
    allowed: set[str] = set()
    found = []
    for path in SRC.rglob("*.py"):
        if "rulesets" in path.relative_to(SRC).parts:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if pattern.search(line):
                found.append(f"{path.relative_to(SRC)}: {line.strip()}")
    assert set(found) <= allowed, sorted(set(found) - allowed)
