"""Coverage the One Night page asks for (issue 14): the Doppelgänger copying a Mason, and
a Drunk taking a Doppelgänger card from the center.

Source: one-night-ultimate-werewolf.md, the role table: Doppelgänger ("As Werewolf or
Mason, also opens their eyes with them"; "Whoever receives the Doppelgänger card during
the night is the role the Doppelgänger copied"), Masons ("with the Doppelgänger in
play, whoever opens their eyes with them may be the Doppelgänger"), Drunk ("Must swap
their card with one from the center, without looking at it. Becomes the role of the
card they took, without knowing which"); "The calls" (every role in play is called,
"including those that may be in the center"); docs/rulings.md, One Night 5 and 10.
"""

from __future__ import annotations

from typing import Any

from nightcall.narration.telling import explained
from nightcall.rulesets.onuw.game import ONUW

from .helpers import play, seat

V = "villager"
D = "doppelganger"


def events(st: Any, name: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in ONUW.view(st, seat(name))["events"] if e["kind"] == kind]


# --- the Doppelgänger copying a Mason ----------------------------------------------------


def doppel_mason() -> Any:
    # Carla (Doppelgänger) copies Anna's Mason; Bruno is the other Mason.
    return play(["mason", "mason", D, "werewolf"], [V, "seer", V],
                [{"call": "doppelganger", "player": "Carla", "look": "Anna"},
                 {"call": "werewolf", "player": "Dario", "skip": True},
                 {"call": "mason", "player": "Anna"}, {"call": "mason", "player": "Bruno"},
                 {"call": "mason", "player": "Carla"},
                 {"votes": {"Anna": "Dario", "Bruno": "Dario", "Carla": "Dario",
                            "Dario": "Anna"}}])


def test_the_doppelganger_mason_opens_their_eyes_with_both_masons() -> None:
    st = doppel_mason()
    for name in ("Anna", "Bruno", "Carla"):
        # In seat order: the Masons cannot tell which of the three is the Doppelgänger.
        assert events(st, name, "masons") == [{"kind": "masons", "seats": [0, 1, 2]}]
    assert events(st, "Dario", "masons") == []
    assert {"kind": "became", "role": "mason"} in ONUW.view(st, 2)["events"]


def test_the_doppelganger_mason_wins_with_the_village_as_a_mason() -> None:
    st = doppel_mason()
    out = explained(ONUW.outcome_json(st))
    assert out["final"]["cards"]["Carla"] == D and out["final"]["roles"]["Carla"] == "mason"
    assert out["dead"] == ["Dario"] and out["teams"] == ["village"]
    assert set(out["winners"]) == {"Anna", "Bruno", "Carla"}
    assert ("Carla holds the Doppelgänger card, which copied the Mason: they count as a "
            "Mason.") in out["explanation"]


def test_a_doppelganger_mason_with_the_other_mason_in_the_center_sees_one_mason() -> None:
    st = play(["mason", D, "werewolf"], ["mason", V, "seer"],
              [{"call": "doppelganger", "player": "Bruno", "look": "Anna"}])
    assert events(st, "Anna", "masons") == [{"kind": "masons", "seats": [0, 1]}]
    assert events(st, "Bruno", "masons") == [{"kind": "masons", "seats": [0, 1]}]


# --- a Drunk taking the Doppelgänger card from the center ---------------------------------


def drunk_takes_doppelganger(votes: dict[str, str]) -> Any:
    return play(["drunk", "werewolf", "seer"], [V, D, V],
                [{"call": "doppelganger"},  # called though in the center: nobody wakes
                 {"call": "werewolf", "player": "Bruno", "skip": True},
                 {"call": "seer", "player": "Carla", "center": [0, 2]},
                 {"call": "drunk", "player": "Anna", "center": [1]},
                 {"votes": votes}])


def test_the_doppelganger_is_called_though_its_card_is_in_the_center() -> None:
    st = drunk_takes_doppelganger({"Anna": "Bruno", "Carla": "Bruno", "Bruno": "Anna"})
    public = [e["role"] for e in ONUW.view(st, None)["events"] if e["kind"] == "call"]
    assert public[0] == "doppelganger"
    assert st.copy is None  # nobody copied anything
    assert not events(st, "Anna", "saw")  # the Drunk does not look at what he took


def test_the_drunk_with_an_uncopied_doppelganger_card_is_on_the_village_side() -> None:
    # Rulings, One Night 5: a Doppelgänger card that never woke copied nothing; its
    # holder is on the village side.
    st = drunk_takes_doppelganger({"Anna": "Bruno", "Carla": "Bruno", "Bruno": "Anna"})
    out = explained(ONUW.outcome_json(st))
    assert out["final"]["cards"]["Anna"] == D and out["final"]["roles"]["Anna"] == D
    assert out["final"]["center"] == [V, "drunk", V]
    assert out["dead"] == ["Bruno"] and out["teams"] == ["village"]
    assert set(out["winners"]) == {"Anna", "Carla"}
    st = drunk_takes_doppelganger({"Carla": "Anna", "Bruno": "Anna", "Anna": "Carla"})
    out = explained(ONUW.outcome_json(st))
    assert out["dead"] == ["Anna"] and out["teams"] == ["werewolves"]
    assert out["winners"] == ["Bruno"]
