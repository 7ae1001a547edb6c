"""Coverage the Epic Battle rulebook asks for and no test had (issue 14): the Alpha Wolf
with a Dream Wolf or Sight Wolf as its extra card, the Mimic copying a twilight role
(Venus, Assassin, Priest), a reduced set of artifacts, and revealed cards, Fortune
Teller thumbs and the lovers in the game's account and explanation.

Source: epic-battle-rulebook.txt, "Alpha Wolf" ("place one werewolf card (Sehender
Wolf, Traumwolf or Werwolf) face down next to the 3 face-down cards"; "he must exchange
the werewolf card in the middle of the table with the card of another player"),
"Mimic" ("If his new role has a special ability that takes place during the Twilight or
Night, he wakes up when the role is called and performs this special ability as
usual"), "Curator" ("you can also play with fewer than 6 artifacts"; "Remove the Claw
of the Werewolf or the Bite of the Vampire if you are not playing with the Werewolf
pack or the Vampire clan"), "Enlightener", "Fortune Teller", "Venus"; docs/rulings.md
(Epic Battle: Who wakes, Mimic, Curator, Final cards).
"""

from __future__ import annotations

from typing import Any

import pytest

from nightcall.engine.actions import Action
from nightcall.engine.errors import DeckError, RecordError
from nightcall.narration.telling import explain, tell
from nightcall.rulesets.epic.game import EPIC

from .conftest import NAMES, SKIP, act, finish_night, game, to_call, told, vote_all

A, B, C, D, E = NAMES[:5]
V = "villager"
CENTER = ["villager", "bodyguard", "hunter"]


# --- the Alpha Wolf's extra card ------------------------------------------------------------


@pytest.mark.parametrize("extra", ["dream_wolf", "sight_wolf"])
def test_the_alpha_wolfs_extra_card_makes_its_receiver_a_werewolf(extra: str) -> None:
    st = game(["alpha_wolf", "werewolf", V, "seer"], CENTER, extra=extra)
    to_call(st, "alpha_wolf")
    act(st, "swap", 3)  # Dario, the Seer, receives the extra card
    assert st.cards[3] == extra and st.cards[st.extra_pos] == "seer"
    # He wakes for the card he saw at the start (rulings, "Who wakes"): as the Seer,
    # never as the Sight Wolf, whose call comes right after the Alpha Wolf's.
    while st.phase == 0:
        if st.call == "sight_wolf":
            raise AssertionError("nobody holds a Sight Wolf card at the start")
        if st.call == "seer":
            assert st.actor == 3
        EPIC.apply(st, st.actor, SKIP)
    vote_all(st, [3, 3, 3, 2])  # Dario dies: a werewolf died, the Village wins
    out = EPIC.outcome_json(st)
    assert out["final"]["cards"][D] == extra and out["final"]["roles"][D] == extra
    assert out["dead"] == [D] and out["teams"] == ["village"]
    assert set(out["winners"]) == {C}


def test_a_record_gives_the_sight_wolf_card_and_names_the_empty_sight_wolf_call() -> None:
    record = {"ruleset": "epic", "players": [A, B, C, D],
              "cards": {A: "alpha_wolf", B: "werewolf", C: V, D: "seer"},
              "center": CENTER, "extra": "sight_wolf",
              "steps": [{"call": "werewolf", "player": A},
                        {"call": "alpha_wolf", "player": A, "swap": C},
                        {"call": "sight_wolf"},
                        {"call": "seer", "player": D, "look": C},
                        {"votes": {A: D, B: D, C: D, D: A}}]}
    st = EPIC.replay(record)
    assert told(st, 3, "saw")[-1] == {"kind": "saw", "seat": 2, "card": "sight_wolf"}
    assert EPIC.outcome_json(st)["teams"] == ["werewolves"]
    bad = dict(record, steps=[{"call": "alpha_wolf", "player": A, "swap": C},
                              {"call": "sight_wolf", "player": C, "look": D}])
    with pytest.raises(RecordError, match=r"step 1: .*sight_wolf"):
        EPIC.replay(bad)


# --- the Mimic copying a twilight role --------------------------------------------------------


def test_the_mimic_as_venus_makes_lovers() -> None:
    st = game(["mimic", V, V, "werewolf"], ["venus", V, "seer"])
    act(st, "copy_center", 0)
    assert told(st, 0, "became") == [{"kind": "became", "role": "venus"}]
    to_call(st, "venus")
    assert st.actor == 0
    act(st, "token_two", 1, 3)
    assert st.tokens[1] == st.tokens[3] == "love"
    finish_night(st)
    assert told(st, 1, "lovers")[0]["seats"] == [1, 3]
    vote_all(st, [3, 3, 3, 1])  # the werewolf dies, his lover Bruno with him
    out = EPIC.outcome(st)
    assert out is not None and [NAMES[s] for s in out.dead] == [D, B]
    assert out.teams == ("village",) and {NAMES[s] for s in out.winners} == {A, B, C}


def test_the_mimic_as_assassin_must_place_the_bounty_and_wins_alone_by_it() -> None:
    st = game(["mimic", V, "seer", "werewolf"], ["assassin", V, V])
    act(st, "copy_center", 0)
    to_call(st, "assassin")
    assert st.actor == 0 and SKIP not in EPIC.legal_actions(st, 0)
    act(st, "token", 2)
    finish_night(st)
    vote_all(st, [2, 2, 3, 2])  # the Seer, with the Bounty, dies
    out = EPIC.outcome_json(st)
    assert out["final"]["cards"][A] == "mimic" and out["final"]["roles"][A] == "assassin"
    assert set(out["teams"]) == {"assassin", "werewolves"}
    assert set(out["winners"]) == {A, D}


