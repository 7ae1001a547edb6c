"""The balance report: a small run writes the page, its table rows and its plot."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightcall.sim import balance


def test_report_is_written(tmp_path: Path) -> None:
    balance.main(["--only", "onuw", "--games", "12", "--reasoning-games", "3",
                  "--workers", "1", "--out", str(tmp_path)])
    page = (tmp_path / "balance.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and "random" in line]
    assert len(rows) == 8  # One Night, 3 to 10 players
    assert "| 5 | reasoning | 3 |" in page
    assert (tmp_path / "balance" / "onuw.png").read_bytes()[:4] == b"\x89PNG"


def test_epic_rows_cover_every_scenario_and_player_count() -> None:
    from nightcall.engine.ruleset import get_ruleset

    epic = get_ruleset("epic")
    rows = balance.scenario_rows(epic, 10)
    scenarios = epic.scenarios()
    assert {r.group for r in rows} == {s["id"] for s in scenarios}
    for s in scenarios:
        counts = {r.setup.players for r in rows if r.group == s["id"]}
        assert counts <= set(range(s["min_players"], s["max_players"] + 1))
        assert counts


def test_the_report_covers_the_one_night_rulesets_by_their_own_declarations() -> None:
    from nightcall.engine.ruleset import all_rulesets

    covered = {rs.id for rs in balance.report_rulesets()}
    assert covered == {rs.id for rs in all_rulesets().values() if rs.nights == 1}
    assert {"onuw", "epic"} <= covered and "lupus" not in covered


def test_only_refuses_a_ruleset_the_report_does_not_cover(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        balance.main(["--only", "lupus", "--out", str(tmp_path)])
    assert "'lupus' is not a one-night ruleset" in capsys.readouterr().err
    assert not (tmp_path / "balance.md").exists()
