"""Every waking role, from its paragraph in epic-battle-rulebook.txt ("Roles") and the
Game Master sheet. Seats: 0 Anna, 1 Bruno, 2 Carla, 3 Dario, 4 Elena; the player to
the left of seat i is seat i+1."""

from __future__ import annotations

import pytest

from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.rulesets.epic.game import EPIC

from .conftest import SKIP, act, finish_night, game, to_call, told, vote_all

V = "villager"
CENTER = ["villager", "bodyguard", "hunter"]


# --- Mimic (-8) --------------------------------------------------------------------------


def test_mimic_must_copy_a_center_card_and_wakes_for_it() -> None:
    st = game(["mimic", "werewolf", V, V], ["seer", "villager", "robber"])
    assert st.call == "mimic" and SKIP not in EPIC.legal_actions(st, 0)
    act(st, "copy_center", 0)
    assert told(st, 0, "became") == [{"kind": "became", "role": "seer"}]
    to_call(st, "seer")
    assert st.actor == 0  # the Mimic wakes as the Seer
    act(st, "look", 1)
    assert told(st, 0, "saw")[-1]["card"] == "werewolf"


def test_mimic_card_keeps_the_copied_role_when_it_moves() -> None:
    st = game(["mimic", "robber", V, V], ["werewolf", "villager", "seer"])
    act(st, "copy_center", 0)
    assert st.final_role(0) == "werewolf"
    to_call(st, "robber")
    act(st, "swap", 0)  # the Robber takes the Mimic card
    assert st.final_role(1) == "werewolf"


def test_mimic_card_from_the_center_counts_as_a_villager() -> None:
    st = game(["witch", "werewolf", V, V], ["mimic", "villager", "seer"])
    to_call(st, "witch")
    act(st, "look_center", 0)
    act(st, "swap_center", 0)  # she gives herself the Mimic
    assert st.cards[0] == "mimic" and st.final_role(0) == "villager"


def test_assassin_card_from_the_center_counts_as_a_villager() -> None:
    st = game(["witch", "werewolf", V, V], ["assassin", "villager", "seer"])
    to_call(st, "witch")
    act(st, "look_center", 0)
    act(st, "swap_center", 2)
    assert st.final_role(2) == "villager"


# --- vampires and their tokens (-6 .. -6C) -----------------------------------------------


def test_vampires_see_each_other_and_must_bite_a_non_vampire() -> None:
    st = game(["vampire", "the_master", V, V], CENTER)
    assert st.call == "vampires" and st.actor == 0
    assert told(st, 1, "vampires")[0]["seats"] == [0, 1]
    legal = EPIC.legal_actions(st, 0)
    assert SKIP not in legal and set(legal) == {Action("token", 2), Action("token", 3)}
    with pytest.raises(IllegalAction):
        act(st, "token", 1)
    act(st, "token", 3)
    assert st.tokens[3] == "vampire"


def test_count_panics_a_non_vampire_and_the_panicked_werewolf_stays_asleep() -> None:
    st = game(["vampire", "the_count", "werewolf", "sight_wolf", V], CENTER)
    act(st, "token", 4)  # bite Elena
    assert st.call == "the_count" and st.actor == 1
    targets = {a.a for a in EPIC.legal_actions(st, 1)}
    assert targets == {2, 3}  # not a vampire, not the bitten Elena
    act(st, "token", 2)
    assert st.call == "werewolves"
    # Carla has Panic: only Dario wakes, alone, and may look at the center.
    assert st.actor == 3
    assert told(st, 3, "wolves")[0]["seats"] == [3]
    assert told(st, 2, "wolves") == []


def test_panic_does_not_stop_a_twilight_role() -> None:
    st = game(["the_count", "infected", "seer", V], ["vampire", V, "robber"])
    act(st, "token", 2)  # the Count first wakes with the vampires and bites Carla
    assert st.call == "the_count"
    act(st, "token", 1)
    assert st.call == "infected" and st.actor == 1  # twilight: still wakes


def test_panicked_seer_is_not_called() -> None:
    st = game(["the_count", "seer", V, V], ["vampire", V, "robber"])
    act(st, "token", 3)
    act(st, "token", 1)  # Panic for the Seer
    finish_night(st)
    assert not any(seat == 1 for seat, _, call in st.history if call == "seer")
    st = game(["the_count", "seer", V, V], ["vampire", V, "robber"])
    act(st, "token", 3)
    act(st, "token", 2)
    to_call(st, "seer")
    assert st.actor == 1


