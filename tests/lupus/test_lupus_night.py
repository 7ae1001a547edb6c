"""The night: the calls and their order, each role's power, and who dies at dawn.
Source: lupus-in-tabula.md, "Setup" (role table), "Gameplay" (Night, The calls,
The werewolves choose, Dawn), "Variants", FAQ; rulings: docs/rulings.md (Lupus in Tabula)."""

from __future__ import annotations

import pytest
from lupus_helpers import TABLE12, TABLE16, dawn_dead, lynch, night, seat, start, told

from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction, RecordError
from nightcall.engine.events import EVERYONE
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.state import DAY, NIGHT


@pytest.mark.parametrize(
    ("deck", "night_no", "calls"),
    [
        (LUPUS.default_deck(7), 1, ["werewolf", "seer"]),
        (LUPUS.default_deck(7), 5, ["werewolf", "seer"]),
        (LUPUS.default_deck(9), 1, ["werewolf", "seer"]),
        (LUPUS.default_deck(9), 2, ["medium", "werewolf", "seer"]),
        (LUPUS.default_deck(12), 1, ["harlot", "werewolf", "seer"]),
        (LUPUS.default_deck(12), 2, ["medium", "bodyguard", "harlot", "werewolf", "seer"]),
        (list(TABLE16.values()), 1, ["harlot", "werewolf", "seer", "owl", "freemason"]),
        (list(TABLE16.values()), 2,
         ["medium", "bodyguard", "harlot", "werewolf", "seer", "owl", "mythomaniac"]),
        (list(TABLE16.values()), 3,
         ["medium", "bodyguard", "harlot", "werewolf", "seer", "owl"]),
    ],
)
def test_night_calls_in_the_fixed_order(deck: list[str], night_no: int, calls: list[str]) -> None:
    assert LUPUS.night_calls(deck, night_no) == calls


def _public_calls(st: object, night_no: int) -> list[str]:
    view = LUPUS.view(st, None)
    return [e["role"] for e in view["events"] if e["kind"] == "call" and e["night"] == night_no]


def test_dead_roles_are_still_called() -> None:
    st = start(TABLE12)
    night(st, wolves="Cal", seer="Ada", owl="Jon")  # the Seer is eaten on night 1
    assert dawn_dead(st) == ["Cal"]
    lynch(st, "Bea")
    assert st.phase == NIGHT and st.night == 2
    assert _public_calls(st, 2)[:2] == ["medium", "bodyguard"]
    night(st, wolves="Jon", bodyguard="Kim", owl="Lea")
    assert _public_calls(st, 2) == LUPUS.night_calls(st.deck, 2)
    assert "seer" in _public_calls(st, 2)


def test_the_medium_and_bodyguard_are_not_called_on_night_1() -> None:
    st = start(TABLE12)
    assert "medium" not in _public_calls(st, 1)
    with pytest.raises(RecordError, match="Bodyguard is not called to choose on night 1"):
        night(st, wolves="Bea", seer="Ada", owl="Jon", bodyguard="Kim")
    assert st.phase == NIGHT and st.night == 1 and st.call == "harlot"


def _to_night_2(st: object) -> None:
    night(st, wolves="Lea", seer="Hal", owl="Jon")
    lynch(st, "Kim")


def test_a_protected_victim_means_nobody_died() -> None:
    st = start(TABLE12)
    _to_night_2(st)
    night(st, wolves="Bea", bodyguard="Bea", seer="Ada", owl="Jon")
    assert dawn_dead(st) == []
    assert st.alive[seat(st, "Bea")]
    dawn = [e for e in st.log if e.kind == "dawn"][-1]
    assert set(dawn.data) == {"night", "dead", "last"}  # no reason is given


