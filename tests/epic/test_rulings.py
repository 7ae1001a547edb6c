"""Points decided in docs/rulings.md (Epic Battle), each checked, and properties of the check
that hold for any table."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from nightcall.engine.actions import Action
from nightcall.narration.telling import explain
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.judge import judge
from nightcall.rulesets.epic.roles import (
    ARTIFACTS,
    ASSASSIN_TEAM,
    LOVE,
    PLAGUE,
    ROLE_IDS,
    TANNER_TEAM,
    TOKENS,
)

from .conftest import NAMES, SKIP, act, finish_night, game, to_call, told, verdict

A, B, C, D, E = NAMES[:5]
V = "villager"
CENTER = ["villager", "bodyguard", "hunter"]


# --- the end -------------------------------------------------------------------------------


def test_master_with_an_artifact_is_not_protected(dead: Any) -> None:
    cards = ["the_master", "vampire", "seer", "villager", "robber"]
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: C}, artifacts={A: "mask_of_silence"})
    assert dead(o) == {C}  # the Mask changes no role
    o = verdict(cards, {B: A, C: A, D: A, A: C, E: C}, artifacts={A: "bite_of_the_vampire"})
    assert dead(o) == {A}


@pytest.mark.parametrize(("cards", "votes", "killed"), [
    pytest.param(["hunter", "werewolf", "bodyguard", "villager", "robber"],
                 {B: A, C: B, D: A, E: A, A: B}, {A},
                 id="hunter_cannot_shoot_a_protected_player"),
    # Anna (3, protected) lives; Dario (2) dies as second; nobody moves up.
    pytest.param(["werewolf", "vampire", "bodyguard", "villager", "robber"],
                 {B: A, C: A, D: A, A: D, E: D}, {D}, id="protected_top_saves_only_the_top"),
    pytest.param(["werewolf", "vampire", "bodyguard", "villager", "robber"],
                 {C: A, D: A, A: B, E: B, B: C}, {B}, id="tie_for_most_with_protection"),
])
def test_the_bodyguard_protects_from_the_vote_and_the_hunter(
        dead: Any, cards: list[str], votes: dict[str, str], killed: set[str]) -> None:
    assert dead(verdict(cards, votes)) == killed


def test_hunter_killed_by_love_still_shoots(dead: Any) -> None:
    cards = ["villager", "hunter", "werewolf", "seer", "robber"]
    o = verdict(cards, {B: C, C: A, D: A, E: A, A: B}, tokens={A: "love", B: "love"})
    assert dead(o) == {A, B, C}
    assert [d.cause for d in o.deaths] == ["votes", "lovers", "hunter"]


def test_renfield_death_is_not_a_vampire_death() -> None:
    o = verdict(["renfield", "vampire", "werewolf", "villager", "seer"],
                {A: C, B: C, C: A, D: C, E: A})
    assert o.extra["mode"] == "epic"
    assert o.teams == ("vampires",)  # a werewolf and Renfield died, no vampire


def test_vampire_token_beats_an_artifact() -> None:
    o = verdict(["seer", "villager", "robber", "villager"], {A: B, C: B, D: B, B: A},
                tokens={A: "vampire"}, artifacts={A: "brand_of_the_villager"})
    assert o.teams == ("vampires",) and o.winners == (0,)


# --- the night ---------------------------------------------------------------------------------


def test_panicked_dream_wolf_raises_no_thumb() -> None:
    st = game(["the_count", "werewolf", "dream_wolf", V], ["vampire", "seer", "robber"])
    act(st, "token", 3)  # the vampires (the Count alone) bite Dario
    act(st, "token", 2)  # Panic for the Dream Wolf
    assert st.call == "werewolves_dream_wolf" and st.actor == 1  # Bruno is a lone wolf now
    assert told(st, 1, "wolves")[0]["dream_wolves"] == []


def test_mimic_copying_a_werewolf_wakes_with_the_wolves() -> None:
    st = game(["mimic", "werewolf", V, "seer"], ["sight_wolf", V, "robber"])
    act(st, "copy_center", 0)
    assert told(st, 1, "wolves")[0]["seats"] == [0, 1]
    to_call(st, "sight_wolf")
    assert st.actor == 0


def test_mimic_copying_the_count_wakes_with_the_vampires_and_again() -> None:
    st = game(["mimic", "vampire", V, "seer"], ["the_count", V, "robber"])
    act(st, "copy_center", 0)
    assert st.call == "vampires" and told(st, 0, "vampires")[0]["seats"] == [0, 1]
    act(st, "token", 2)
    assert st.call == "the_count" and st.actor == 0


def test_mimic_ghost_hunter_transformation_follows_the_mimic_card() -> None:
    st = game(["mimic", "werewolf", V, "seer"], ["ghost_hunter", V, "robber"])
    act(st, "copy_center", 0)
    to_call(st, "ghost_hunter")
    act(st, "look", 1)
    assert st.final_role(0) == "werewolf" and st.card_as["mimic"] == "werewolf"


def test_alpha_wolf_exchange_lapses_when_everyone_else_is_a_werewolf() -> None:
    st = game(["alpha_wolf", "werewolf", "sight_wolf"], ["seer", V, "robber"],
              extra="dream_wolf")
    finish_night(st)
    assert not any(call == "alpha_wolf" for _, _, call in st.history)


def test_count_panic_lapses_when_everyone_else_is_a_vampire() -> None:
    st = game(["the_count", "vampire", "the_master"], ["seer", V, "robber"])
    assert st.call != "vampires" and st.call != "the_count"


def test_priest_may_not_pick_himself_again() -> None:
    st = game(["priest", V, "werewolf"], ["seer", V, "robber"])
    assert Action("token", 0) not in EPIC.legal_actions(st, 0)
    assert SKIP in EPIC.legal_actions(st, 0)


# --- properties of the check, for any table ------------------------------------------------------

NAMES5 = list(NAMES[:6])


@hs.composite
def tables(draw: Any) -> dict[str, Any]:
    n = draw(hs.integers(3, 6))
    names = NAMES5[:n]
    roles = [r for r in ROLE_IDS if r != "mimic"]
    cards = {p: draw(hs.sampled_from(roles)) for p in names}
    singles = draw(hs.lists(hs.sampled_from([t for t in TOKENS if t not in ("certainty", LOVE)]),
                            unique=True, max_size=n))
    tokens = dict(zip(names, singles, strict=False))
    if draw(hs.booleans()):
        a, b = draw(hs.permutations(names))[:2]
        tokens[a] = tokens[b] = LOVE
    # (one Curator, one artifact a night)
    held = draw(hs.lists(hs.sampled_from(ARTIFACTS), max_size=1))
    artifacts = dict(zip(draw(hs.permutations(names)), held, strict=False))
    votes = {}
    for p in names:
        if draw(hs.integers(0, 9)):
            votes[p] = draw(hs.sampled_from([q for q in names if q != p]))
    return {"players": names, "cards": cards, "center": [], "tokens": tokens,
            "artifacts": artifacts, "votes": votes}


@settings(max_examples=150, deadline=None)
@given(tables())
def test_properties_of_any_check(t: dict[str, Any]) -> None:
    o = judge(t)
    names = t["players"]
    dead = {names[s] for s in o.dead}
    assert len(dead) == len(o.dead)
    tally = {p: list(t["votes"].values()).count(p) for p in names}
    if max(tally.values()) < 2:
        assert not dead  # nobody dies without two votes
    lovers = [p for p, tok in t["tokens"].items() if tok == LOVE]
    if lovers:
        assert len({p in dead for p in lovers}) == 1  # lovers live or die together
    plagued = [p for p, tok in t["tokens"].items() if tok == PLAGUE]
    for p, target in t["votes"].items():
        if plagued and target == plagued[0]:
            assert p not in {names[s] for s in o.winners}
    if TANNER_TEAM in o.teams:
        assert dead
    if ASSASSIN_TEAM in o.teams:
        assert any(t["tokens"].get(p) == "bounty" for p in dead)
    last = explain(o.reasons)[-1]
    assert last in ("Nobody wins.",) or last.startswith("Winners:")


@settings(max_examples=50, deadline=None)
@given(tables())
def test_one_vote_each_kills_nobody(t: dict[str, Any]) -> None:
    names = t["players"]
    t["votes"] = {p: names[(i + 1) % len(names)] for i, p in enumerate(names)}
    assert judge(t).dead == ()
