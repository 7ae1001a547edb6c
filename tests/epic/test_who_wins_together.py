"""Who wins together with whom in Epic Battle, one test per sentence of the rulebook.

Source: epic-battle-rulebook.txt, "Parties" ("all members of a party win or none do"),
"Instigator" (the Traitor token), "Tanner", "Assassin", "Renfield", "Venus" (lovers),
"Vampire" (the token) and "The Who-Has-Won Check: Classic Game" step 3 and 4. Issue
14: "the Traitor can win with nobody" (a lone Tanner, a lone Assassin).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings

from nightcall.narration.telling import explain
from nightcall.rulesets.epic.judge import EndOfNight, identities
from nightcall.rulesets.epic.roles import TANNER_TEAM

from .conftest import NAMES, verdict
from .test_rulings import tables

A, B, C, D, E = "Anna", "Bruno", "Carla", "Dario", "Elena"


# --- the Traitor ("Instigator") -----------------------------------------------------------
# "whoever has the Traitor token can only win if another player of his party dies. For
# example, ... the Count becomes the Traitor, he wins the game together with the Village
# if another vampire dies. Conversely, a villager wins together with the Vampire clan if
# no vampire dies but a member of the Village dies instead."


def test_traitor_does_not_win_beside_a_lone_tanner(winners: Any) -> None:
    # "If the Tanner, but no werewolf/vampire, dies, only the Tanner has won." The Tanner
    # and the Seer tie; Carla, a villager with the Traitor token, lost a fellow villager.
    o = verdict(["tanner", "werewolf", "villager", "seer", "robber"],
                {B: A, C: A, D: E, E: D, A: D})
    assert o.teams == (TANNER_TEAM,)
    assert winners(o) == {A}
    o = verdict(["tanner", "werewolf", "villager", "seer", "robber"],
                {B: A, C: A, D: E, E: D, A: D}, tokens={C: "traitor"})
    assert o.teams == (TANNER_TEAM,)
    assert winners(o) == {A}  # only the Tanner: not the Traitor
    assert any("no opposing party won" in line for line in explain(o.reasons))


def test_traitor_does_not_win_beside_a_lone_assassin(winners: Any) -> None:
    # No monster at the table: the Bounty dies, the Assassin wins, then "NOBODY wins"
    # (step 6). Carla, a villager Traitor, lost a fellow villager but nobody else won.
    o = verdict(["assassin", "seer", "villager", "robber"], {A: B, C: B, D: B, B: A},
                tokens={B: "bounty", C: "traitor"})
    assert o.teams == ("assassin",)
    assert winners(o) == {A}


def test_traitor_wins_with_the_village_beside_the_tanner(winners: Any) -> None:
    # "If the Tanner and at least 1 werewolf/vampire die, the Tanner and the Village have
    # won": a werewolf Traitor whose fellow werewolf died wins with the Village.
    o = verdict(["tanner", "werewolf", "werewolf", "seer", "villager"],
                {A: B, C: B, D: A, E: A, B: D}, tokens={C: "traitor"})
    assert set(o.teams) == {"village", TANNER_TEAM}
    assert winners(o) == {A, C, D, E}


def test_traitor_wins_with_the_pack_beside_the_assassin(winners: Any) -> None:
    # The Bounty (a villager) dies: the Assassin wins, and the check goes on: no monster
    # died, a werewolf is at the table, the pack wins; Carla, a villager Traitor, with it.
    o = verdict(["assassin", "seer", "villager", "werewolf", "robber"],
                {A: B, C: B, D: B, E: A, B: A}, tokens={B: "bounty", C: "traitor"})
    assert set(o.teams) == {"assassin", "werewolves"}
    assert winners(o) == {A, C, D}


def test_traitor_does_not_win_with_his_own_party(winners: Any) -> None:
    # A villager and a werewolf tie and die: the Village wins. The villager Traitor lost
    # a fellow villager, but wins only "together with" the opposing party, which lost.
    o = verdict(["werewolf", "villager", "seer", "robber", "villager"],
                {C: A, D: A, A: B, E: B, B: C}, tokens={E: "traitor"})
    assert o.teams == ("village",)
    assert winners(o) == {B, C, D}


def test_traitor_holder_alone_in_his_party_is_a_normal_member(winners: Any) -> None:
    # "(If the player is the only member of his party, e.g. the Assassin, the token has
    # no effect.)" The Tanner dies alone and wins, Traitor token or not.
    o = verdict(["tanner", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B},
                tokens={A: "traitor"})
    assert winners(o) == {A}


# --- the Tanner, the Assassin -----------------------------------------------------------


def test_a_tanner_with_the_bounty_wins_with_the_assassin_only(winners: Any) -> None:
    # Step 3: "the ASSASSIN wins! Additionally, the following also wins"; step 4: "NO:
    # the TANNER wins!" Nobody else: no werewolf died.
    o = verdict(["tanner", "assassin", "werewolf", "seer"], {B: A, C: A, D: A, A: B},
                tokens={A: "bounty"})
    assert set(o.teams) == {"assassin", TANNER_TEAM}
    assert winners(o) == {A, B}


def test_assassin_wins_beside_the_party_of_his_target(winners: Any) -> None:
    # "If the Assassin wins, the Village, the Werewolf pack or the Vampire clan can win
    # at the same time - depending on which party the Assassin's target belonged to."
    o = verdict(["assassin", "werewolf", "seer", "villager"], {A: B, C: B, D: B, B: A},
                tokens={B: "bounty"})
    assert set(o.teams) == {"assassin", "village"}
    assert winners(o) == {A, C, D}


def test_the_assassin_need_not_survive(winners: Any) -> None:
    # "The Assassin does not have to survive in order to win."
    o = verdict(["assassin", "werewolf", "seer", "villager"], {B: A, C: A, D: A, A: B},
                tokens={C: "bounty"})
    assert "assassin" not in o.teams  # the Bounty lives
    o = verdict(["assassin", "werewolf", "seer", "villager"], {B: A, C: A, D: C, A: C},
                tokens={C: "bounty"})
    assert A in winners(o) and {"Anna", "Carla"} == {NAMES[s] for s in o.dead}


# --- Renfield -----------------------------------------------------------------------------


def test_renfield_with_the_vampire_token_is_a_vampire(winners: Any) -> None:
    # "If Renfield has the token at the end, he is a vampire": his death is a vampire's
    # death and the Village wins.
    o = verdict(["renfield", "vampire", "seer", "villager"], {B: A, C: A, D: A, A: C},
                tokens={A: "vampire"})
    assert o.teams == ("village",)
    assert winners(o) == {C, D}


def test_renfield_dies_and_no_vampire_the_clan_wins_with_him(winners: Any) -> None:
    # "If Renfield dies, but no vampire, the Vampire clan (and with it Renfield) has won."
    o = verdict(["renfield", "the_count", "seer", "villager"], {B: A, C: A, D: A, A: C})
    assert o.teams == ("vampires",) and winners(o) == {A, B}


# --- the lovers ("Venus") ---------------------------------------------------------------
# "The players with Love tokens nevertheless still belong to the party shown by their
# role card. They still win or lose with their party, not with their partner."


def test_a_lover_wins_with_his_party_not_with_his_partner(winners: Any) -> None:
    o = verdict(["werewolf", "seer", "villager", "robber"], {A: C, B: C, D: C, C: A},
                tokens={A: "love", B: "love"})
    assert o.teams == ("werewolves",)
    assert winners(o) == {A}  # Bruno, the Seer in love with the werewolf, loses


def test_a_lover_dying_for_love_still_wins_with_his_party(winners: Any) -> None:
    # The werewolf dies; his lover, the Seer, dies with him and wins with the Village.
    o = verdict(["werewolf", "seer", "villager", "robber"], {B: A, C: A, D: A, A: C},
                tokens={A: "love", B: "love"})
    assert {NAMES[s] for s in o.dead} == {A, B}
    assert o.teams == ("village",) and winners(o) == {B, C, D}


# --- "all members of a party win or none do" ------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(tables())
def test_a_party_wins_whole_or_not_at_all(t: dict[str, Any]) -> None:
    """Except the exceptions the rulebook writes: the Traitor token ("Instigator"), the
    Plague ("Infected"), and each Tanner, who wins by dying ("Tanner")."""
    o = judge_table(t)
    names = t["players"]
    seats = range(len(names))
    end = EndOfNight(tuple(names), tuple(t["cards"][p] for p in names),
                     tuple(t["tokens"].get(p, "certainty") for p in names),
                     tuple(t["artifacts"].get(p) for p in names),
                     tuple(-1 for _ in names))
    ids = identities(end)
    plague = [p for p in names if t["tokens"].get(p) == "plague"]
    excepted = {s for s in seats if t["tokens"].get(names[s]) == "traitor"
                or (plague and t["votes"].get(names[s]) == plague[0])}
    for party in {i.party for i in ids} - {TANNER_TEAM}:
        members = {s for s in seats if ids[s].party == party} - excepted
        won = members & set(o.winners)
        assert won in (set(), members), (party, explain(o.reasons))
        assert bool(won) == (party in o.teams) or not members
    for s in seats:
        if t["tokens"].get(names[s]) == "traitor" and s in o.winners:
            mates = [m for m in seats if m != s and ids[m].party == ids[s].party]
            if mates:  # won together with an opposing party, after a mate died
                assert any(m in o.dead for m in mates)
                assert set(o.teams) - {ids[s].party, TANNER_TEAM, "assassin"}


def judge_table(t: dict[str, Any]) -> Any:
    from nightcall.rulesets.epic.judge import judge

    return judge(t)