def test_the_bodyguard_protects_themselves_only_once() -> None:
    st = start(TABLE12)
    _to_night_2(st)
    eve = seat(st, "Eve")
    assert Action("protect", eve) in LUPUS.legal_actions(st, eve)
    night(st, wolves="Eve", bodyguard="Eve", seer="Ada", owl="Jon")
    assert dawn_dead(st) == []
    lynch(st, "Jon")
    assert Action("protect", eve) not in LUPUS.legal_actions(st, eve)
    with pytest.raises(IllegalAction, match="only once per game"):
        LUPUS.apply(st, eve, Action("protect", eve))
    night(st, wolves="Bea", bodyguard="Bea", seer="Dan", owl="Gus")  # the same name again
    assert dawn_dead(st) == []


def test_the_bodyguard_only_protects_from_the_werewolves() -> None:
    st = start(TABLE12)
    _to_night_2(st)
    night(st, wolves="Bea", bodyguard="Fay", harlot="Dan", seer="Ada", owl="Jon")
    assert dawn_dead(st) == ["Bea", "Fay"]  # the Harlot visited a werewolf


@pytest.mark.parametrize(
    ("harlot", "wolves", "dead"),
    [
        (None, "Fay", ["Fay"]),  # at home, eaten
        ("Bea", "Fay", []),  # away from home: the house is empty
        ("Bea", "Bea", ["Bea", "Fay"]),  # the host is eaten, and the Harlot with them
        ("Dan", "Bea", ["Bea", "Fay"]),  # two deaths: victim, and a visit to a werewolf
        ("Dan", "Fay", ["Fay"]),  # away at a werewolf's: the visit kills
        ("Jon", "Bea", ["Bea"]),  # an ordinary visit
    ],
)
def test_the_harlots_night(harlot: str | None, wolves: str, dead: list[str]) -> None:
    st = start(TABLE12)
    night(st, wolves=wolves, harlot=harlot, seer="Hal", owl="Jon")
    assert sorted(dawn_dead(st)) == sorted(dead)
    assert [st.names[s] for s in range(st.n) if not st.alive[s]] == sorted(
        dead, key=st.names.index)


def test_the_harlots_host_protected_means_nobody_died() -> None:
    st = start(TABLE12)
    _to_night_2(st)
    night(st, wolves="Bea", bodyguard="Bea", harlot="Bea", seer="Ada", owl="Jon")
    assert dawn_dead(st) == []


def test_the_harlot_visits_living_players_only() -> None:
    st = start(TABLE12)
    fay = seat(st, "Fay")
    assert Action("visit", fay) not in LUPUS.legal_actions(st, fay)
    assert Action("stay_home") in LUPUS.legal_actions(st, fay)
    _to_night_2(st)
    with pytest.raises(RecordError, match="Kim is dead"):
        night(st, wolves="Bea", bodyguard="Bea", harlot="Kim", seer="Ada", owl="Jon")


@pytest.mark.parametrize(
    ("looked_at", "werewolf"),
    [("Ada", True), ("Dan", True), ("Hal", False), ("Fay", False), ("Bea", False)],
)
def test_the_seer_learns_werewolf_or_not(looked_at: str, werewolf: bool) -> None:
    st = start(TABLE12)
    night(st, wolves="Jon", seer=looked_at, owl="Jon")
    seen = told(st, "Cal", "seen")
    assert seen == [{"kind": "seen", "seat": seat(st, looked_at), "werewolf": werewolf}]
    for other in ("Ada", "Bea", "Hal", "Eve"):
        assert told(st, other, "seen") == []


def test_the_seer_points_at_another_living_player() -> None:
    st = start(TABLE12)
    night(st, wolves="Jon", seer="Hal", owl="Bea")
    lynch(st, "Bea")
    cal = seat(st, "Cal")
    legal = LUPUS.legal_actions(st, cal) if st.call == "seer" else ()
    assert legal == ()  # not the Seer's call yet: the Medium and Bodyguard come first
    with pytest.raises(RecordError, match="Jon is dead"):
        night(st, wolves="Lea", bodyguard="Kim", seer="Jon", owl="Kim")


