"""The day and who wins: one-night-ultimate-werewolf.md, "Gameplay" (the vote, who dies),
"Who wins", the FAQ and the example round. Decisions: docs/rulings.md (One Night)."""

from pathlib import Path

import pytest

from nightcall.engine import records
from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction, RecordError
from nightcall.narration.telling import explained
from nightcall.rulesets.onuw.game import ONUW

from .helpers import do, new, outcome, seat, vote_all

V = "villager"
W = "werewolf"
RECORDS = Path(__file__).parent.parent / "records"


def day_outcome(seats: list[str], center: list[str], votes: dict[str, str | None]) -> dict:  # type: ignore[type-arg]
    st = new(seats, center)
    assert st.phase == 1, "these tests start at dawn"
    vote_all(st, votes)
    return explained(ONUW.outcome_json(st))


# --- the vote ------------------------------------------------------------------------


def test_the_most_voted_player_dies() -> None:
    out = day_outcome([W, V, V, V], [V, W, "seer"],
                      {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Carla"})
    assert out["dead"] == ["Anna"]


def test_on_a_tie_all_the_most_voted_die() -> None:
    out = day_outcome([W, V, V, V], [V, W, "seer"],
                      {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Bruno"})
    assert out["dead"] == ["Anna", "Bruno"]
    assert "tie with 2 votes" in out["explanation"][0]


def test_nobody_dies_if_nobody_has_more_than_one_vote() -> None:
    circle = {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Dario", "Dario": "Anna"}
    out = day_outcome([W, V, V, V], [V, W, "seer"], circle)
    assert out["dead"] == [] and out["teams"] == ["werewolves"]


def test_a_player_points_at_another_player_and_votes_once() -> None:
    st = new([W, V, V], [V, W, "seer"])
    with pytest.raises(IllegalAction, match="not at themselves"):
        do(st, "Anna", "vote", 0)
    do(st, "Anna", "vote", 1)
    with pytest.raises(IllegalAction, match="already voted"):
        do(st, "Anna", "vote", 2)
    assert st.votes[0] == 1


def test_votes_stay_secret_until_everyone_has_voted() -> None:
    st = new([W, V, V], [V, W, "seer"])
    do(st, "Anna", "vote", 1)
    for viewer in (None, 1, 2):
        view = ONUW.view(st, viewer)
        assert view["voted"] == ["Anna"]
        assert not [e for e in view["events"] if e["kind"] == "votes"]
    do(st, "Bruno", "vote", 0)
    do(st, "Carla", "vote", 1)
    assert [e for e in ONUW.view(st, None)["events"] if e["kind"] == "votes"]


def test_a_dead_hunter_takes_whoever_they_point_at() -> None:
    out = day_outcome(["hunter", W, V, V], [V, W, "seer"],
                      {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"})
    assert out["dead"] == ["Anna", "Bruno"]
    assert out["causes"]["Bruno"] == "hunter"
    assert out["teams"] == ["village"]  # a Werewolf died, however few votes it had


def test_a_hunter_who_did_not_point_takes_nobody() -> None:
    out = day_outcome(["hunter", W, V, V], [V, W, "seer"],
                      {"Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"})
    assert out["dead"] == ["Anna"] and out["teams"] == ["werewolves"]


def test_claims_are_public_information_during_the_day_only() -> None:
    st = new([W, V, V], [V, W, "seer"])
    ONUW.apply(st, 0, Action("claim", ONUW.role_ids.index("seer")))
    ONUW.apply(st, 1, Action("claim_saw", 0, ONUW.role_ids.index(W)))
    for viewer in (None, 2):
        claims = [e for e in ONUW.view(st, viewer)["events"] if e["kind"] == "claim"]
        assert claims == [{"kind": "claim", "seat": 0, "role": "seer"},
                          {"kind": "claim", "seat": 1, "saw": 0, "role": W}]
    with pytest.raises(IllegalAction, match="role in the deck"):
        ONUW.apply(st, 0, Action("claim", ONUW.role_ids.index("tanner")))
    night = new(["seer", W, V], [V, W, V])
    with pytest.raises(IllegalAction, match="during the day"):
        ONUW.apply(night, 0, Action("claim", 0))


# --- who wins, sentence by sentence --------------------------------------------------


# Each row: the players' cards, the center, the votes, then who dies, the teams that win
# and the winners (by name), as the rulebook's "Who wins" sentence says.
WHO_WINS = [
    pytest.param([W, V, V, W], [V, "seer", "robber"],
                 {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Bruno"},
                 ["Anna", "Bruno"], ["village"], ["Bruno", "Carla"],  # dead villagers win too
                 id="village_wins_if_at_least_one_werewolf_dies_even_with_others"),
    pytest.param([W, "minion", V, V], [V, W, "seer"],
                 {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Bruno"},
                 ["Bruno"], ["werewolves"], ["Anna", "Bruno"],  # the Minion wins, though dead
                 id="werewolves_win_if_a_player_is_a_werewolf_and_none_dies_minion_too"),
    pytest.param(["minion", V, V, V], [W, W, "seer"],
                 {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Bruno"},
                 ["Bruno"], ["werewolves"], ["Anna"],
                 id="minion_without_werewolves_wins_if_another_player_dies"),
    pytest.param(["minion", V, V, V], [W, W, "seer"],
                 {"Bruno": "Anna", "Carla": "Anna", "Dario": "Bruno", "Anna": "Carla"},
                 ["Anna"], [], [],
                 id="minion_without_werewolves_loses_if_only_the_minion_dies"),
    pytest.param(["tanner", W, "minion", V], [V, W, "seer"],
                 {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"},
                 ["Anna"], ["tanner"], ["Anna"],
                 id="tanner_dies_and_no_werewolf_does_werewolves_do_not_win"),
    pytest.param(["tanner", W, V, V], [V, W, "seer"],
                 {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Bruno"},
                 ["Anna", "Bruno"], ["village", "tanner"], ["Anna", "Carla", "Dario"],
                 id="tanner_and_a_werewolf_die_village_wins_too"),
]


@pytest.mark.parametrize(("seats", "center", "votes", "dead", "teams", "winners"), WHO_WINS)
def test_who_wins(seats: list[str], center: list[str], votes: dict[str, str | None],
                  dead: list[str], teams: list[str], winners: list[str]) -> None:
    out = day_outcome(seats, center, votes)
    assert out["dead"] == dead and out["teams"] == teams
    assert out["winners"] == winners


def test_village_wins_if_no_player_is_a_werewolf_and_nobody_dies() -> None:
    """FAQ: both Werewolves in the center; everyone points at their left neighbour."""
    circle = {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Dario", "Dario": "Anna"}
    out = day_outcome([V, V, V, V], [W, W, "seer"], circle)
    assert out["dead"] == [] and out["teams"] == ["village"]
    assert out["winners"] == ["Anna", "Bruno", "Carla", "Dario"]


def test_village_loses_if_no_werewolf_is_a_player_and_somebody_dies() -> None:
    out = day_outcome([V, V, V, V], [W, W, "seer"],
                      {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"})
    assert out["dead"] == ["Anna"] and out["teams"] == [] and out["winners"] == []
    assert out["explanation"][-1] == "Nobody wins."


def test_tanner_wins_only_by_dying() -> None:
    alive = day_outcome(["tanner", W, V, V], [V, W, "seer"],
                        {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Dario", "Dario": "Anna"})
    assert "Anna" not in alive["winners"] and alive["teams"] == ["werewolves"]


def test_no_werewolf_among_players_and_the_tanner_dies_village_loses() -> None:
    out = day_outcome(["tanner", V, "minion", V], [W, W, "seer"],
                      {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"})
    assert out["teams"] == ["tanner"] and out["winners"] == ["Anna"]
    # Ruling (docs/rulings.md): the Tanner's death also stops the Minion's win.
    assert any("Minion does not win" in line for line in out["explanation"])


def test_you_win_with_the_card_in_front_of_you_at_the_end() -> None:
    """Example round: Bruno started as a Werewolf and wins with the village."""
    st = ONUW.replay(records.load(RECORDS / "onuw-example-round.json"))
    assert st.start[seat("Bruno")] == W and "Bruno" in ONUW.outcome_json(st)["winners"]


# --- the example round -------------------------------------------------------------


def test_example_round_replays_to_what_its_text_says() -> None:
    st = ONUW.replay(records.load(RECORDS / "onuw-example-round.json"))
    out = ONUW.outcome_json(st)
    # Bruno, the lone wolf, looked at the center Werewolf.
    assert {"kind": "saw", "center": 1, "card": W} in ONUW.view(st, seat("Bruno"))["events"]
    # Carla saw that Bruno was a Werewolf; the Robber took it; the Troublemaker moved it to Anna.
    assert {"kind": "saw", "seat": 1, "card": W} in ONUW.view(st, seat("Carla"))["events"]
    assert out["final"]["cards"] == {"Anna": W, "Bruno": "robber", "Carla": "seer",
                                     "Dario": V, "Elena": "troublemaker"}
    assert out["dead"] == ["Anna"] and out["teams"] == ["village"]
    assert out["winners"] == ["Bruno", "Carla", "Dario", "Elena"]
    assert out["status"] == "over"


# --- FAQ ---------------------------------------------------------------------------


def test_faq_nobody_looks_at_cards_during_the_day() -> None:
    st = new(["seer", W, V], [V, W, "robber"])
    do(st, "Anna", "skip")
    assert st.phase == 1
    assert {a.kind for a in ONUW.legal_actions(st, 0)} == {"vote", "abstain"}
    with pytest.raises(IllegalAction):
        do(st, "Anna", "look", 1)


def test_illegal_votes_in_a_record_name_the_step() -> None:
    with pytest.raises(RecordError, match="step 1: Anna points at themselves"):
        outcome([W, V, V], [V, W, "seer"], [{"claims": {"Anna": V}}, {"votes": {"Anna": "Anna"}}])
    with pytest.raises(RecordError, match="step 0: 'votes': 'Zoe' is not seated"):
        outcome([W, V, V], [V, W, "seer"], [{"votes": {"Zoe": "Anna"}}])