def test_renfield_sees_vampires_and_victim_and_takes_the_bat() -> None:
    st = game(["vampire", "renfield", V, V], CENTER)
    act(st, "token", 3)
    seen = told(st, 1, "vampires")
    assert seen == [{"kind": "vampires", "seats": [0], "bitten": 3}]
    assert st.tokens[1] == "bat"
    assert all(1 not in e.get("seats", []) for e in told(st, 0, "vampires"))


def test_infected_only_reaches_a_neighbour() -> None:
    st = game([V, V, "infected", V, V], CENTER)
    assert {a.a for a in EPIC.legal_actions(st, 2)} == {1, 3}
    assert SKIP not in EPIC.legal_actions(st, 2)
    act(st, "token", 3)
    assert st.tokens[3] == "plague"


def test_venus_makes_lovers_who_see_each_other() -> None:
    st = game(["venus", V, V, "werewolf"], CENTER)
    act(st, "token_two", 1, 3)
    finish_night(st)
    assert told(st, 1, "lovers")[0]["seats"] == [1, 3]
    assert told(st, 0, "lovers") == []


def test_instigator_may_hand_out_the_traitor() -> None:
    st = game(["instigator", V, V, "werewolf"], CENTER)
    assert SKIP in EPIC.legal_actions(st, 0)
    act(st, "token", 3)
    assert st.tokens[3] == "traitor"


def test_priest_heals_himself_and_may_heal_one_other() -> None:
    st = game(["infected", "priest", V, V], CENTER)
    act(st, "token", 1)  # the plague goes to the Priest ...
    assert told(st, 0, "gave_token")[-1] == {"kind": "gave_token", "seat": 1, "token": "plague"}
    assert st.call == "priest"
    assert st.tokens[1] == "certainty"  # ... who had to swap it for Certainty at once
    assert st.board["plague"] == 1
    assert SKIP in EPIC.legal_actions(st, 1) and Action("token", 1) not in \
        EPIC.legal_actions(st, 1)


def test_assassin_must_place_the_bounty_even_on_himself() -> None:
    st = game(["assassin", V, V, "werewolf"], CENTER)
    legal = EPIC.legal_actions(st, 0)
    assert SKIP not in legal and Action("token", 0) in legal
    act(st, "token", 0)
    assert st.tokens[0] == "bounty"


def test_everybody_looks_at_their_own_token_only() -> None:
    st = game(["assassin", V, V, "werewolf"], CENTER)
    act(st, "token", 2)
    assert told(st, 2, "token") == [{"kind": "token", "seat": 2, "token": "bounty"}]
    assert [e["seat"] for e in told(st, 1, "token")] == [1]
    assert told(st, None, "token") == []


# --- werewolves (2 .. 2C) -------------------------------------------------------------------


def test_lone_wolf_may_look_at_one_center_card() -> None:
    st = game(["werewolf", "seer", V, V], CENTER)
    assert st.call == "werewolves" and st.actor == 0
    act(st, "look_center", 1)
    assert told(st, 0, "saw")[-1] == {"kind": "saw", "center": 1, "card": "bodyguard"}


def test_dream_wolf_thumb_takes_away_the_lone_wolf_look() -> None:
    st = game(["werewolf", "dream_wolf", V, V], CENTER)
    assert "werewolves_dream_wolf" in st.schedule
    assert st.phase == 1  # no lone-wolf choice: the night passed without one
    assert told(st, 0, "wolves")[0]["dream_wolves"] == [1]
    assert told(st, 1, "wolves") == []  # the Dream Wolf keeps its eyes closed


def test_dream_wolf_in_the_center_leaves_the_lone_wolf_alone() -> None:
    st = game(["werewolf", "seer", V, V], ["dream_wolf", V, "robber"])
    assert st.call == "werewolves_dream_wolf" and st.actor == 0


def test_werewolf_with_the_vampire_token_still_wakes_with_the_wolves() -> None:
    st = game(["vampire", "werewolf", "sight_wolf", V], CENTER)
    act(st, "token", 1)
    to_call(st, "sight_wolf")
    assert told(st, 1, "wolves")[0]["seats"] == [1, 2]


def test_alpha_wolf_must_give_the_extra_card_to_a_non_werewolf() -> None:
    st = game(["alpha_wolf", "werewolf", V, "seer"], CENTER, extra="sight_wolf")
    to_call(st, "alpha_wolf")
    legal = EPIC.legal_actions(st, 0)
    assert SKIP not in legal and {a.a for a in legal} == {2, 3}
    act(st, "swap", 3)
    assert st.cards[3] == "sight_wolf" and st.cards[st.extra_pos] == "seer"


