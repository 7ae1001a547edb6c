"""The day: last to die, the accusation round, the Suspects, the execution, seat-order ties.
Source: lupus-in-tabula.md, "Gameplay" (Dawn, The accusation round, The execution),
quick reference ("Ties"), "Variants" (Owl), FAQ; rulings: docs/rulings.md (Lupus in Tabula)."""

from __future__ import annotations

import pytest
from lupus_helpers import TABLE12, dawn_dead, lynch, night, seat, start

from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction, RecordError
from nightcall.rulesets.lupus import record
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.state import ACCUSE, DAY, EXECUTE, NIGHT, LupusState

NAMES = list(TABLE12)


def _day_after(victim: str, owl: str | None = None) -> LupusState:
    st = start(TABLE12)
    night(st, wolves=victim, seer="Hal", owl=owl or victim)
    assert st.phase == DAY and dawn_dead(st) == [victim]
    return st


def _accuse(st: LupusState, counts: dict[str, int]) -> None:
    """Give each named player that many accusations, from whoever comes first."""
    pool = [s for s in st.accuse_order]
    accuse: dict[str, str | None] = {}
    for target, k in counts.items():
        for _ in range(k):
            who = next(s for s in pool if st.names[s] != target)
            pool.remove(who)
            accuse[st.names[who]] = target
    record.apply_step(LUPUS, st, {"accuse": accuse})


# victim of night 1 (the last to die), accusations, the Owl's pick, the two Suspects
SUSPECT_CASES = [
    ("Lea", {"Bea": 3, "Cal": 2, "Dan": 1}, None, ("Bea", "Cal")),
    ("Lea", {"Bea": 3, "Cal": 2, "Jon": 2}, None, ("Bea", "Cal")),  # tie for second
    ("Lea", {"Jon": 2, "Kim": 2, "Bea": 2}, None, ("Bea", "Jon")),  # three-way tie
    ("Lea", {"Kim": 1}, None, ("Kim", "Ada")),  # one accused: the closest fills the pair
    ("Lea", {}, None, ("Ada", "Bea")),  # nobody accused: the two closest
    ("Gus", {"Bea": 2, "Jon": 2}, None, ("Jon", "Bea")),  # from Gus's left: Jon is closer
    ("Gus", {"Bea": 2, "Cal": 2, "Eve": 1}, None, ("Bea", "Cal")),
    ("Bea", {"Ada": 2, "Lea": 2}, None, ("Lea", "Ada")),  # Lea sits before Ada from Cal
    ("Lea", {"Bea": 3, "Cal": 2}, "Kim", ("Bea", "Kim")),  # the Owl's pick is a Suspect
    ("Lea", {"Bea": 3, "Cal": 2}, "Cal", ("Bea", "Cal")),  # already one of the two
    ("Lea", {"Bea": 3, "Cal": 2}, "Bea", ("Bea", "Cal")),
    ("Lea", {"Bea": 2, "Cal": 2}, "Jon", ("Bea", "Jon")),  # alongside the most accused
    ("Lea", {"Bea": 3, "Cal": 2}, "Lea", ("Bea", "Cal")),  # the Owl's pick died at dawn
]


@pytest.mark.parametrize(("victim", "counts", "owl", "suspects"), SUSPECT_CASES)
def test_the_two_suspects(
    victim: str, counts: dict[str, int], owl: str | None, suspects: tuple[str, str]
) -> None:
    st = _day_after(victim, owl)
    _accuse(st, counts)
    assert st.stage == EXECUTE
    assert tuple(st.names[s] for s in st.suspects) == suspects
    assert st.voters == tuple(s for s in st.living() if s not in st.suspects)


def test_the_owls_pick_is_announced_at_the_accusation_round() -> None:
    st = _day_after("Lea", owl="Kim")
    announced = [e for e in LUPUS.view(st, None)["events"] if e["kind"] == "accusation"]
    assert announced[-1]["owl"] == seat(st, "Kim")
    assert "Ivy" not in str(announced)  # the Owl stays anonymous
    st = _day_after("Lea", owl="Lea")
    assert [e for e in st.log if e.kind == "accusation"][-1].data["owl"] is None


