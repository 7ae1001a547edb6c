"""The end, checked after every death: humans, werewolves with the Possessed, the Werehamster.
Source: lupus-in-tabula.md, "Objective", "Gameplay" (The end), quick reference, "Variants"."""

from __future__ import annotations

from lupus_helpers import TABLE16, lynch, night, seat, start

from nightcall.narration.telling import explained
from nightcall.rulesets.lupus import day
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.state import OVER

SEVEN = {"A": "werewolf", "B": "werewolf", "C": "seer", "D": "villager", "E": "villager",
         "F": "villager", "G": "villager"}
TEN = {"A": "werewolf", "B": "werewolf", "C": "seer", "D": "medium", "E": "possessed",
       "F": "villager", "G": "villager", "H": "villager", "I": "villager", "J": "villager"}


def test_every_werewolf_dead_the_humans_win_dead_or_alive() -> None:
    st = start(SEVEN)
    night(st, wolves="D", seer="A")
    lynch(st, "A")
    night(st, wolves="E", seer="B")
    assert st.phase != OVER
    lynch(st, "B")
    out = explained(LUPUS.outcome_json(st))
    assert out["status"] == "over" and out["teams"] == ["village"]
    assert out["winners"] == ["C", "D", "E", "F", "G"]  # D and E are dead and still win
    assert out["executed"] == ["A", "B"] and out["nights"] == [["D"], ["E"]]
    assert "Every werewolf is dead" in out["explanation"][0]


def test_werewolves_as_many_as_the_living_humans_win_at_dawn() -> None:
    st = start(SEVEN)
    night(st, wolves="D", seer="E")
    lynch(st, "E")
    night(st, wolves="F", seer="G")  # two werewolves, two humans
    out = explained(LUPUS.outcome_json(st))
    assert out["status"] == "over" and out["teams"] == ["werewolves"]
    assert out["winners"] == ["A", "B"]
    assert LUPUS.waiting_for(st) == () and st.day == 1  # no third day


def test_the_possessed_wins_with_the_werewolves_even_dead() -> None:
    st = start(TEN)
    night(st, wolves="F", seer="E")
    lynch(st, "E")  # the Possessed is executed
    for victim, executed in (("G", "H"), ("I", "D")):
        night(st, wolves=victim, seer="J")
        lynch(st, executed)
    out = explained(LUPUS.outcome_json(st))
    assert out["teams"] == ["werewolves"]
    assert out["winners"] == ["A", "B", "E"]
    assert any("Possessed" in line for line in out["explanation"])


def _fifteen_with_hamster() -> dict[str, str]:
    roles = dict(zip("ABCDEFGHIJKLMNO", LUPUS.default_deck(15), strict=True))
    roles["O"] = "werehamster"  # in place of a Villager
    return roles


def test_the_werehamster_alive_at_the_end_wins_alone() -> None:
    roles = _fifteen_with_hamster()
    assert roles["A"] == roles["B"] == "werewolf"
    st = start(roles)
    night(st, wolves="H", seer="A")
    lynch(st, "A")
    night(st, wolves="I", bodyguard="J", seer="B")
    lynch(st, "B")
    out = explained(LUPUS.outcome_json(st))
    assert out["status"] == "over"
    assert out["teams"] == ["werehamster"] and out["winners"] == ["O"]
    assert "wins alone" in " ".join(out["explanation"])


def test_a_dead_werehamster_does_not_win() -> None:
    st = start(_fifteen_with_hamster())
    night(st, wolves="H", seer="O")  # the Seer looks at the Werehamster: it dies
    assert not st.alive[seat(st, "O")]
    lynch(st, "A")
    night(st, wolves="I", bodyguard="J", seer="B")
    lynch(st, "B")
    out = explained(LUPUS.outcome_json(st))
    assert out["teams"] == ["village"] and "O" not in out["winners"]


def test_a_mythomaniac_turned_werewolf_loses_with_the_werewolves() -> None:
    st = start(TABLE16)
    night(st, wolves="Bea", seer="Ola", owl="Pia")
    lynch(st, "Ada")
    night(st, wolves="Ola", bodyguard="Eve", seer="Hal", owl="Pia", mythomaniac="Dan")
    lynch(st, "Dan")
    assert st.roles[seat(st, "Max")] == "werewolf"
    night(st, wolves="Pia", bodyguard="Cal", seer="Lea", owl="Eve")  # the Werehamster dies
    lynch(st, "Ned")
    night(st, wolves="Eve", bodyguard="Cal", seer="Hal", owl="Cal")
    assert st.phase != OVER
    lynch(st, "Max")
    out = explained(LUPUS.outcome_json(st))
    assert out["teams"] == ["village"] and "Max" not in out["winners"]
    # Issue 14 (spec "The outcome"): the card lies as the Mythomaniac, it counts as a Werewolf.
    assert out["final"]["roles"]["Max"] == "werewolf"
    assert out["final"]["cards"]["Max"] == "mythomaniac"


def test_the_mythomaniacs_change_can_end_the_game() -> None:
    st = start(TABLE16)
    night(st, wolves="Bea", seer="Ola", owl="Pia")
    lynch(st, "Pia")
    night(st, wolves="Ola", bodyguard="Eve", seer="Hal", owl="Cal", mythomaniac="Ada")
    record_before = LUPUS.to_record(st)
    # Leave three werewolves and four humans (the Mythomaniac among them) alive.
    keep = {"Ada", "Dan", "Ned", "Max", "Cal", "Eve", "Fay"}
    for s in range(st.n):
        if st.alive[s] and st.names[s] not in keep:
            day.kill(st, s, "test")
    lynch(st, "Fay")  # three werewolves, three humans: over at the execution
    assert st.phase == OVER and st.outcome is not None
    assert "Max" not in [st.names[s] for s in st.outcome.winners]  # still human: not turned
    st = LUPUS.replay(record_before)
    keep = {"Ada", "Dan", "Ned", "Max", "Cal", "Eve", "Fay", "Gus"}
    for s in range(st.n):
        if st.alive[s] and st.names[s] not in keep:
            day.kill(st, s, "test")
    lynch(st, "Gus")  # 3 werewolves, 4 humans: not over, until the Mythomaniac turns
    assert st.phase == OVER and st.outcome is not None
    assert st.outcome.teams == ("werewolves",)
    assert "Max" in [st.names[s] for s in st.outcome.winners]
    assert st.night == 2 and st.roles[seat(st, "Max")] == "werewolf"