def test_the_mimic_as_priest_heals_himself_at_once() -> None:
    st = game(["mimic", "infected", V, "werewolf"], ["priest", V, V])
    act(st, "copy_center", 0)
    to_call(st, "infected")
    act(st, "token", 0)  # the Plague on the Mimic, the Infected's right-hand neighbour
    assert told(st, 1, "gave_token")[-1] == {"kind": "gave_token", "seat": 0,
                                             "token": "plague"}
    assert st.call == "priest" and st.actor == 0  # the Mimic wakes as the Priest ...
    assert st.tokens[0] == "certainty" and st.board["plague"] == 1  # ... healed at once
    assert SKIP in EPIC.legal_actions(st, 0) and Action("token", 0) not in \
        EPIC.legal_actions(st, 0)


def test_a_mimic_record_carries_the_twilight_action_as_then() -> None:
    record = {"ruleset": "epic", "players": [A, B, C, D],
              "cards": {A: "mimic", B: V, C: V, D: "werewolf"},
              "center": ["venus", V, "seer"],
              "steps": [{"call": "mimic", "player": A, "center": [0],
                         "then": {"token": [B, D]}},
                        {"votes": {A: D, B: D, C: D, D: B}}]}
    st = EPIC.replay(record)
    assert st.tokens[1] == st.tokens[3] == "love"
    assert EPIC.outcome_json(EPIC.replay(EPIC.to_record(st))) == EPIC.outcome_json(st)


# --- a reduced set of artifacts -----------------------------------------------------------


def curator_draw(artifacts: list[str], seats: list[str], seed: int) -> Any:
    """A game whose Curator plays with the ``artifacts`` option (rulings: Curator)."""
    return EPIC.new_game(NAMES[: len(seats)], [*seats, *CENTER],
                         {"seed": seed, "artifacts": artifacts})


def test_a_reduced_set_of_artifacts_is_all_the_curator_can_draw() -> None:
    drawn = set()
    for seed in range(10):
        st = curator_draw(["mask_of_silence", "club_of_the_tanner"],
                          ["curator", "seer", "werewolf", V], seed)
        to_call(st, "curator")
        act(st, "artifact", 1)
        drawn.add(st.artifacts[1])
    assert drawn == {"mask_of_silence", "club_of_the_tanner"}


def test_the_claw_leaves_a_reduced_set_without_werewolves() -> None:
    # Only the Claw chosen, and no werewolf card: nothing is left to draw, so the
    # Curator has no choice and the call passes.
    st = curator_draw(["claw_of_the_werewolf"], ["curator", "seer", "vampire", V], 0)
    assert st.artifact_pool == []
    while st.phase == 0:
        assert st.call != "curator"
        EPIC.apply(st, st.actor, SKIP if SKIP in EPIC.legal_actions(st, st.actor)
                   else EPIC.legal_actions(st, st.actor)[0])


def test_a_reduced_set_is_kept_in_the_record() -> None:
    st = curator_draw(["brand_of_the_villager"], ["curator", "seer", "werewolf", V], 4)
    to_call(st, "curator")
    act(st, "artifact", 2)
    finish_night(st)
    vote_all(st, [2, 2, 1, 2])
    record = EPIC.to_record(st)
    assert record["options"]["artifacts"] == ["brand_of_the_villager"]
    again = EPIC.replay(record)
    assert again.artifacts[2] == "brand_of_the_villager"
    out = EPIC.outcome_json(again)
    # The Brand makes the werewolf a villager: he dies, and no werewolf died.
    assert out["final"]["roles"][C] == "villager" and out["dead"] == [C]
    with pytest.raises(DeckError, match="option 'artifacts'"):
        EPIC.new_game(NAMES[:4], ["curator", "seer", "werewolf", V, *CENTER],
                      {"artifacts": ["brand_of_the_villager", "brand_of_the_villager"]})


# --- revealed cards, thumbs and lovers in the account and the explanation ----------------------


def test_revealed_cards_thumbs_and_lovers_are_told() -> None:
    st = game(["venus", "fortune_teller", "seer", "werewolf", "enlightener"], CENTER)
    act(st, "token_two", 2, 3)  # Carla and Dario in love
    to_call(st, "seer")
    act(st, "look", 3)
    to_call(st, "enlightener")
    act(st, "reveal", 2)  # the Seer's card, harmless, stays face up
    finish_night(st)
    vote_all(st, [3, 3, 3, 0, 3])  # the werewolf dies, his lover Carla with him
    lines = tell(EPIC, st)
    assert "  Awake as lovers: Carla, Dario." in lines
    # Venus exchanged tokens and the Seer looked: both raise a thumb for the Fortune Teller.
    assert "  Bruno sees thumbs up: Anna, Carla." in lines
    assert "  Face up on the table: Carla: Seer." in lines
    out = EPIC.outcome(st)
    assert out is not None
    assert ("Dario had a Love token, so the other lover, Carla, dies too, protected or not."
            in explain(out.reasons))
    assert lines[-len(explain(out.reasons)):] == explain(out.reasons)