# last to die, the Suspects, the execution votes (counts), who is executed
EXECUTION_CASES = [
    ("Lea", ("Bea", "Cal"), {"Bea": 4, "Cal": 3}, "Bea"),
    ("Lea", ("Bea", "Cal"), {"Bea": 3, "Cal": 4}, "Cal"),
    ("Lea", ("Bea", "Cal"), {"Bea": 3, "Cal": 3}, "Bea"),  # tie: Bea is closer to Lea
    ("Lea", ("Bea", "Cal"), {}, "Bea"),  # nobody points: somebody is still executed
    ("Gus", ("Jon", "Bea"), {"Bea": 2, "Jon": 2}, "Jon"),  # from Gus's left, Jon first
    ("Gus", ("Jon", "Bea"), {"Bea": 3, "Jon": 2}, "Bea"),
    ("Kim", ("Ada", "Jon"), {"Ada": 1, "Jon": 1}, "Ada"),  # clockwise wraps past seat 0
]


@pytest.mark.parametrize(("victim", "suspects", "votes", "executed"), EXECUTION_CASES)
def test_the_execution(
    victim: str, suspects: tuple[str, str], votes: dict[str, int], executed: str
) -> None:
    st = _day_after(victim)
    first, second = suspects
    _accuse(st, {first: 3, second: 2})
    assert tuple(st.names[s] for s in st.suspects) == suspects
    voters = [st.names[v] for v in st.voters]
    ballot: dict[str, str] = {}
    for target, k in votes.items():
        for _ in range(k):
            ballot[voters.pop(0)] = target
    record.apply_step(LUPUS, st, {"execute": ballot})
    assert [st.names[s] for s in st.executed] == [executed]
    assert not st.alive[seat(st, executed)]
    assert st.last == seat(st, executed)
    assert st.phase == NIGHT and st.night == 2


def test_the_accusation_round_starts_left_of_the_last_to_die_ghosts_included() -> None:
    st = _day_after("Gus")
    order = [st.names[s] for s in LUPUS.accusation_order(st)]
    assert order == NAMES[7:] + NAMES[:7]
    assert order[-1] == "Gus"  # the ghost accuses too, last
    assert LUPUS.waiting_for(st) == (seat(st, "Hal"),)
    assert LUPUS.view(st, None)["accuser"] == "Hal"


def test_accusations_go_one_at_a_time() -> None:
    st = _day_after("Gus")
    with pytest.raises(IllegalAction, match="it is Hal's turn"):
        LUPUS.apply(st, seat(st, "Ivy"), Action("accuse", 0))
    LUPUS.apply(st, seat(st, "Hal"), Action("accuse", 0))
    assert LUPUS.waiting_for(st) == (seat(st, "Ivy"),)


def test_ghosts_accuse_but_only_living_players_are_accused() -> None:
    st = _day_after("Lea")
    record.apply_step(LUPUS, st, {"accuse": {"Lea": "Bea"}})  # Lea is a ghost and accuses
    assert st.accusations[seat(st, "Lea")] == seat(st, "Bea")
    st = _day_after("Lea")
    with pytest.raises(RecordError, match="Lea is dead: accusations point at living players"):
        record.apply_step(LUPUS, st, {"accuse": {"Bea": "Lea"}})
    st = _day_after("Lea")
    with pytest.raises(RecordError, match="accuses someone else, not themselves"):
        record.apply_step(LUPUS, st, {"accuse": {"Bea": "Bea"}})


def test_ghosts_and_suspects_do_not_vote_in_the_execution() -> None:
    st = _day_after("Lea")
    _accuse(st, {"Bea": 3, "Cal": 2})
    assert seat(st, "Lea") not in st.voters and seat(st, "Bea") not in st.voters
    assert LUPUS.legal_actions(st, seat(st, "Lea")) == ()
    with pytest.raises(RecordError, match="Lea is a ghost: ghosts do not vote"):
        record.apply_step(LUPUS, st, {"execute": {"Ada": "Bea", "Lea": "Bea"}})
    with pytest.raises(RecordError, match="Bea is a Suspect and does not vote"):
        record.apply_step(LUPUS, st, {"execute": {"Bea": "Cal"}})
    with pytest.raises(RecordError, match="Jon is not a Suspect: the vote is between Bea and Cal"):
        record.apply_step(LUPUS, st, {"execute": {"Ada": "Jon"}})
    assert st.stage == EXECUTE and all(v == -2 for v in st.votes)  # nothing changed


