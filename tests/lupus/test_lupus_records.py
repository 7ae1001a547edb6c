"""Records and `nightcall replay`: the rulebook's example round, illegal records, round trips.
Source: shared/spec/game-record.md; lupus-in-tabula.md, "Example round"."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from lupus_helpers import TABLE12, table
from typer.testing import CliRunner

from nightcall.cli import app
from nightcall.engine import records
from nightcall.engine.errors import RecordError
from nightcall.rulesets.lupus.game import LUPUS

EXAMPLE = Path(__file__).parent.parent / "records" / "lupus-example-round.json"
runner = CliRunner()


def _example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_the_example_round_replays_to_what_its_text_says() -> None:
    ruleset, st = records.replay(_example())
    out = ruleset.outcome_json(st)
    assert out["nights"] == [["Dario"], ["Irene"]]  # Dario dies night 1, Irene night 2
    assert out["executed"] == ["Bruno"]
    assert out["dead"] == ["Dario", "Bruno", "Irene"]
    assert out["status"] == "ongoing" and out["winners"] == [] and out["teams"] == []
    # "Six are left, with one werewolf among them"
    view = ruleset.view(st, None)
    assert len(view["alive"]) == 6
    alive_wolves = [n for n in view["alive"] if out["final"]["cards"][n] == "werewolf"]
    assert alive_wolves == ["Giulia"]


def test_the_example_round_day_one() -> None:
    st = LUPUS.replay(_example())
    names = st.names
    day1 = next(e.data for e in st.log if e.kind == "accusation")
    assert names[day1["order"][0]] == "Elena"  # left of Dario, the last to die
    suspects = next(e.data["seats"] for e in st.log if e.kind == "suspects")
    assert [names[s] for s in suspects] == ["Bruno", "Fabio"]  # Fabio wins the tie with Carla


def test_the_example_round_what_each_player_learns() -> None:
    st = LUPUS.replay(_example())
    names = list(st.names)

    def events(name: str, kind: str) -> list[dict[str, Any]]:
        view = LUPUS.view(st, names.index(name))
        return [e for e in view["events"] if e["kind"] == kind]

    # The Medium Hamed learns that the executed player (Bruno) was a werewolf.
    assert events("Hamed", "medium") == [
        {"kind": "medium", "seat": names.index("Bruno"), "werewolf": True}]
    # The Seer Elena points at Giulia and the Master nods.
    assert events("Elena", "seen")[-1] == {
        "kind": "seen", "seat": names.index("Giulia"), "werewolf": True}
    # Giulia, alone, points at Irene; Bruno is a ghost and stays in the dark.
    assert events("Giulia", "wolves")[-1]["seats"] == [names.index("Giulia")]
    assert len(events("Bruno", "wolves")) == 1 and len(events("Bruno", "wolf_pick")) == 2
    # The executed player's card stays face down.
    public = LUPUS.view(st, None)
    assert "roles" not in public and not [e for e in public["events"] if "card" in e]
    assert "Bruno" in public["executed"]


def test_the_example_round_through_the_cli() -> None:
    result = runner.invoke(app, ["replay", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["nights"] == [["Dario"], ["Irene"]] and out["executed"] == ["Bruno"]
    assert out["status"] == "ongoing"
    text = runner.invoke(app, ["replay", str(EXAMPLE)])
    assert text.exit_code == 0 and "Bruno is executed." in text.output


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_example())
    change(data)
    return data


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


ILLEGAL = [
    ("a ghost votes in the execution", _set(("steps", 1, "execute", "Dario"), "Bruno"),
     "Dario is a ghost: ghosts do not vote", 1),
    ("a vote for a non-Suspect", _set(("steps", 1, "execute", "Anna"), "Carla"),
     "Carla is not a Suspect", 1),
    ("the wolves choose a dead player", _set(("steps", 2, "wolves"), "Dario"),
     "Dario is dead", 2),
    ("the Seer looks at a dead player", _set(("steps", 2, "seer"), "Bruno"),
     "Bruno is dead", 2),
    ("a role that is not in the deck", _set(("steps", 0, "bodyguard"), "Anna"),
     "nobody is the Bodyguard", 0),
    ("a player who is not seated", _set(("steps", 0, "wolves"), "Zoe"),
     "'Zoe' is not seated", 0),
    ("the werewolves eat one of their own", _set(("steps", 0, "wolves"), "Giulia"),
     "Giulia is one of the werewolves", 0),
]


@pytest.mark.parametrize(("why", "change", "message", "step"), ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_illegal_steps_are_clear_errors(why: str, change: Any, message: str, step: int) -> None:
    data = _broken(change)
    with pytest.raises(RecordError, match=message) as info:
        LUPUS.replay(data)
    assert info.value.step == step


def test_the_bodyguard_on_night_1_is_an_error() -> None:
    data = table(TABLE12, [{"wolves": "Bea", "seer": "Hal", "owl": "Jon", "bodyguard": "Kim"}])
    with pytest.raises(RecordError, match="Bodyguard is not called to choose on night 1") as info:
        LUPUS.replay(data)
    assert info.value.step == 0


@pytest.mark.parametrize(
    "change",
    [
        _set(("steps", 1, "execute", "Dario"), "Bruno"),
        _set(("steps", 1, "execute", "Anna"), "Carla"),
        _set(("steps", 2, "wolves"), "Dario"),
        _set(("roles", "Anna"), "A♥"),  # three werewolves at nine players
        _set(("roles", "Anna"), "K♣"),  # not a Lupus card
        _set(("players",), ["Anna"]),
    ],
)
def test_the_cli_exits_2_on_an_illegal_record(change: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_broken(change), ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert "illegal record" in result.output


def test_steps_after_the_end_are_refused() -> None:
    seven = {"A": "werewolf", "B": "werewolf", "C": "seer", "D": "villager", "E": "villager",
             "F": "villager", "G": "villager"}
    steps: list[dict[str, Any]] = [
        {"wolves": "D", "seer": "A"},
        {"accuse": {"C": "A", "E": "A", "F": "A", "G": "A", "A": "G", "B": "G"},
         "execute": {"C": "A", "E": "A", "F": "A", "B": "G"}},
        {"wolves": "E", "seer": "B"},
        {"accuse": {"C": "B", "F": "B", "G": "B", "B": "F"}, "execute": {"C": "B", "G": "B"}},
    ]
    st = LUPUS.replay(table(seven, steps))
    out = LUPUS.outcome_json(st)
    assert out["status"] == "over" and out["teams"] == ["village"]
    with pytest.raises(RecordError, match="the game is already over") as info:
        LUPUS.replay(table(seven, [*steps, {"wolves": "C", "seer": "D"}]))
    assert info.value.step == 4


def test_comments_claims_and_unknown_keys_change_nothing() -> None:
    data = _example()
    data["steps"].insert(1, {"claims": {"Elena": "seer"}, "text": "Elena says she is the Seer"})
    data["steps"].insert(0, {"future_key": 1})
    assert LUPUS.outcome_json(LUPUS.replay(data)) == LUPUS.outcome_json(LUPUS.replay(_example()))


def test_a_step_cannot_be_both_night_and_day() -> None:
    data = table(TABLE12, [{"wolves": "Bea", "accuse": {}}])
    with pytest.raises(RecordError, match="not both"):
        LUPUS.replay(data)


def test_the_deal_must_cover_every_seat() -> None:
    data = _example()
    del data["roles"]["Anna"]
    with pytest.raises(RecordError, match="no card dealt to Anna"):
        LUPUS.replay(data)


def test_a_record_written_back_replays_the_same() -> None:
    st = LUPUS.replay(_example())
    again = LUPUS.replay(LUPUS.to_record(st))
    assert LUPUS.outcome_json(again) == LUPUS.outcome_json(st)
    for viewer in (None, "master", *range(st.n)):
        assert LUPUS.view(again, viewer) == LUPUS.view(st, viewer)
