"""``nightcall scenarios``: the list with difficulty and player range, and one deck."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nightcall.cli import app

runner = CliRunner()


def test_lists_all_scenarios_as_json() -> None:
    result = runner.invoke(app, ["scenarios", "epic", "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert len(rows) == 31  # 30 named scenarios and Anarchy
    blood = next(r for r in rows if r["name"] == "Epic Battle: Blood Moon")
    assert (blood["difficulty"], blood["min_players"], blood["max_players"]) == (
        "extreme", 5, 8)


def test_filters_by_player_count() -> None:
    rows = json.loads(runner.invoke(app, ["scenarios", "--players", "10", "--json"]).output)
    assert rows and all(r["min_players"] <= 10 <= r["max_players"] for r in rows)
    assert "Lonely Night" not in {r["name"] for r in rows}


def test_table_and_deck() -> None:
    table = runner.invoke(app, ["scenarios"])
    assert table.exit_code == 0 and "The First Night" in table.output
    deck = runner.invoke(app, ["scenarios", "--show", "Werewolf Night", "-n", "6", "--json"])
    data = json.loads(deck.output)
    assert len(data["roles"]) == 9 and data["extra"] == "werewolf"


def test_errors_exit_2() -> None:
    assert runner.invoke(app, ["scenarios", "--show", "Lonely Night", "-n", "9"]).exit_code == 2
    assert runner.invoke(app, ["scenarios", "onuw"]).exit_code == 2
    assert runner.invoke(app, ["scenarios", "chess"]).exit_code == 2
    assert runner.invoke(app, ["scenarios", "--show", "Lonely Night"]).exit_code == 2


def test_a_player_count_no_scenario_fits_is_said_not_an_empty_table() -> None:
    result = runner.invoke(app, ["scenarios", "--players", "11"])
    assert result.exit_code == 2
    assert "No scenario of One Night Ultimate Werewolf: Epic Battle is for 11 players; " \
        "its scenarios are for 3 to 10." in " ".join(result.output.split())
    assert "┏" not in result.output
    assert json.loads(runner.invoke(app, ["scenarios", "-n", "11", "--json"]).output) == []


def test_in_italian_and_german_names_words_and_the_deck() -> None:
    """Session 25: the list and a deck were English only, the deck as role ids."""
    table = " ".join(runner.invoke(app, ["scenarios", "--lang", "it", "-n", "5"]).output.split())
    assert "gli scenari" in table and "La prima notte" in table
    assert "Lupi contro villaggio" in table and "per principianti" in table
    assert "The First Night" not in table and "beginner" not in table
    deck = runner.invoke(app, ["scenarios", "--show", "Einbruch der Nacht", "-n", "5",
                               "--lang", "de"])
    assert deck.exit_code == 0, deck.output
    assert deck.output.startswith("5 Spieler, 8 Karten: Vampir, Der Graf, ")
    alpha = runner.invoke(app, ["scenarios", "--show", "A Fearsome Opponent", "-n", "4",
                                "--lang", "it"])
    assert "Lupo Alfa" in alpha.output and "accanto al centro" in alpha.output
    asked = runner.invoke(app, ["scenarios", "--show", "Einbruch der Nacht", "--lang", "de"])
    assert asked.exit_code == 2 and "--show braucht --players N" in asked.output
    none = runner.invoke(app, ["scenarios", "-n", "11", "--lang", "it"])
    assert none.exit_code == 2
    assert "Nessuno scenario di One Night Ultimate Werewolf: Epic Battle è per 11 " \
        "giocatori" in " ".join(none.output.split())
