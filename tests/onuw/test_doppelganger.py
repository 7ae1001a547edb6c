"""The Doppelgänger: one-night-ultimate-werewolf.md, its row of the role table and the
night script ("With the Doppelgänger ...")."""

import pytest

from nightcall.engine.actions import Action
from nightcall.engine.errors import RecordError
from nightcall.narration.telling import explained
from nightcall.rulesets.onuw.game import ONUW

from .helpers import NAMES, do, new, outcome, play, seat, seen, vote_all

V = "villager"
D = "doppelganger"


def events(st, name, kind):  # type: ignore[no-untyped-def]
    return [e for e in ONUW.view(st, seat(name))["events"] if e["kind"] == kind]


def test_looks_at_another_players_card_and_becomes_that_role() -> None:
    st = new([D, "hunter", "werewolf"], [V, "werewolf", V])
    assert ONUW.legal_actions(st, 0) == (Action("copy", 1), Action("copy", 2))
    do(st, "Anna", "copy", 1)
    assert st.cards[:3] == [D, "hunter", "werewolf"]  # nothing moved
    assert events(st, "Anna", "became") == [{"kind": "became", "role": "hunter"}]
    assert seen(st, "Anna") == [{"kind": "saw", "seat": 1, "card": "hunter"}]
    assert st.final_role(0) == "hunter"


def test_the_look_is_compulsory() -> None:
    st = new([D, "hunter", "werewolf"], [V, "werewolf", V])
    assert Action("skip") not in ONUW.legal_actions(st, 0)
    with pytest.raises(RecordError, match="compulsory"):
        play([D, "hunter", "werewolf"], [V, "werewolf", V], [{"votes": {}}])


def test_as_seer_acts_at_once_and_not_again() -> None:
    st = play([D, "seer", "werewolf", V], [V, "werewolf", "robber"],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno",
                "then": {"center": [0, 2]}},
               {"call": "seer", "player": "Bruno", "look": "Anna"}])
    assert [e["card"] for e in seen(st, "Anna")] == ["seer", V, "robber"]
    assert [h[2] for h in st.history if h[0] == 0] == ["doppelganger", "doppelganger"]
    # The real Seer sees the Doppelgänger card, not the role it copied.
    assert seen(st, "Bruno") == [{"kind": "saw", "seat": 0, "card": D}]


def test_as_robber_swaps_at_once_and_the_victim_becomes_a_robber() -> None:
    st = play([D, "robber", "werewolf", V], [V, "werewolf", V],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno",
                "then": {"swap": "Carla"}}])
    assert st.cards[:3] == ["werewolf", "robber", D]
    assert seen(st, "Anna")[-1] == {"kind": "saw", "seat": 0, "card": "werewolf"}
    # Carla holds the Doppelgänger card, which copied the Robber: village side.
    assert st.final_role(2) == "robber" and st.final_role(0) == "werewolf"


def test_as_troublemaker_swaps_two_other_players() -> None:
    st = new([D, "troublemaker", "werewolf", V], [V, "werewolf", V])
    do(st, "Anna", "copy", 1)
    legal = ONUW.legal_actions(st, 0)
    assert Action("skip") in legal and all(0 not in (a.a, a.b) for a in legal)
    do(st, "Anna", "swap_two", 1, 3)
    assert st.cards[:4] == [D, V, "werewolf", "troublemaker"]


def test_as_drunk_must_take_a_center_card() -> None:
    st = new([D, "drunk", "werewolf"], [V, "werewolf", "seer"])
    do(st, "Anna", "copy", 1)
    assert Action("skip") not in ONUW.legal_actions(st, 0)
    with pytest.raises(RecordError, match="compulsory"):
        play([D, "drunk", "werewolf"], [V, "werewolf", "seer"],
             [{"call": "doppelganger", "player": "Anna", "look": "Bruno"}])
    do(st, "Anna", "take_center", 2)
    assert st.cards[0] == "seer" and st.cards[5] == D


