"""The night, role by role: one-night-ultimate-werewolf.md, the role table and "Gameplay"."""

import pytest

from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.rulesets.onuw.game import ONUW

from .helpers import do, new, play, seat, seen

V = "villager"


# --- the calls -------------------------------------------------------------------


def test_calls_follow_the_rulebook_order_and_include_center_roles() -> None:
    deck = ["doppelganger", "werewolf", "minion", "mason", "mason", "seer", "robber",
            "troublemaker", "drunk", "insomniac", "hunter", "tanner", V]
    assert ONUW.night_calls(deck) == [
        "doppelganger", "werewolf", "minion", "mason", "seer", "robber", "troublemaker",
        "drunk", "insomniac", "doppelganger_insomniac",
    ]
    # Every role among the chosen cards is called, even when its card is in the center.
    st = new(["werewolf", V, V], ["seer", "robber", "troublemaker"])
    calls = [e["role"] for e in ONUW.view(st, None)["events"] if e["kind"] == "call"]
    assert calls == ["werewolf", "seer", "robber", "troublemaker"]


def test_villager_hunter_tanner_never_wake() -> None:
    assert ONUW.night_calls(["werewolf", "werewolf", V, "hunter", "tanner", V]) == ["werewolf"]


def test_you_wake_for_the_card_you_saw_at_the_start() -> None:
    """FAQ: a Robber who steals a Werewolf does not open their eyes with the Werewolves;
    the other Werewolves do not learn about them."""
    st = play(["werewolf", "robber", V], ["werewolf", V, V],
              [{"call": "robber", "player": "Bruno", "swap": "Anna"}])
    assert st.phase == 1
    wolves = [e for e in st.log if e.kind == "wolves"]
    assert len(wolves) == 1 and wolves[0].data["seats"] == [seat("Anna")]
    assert seen(st, "Bruno") == [{"kind": "saw", "seat": seat("Bruno"), "card": "werewolf"}]
    # Anna now holds the Robber: on the village side, without doing anything.
    assert st.final_role(seat("Anna")) == "robber"


# --- Werewolf --------------------------------------------------------------------


def test_werewolves_recognise_each_other() -> None:
    st = new(["werewolf", "werewolf", V], [V, V, "seer"])
    for name in ("Anna", "Bruno"):
        wolves = [e for e in ONUW.view(st, seat(name))["events"] if e["kind"] == "wolves"]
        assert wolves == [{"kind": "wolves", "seats": [0, 1]}]
    assert not [e for e in ONUW.view(st, seat("Carla"))["events"] if e["kind"] == "wolves"]
    # Two Werewolves have nothing to choose: the night ran on to the day by itself.
    assert st.history == [] and st.phase == 1


def test_lone_wolf_may_look_at_one_center_card() -> None:
    st = new(["werewolf", V, V], ["werewolf", "seer", V], {"lone_wolf": True})
    assert set(ONUW.legal_actions(st, 0)) == {
        Action("look_center", 0), Action("look_center", 1), Action("look_center", 2),
        Action("skip"),
    }
    do(st, "Anna", "look_center", 1)
    assert seen(st, "Anna") == [{"kind": "saw", "center": 1, "card": "seer"}]


def test_lone_wolf_option_off_gives_no_choice() -> None:
    st = new(["werewolf", V, V], ["werewolf", "seer", V], {"lone_wolf": False})
    assert st.phase == 1  # nobody had anything to choose
    # Issue 14: the refusal names the rule (the option), no longer "after the night is over".
    with pytest.raises(Exception, match=r"step 0: the lone werewolf's look .* is off .*"
                                        r"option lone_wolf: false"):
        play(["werewolf", V, V], ["werewolf", "seer", V],
             [{"call": "werewolf", "player": "Anna", "center": [1]}], {"lone_wolf": False})


# --- Minion ----------------------------------------------------------------------


def test_minion_sees_the_werewolves_who_do_not_see_the_minion() -> None:
    st = new(["werewolf", "minion", "werewolf", V], [V, V, "seer"])
    minion_view = ONUW.view(st, seat("Bruno"))["events"]
    assert {"kind": "thumbs", "seats": [0, 2]} in minion_view
    for wolf in ("Anna", "Carla"):
        events = ONUW.view(st, seat(wolf))["events"]
        assert all(e["kind"] != "thumbs" and seat("Bruno") not in e.get("seats", [])
                   for e in events)


def test_minion_with_both_werewolves_in_center_sees_nobody() -> None:
    st = new(["minion", V, V], ["werewolf", "werewolf", "seer"])
    assert {"kind": "thumbs", "seats": []} in ONUW.view(st, 0)["events"]


# --- Masons ----------------------------------------------------------------------


def test_masons_recognise_each_other_or_know_the_other_is_in_the_center() -> None:
    both = new(["mason", "mason", "werewolf"], [V, "werewolf", V])
    assert {"kind": "masons", "seats": [0, 1]} in ONUW.view(both, 0)["events"]
    alone = new(["mason", "werewolf", V], ["mason", "werewolf", V])
    assert {"kind": "masons", "seats": [0]} in ONUW.view(alone, 0)["events"]


# --- Seer ------------------------------------------------------------------------


