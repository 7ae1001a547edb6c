"""Rulesets are found through the ``nightcall.rulesets`` entry-point group."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from nightcall.engine import ruleset as registry
from nightcall.engine.errors import DeckError

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = '''
from nightcall.rulesets.onuw.game import OneNight

class Tiny(OneNight):
    id = "tiny"
    title = "A tiny One Night"

TINY = Tiny()
MISNAMED = Tiny()
NOT_A_RULESET = object()
'''


@pytest.fixture
def plugin(tmp_path: Path) -> Iterator[None]:
    """An installed third-party package (module and dist-info) that declares rulesets."""
    (tmp_path / "tiny_ruleset.py").write_text(PLUGIN)
    info = tmp_path / "tiny_ruleset-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-ruleset\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[nightcall.rulesets]\ntiny = tiny_ruleset:TINY\n"
        "misnamed = tiny_ruleset:MISNAMED\nbroken = tiny_ruleset:NOT_A_RULESET\n")
    sys.path.insert(0, str(tmp_path))
    try:
        yield
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("tiny_ruleset", None)
        registry._REGISTRY.pop("tiny", None)


def test_the_built_in_entry_points_are_the_ones_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "entry-points"][registry.ENTRY_POINT_GROUP]
    assert declared == registry.BUILTIN


def test_the_built_in_rulesets_load_by_id() -> None:
    for ruleset_id in ("onuw", "epic", "lupus"):
        assert registry.get_ruleset(ruleset_id).id == ruleset_id


def test_an_unknown_id_names_the_known_ones_in_the_order_of_every_list() -> None:
    # The same order as `nightcall deck` without a game and every menu of games.
    assert registry.ruleset_ids()[:3] == ["onuw", "epic", "lupus"]
    assert list(registry.all_rulesets()) == registry.ruleset_ids()
    with pytest.raises(DeckError, match=r"unknown ruleset 'chess' \(known: onuw, epic, lupus\b"):
        registry.get_ruleset("chess")


def test_a_ruleset_in_another_package_is_found(plugin: None) -> None:
    tiny = registry.get_ruleset("tiny")
    assert type(tiny).__name__ == "Tiny" and tiny.id == "tiny"


def test_an_entry_point_must_name_a_ruleset_of_its_own_id(plugin: None) -> None:
    with pytest.raises(TypeError, match="is the ruleset 'tiny'"):
        registry.get_ruleset("misnamed")
    with pytest.raises(TypeError, match="is not a Ruleset"):
        registry.get_ruleset("broken")