def test_as_werewolf_wakes_with_the_werewolves() -> None:
    st = play([D, "werewolf", V, V], [V, "werewolf", "seer"],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"}])
    for name in ("Anna", "Bruno"):
        assert events(st, name, "wolves") == [{"kind": "wolves", "seats": [0, 1]}]
    # Two are awake, so nobody is a lone wolf.
    assert not [h for h in st.history if h[2] == "werewolf"]


def test_as_mason_wakes_with_the_masons() -> None:
    st = play([D, "mason", "werewolf"], ["mason", "werewolf", V],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"}])
    assert events(st, "Bruno", "masons") == [{"kind": "masons", "seats": [0, 1]}]


def test_as_minion_sees_the_werewolves_at_the_end_of_its_call() -> None:
    st = play([D, "minion", "werewolf", V], [V, "werewolf", V],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"}])
    assert events(st, "Anna", "thumbs") == [{"kind": "thumbs", "seats": [2]}]
    # The real Minion sees the same Werewolves in its own call.
    assert events(st, "Bruno", "thumbs") == [{"kind": "thumbs", "seats": [2]}]


def test_as_insomniac_looks_again_after_the_insomniac() -> None:
    st = play([D, "insomniac", "robber", "werewolf"], [V, "werewolf", V],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"},
               {"call": "robber", "player": "Carla", "swap": "Anna"}])
    calls = [e["role"] for e in ONUW.view(st, None)["events"] if e["kind"] == "call"]
    assert calls[-2:] == ["insomniac", "doppelganger_insomniac"]
    assert seen(st, "Anna")[-1] == {"kind": "saw", "seat": 0, "card": "robber"}


@pytest.mark.parametrize("role", ["villager", "hunter", "tanner"])
def test_as_villager_hunter_or_tanner_does_nothing_else(role: str) -> None:
    st = play([D, role, "werewolf"], [V, "werewolf", "seer"],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"}])
    assert [h[2] for h in st.history if h[0] == 0] == ["doppelganger"] and st.phase == 1


def test_doppelganger_hunter_takes_their_target() -> None:
    out = outcome([D, "hunter", "werewolf", V], [V, "werewolf", V],
                  [{"call": "doppelganger", "player": "Anna", "look": "Bruno"},
                   {"votes": {"Anna": "Carla", "Bruno": "Anna", "Carla": "Anna",
                              "Dario": "Bruno"}}])
    assert out["dead"] == ["Anna", "Carla"]
    assert out["causes"] == {"Anna": "votes", "Carla": "hunter"}
    assert out["teams"] == ["village"]


def test_doppelganger_tanner_wins_by_dying() -> None:
    out = outcome([D, "tanner", "werewolf", V], [V, "werewolf", V],
                  [{"call": "doppelganger", "player": "Anna", "look": "Bruno"},
                   {"votes": {"Bruno": "Anna", "Carla": "Anna", "Dario": "Carla"}}])
    assert out["dead"] == ["Anna"] and out["teams"] == ["tanner"]
    assert out["winners"] == ["Anna"]


def test_whoever_receives_the_doppelganger_card_is_the_copied_role() -> None:
    """The Doppelgänger copies a Werewolf; the Robber then steals the Doppelgänger card
    and so becomes a Werewolf, while the Doppelgänger player becomes the Robber."""
    st = play([D, "werewolf", "robber", V, V], [V, "werewolf", "seer"],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"},
               {"call": "robber", "player": "Carla", "swap": "Anna"}])
    assert seen(st, "Carla")[-1] == {"kind": "saw", "seat": 2, "card": D}
    assert st.final_role(2) == "werewolf" and st.final_role(0) == "robber"
    vote_all(st, {"Anna": "Carla", "Bruno": "Carla", "Carla": "Dario", "Dario": "Carla",
                  "Elena": "Anna"})
    out = explained(ONUW.outcome_json(st))
    assert out["dead"] == ["Carla"] and out["teams"] == ["village"]
    assert "Carla" not in out["winners"] and "Anna" in out["winners"]
    assert any("Doppelgänger" in line for line in out["explanation"])


def test_a_copied_action_that_does_not_fit_the_role_is_refused() -> None:
    with pytest.raises(RecordError, match="does not act at once"):
        play([D, "hunter", "werewolf"], [V, "werewolf", V],
             [{"call": "doppelganger", "player": "Anna", "look": "Bruno",
               "then": {"look": "Carla"}}])


@pytest.mark.parametrize("doppel_seat", [0, 2])
def test_who_is_awake_is_listed_in_seat_order_so_the_doppelganger_stays_hidden(
    doppel_seat: int,
) -> None:
    """Whoever opens their eyes with the Werewolves may be the Doppelgänger (role table):
    the list of those awake must not give away which one it is, e.g. by its order."""
    seats: list[str] = [V, "werewolf", V, V]
    seats[doppel_seat] = D
    st = new(seats, [V, "werewolf", "minion"])
    do(st, NAMES[doppel_seat], "copy", 1)
    minion = new([D, V, "minion", "werewolf"], [V, "werewolf", V])
    do(minion, "Anna", "copy", 3)
    wolves = next(e for e in st.log if e.kind == "wolves").data["seats"]
    assert wolves == sorted([1, doppel_seat])
    thumbs = next(e for e in minion.log if e.kind == "thumbs" and e.audience == {2}).data
    assert thumbs["seats"] == [0, 3]