def test_the_medium_learns_about_the_executed_player_from_night_2() -> None:
    st = start(TABLE12)
    night(st, wolves="Lea", seer="Hal", owl="Jon")
    assert told(st, "Gus", "medium") == []
    lynch(st, "Dan")
    night(st, wolves="Kim", bodyguard="Bea", seer="Hal", owl="Jon")
    assert told(st, "Gus", "medium") == [
        {"kind": "medium", "seat": seat(st, "Dan"), "werewolf": True}]
    lynch(st, "Jon")
    night(st, wolves="Bea", bodyguard="Cal", seer="Hal", owl="Eve")
    assert told(st, "Gus", "medium")[-1] == {
        "kind": "medium", "seat": seat(st, "Jon"), "werewolf": False}
    assert all(told(st, name, "medium") == [] for name in ("Ada", "Cal", "Bea"))


def test_a_dead_medium_learns_nothing() -> None:
    st = start(TABLE12)
    night(st, wolves="Gus", seer="Hal", owl="Jon")
    lynch(st, "Dan")
    night(st, wolves="Kim", bodyguard="Bea", seer="Hal", owl="Jon")
    assert told(st, "Gus", "medium") == []


def test_the_werewolves_see_each_other_and_pick_a_living_outsider() -> None:
    st = start(TABLE12)
    LUPUS.apply(st, seat(st, "Fay"), Action("stay_home"))
    ada, dan = seat(st, "Ada"), seat(st, "Dan")
    assert told(st, "Ada", "wolves") == [{"kind": "wolves", "seats": [ada, dan]}]
    assert told(st, "Bea", "wolves") == []
    assert Action("kill", dan) not in LUPUS.legal_actions(st, ada)
    with pytest.raises(IllegalAction, match="one of the werewolves"):
        LUPUS.apply(st, ada, Action("kill", dan))
    assert LUPUS.waiting_for(st) == (ada, dan)


def test_the_werewolves_choosing_a_dead_player_is_an_error() -> None:
    st = start(TABLE12)
    night(st, wolves="Jon", seer="Hal", owl="Bea")
    lynch(st, "Bea")
    with pytest.raises(RecordError, match="Jon is dead"):
        night(st, wolves="Jon", bodyguard="Kim", seer="Hal", owl="Kim")


def test_a_night_without_the_wolves_choice_is_an_error() -> None:
    st = start(TABLE12)
    with pytest.raises(RecordError, match="must point at someone, but the step has no 'wolves'"):
        night(st, seer="Hal", owl="Bea")


@pytest.mark.parametrize(
    ("picks", "executed", "victim"),
    [
        ({"Ada": "Bea", "Dan": "Pia", "Ned": "Pia"}, None, "Pia"),  # the majority
        ({"Ada": "Eve", "Dan": "Cal", "Ned": "Bea"}, None, "Bea"),  # nobody dead: from seat 0
        ({"Ada": "Pia", "Dan": "Bea", "Ned": "Cal"}, "Ola", "Pia"),  # Pia sits left of Ola
        ({"Ada": "Bea", "Dan": "Cal", "Ned": "Eve"}, "Gus", "Bea"),  # wraps round past seat 0
        ({"Ada": "Eve", "Dan": "Cal", "Ned": "Hal"}, "Gus", "Hal"),  # Hal sits left of Gus
    ],
)
def test_the_packs_tie_goes_to_the_closer_clockwise(
    picks: dict[str, str], executed: str | None, victim: str
) -> None:
    st = start(TABLE16)
    if executed is not None:
        night(st, wolves="Jon", seer="Bea", owl="Bea")
        lynch(st, executed)  # the last to die is now the executed player
        night(st, wolves=victim, wolf_picks=picks, bodyguard="Kim", seer="Bea", owl="Bea",
              mythomaniac="Bea")
    else:
        night(st, wolves=victim, wolf_picks=picks, seer="Bea", owl="Bea")
    assert st.nights_log[-1]["wolves"] == seat(st, victim)
    assert victim in dawn_dead(st)