def test_sight_wolf_may_look_at_a_player() -> None:
    st = game(["sight_wolf", "werewolf", V, "seer"], CENTER)
    to_call(st, "sight_wolf")
    act(st, "look", 3)
    assert told(st, 0, "saw")[-1]["card"] == "seer"


# --- the village's night -----------------------------------------------------------------------


def test_freemasons_see_each_other() -> None:
    st = game(["freemason", "freemason", "werewolf", V], CENTER)
    finish_night(st)
    assert told(st, 1, "freemasons")[0]["seats"] == [0, 1]
    st = game(["freemason", "seer", "werewolf", V], ["freemason", V, "robber"])
    finish_night(st)
    assert told(st, 0, "freemasons")[0]["seats"] == [0]


def test_thing_taps_only_a_neighbour_who_learns_it() -> None:
    st = game([V, V, "the_thing", V, "werewolf"], CENTER)
    to_call(st, "the_thing")
    assert {a.a for a in EPIC.legal_actions(st, 2) if a.kind == "tap"} == {1, 3}
    act(st, "tap", 3)
    assert told(st, 3, "tapped") == [{"kind": "tapped", "by": 2}]
    assert told(st, 1, "tapped") == []


def test_seer_one_player_or_two_center_cards() -> None:
    st = game(["seer", "werewolf", V, V], CENTER)
    to_call(st, "seer")
    legal = EPIC.legal_actions(st, 0)
    assert Action("look_center", 0, 2) in legal and Action("look_center", 0) not in legal
    act(st, "look_center", 0, 2)
    assert [e["card"] for e in told(st, 0, "saw")] == ["villager", "hunter"]


def test_ghost_hunter_transforms_on_a_werewolf_and_stops() -> None:
    st = game(["ghost_hunter", "werewolf", V, V, "seer"], CENTER)
    to_call(st, "ghost_hunter")
    act(st, "look", 1)
    assert st.call != "ghost_hunter"  # no second look
    assert st.final_role(0) == "werewolf"


def test_ghost_hunter_looks_twice_at_harmless_cards() -> None:
    st = game(["ghost_hunter", "seer", V, "tanner", "werewolf"], CENTER)
    to_call(st, "ghost_hunter")
    act(st, "look", 1)
    assert st.actor == 0 and Action("look", 1) not in EPIC.legal_actions(st, 0)
    act(st, "look", 3)
    assert st.final_role(0) == "tanner"


def test_ghost_hunter_does_not_turn_into_a_mimic() -> None:
    st = game(["ghost_hunter", "mimic", V, V], ["werewolf", V, "seer"])
    act(st, "copy_center", 0)
    to_call(st, "ghost_hunter")
    act(st, "look", 1)
    assert told(st, 0, "saw")[-1]["card"] == "mimic"
    assert st.actor == 0 and st.final_role(0) == "ghost_hunter"


def test_tracker_looks_at_a_card_then_another_players_token() -> None:
    st = game(["tracker", "werewolf", V, "venus"], CENTER)
    act(st, "token_two", 1, 2)
    to_call(st, "tracker")
    act(st, "look", 1)
    assert Action("look_token", 1) not in EPIC.legal_actions(st, 0)
    act(st, "look_token", 2)
    assert told(st, 0, "saw_token")[-1]["token"] == "love"


def test_tracker_without_tokens_only_looks_at_a_card() -> None:
    st = game(["tracker", "werewolf", V, V], CENTER)
    to_call(st, "tracker")
    act(st, "look", 1)
    assert st.call != "tracker"


def test_robber_swaps_and_sees_but_does_not_act() -> None:
    st = game(["robber", "seer", "werewolf", V], CENTER)
    to_call(st, "robber")
    act(st, "swap", 1)
    assert st.cards[:2] == ["seer", "robber"]
    assert told(st, 0, "saw")[-1] == {"kind": "saw", "seat": 0, "card": "seer"}


def test_witch_must_swap_the_card_she_looked_at() -> None:
    st = game(["witch", "seer", "werewolf", V], ["sight_wolf", V, "robber"])
    to_call(st, "witch")
    act(st, "look_center", 2)
    assert SKIP not in EPIC.legal_actions(st, 0)
    act(st, "swap_center", 0)  # herself: she is now the Robber, and does not wake again
    assert st.cards[0] == "robber" and st.cards[st.n + 2] == "witch"


