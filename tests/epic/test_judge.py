"""The vote and both Who-Has-Won checks (epic-battle-rulebook.txt, "Vote", "End of the
Game", the role paragraphs with vote effects, "Epic Battles", both flowcharts)."""

from __future__ import annotations

from typing import Any

import pytest

from nightcall.engine.errors import DeckError
from nightcall.narration.telling import explain
from nightcall.rulesets.epic.judge import CLASSIC, EPIC, NO_VILLAGE, judge

from .conftest import table, verdict

# Shorthands: A..E are Anna, Bruno, Carla, Dario, Elena.
A, B, C, D, E, F = "Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"


def ring(*names: str) -> dict[str, str]:
    """Everybody points at their left neighbour: one vote each."""
    return {n: names[(i + 1) % len(names)] for i, n in enumerate(names)}


# --- the vote --------------------------------------------------------------------------


def test_most_votes_dies(dead: Any) -> None:
    o = verdict(["werewolf", "seer", "villager", "robber"], {B: A, C: A, D: B, A: B})
    assert dead(o) == {A, B}  # a tie for the most: both die


def test_one_vote_each_kills_nobody(dead: Any) -> None:
    o = verdict(["werewolf", "seer", "villager", "robber"], ring(A, B, C, D))
    assert dead(o) == set()
    assert "wins" in " ".join(explain(o.reasons))


def test_a_vote_must_go_to_a_fellow_player() -> None:
    with pytest.raises(DeckError, match="themselves"):
        verdict(["werewolf", "seer", "villager"], {A: A})


# --- classic flowchart, branch by branch ----------------------------------------------


def test_nobody_died_with_a_werewolf_among_players_the_pack_wins(winners: Any) -> None:
    o = verdict(["werewolf", "seer", "villager", "robber"], ring(A, B, C, D))
    assert o.teams == ("werewolves",)
    assert winners(o) == {A}


def test_nobody_died_without_monsters_the_village_wins(winners: Any) -> None:
    o = verdict(["villager", "seer", "robber"], ring(A, B, C))
    assert o.teams == ("village",)
    assert winners(o) == {A, B, C}


def test_hunter_takes_his_target(dead: Any, winners: Any) -> None:
    o = verdict(["hunter", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B})
    assert dead(o) == {A, B}
    assert [d.cause for d in o.deaths] == ["votes", "hunter"]
    assert o.teams == ("village",)
    assert winners(o) == {A, C, D}


def test_lovers_die_together_even_when_protected(dead: Any) -> None:
    o = verdict(["villager", "werewolf", "bodyguard", "seer", "villager"],
                {A: B, B: A, C: B, D: A, E: A},
                tokens={A: "love", B: "love"})
    # Anna has 3 votes and dies; Bruno is her lover and dies too although the
    # Bodyguard points at him.
    assert dead(o) == {A, B}
    assert o.deaths[1].cause == "lovers"


def test_bounty_alive_the_assassin_loses(winners: Any) -> None:
    o = verdict(["assassin", "werewolf", "seer", "villager"], {A: C, B: C, D: C, C: A},
                tokens={B: "bounty"})
    assert "assassin" not in o.teams
    assert o.teams == ("werewolves",)
    assert winners(o) == {B}


def test_assassin_with_his_own_bounty_must_die(winners: Any) -> None:
    o = verdict(["assassin", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B},
                tokens={A: "bounty"})
    assert "assassin" in o.teams and A in winners(o)


def test_tanner_and_a_monster_die_village_and_tanner_win(winners: Any) -> None:
    o = verdict(["tanner", "werewolf", "seer", "villager"], {A: B, B: A, C: A, D: B})
    assert set(o.teams) == {"tanner", "village"}
    assert winners(o) == {A, C, D}


def test_tanner_dies_alone_only_the_tanner_wins(winners: Any) -> None:
    o = verdict(["tanner", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B})
    assert o.teams == ("tanner",)
    assert winners(o) == {A}


def test_a_monster_died_the_village_wins(winners: Any) -> None:
    o = verdict(["vampire", "the_count", "seer", "villager"], {C: A, D: A, B: A, A: C})
    assert o.teams == ("village",)
    assert winners(o) == {C, D}


def test_no_monster_died_the_monsters_win(winners: Any) -> None:
    o = verdict(["vampire", "seer", "villager", "robber"], {A: B, C: B, D: B, B: A})
    assert o.teams == ("vampires",)
    assert winners(o) == {A}


def test_somebody_died_and_no_monster_among_players_nobody_wins(winners: Any) -> None:
    o = verdict(["villager", "seer", "robber"], {A: B, C: B, B: A})
    assert o.teams == ()
    assert winners(o) == set()
    assert explain(o.reasons)[-1] == "Nobody wins."


# --- Epic battles ---------------------------------------------------------------------------


EPIC_TABLE = ["werewolf", "vampire", "seer", "villager", "robber"]