def test_wolf_picks_must_settle_on_the_recorded_victim() -> None:
    st = start(TABLE16)
    with pytest.raises(RecordError, match="settle on Bea, not Cal"):
        night(st, wolves="Cal", wolf_picks={"Ada": "Bea", "Dan": "Bea", "Ned": "Cal"},
              seer="Bea", owl="Bea")


def test_the_freemasons_see_each_other_on_night_1_only() -> None:
    st = start(TABLE16)
    night(st, wolves="Bea", seer="Ola", owl="Pia")
    jon, kim = seat(st, "Jon"), seat(st, "Kim")
    assert told(st, "Jon", "freemasons") == [{"kind": "freemasons", "seats": [jon, kim]}]
    assert told(st, "Kim", "freemasons") == told(st, "Jon", "freemasons")
    assert told(st, "Ola", "freemasons") == []
    assert "freemason" not in LUPUS.night_calls(st.deck, 2)


def test_the_owl_is_called_after_the_seer() -> None:
    st = start(TABLE12)
    bea = seat(st, "Bea")
    for who, action in (("Fay", Action("stay_home")), ("Ada", Action("kill", bea)),
                        ("Dan", Action("kill", bea)), ("Cal", Action("see", bea))):
        LUPUS.apply(st, seat(st, who), action)
    assert st.call == "owl" and LUPUS.waiting_for(st) == (seat(st, "Ivy"),)


def test_the_werehamster_cannot_be_eaten() -> None:
    st = start(TABLE16)
    night(st, wolves="Lea", seer="Bea", owl="Bea")
    assert dawn_dead(st) == []
    assert st.alive[seat(st, "Lea")]


def test_the_werehamster_dies_when_the_seer_looks_at_it() -> None:
    st = start(TABLE16)
    night(st, wolves="Bea", seer="Lea", owl="Bea")
    assert sorted(dawn_dead(st)) == ["Bea", "Lea"]
    assert told(st, "Cal", "seen")[0]["werewolf"] is False  # human for the Seer


def test_a_harlot_visiting_the_werehamster_survives_the_wolves() -> None:
    st = start(TABLE16)
    night(st, wolves="Lea", harlot="Lea", seer="Bea", owl="Bea")
    assert dawn_dead(st) == []


def _myth_night_2(pick: str) -> object:
    st = start(TABLE16)
    night(st, wolves="Ola", seer="Bea", owl="Bea")
    lynch(st, "Pia")
    night(st, wolves="Bea", bodyguard="Jon", seer="Hal", owl="Jon", mythomaniac=pick)
    return st


@pytest.mark.parametrize(("pick", "becomes"), [("Ada", "werewolf"), ("Cal", "seer"),
                                              ("Hal", None), ("Lea", None)])
def test_the_mythomaniac_learns_at_once_what_it_becomes(pick: str, becomes: str | None) -> None:
    st = _myth_night_2(pick)
    assert told(st, "Max", "imitate") == [
        {"kind": "imitate", "seat": seat(st, pick), "becomes": becomes}]
    assert st.roles[seat(st, "Max")] == "mythomaniac"  # human until the next night


def test_the_mythomaniac_turned_werewolf_wakes_with_the_pack_and_is_seen() -> None:
    st = _myth_night_2("Ada")
    lynch(st, "Kim")
    assert st.phase == NIGHT and st.roles[seat(st, "Max")] == "werewolf"
    night(st, wolves="Jon", wolf_picks={"Ada": "Jon", "Dan": "Jon", "Ned": "Jon", "Max": "Jon"},
          bodyguard="Eve", seer="Max", owl="Eve")
    assert seat(st, "Max") in told(st, "Ada", "wolves")[-1]["seats"]
    assert told(st, "Cal", "seen")[-1] == {"kind": "seen", "seat": seat(st, "Max"),
                                           "werewolf": True}
    assert "mythomaniac" not in LUPUS.night_calls(st.deck, 3)


