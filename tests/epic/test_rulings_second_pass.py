"""The rulings issue 14 settles (docs/rulings.md, Epic Battle), each from its sentence.

Source: epic-battle-rulebook.txt, "Bodyguard", "The Master", "Setup" (symbol tokens
box), "Goblin".
"""

from __future__ import annotations

from typing import Any

import pytest

from nightcall.engine.errors import DeckError, RecordError
from nightcall.narration.telling import explain
from nightcall.rulesets.epic.game import EPIC

from .conftest import NAMES, game, to_call, verdict

A, B, C, D, E = NAMES[:5]
CENTER = ["villager", "bodyguard", "hunter"]


# --- the Master's protection ---------------------------------------------------------------
# "The Master": "If he receives the most votes, the player with the second-most votes
# dies instead." (no minimum). "Bodyguard": "This player must, however, have received at
# least 2 votes."


def test_master_saved_the_next_player_dies_with_one_vote(dead: Any) -> None:
    o = verdict(["the_master", "vampire", "seer", "villager", "robber"],
                {B: A, C: A, E: A, A: D, D: C})
    assert dead(o) == {C, D}  # the next group: Carla and Dario, one vote each
    assert "The next most voted die instead: Carla and Dario (1 vote)." in explain(o.reasons)


def test_master_saved_with_nobody_else_voted_nobody_dies(dead: Any) -> None:
    o = verdict(["the_master", "vampire", "seer", "villager", "robber"],
                {B: A, C: A, D: A, E: A})
    assert dead(o) == set()
    assert "Nobody else has a vote, so nobody dies instead." in explain(o.reasons)


def test_bodyguard_keeps_his_minimum_of_two(dead: Any) -> None:
    o = verdict(["werewolf", "bodyguard", "seer", "villager", "robber"],
                {B: A, C: A, E: A, A: D, D: C})
    assert dead(o) == set()


def test_a_top_tie_saved_by_master_and_bodyguard_takes_the_bodyguards_minimum(
        dead: Any) -> None:
    # Both sentences apply to the saved top; the stricter one, the Bodyguard's, holds.
    cards = ["the_master", "vampire", "bodyguard", "villager", "robber", "seer"]
    votes = {B: A, D: A, C: E, F: E, A: D}  # A and E 2 each; Dario 1
    o = verdict(cards, votes)
    assert dead(o) == set()


F = NAMES[5]


# --- starting tokens ----------------------------------------------------------------------
# "Setup": "Each player receives a Certainty token from the supply." "Certainty: Each
# player receives a Certainty token at the start of the game."


def test_a_starting_vampire_token_is_refused() -> None:
    record = {"ruleset": "epic", "players": [A, B, C],
              "cards": {A: "werewolf", B: "seer", C: "villager"},
              "center": ["villager", "robber", "tracker"],
              "tokens": {A: "vampire"},
              "steps": [{"votes": {B: A, C: A, A: B}}]}
    with pytest.raises(RecordError, match=r"Anna starts with the vampire token, but every "
                                          r"player starts with a Certainty token"):
        EPIC.replay(record)
    with pytest.raises(DeckError, match="Certainty"):
        EPIC.new_game((A, B, C), ["werewolf", "seer", "villager", "villager", "robber",
                                  "tracker"], None, ["certainty", "love", "certainty"])


# --- the Goblin with no token roles --------------------------------------------------------
# "Setup": "If you play with roles that require symbol tokens (...), also read the
# following box. If not, you can skip it." Without them nobody holds a token to swap.


def test_the_goblin_swaps_only_cards_without_token_roles() -> None:
    st = game(["goblin", "seer", "werewolf", "villager"], CENTER)
    to_call(st, "goblin")
    kinds = {a.kind for a in EPIC.legal_actions(st, 0)}
    assert kinds == {"swap_two", "skip"}
    st = game(["goblin", "seer", "werewolf", "venus"], CENTER)
    to_call(st, "goblin")
    assert {a.kind for a in EPIC.legal_actions(st, 0)} == {"swap_two", "swap_tokens", "skip"}


def test_an_old_record_with_a_tokenless_goblin_token_swap_still_replays() -> None:
    record = {"ruleset": "epic", "players": [A, B, C, D],
              "cards": {A: "goblin", B: "seer", C: "werewolf", D: "villager"},
              "center": CENTER,
              "steps": [{"call": "goblin", "player": A, "swap": [B, C], "what": "tokens"},
                        {"votes": {A: C, B: C, C: A, D: C}}]}
    st = EPIC.replay(record)
    assert st.tokens == ["certainty"] * 4
    assert EPIC.outcome_json(st)["dead"] == [C]
    skipped = dict(record, steps=[{"call": "goblin", "player": A, "skip": True},
                                  record["steps"][1]])
    assert EPIC.outcome_json(EPIC.replay(skipped)) == EPIC.outcome_json(st)
    bad = dict(record, steps=[{"call": "goblin", "player": A, "swap": [B, "Zoe"],
                               "what": "tokens"}])
    with pytest.raises(RecordError, match="step 0"):
        EPIC.replay(bad)