def test_epic_most_and_second_most_die(dead: Any) -> None:
    o = verdict(EPIC_TABLE, {C: A, D: A, E: A, A: B, B: A})
    assert o.extra["mode"] == EPIC
    assert dead(o) == {A, B}  # 4 votes and 1 vote: the second place dies with one vote


def test_epic_tie_for_most_kills_only_the_tied(dead: Any) -> None:
    o = verdict(EPIC_TABLE, {C: A, D: A, E: B, A: B, B: C})
    assert dead(o) == {A, B}  # Carla's one vote is third, not second


def test_epic_tie_for_second_kills_most_and_all_second(dead: Any) -> None:
    o = verdict(EPIC_TABLE, {C: E, D: E, E: A, A: B, B: C})
    assert dead(o) == {E, A, B, C}


@pytest.mark.parametrize(
    ("votes", "teams"),
    [
        ({C: A, D: A, E: A, A: B, B: A}, ("village",)),  # werewolf and vampire die
        ({C: A, D: A, E: A, A: C, B: A}, ("vampires",)),  # werewolf and a villager die
        ({C: B, D: B, E: B, A: C, B: C}, ("werewolves",)),  # vampire and a villager die
        ({A: C, B: C, D: C, C: E, E: D}, ()),  # only villagers die
    ],
)
def test_epic_box_3(votes: dict[str, str], teams: tuple[str, ...]) -> None:
    assert verdict(EPIC_TABLE, votes).teams == teams


def test_epic_nobody_dies_nobody_wins() -> None:
    o = verdict(EPIC_TABLE, ring(A, B, C, D, E))
    assert o.teams == () and o.winners == ()


def test_epic_tanner_wins_and_box_3_still_asked(winners: Any) -> None:
    o = verdict(["werewolf", "vampire", "tanner", "villager", "robber"],
                {A: C, B: C, D: C, C: B, E: B})
    assert set(o.teams) == {"tanner", "werewolves"}
    assert winners(o) == {C, A}


def test_village_all_in_the_center_werewolves_win_if_a_vampire_dies() -> None:
    o = verdict(["werewolf", "vampire", "the_count"], {A: B, C: B, B: A})
    assert o.extra["mode"] == NO_VILLAGE
    assert o.dead == (1,)  # only the most voted dies
    assert o.teams == ("werewolves",)
    o = verdict(["werewolf", "vampire", "the_count"], ring(A, B, C))
    assert o.teams == ()


def test_monster_party_in_the_center_keeps_the_classic_check() -> None:
    o = verdict(["werewolf", "seer", "villager"], {B: A, C: A, A: B})
    assert o.extra["mode"] == CLASSIC and o.teams == ("village",)


# --- protection ----------------------------------------------------------------------------


def test_bodyguard_protects_and_second_most_dies_instead(dead: Any) -> None:
    cards = ["werewolf", "bodyguard", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: C})
    assert dead(o) == {C}


def test_bodyguard_substitute_needs_two_votes(dead: Any) -> None:
    cards = ["werewolf", "bodyguard", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: D})
    assert dead(o) == set()


def test_bodyguard_tie_kills_the_unprotected_tied_player(dead: Any) -> None:
    cards = ["werewolf", "bodyguard", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: C, A: C, E: D})
    assert dead(o) == {C}


def test_bodyguard_with_an_artifact_protects_nobody(dead: Any) -> None:
    cards = ["werewolf", "bodyguard", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: C},
                artifacts={B: "brand_of_the_villager"})
    assert dead(o) == {A}


def test_master_protected_by_another_vampire(dead: Any) -> None:
    cards = ["the_master", "vampire", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: C})
    assert dead(o) == {C}


def test_master_not_protected_by_a_villager(dead: Any) -> None:
    cards = ["the_master", "villager", "seer", "vampire", "robber"]
    o = verdict(cards, {B: A, C: A, E: A, A: C, D: C})
    assert dead(o) == {A}


def test_master_protected_by_the_vampire_token_holder(dead: Any) -> None:
    cards = ["the_master", "villager", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: C}, tokens={B: "vampire"})
    assert dead(o) == {C}


def test_master_second_place_with_one_vote_dies_instead(dead: Any) -> None:
    # Issue 14: "The Master" sets no minimum ("the player with the second-most votes
    # dies instead"); the Bodyguard's "at least 2 votes" is his alone (docs/rulings.md).
    cards = ["the_master", "vampire", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: A})
    assert dead(o) == {C}


# --- tokens and artifacts at the end ------------------------------------------------------


def test_plague_voters_cannot_win(winners: Any) -> None:
    o = verdict(["werewolf", "seer", "villager", "robber"], {B: A, C: A, A: D, D: B},
                tokens={A: "plague"})
    assert o.teams == ("village",)
    assert winners(o) == {D}  # Bruno and Carla pointed at the plagued Anna


