"""The table's stats on hand-made game histories (issue 20): wins and losses by team and
by role, as Werewolf / as Villager, streaks, merged spellings, werewolves voted out."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from tablegames import onuw

from nightcall.history import (
    best_streak,
    current_streak,
    merge_aliases,
    read_game,
    table_csv,
    table_stats,
)

RECORDS = Path(__file__).parent.parent / "records"

# Ada is the werewolf and the village votes her out: the village wins.
WOLF_OUT = onuw("G1", 100.0, {"Ada": "werewolf", "Bea": "villager", "Cy": "seer",
                              "Dan": "robber"},
                {"Ada": "Bea", "Bea": "Ada", "Cy": "Ada", "Dan": "Bea"})
# Bea is the werewolf, the village kills Cy (a villager): the werewolves win.
WOLF_WINS = onuw("G2", 200.0, {"Ada": "villager", "Bea": "werewolf", "Cy": "villager",
                               "Dan": "seer"},
                 {"Ada": "Cy", "Bea": "Cy", "Cy": "Bea", "Dan": "Cy"},
                 center=["villager", "troublemaker", "insomniac"])
# Bea again the werewolf; Ada and Cy put her out: the village wins.
WOLF_OUT_2 = onuw("G3", 300.0, {"Ada": "seer", "Bea": "werewolf", "Cy": "villager",
                                "Dan": "villager"},
                  {"Ada": "Bea", "Bea": "Dan", "Cy": "Bea", "Dan": "Ada"},
                  center=["villager", "troublemaker", "insomniac"])


def by_name(stats: dict, name: str) -> dict:
    return next(p for p in stats["players"] if p["name"] == name)


def test_games_played_and_wins_by_team_and_role() -> None:
    stats = table_stats([WOLF_OUT, WOLF_WINS, WOLF_OUT_2])
    assert stats["games"] == 3
    assert stats["team_wins"] == {"village": 2, "werewolves": 1}
    bea = by_name(stats, "Bea")
    assert (bea["games"], bea["wins"], bea["losses"]) == (3, 2, 1)
    assert bea["as_werewolf"] == {"games": 2, "wins": 1, "losses": 1}
    assert bea["as_villager"] == {"games": 1, "wins": 1, "losses": 0}
    assert bea["roles"] == {"villager": {"games": 1, "wins": 1, "losses": 0},
                            "werewolf": {"games": 2, "wins": 1, "losses": 1}}
    ada = by_name(stats, "Ada")
    assert ada["as_werewolf"] == {"games": 1, "wins": 0, "losses": 1}
    assert ada["roles"]["seer"] == {"games": 1, "wins": 1, "losses": 0}
    # Most wins first: Cy and Dan won games 1 and 3 like Bea, and Bea also won game 2.
    assert stats["players"][0]["name"] == "Bea"


def test_the_team_is_the_final_roles_not_the_dealt_card() -> None:
    """The rulebook's example: Bruno is dealt the Werewolf, is robbed, and wins with the
    village as the Robber; Anna ends with the Werewolf card and loses."""
    record = json.loads((RECORDS / "onuw-example-round.json").read_text())
    entry = {"id": "R1", "finished": 1.0, "record": record, "bots": []}
    stats = table_stats([entry])
    bruno = by_name(stats, "Bruno")
    assert bruno["roles"] == {"robber": {"games": 1, "wins": 1, "losses": 0}}
    assert bruno["as_villager"]["wins"] == 1 and bruno["as_werewolf"]["games"] == 0
    anna = by_name(stats, "Anna")
    assert anna["as_werewolf"] == {"games": 1, "wins": 0, "losses": 1}
    # Four voted Anna out, and she turned over the Werewolf.
    assert sorted(stats["wolf_hunters"]) == ["Bruno", "Carla", "Dario", "Elena"]
    assert anna["wolves_voted_out"] == 0


def test_streaks_follow_the_order_the_games_ended() -> None:
    # Given out of order: the history is sorted by when each game ended.
    stats = table_stats([WOLF_OUT_2, WOLF_OUT, WOLF_WINS])
    dan = by_name(stats, "Dan")
    assert dan["results"] == [True, False, True]
    assert (dan["streak"], dan["best_streak"]) == (1, 1)
    bea = by_name(stats, "Bea")  # won, won, lost
    assert bea["results"] == [True, True, False]
    assert (bea["streak"], bea["best_streak"]) == (-1, 2)
    assert current_streak([]) == 0 and best_streak([]) == 0
    assert current_streak([True, False, False, False]) == -3
    assert best_streak([True, True, False, True, True, True, False]) == 3


def test_who_voted_out_a_werewolf_most_often() -> None:
    stats = table_stats([WOLF_OUT, WOLF_WINS, WOLF_OUT_2])
    # Game 1: Bea and Cy voted Ada out; game 3: Ada and Cy voted Bea out; game 2's
    # vote put out a villager, which counts for nobody.
    counts = {p["name"]: p["wolves_voted_out"] for p in stats["players"]}
    assert counts == {"Ada": 1, "Bea": 1, "Cy": 2, "Dan": 0}
    assert stats["wolf_hunters"] == ["Cy"]


def test_a_vote_for_a_werewolf_who_stays_does_not_count() -> None:
    # Two votes for Ada (the werewolf), two for Bea: a tie, both die... so instead give
    # Ada one vote only: Bea dies, Ada survives, and Cy's vote for her counts for nothing.
    game = onuw("G9", 1.0, {"Ada": "werewolf", "Bea": "villager", "Cy": "villager",
                            "Dan": "seer"},
                {"Ada": "Bea", "Bea": "Cy", "Cy": "Ada", "Dan": "Bea"})
    assert read_game(game).wolf_voters == ()
    assert table_stats([game])["wolf_hunters"] == []


def test_lupus_execution_of_a_werewolf_counts_its_voters() -> None:
    record = json.loads((RECORDS / "lupus-example-round.json").read_text())
    game = read_game({"id": "L1", "finished": 1.0, "record": record, "bots": []})
    # Day 1: Anna, Elena, Hamed and Irene voted to execute Bruno, a werewolf.
    assert sorted(game.wolf_voters) == ["Anna", "Elena", "Hamed", "Irene"]
    bruno = next(s for s in game.seats if s.name == "Bruno")
    assert bruno.team == "werewolves"


def test_merging_two_spellings_adds_up_one_player() -> None:
    spelt = onuw("G4", 400.0, {"ada": "villager", "Bea": "werewolf", "Cy": "villager",
                               "Dan": "seer"},
                 {"ada": "Bea", "Bea": "Dan", "Cy": "Bea", "Dan": "Bea"},
                 center=["villager", "troublemaker", "insomniac"])
    typo = onuw("G5", 500.0, {"Adda": "werewolf", "Bea": "villager", "Cy": "villager",
                              "Dan": "seer"},
                {"Adda": "Bea", "Bea": "Adda", "Cy": "Adda", "Dan": "Adda"})
    apart = table_stats([WOLF_OUT, spelt, typo])
    # Names differing only in case are one player at the table; "Adda" is another.
    assert by_name(apart, "Ada")["games"] == 2
    assert by_name(apart, "Adda")["games"] == 1
    aliases = merge_aliases({}, "Adda", "Ada")
    merged = table_stats([WOLF_OUT, spelt, typo], aliases)
    assert [p["name"] for p in merged["players"]].count("Adda") == 0
    ada = by_name(merged, "Ada")
    assert (ada["games"], ada["wins"]) == (3, 1)
    assert ada["as_werewolf"] == {"games": 2, "wins": 0, "losses": 2}
    assert ada["wolves_voted_out"] == 1  # as "ada", in game 4


def test_merges_chain_and_refuse_a_name_with_itself() -> None:
    aliases = merge_aliases({}, "Adda", "Ada")
    aliases = merge_aliases(aliases, "Ada", "Ada Lovelace")
    assert aliases == {"Adda": "Ada Lovelace", "Ada": "Ada Lovelace"}
    with pytest.raises(ValueError, match="already the same player"):
        merge_aliases(aliases, "Adda", "Ada Lovelace")
    with pytest.raises(ValueError):
        merge_aliases({}, "ada", "Ada")


def test_bots_play_but_have_no_line_of_their_own() -> None:
    game = onuw("G6", 1.0, {"Ada": "werewolf", "Bruno": "villager", "Cy": "villager",
                            "Dan": "seer"},
                {"Ada": "Bruno", "Bruno": "Ada", "Cy": "Ada", "Dan": "Ada"},
                bots=("Bruno", "Dan"))
    stats = table_stats([game])
    assert [p["name"] for p in stats["players"]] == ["Cy", "Ada"]
    assert stats["wolf_hunters"] == ["Cy"]
    assert stats["list"][0]["players"][1] == {"name": "Bruno", "role": "villager",
                                              "team": "village", "won": True, "bot": True}


def test_csv_has_a_row_per_player_per_game() -> None:
    evil = onuw("G7", 0.0, {"=cmd()": "werewolf", "Bea": "villager", "Cy": "villager",
                            "Dan": "seer"},
                {"=cmd()": "Bea", "Bea": "=cmd()", "Cy": "=cmd()", "Dan": "Bea"})
    rows = list(csv.DictReader(io.StringIO(table_csv([WOLF_WINS, evil]))))
    assert len(rows) == 8
    assert rows[0]["finished_utc"] == "1970-01-01T00:00:00Z"
    assert rows[0]["player"] == "'=cmd()"  # not a formula in a spreadsheet
    assert {r["player"]: (r["role"], r["team"], r["won"]) for r in rows[4:]} == {
        "Ada": ("villager", "village", "0"), "Bea": ("werewolf", "werewolves", "1"),
        "Cy": ("villager", "village", "0"), "Dan": ("seer", "village", "0")}


def test_epic_teams_come_from_the_epic_tables() -> None:
    record = json.loads((RECORDS / "epic-three-parties.json").read_text())
    game = read_game({"id": "E1", "finished": 1.0, "record": record, "bots": []})
    teams = {s.name: s.team for s in game.seats}
    assert teams == {"Anna": "vampires", "Bruno": "werewolves", "Carla": "village",
                     "Dario": "werewolves", "Elena": "village"}
    assert {s.name for s in game.seats if s.won} == {"Carla", "Elena"}


def test_the_team_a_final_role_counts_for_is_the_rulesets_word() -> None:
    """history.py asks Ruleset.final_team: a card's side, except where a ruleset says
    otherwise (Epic: the Vampire mark turns its holder; the Mimic's party changes, and
    at the end it counts with the village)."""
    from nightcall.engine.ruleset import all_rulesets, get_ruleset

    for rs in all_rulesets().values():
        if rs.id == "epic":
            continue
        for role in rs.role_ids:
            assert rs.final_team(role) == rs.side_of(role)
    epic = get_ruleset("epic")
    assert epic.final_team("villager", "vampire") == "vampires"
    assert epic.final_team("werewolf") == "werewolves"
    assert epic.final_team("mimic") == "village"
    assert epic.final_team("not_a_role") == "village"