def test_the_mythomaniac_turned_seer_is_a_second_seer() -> None:
    st = _myth_night_2("Cal")
    lynch(st, "Kim")
    with pytest.raises(RecordError, match="two Seers are awake"):
        night(st, wolves="Jon", bodyguard="Eve", seer="Ada", owl="Eve")
    night(st, wolves="Jon", bodyguard="Eve", seer={"Cal": "Ada", "Max": "Dan"}, owl="Eve")
    assert told(st, "Max", "seen")[-1] == {"kind": "seen", "seat": seat(st, "Dan"),
                                           "werewolf": True}
    assert told(st, "Cal", "seen")[-1]["seat"] == seat(st, "Ada")


def test_a_mythomaniac_who_died_before_night_3_stays_human() -> None:
    st = _myth_night_2("Ada")
    lynch(st, "Max")
    assert st.roles[seat(st, "Max")] == "mythomaniac"


def test_the_mythomaniac_choice_is_only_on_night_2() -> None:
    st = start(TABLE16)
    with pytest.raises(RecordError, match="only on night 2"):
        night(st, wolves="Ola", seer="Bea", owl="Bea", mythomaniac="Ada")


def test_a_ghosts_choice_is_refused() -> None:
    st = start(TABLE12)
    night(st, wolves="Cal", seer="Hal", owl="Jon")
    lynch(st, "Bea")
    with pytest.raises(RecordError, match=r"Cal \(Seer\) is dead: ghosts keep their eyes"):
        night(st, wolves="Jon", bodyguard="Kim", seer="Ada", owl="Kim")


def test_a_refused_choice_leaves_the_state_unchanged() -> None:
    st = start(TABLE12)
    before = LUPUS.view(st, "master")
    fay = seat(st, "Fay")
    for bad in (Action("visit", fay), Action("kill", 1), Action("see", 0), Action("visit", 40)):
        with pytest.raises(IllegalAction):
            LUPUS.apply(st, fay, bad)
    with pytest.raises(IllegalAction, match="nothing to do now"):
        LUPUS.apply(st, seat(st, "Ada"), Action("kill", 1))
    assert LUPUS.view(st, "master") == before


def test_day_comes_after_the_last_call() -> None:
    st = start(TABLE12)
    night(st, wolves="Bea", seer="Hal", owl="Jon")
    assert st.phase == DAY and st.night == 1 and st.day == 1
    dawns = [e for e in st.log if e.kind == "dawn"]
    assert dawns[0].audience == EVERYONE and dawns[0].data["dead"] == [seat(st, "Bea")]


def test_the_bodyguard_may_protect_the_same_player_night_after_night() -> None:
    st = start(TABLE12)
    _to_night_2(st)
    night(st, wolves="Bea", bodyguard="Bea", seer="Ada", owl="Jon")
    lynch(st, "Jon")
    night(st, wolves="Bea", bodyguard="Bea", seer="Dan", owl="Gus")
    assert dawn_dead(st) == [] and st.alive[seat(st, "Bea")]
    assert [e["seat"] for e in told(st, "Eve", "protect")] == [seat(st, "Bea")] * 2


def test_the_possessed_and_the_werewolves_do_not_know_each_other() -> None:
    st = start(TABLE12)
    night(st, wolves="Lea", seer="Bea", owl="Jon")
    hal = seat(st, "Hal")
    assert told(st, "Hal", "wolves") == [] and told(st, "Hal", "victim") == []
    for wolf in ("Ada", "Dan"):
        secrets = [e for e in LUPUS.view(st, seat(st, wolf))["events"]
                   if e["kind"] in ("wolves", "deal", "victim", "wolf_pick")]
        assert all(hal not in e.get("seats", []) for e in secrets)
        assert all(e.get("seat") != hal for e in secrets if e["kind"] == "deal")