def test_the_execution_votes_are_revealed_together() -> None:
    st = _day_after("Lea")
    _accuse(st, {"Bea": 3, "Cal": 2})
    LUPUS.apply(st, seat(st, "Ada"), Action("execute", seat(st, "Bea")))
    public = LUPUS.view(st, None)
    assert public["voted"] == ["Ada"]
    assert not [e for e in public["events"] if e["kind"] == "votes"]
    assert LUPUS.view(st, seat(st, "Dan"))["legal"] == [
        {"kind": "execute", "a": seat(st, "Bea")}, {"kind": "execute", "a": seat(st, "Cal")},
        {"kind": "abstain"}]


def test_two_deaths_the_last_named_counts_as_last_to_die() -> None:
    st = start(TABLE12)
    night(st, wolves="Bea", harlot="Bea", seer="Hal", owl="Jon")  # the host and the Harlot
    assert dawn_dead(st) == ["Bea", "Fay"]  # named clockwise from seat 0
    assert LUPUS.last_to_die(st) == seat(st, "Fay")
    assert st.accuse_order[0] == seat(st, "Gus")


def test_the_master_may_name_the_other_death_as_last() -> None:
    st = start(TABLE12)
    night(st, wolves="Bea", harlot="Bea", seer="Hal", owl="Jon")
    with pytest.raises(IllegalAction, match="only one of this dawn's dead"):
        LUPUS.choose_last(st, seat(st, "Cal"))
    LUPUS.choose_last(st, seat(st, "Bea"))
    assert LUPUS.last_to_die(st) == seat(st, "Bea")
    assert st.accuse_order[0] == seat(st, "Cal")
    LUPUS.apply(st, seat(st, "Cal"), Action("no_accusation"))
    with pytest.raises(IllegalAction, match="before the accusations"):
        LUPUS.choose_last(st, seat(st, "Fay"))
    again = LUPUS.replay(LUPUS.to_record(st))
    assert again.last == seat(st, "Bea") and again.accuse_order == st.accuse_order


def test_the_last_key_of_a_record_must_name_a_dawn_death() -> None:
    st = start(TABLE12)
    with pytest.raises(RecordError, match="'last': only one of this dawn's dead"):
        night(st, wolves="Bea", seer="Hal", owl="Jon", last="Cal")


def test_nobody_dead_yet_the_round_starts_with_the_first_seated_player() -> None:
    st = start(TABLE12)
    night(st, wolves="Fay", harlot="Bea", seer="Hal", owl="Jon")  # the Harlot is away
    assert dawn_dead(st) == []
    assert LUPUS.last_to_die(st) is None
    assert st.accuse_order[0] == 0


def test_a_night_without_deaths_keeps_the_last_executed_as_last_to_die() -> None:
    st = _day_after("Lea")
    lynch(st, "Jon")
    night(st, wolves="Bea", bodyguard="Bea", seer="Hal", owl="Kim")
    assert dawn_dead(st) == []
    assert LUPUS.last_to_die(st) == seat(st, "Jon")
    assert st.accuse_order[0] == seat(st, "Kim")


def test_day_steps_in_the_wrong_place_are_errors() -> None:
    st = start(TABLE12)
    with pytest.raises(RecordError, match="a day step during night 1"):
        record.apply_step(LUPUS, st, {"accuse": {"Ada": "Bea"}})
    night(st, wolves="Lea", seer="Hal", owl="Jon")
    with pytest.raises(RecordError, match="comes after its accusation round"):
        record.apply_step(LUPUS, st, {"execute": {"Ada": "Bea"}})
    with pytest.raises(RecordError, match="the accusation round comes first"):
        night(st, wolves="Bea", seer="Hal", owl="Jon")
    record.apply_step(LUPUS, st, {"accuse": {}})
    with pytest.raises(RecordError, match="already over"):
        record.apply_step(LUPUS, st, {"accuse": {}})
    with pytest.raises(RecordError, match="the execution comes first"):
        night(st, wolves="Bea", seer="Hal", owl="Jon")
    with pytest.raises(RecordError, match="must map player names"):
        record.apply_step(LUPUS, st, {"execute": ["Ada"]})
    with pytest.raises(RecordError, match="'Zed' is not seated"):
        record.apply_step(LUPUS, st, {"execute": {"Zed": "Ada"}})
    assert st.stage == EXECUTE


def test_the_accuse_stage_is_public() -> None:
    st = _day_after("Lea")
    view = LUPUS.view(st, None)
    assert view["phase"] == "day" and view["stage"] == "accuse"
    assert st.stage == ACCUSE and view["last_to_die"] == "Lea"