def test_fortune_teller_sees_who_moved_or_looked() -> None:
    st = game(["seer", "fortune_teller", "robber", "werewolf", "goblin"], CENTER)
    to_call(st, "seer")
    act(st, "look", 3)
    to_call(st, "robber")
    act(st, "skip")
    # The lone wolf skipped its look, the Robber did nothing, the Goblin comes later.
    assert told(st, 1, "thumbs")[0]["seats"] == [0]


def test_goblin_swaps_cards_or_tokens_without_looking() -> None:
    st = game(["goblin", "seer", "werewolf", "venus"], CENTER)
    act(st, "token_two", 1, 3)
    to_call(st, "goblin")
    legal = EPIC.legal_actions(st, 0)
    assert Action("swap_two", 1, 2) in legal and Action("swap_tokens", 0, 1) in legal
    act(st, "swap_tokens", 0, 1)
    assert st.tokens[:2] == ["love", "certainty"]
    assert told(st, 0, "saw") == []


def test_insomniac_sees_her_card_as_it_is_now() -> None:
    st = game(["insomniac", "robber", "werewolf", V], CENTER)
    to_call(st, "robber")
    act(st, "swap", 0)
    finish_night(st)
    assert told(st, 0, "saw")[-1] == {"kind": "saw", "seat": 0, "card": "robber"}


def test_enlightener_reveals_a_harmless_card_to_everyone() -> None:
    st = game(["enlightener", "seer", "werewolf", V], CENTER)
    to_call(st, "enlightener")
    act(st, "reveal", 1)
    finish_night(st)
    assert EPIC.view(st, None)["face_up"] == {"Bruno": "seer"}


def test_enlightener_conceals_a_werewolf_again() -> None:
    st = game(["enlightener", "seer", "werewolf", V], CENTER)
    to_call(st, "enlightener")
    act(st, "reveal", 2)
    finish_night(st)
    assert EPIC.view(st, None)["face_up"] == {}
    assert told(st, 0, "saw")[-1]["card"] == "werewolf"


def test_curator_draws_a_random_artifact_seen_only_by_its_holder() -> None:
    st = game(["curator", "seer", "werewolf", V], CENTER, seed=3)
    to_call(st, "curator")
    assert "bite_of_the_vampire" not in st.artifact_pool  # no vampires in this deck
    act(st, "artifact", 1)
    drawn = st.artifacts[1]
    assert drawn is not None
    assert [e["artifact"] for e in told(st, 1, "artifact")] == [drawn]
    assert told(st, 0, "artifact") == [] and told(st, None, "artifact") == []
    assert EPIC.view(st, 1)["instructions"]


def test_curator_draw_follows_the_seed() -> None:
    draws = set()
    for seed in range(12):
        st = game(["curator", "seer", "werewolf", V], CENTER, seed=seed)
        to_call(st, "curator")
        act(st, "artifact", 1)
        again = game(["curator", "seer", "werewolf", V], CENTER, seed=seed)
        to_call(again, "curator")
        act(again, "artifact", 1)
        assert st.artifacts == again.artifacts
        draws.add(st.artifacts[1])
    assert len(draws) > 1


# --- the whole night and the vote --------------------------------------------------------------


def test_night_calls_follow_the_game_master_sheet() -> None:
    deck = [r for r in EPIC.role_ids if r != "freemason"] + ["freemason", "freemason"]
    assert EPIC.night_calls(deck) == [
        "mimic", "vampires", "the_count", "renfield", "infected", "venus", "instigator",
        "priest", "assassin", "tokens", "lovers", "werewolves_dream_wolf", "alpha_wolf",
        "sight_wolf", "freemasons", "the_thing", "seer", "ghost_hunter", "tracker", "robber",
        "witch", "fortune_teller", "goblin", "insomniac", "enlightener", "curator",
    ]
    assert EPIC.night_calls(["werewolf", "seer", "villager"]) == ["werewolves", "seer"]


def test_the_vote_ends_the_game() -> None:
    st = game(["werewolf", "seer", V, V], CENTER)
    finish_night(st)
    with pytest.raises(IllegalAction, match="themselves"):
        EPIC.apply(st, 0, Action("vote", 0))
    vote_all(st, [1, 0, 0, 0])
    assert EPIC.is_over(st)
    outcome = EPIC.outcome(st)
    assert outcome is not None and outcome.teams == ("village",)
    with pytest.raises(IllegalAction, match="over"):
        EPIC.apply(st, 0, Action("vote", 1))