def test_traitor_count_wins_with_the_village_when_another_vampire_dies(winners: Any) -> None:
    o = verdict(["the_count", "vampire", "seer", "villager"], {C: B, D: B, A: B, B: C},
                tokens={A: "traitor"})
    assert o.teams == ("village",)
    assert winners(o) == {A, C, D}


def test_traitor_villager_wins_with_the_vampires_when_a_villager_dies(winners: Any) -> None:
    o = verdict(["vampire", "seer", "villager", "robber"], {A: B, C: B, D: B, B: A},
                tokens={C: "traitor"})
    assert o.teams == ("vampires",)
    assert winners(o) == {A, C}


def test_traitor_loses_when_nobody_else_of_his_party_dies(winners: Any) -> None:
    o = verdict(["vampire", "seer", "villager", "robber"], {B: A, C: A, D: A, A: B},
                tokens={C: "traitor"})
    assert o.teams == ("village",)
    assert winners(o) == {B, D}


def test_traitor_alone_in_his_party_is_unaffected(winners: Any) -> None:
    o = verdict(["assassin", "werewolf", "seer", "villager"], {A: B, C: B, D: B, B: A},
                tokens={B: "bounty", A: "traitor"})
    assert A in winners(o)


def test_werewolf_with_the_vampire_token_plays_for_the_vampires(winners: Any) -> None:
    o = verdict(["werewolf", "seer", "villager", "robber"], {A: B, C: B, D: B, B: A},
                tokens={A: "vampire"})
    assert o.teams == ("vampires",)
    assert winners(o) == {A}


def test_vampire_token_on_a_werewolf_table_makes_an_epic_battle() -> None:
    o = verdict(["werewolf", "sight_wolf", "seer", "villager", "robber"],
                ring(A, B, C, D, E), tokens={B: "vampire"})
    assert o.extra["mode"] == EPIC


def test_renfield_wins_when_he_dies_and_no_vampire_does(winners: Any) -> None:
    o = verdict(["renfield", "vampire", "seer", "villager"], {B: A, C: A, D: A, A: C})
    assert o.teams == ("vampires",)
    assert winners(o) == {A, B}


def test_renfield_without_vampires_is_in_the_village(winners: Any) -> None:
    o = verdict(["renfield", "seer", "villager"], ring(A, B, C))
    assert o.teams == ("village",)
    assert A in winners(o)


def test_claw_makes_a_villager_a_werewolf(winners: Any) -> None:
    o = verdict(["villager", "seer", "robber", "villager"], {A: B, C: B, D: B, B: A},
                artifacts={A: "claw_of_the_werewolf"})
    assert o.teams == ("werewolves",)
    assert winners(o) == {A}


def test_hunter_with_an_artifact_takes_nobody(dead: Any) -> None:
    o = verdict(["hunter", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B},
                artifacts={A: "mask_of_silence"})
    assert dead(o) == {A, B}  # the Mask changes no role: he still shoots
    o = verdict(["hunter", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B},
                artifacts={A: "brand_of_the_villager"})
    assert dead(o) == {A}


def test_club_makes_a_tanner(winners: Any) -> None:
    o = verdict(["seer", "werewolf", "villager", "robber"], {B: A, C: A, D: A, A: B},
                artifacts={A: "club_of_the_tanner"})
    assert o.teams == ("tanner",)
    assert winners(o) == {A}


# --- the table's input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cards": {A: "mimic", B: "seer", C: "villager"}}, "Mimic"),
        ({"cards": {A: "wizard", B: "seer", C: "villager"}}, "not an Epic Battle role"),
        ({"tokens": {A: "gold"}}, "not a symbol token"),
        ({"tokens": {A: "love", B: "love", C: "love"}}, "the box has 2 love tokens"),
        ({"tokens": {A: "bat", B: "bat"}}, "the box has 1 bat token,"),
        ({"artifacts": {A: "sword"}}, "not one of"),
        ({"artifacts": {A: "cloak_of_shame", C: "cloak_of_shame"}}, "the Curator places one"),
        ({"artifacts": {A: "cloak_of_shame", C: "mask_of_silence"}}, "2 cards carry an artifact"),
        ({"votes": {A: "Zoe"}}, "not seated"),
        ({"votes": {"Zoe": A}}, "not seated"),
        ({"players": [A, A, C]}, "same name"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(change: dict[str, Any], message: str) -> None:
    t = table(["werewolf", "seer", "villager"], {})
    t.update(change)
    with pytest.raises(DeckError, match=message):
        judge(t)


def test_every_check_ends_with_the_winners_sentence() -> None:
    o = verdict(EPIC_TABLE, {C: A, D: A, E: A, A: B, B: A})
    assert explain(o.reasons)[-1].startswith("Winners:")
    assert any("Epic Battle" in line for line in explain(o.reasons))