def test_seer_looks_at_a_player_or_two_center_cards_without_moving_them() -> None:
    st = play(["seer", "werewolf", V], ["robber", "werewolf", V],
              [{"call": "seer", "player": "Anna", "look": "Bruno"}])
    assert seen(st, "Anna") == [{"kind": "saw", "seat": 1, "card": "werewolf"}]
    assert st.cards == ["seer", "werewolf", V, "robber", "werewolf", V]
    st2 = play(["seer", "werewolf", V], ["robber", "werewolf", V],
               [{"call": "seer", "player": "Anna", "center": [0, 2]}])
    assert [e["card"] for e in seen(st2, "Anna")] == ["robber", V]


def test_seer_may_not_look_at_their_own_card_or_one_center_card() -> None:
    st = new(["seer", "werewolf", V], ["robber", "werewolf", V])
    legal = ONUW.legal_actions(st, 0)
    assert Action("look", 0) not in legal
    assert all(a.kind != "look_center" or a.b >= 0 for a in legal)
    before = list(st.log)
    with pytest.raises(IllegalAction, match="not one of the choices"):
        ONUW.apply(st, 0, Action("look", 0))
    assert st.log == before and st.actor == 0


# --- Robber ----------------------------------------------------------------------


def test_robber_swaps_views_new_card_and_becomes_it_without_its_action() -> None:
    st = play(["robber", "seer", "werewolf"], [V, V, "werewolf"],
              [{"call": "robber", "player": "Anna", "swap": "Bruno"}])
    assert st.cards[:3] == ["seer", "robber", "werewolf"]
    assert seen(st, "Anna") == [{"kind": "saw", "seat": 0, "card": "seer"}]
    # The Seer's call had already passed: the Robber-now-Seer does not act as Seer.
    assert [h for h in st.history if h[0] == 0] == [(0, Action("swap", 1), "robber")]


def test_robber_who_does_not_swap_stays_robber() -> None:
    st = play(["robber", "seer", "werewolf"], [V, V, "werewolf"],
              [{"call": "robber", "player": "Anna", "skip": True}])
    assert st.cards[0] == "robber" and seen(st, "Anna") == []


def test_robber_cannot_swap_with_the_center() -> None:
    st = new(["robber", "seer", "werewolf"], [V, V, "werewolf"])
    assert all(a.kind in ("swap", "skip") and a.a != 0 for a in ONUW.legal_actions(st, 0))


# --- Troublemaker ----------------------------------------------------------------


def test_troublemaker_swaps_two_other_players_without_looking() -> None:
    st = play(["troublemaker", "werewolf", V, "seer"], [V, "werewolf", "robber"],
              [{"call": "troublemaker", "player": "Anna", "swap": ["Bruno", "Dario"]}])
    assert st.cards[:4] == ["troublemaker", "seer", V, "werewolf"]
    assert seen(st, "Anna") == []
    assert {"kind": "swapped", "seats": [1, 3]} in ONUW.view(st, 0)["events"]
    # Those players become the new role without knowing it.
    assert not [e for e in ONUW.view(st, 1)["events"] if e["kind"] in ("saw", "swapped")]


def test_troublemaker_cannot_swap_own_card_but_may_swap_nothing() -> None:
    """FAQ: only the cards of two other players; they may also swap nothing."""
    st = new(["troublemaker", "werewolf", V, V], [V, "werewolf", "robber"])
    legal = ONUW.legal_actions(st, 0)
    assert Action("skip") in legal
    assert all(0 not in (a.a, a.b) for a in legal)
    assert len(legal) == 3 + 1  # the pairs among three other players, and skip


# --- Drunk -----------------------------------------------------------------------


def test_drunk_must_swap_with_a_center_card_without_looking() -> None:
    st = new(["drunk", "werewolf", V], ["seer", "werewolf", V])
    assert Action("skip") not in ONUW.legal_actions(st, 0)
    do(st, "Anna", "take_center", 0)
    assert st.cards[0] == "seer" and st.cards[3] == "drunk"
    assert seen(st, "Anna") == []


def test_a_record_without_the_drunks_swap_is_illegal() -> None:
    with pytest.raises(Exception, match="compulsory"):
        play(["drunk", "werewolf", V], ["seer", "werewolf", V], [{"votes": {}}])


# --- Insomniac -------------------------------------------------------------------


def test_insomniac_looks_at_their_own_card_at_the_end() -> None:
    st = play(["insomniac", "robber", "werewolf"], [V, V, "werewolf"],
              [{"call": "robber", "player": "Bruno", "swap": "Anna"}])
    assert seen(st, "Anna") == [{"kind": "saw", "seat": 0, "card": "robber"}]
    unchanged = play(["insomniac", "robber", "werewolf"], [V, V, "werewolf"], [])
    assert seen(unchanged, "Anna") == [{"kind": "saw", "seat": 0, "card": "insomniac"}]


def test_whoever_receives_the_insomniac_does_not_wake() -> None:
    st = play(["insomniac", "robber", "werewolf"], [V, V, "werewolf"],
              [{"call": "robber", "player": "Bruno", "swap": "Anna"}])
    # Bruno now holds the Insomniac but saw the Robber at the start.
    assert seen(st, "Bruno") == [{"kind": "saw", "seat": 1, "card": "insomniac"}]  # robber's look


# --- Refusals leave the game unchanged ------------------------------------------


def test_acting_out_of_turn_is_refused_with_a_reason() -> None:
    st = new(["seer", "robber", "werewolf"], [V, V, "werewolf"])
    with pytest.raises(IllegalAction, match="Seer's call"):
        ONUW.apply(st, seat("Bruno"), Action("swap", 0))
    assert st.cards[:2] == ["seer", "robber"] and st.actor == 0
