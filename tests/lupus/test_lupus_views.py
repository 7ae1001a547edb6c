"""Views and the account: each seat sees its own secrets, ghosts see nothing new, the
Master sees all; the account tells the whole game in sentences.
Source: lupus-in-tabula.md, "Setup" (The Master, Each player's card), "Dawn", FAQ."""

from __future__ import annotations

import json
import random

from lupus_helpers import TABLE12, TABLE16, lynch, night, seat, start

from nightcall.engine.events import MASTER
from nightcall.narration.telling import tell
from nightcall.rulesets.lupus.game import LUPUS


def test_each_seat_sees_its_own_card_only() -> None:
    st = start(TABLE12)
    for name, role in TABLE12.items():
        view = LUPUS.view(st, seat(st, name))
        assert view["role"] == role
        assert [e for e in view["events"] if e["kind"] == "deal"] == [
            {"kind": "deal", "seat": seat(st, name), "card": role}]
    assert "role" not in LUPUS.view(st, None)


def test_the_master_knows_every_role_and_who_must_act() -> None:
    st = start(TABLE12)
    master = LUPUS.view(st, MASTER)
    assert master["roles"] == list(TABLE12.values())
    assert master["waiting_for"] == ["Fay"]  # the Harlot's call comes first
    assert "waiting_for" not in LUPUS.view(st, None)
    assert "waiting_for" not in LUPUS.view(st, seat(st, "Ada"))


def test_the_call_is_public_but_not_who_answers() -> None:
    st = start(TABLE12)
    public = LUPUS.view(st, None)
    assert public["call"] == "harlot"
    assert {e["kind"] for e in public["events"]} == {"night", "call"}  # nothing on who wakes
    assert LUPUS.view(st, seat(st, "Fay"))["legal"]
    assert LUPUS.view(st, seat(st, "Bea"))["legal"] == []


def test_the_pack_is_known_to_the_pack_only() -> None:
    st = start(TABLE12)
    night(st, wolves="Lea", seer="Hal", owl="Jon")
    ada, dan = seat(st, "Ada"), seat(st, "Dan")
    for name in TABLE12:
        kinds = {e["kind"] for e in LUPUS.view(st, seat(st, name))["events"]}
        assert ("wolves" in kinds) == (name in ("Ada", "Dan")), name
        assert ("victim" in kinds) == (name in ("Ada", "Dan")), name
    picks = [e for e in LUPUS.view(st, dan)["events"] if e["kind"] == "wolf_pick"]
    assert {e["seat"] for e in picks} == {ada, dan}


def test_dawn_gives_no_reason_in_public_and_the_master_knows_why() -> None:
    st = start(TABLE12)
    night(st, wolves="Bea", harlot="Bea", seer="Hal", owl="Jon")
    public = [e for e in LUPUS.view(st, None)["events"] if e["kind"] in ("dawn", "causes")]
    assert public == [{"kind": "dawn", "night": 1, "dead": [1, 5], "last": 5}]
    causes = [e for e in LUPUS.view(st, MASTER)["events"] if e["kind"] == "causes"]
    assert causes == [{"kind": "causes", "deaths": [[1, "werewolves"], [5, "harlot_host"]]}]
    assert LUPUS.dawn_deaths(st) == (1, 5)


def test_a_ghost_keeps_its_memories_and_learns_nothing_new() -> None:
    st = start(TABLE12)
    night(st, wolves="Bea", seer="Ada", owl="Jon")
    lynch(st, "Cal")  # the Seer, who knows Ada is a werewolf, is executed
    cal = seat(st, "Cal")
    ghost = LUPUS.view(st, cal)
    assert ghost["ghost"] is True and ghost["legal"] == []
    assert [e["seat"] for e in ghost["events"] if e["kind"] == "seen"] == [seat(st, "Ada")]
    night(st, wolves="Jon", bodyguard="Kim", owl="Kim")
    ghost = LUPUS.view(st, cal)
    assert len([e for e in ghost["events"] if e["kind"] == "seen"]) == 1
    assert not [e for e in ghost["events"] if e["kind"] in ("medium", "wolf_pick", "protect")]
    # by day the ghost accuses, on its turn, like everyone
    while LUPUS.waiting_for(st) != (cal,):
        who = LUPUS.waiting_for(st)[0]
        LUPUS.apply(st, who, LUPUS.legal_actions(st, who)[-1])
    assert LUPUS.view(st, cal)["legal"][-1] == {"kind": "no_accusation"}


def test_the_mythomaniac_sees_its_new_role() -> None:
    st = start(TABLE16)
    night(st, wolves="Ola", seer="Bea", owl="Bea")
    lynch(st, "Pia")
    night(st, wolves="Bea", bodyguard="Jon", seer="Hal", owl="Jon", mythomaniac="Cal")
    assert LUPUS.view(st, seat(st, "Max"))["role"] == "mythomaniac"
    lynch(st, "Kim")
    assert LUPUS.view(st, seat(st, "Max"))["role"] == "seer"
    transformed = [e for e in st.log if e.kind == "transformed"]
    assert transformed and transformed[0].audience == MASTER


def test_views_are_plain_json() -> None:
    rng = random.Random(5)
    st = LUPUS.deal([f"P{i}" for i in range(16)], LUPUS.default_deck(16, "extra"), 5)
    while not LUPUS.is_over(st):
        who = rng.choice(LUPUS.waiting_for(st))
        LUPUS.apply(st, who, rng.choice(LUPUS.legal_actions(st, who)))
    for viewer in (None, MASTER, 0, 15):
        view = LUPUS.view(st, viewer)
        assert json.loads(json.dumps(view)) == view
    assert LUPUS.view(st, None)["outcome"]["winners"]


def test_the_account_of_the_example_round() -> None:
    from test_lupus_records import _example

    st = LUPUS.replay(_example())
    lines = tell(LUPUS, st)
    for expected in (
        "Dealt: Anna: Villager, Bruno: Werewolf",
        "    Bruno and Giulia open their eyes as the werewolves.",
        "    The werewolves' victim is Dario.",
        "    Elena points at Carla: not a werewolf.",
        "Dawn 1: Dario died.",
        "Day 1: the accusation round starts with Elena.",
        "  Suspects: Bruno and Fabio.",
        "  Bruno is executed.",
        "    Hamed learns that Bruno was a werewolf.",
        "    Giulia opens their eyes, the only werewolf left.",
        "    Elena points at Giulia: a werewolf.",
        "Dawn 2: Irene died.",
    ):
        assert any(line.startswith(expected) for line in lines), expected
    assert lines.index("  Bruno is executed.") < lines.index("Night 2 falls.")


def test_the_account_covers_every_event_of_a_full_game() -> None:
    from nightcall.narration.telling import Teller
    from nightcall.rulesets.lupus.account import _line

    rng = random.Random(11)
    kinds: set[str] = set()
    for game in range(30):
        st = LUPUS.deal([f"P{i}" for i in range(16)], LUPUS.default_deck(16, "extra"), game)
        while not LUPUS.is_over(st):
            who = rng.choice(LUPUS.waiting_for(st))
            LUPUS.apply(st, who, rng.choice(LUPUS.legal_actions(st, who)))
        lines = tell(LUPUS, st)
        assert lines[-1].startswith(("Winners:", "Nobody wins"))
        for e in st.log:
            if _line(st, e, Teller("lupus")) is not None:
                kinds.add(e.kind)
    assert {"deal", "night", "call", "wolves", "victim", "seen", "medium", "protect", "visit",
            "mark", "freemasons", "imitate", "dawn", "accusation", "accuse", "suspects",
            "votes", "executed", "reveal"} <= kinds
