"""Epic records (shared/spec/game-record.md): the example records replay to the end
their text describes; illegal steps are clear errors naming the step, and
``nightcall replay`` exits 2 on them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nightcall.cli import app
from nightcall.engine import records
from nightcall.engine.errors import RecordError
from nightcall.rulesets.epic.game import EPIC

RECORDS = Path(__file__).resolve().parents[1] / "records"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("name", "dead", "winners", "teams"),
    [
        # The Master is protected by the bitten Dario; Carla dies instead, and her lover.
        ("epic-vampire-tokens.json", ["Carla", "Elena"], ["Anna", "Bruno", "Carla", "Dario"],
         ["vampires"]),
        # Three parties: most and second most die, a werewolf and a vampire.
        ("epic-three-parties.json", ["Bruno", "Anna"], ["Carla", "Elena"], ["village"]),
        # The Goblin gave Anna the Alpha's extra werewolf; the Brand made Bruno a villager.
        ("epic-alpha-mimic-curator.json", ["Anna"], ["Bruno", "Carla", "Dario", "Elena"],
         ["village"]),
        # Epic Battle: the Master, on top, is saved by the bitten Carla; the second dies.
        ("epic-final-boss.json", ["Bruno"], ["Anna", "Carla"], ["vampires"]),
    ],
)
def test_example_records_replay_to_their_described_end(
        name: str, dead: list[str], winners: list[str], teams: list[str]) -> None:
    record = load(name)
    ruleset, st = records.replay(record)
    out = ruleset.outcome_json(st)
    assert (out["dead"], out["winners"], out["teams"]) == (dead, winners, teams)
    assert out["status"] == "over"
    again = EPIC.replay(json.loads(json.dumps(EPIC.to_record(st))))
    assert EPIC.outcome_json(again) == out


def test_final_state_lists_tokens_artifacts_and_the_extra_card() -> None:
    out = EPIC.outcome_json(EPIC.replay(load("epic-alpha-mimic-curator.json")))
    # The Mimic card, copied Seer: since issue 14 (spec "The outcome") the card lies as
    # the Mimic in final.cards and counts as the Seer in final.roles.
    assert out["final"]["roles"]["Dario"] == "seer"
    assert out["final"]["cards"]["Dario"] == "mimic"
    assert out["final"]["extra"] == "ghost_hunter"
    assert out["final"]["artifacts"] == {"Bruno": "brand_of_the_villager"}
    tokens = EPIC.outcome_json(EPIC.replay(load("epic-vampire-tokens.json")))["final"]["tokens"]
    assert tokens["Dario"] == "vampire" and tokens["Fabio"] == "panic"


def test_final_boss_night_facts() -> None:
    st = EPIC.replay(load("epic-final-boss.json"))
    assert st.final_role(6) == "dream_wolf"  # the Ghost Hunter saw the Dream Wolf
    fortune = [e for e in EPIC.view(st, 4)["events"] if e["kind"] == "thumbs"]
    assert fortune[0]["seats"] == [0, 1, 3, 6]
    assert EPIC.view(st, None)["face_up"] == {"Carla": "the_thing"}
    assert [e for e in EPIC.view(st, 3)["events"] if e["kind"] == "tapped"] == [
        {"kind": "tapped", "by": 2}]


def test_mimic_then_is_played_at_the_copied_roles_call() -> None:
    st = EPIC.replay(load("epic-alpha-mimic-curator.json"))
    assert (0, ("look", 1, -1), "seer") in [(s, tuple(a), c) for s, a, c in st.history]


def broken(name: str, change: Any) -> dict[str, Any]:
    record = copy.deepcopy(load(name))
    change(record)
    return record


def _steps(*steps: dict[str, Any]) -> Any:
    def change(record: dict[str, Any]) -> None:
        record["steps"] = list(steps) + [s for s in record["steps"] if "votes" in s]
    return change


WEREWOLF_TABLE = {
    "ruleset": "epic", "players": ["Anna", "Bruno", "Carla", "Dario"],
    "cards": {"Anna": "werewolf", "Bruno": "dream_wolf", "Carla": "infected",
              "Dario": "witch"},
    "center": ["seer", "villager", "robber"], "steps": [],
}


@pytest.mark.parametrize(
    ("record", "step", "message"),
    [
        # A panicked Tracker may not wake.
        (broken("epic-vampire-tokens.json", _steps(
            {"call": "vampire", "player": "Anna", "token": "Carla"},
            {"call": "the_count", "player": "Anna", "token": "Dario"},
            {"call": "assassin", "player": "Elena", "token": "Bruno"},
            {"call": "tracker", "player": "Dario", "look": "Anna"})), 3, "Panic token"),
        # The vampires' transformation is compulsory.
        (broken("epic-vampire-tokens.json", _steps(
            {"call": "the_count", "player": "Anna", "token": "Dario"})), 0, "compulsory"),
        # Night steps come in wake order.
        (broken("epic-vampire-tokens.json", _steps(
            {"call": "vampire", "player": "Anna", "token": "Dario"},
            {"call": "the_count", "player": "Anna", "token": "Fabio"},
            {"call": "assassin", "player": "Elena", "token": "Bruno"},
            {"call": "venus", "player": "Fabio", "token": ["Carla", "Elena"]})), 3,
         "wake order"),
        # The vampires cannot bite one of their own.
        (broken("epic-vampire-tokens.json", _steps(
            {"call": "vampire", "player": "Anna", "token": "Bruno"})), 0, "illegal action"),
        # Only a vampire speaks in the vampires' call.
        (broken("epic-vampire-tokens.json", _steps(
            {"call": "vampire", "player": "Carla", "token": "Dario"})), 0, "does not wake"),
        # The Witch must swap the card she looked at.
        (broken("epic-three-parties.json", _steps(
            {"call": "vampire", "player": "Anna", "token": "Carla"},
            {"call": "witch", "player": "Elena", "center": [1]})), 1, "compulsory"),
        # The Alpha Wolf gives the extra card to a non-werewolf only.
        (broken("epic-alpha-mimic-curator.json", lambda r: r["steps"].__setitem__(
            2, {"call": "alpha_wolf", "player": "Bruno", "swap": "Bruno"})), 2,
         "illegal action"),
        # No Bite of the Vampire without vampires.
        (broken("epic-alpha-mimic-curator.json", lambda r: r["steps"].__setitem__(
            5, {"call": "curator", "player": "Elena", "on": "Bruno",
                "artifact": "bite_of_the_vampire"})), 5, "not among the ones left"),
        (broken("epic-alpha-mimic-curator.json", lambda r: r["steps"].__setitem__(
            3, {"call": "ghost_hunter", "player": "Dario",
                "look": ["Elena", "Carla", "Anna"]})), 3, "two cards at most"),
        (broken("epic-alpha-mimic-curator.json", lambda r: r["steps"].__setitem__(
            4, {"call": "goblin", "player": "Carla", "swap": ["Anna", "Dario"],
                "what": "hats"})), 4, "cards"),
        (broken("epic-alpha-mimic-curator.json", lambda r: r["steps"].insert(
            0, {"call": "hunter", "player": "Anna"})), 0, "sleeps through"),
        # A lone-wolf look with a Dream Wolf among the players.
        ({**WEREWOLF_TABLE, "steps": [
            {"call": "infected", "player": "Carla", "token": "Dario"},
            {"call": "werewolf", "player": "Anna", "center": [0]}]}, 1, "Dream Wolf"),
        # The Infected reaches only a neighbour.
        ({**WEREWOLF_TABLE, "players": ["Anna", "Bruno", "Carla", "Dario", "Elena"],
          "cards": {**WEREWOLF_TABLE["cards"], "Elena": "villager"},
          "steps": [{"call": "infected", "player": "Carla", "token": "Elena"}]}, 0,
         "illegal action"),
        # The Tracker may not look at the card and the token of the same player.
        (broken("epic-vampire-tokens.json", lambda r: r["steps"].__setitem__(
            5, {"call": "tracker", "player": "Dario", "look": "Anna", "token": "Anna"})), 5,
         "illegal action"),
    ],
)
def test_illegal_steps_are_refused_naming_the_step(
        record: dict[str, Any], step: int, message: str) -> None:
    with pytest.raises(RecordError, match=message) as info:
        EPIC.replay(record)
    assert info.value.step == step


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("epic-three-parties.json", lambda r: r.__setitem__("extra", "werewolf"),
         "only laid beside"),
        ("epic-alpha-mimic-curator.json", lambda r: r.pop("extra"), "'extra' card"),
        ("epic-three-parties.json", lambda r: r.__setitem__("tokens", {"Anna": "gold"}),
         "not a symbol token"),
        ("epic-three-parties.json", lambda r: r.__setitem__("tokens", {"Zoe": "love"}),
         "not seated"),
        ("epic-three-parties.json", lambda r: r.__setitem__("options", {"speed": 3}),
         "Epic Battle has no option speed"),
        ("epic-three-parties.json", lambda r: r["cards"].__setitem__("Anna", "K♠"),
         "is not a role or playing card of One Night Ultimate Werewolf: Epic Battle"),
        ("epic-three-parties.json", lambda r: r.__setitem__("center", ["seer"]), "3 center"),
    ],
)
def test_bad_headers_are_refused(name: str, change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message) as info:
        EPIC.replay(broken(name, change))
    assert info.value.step is None


def test_cli_replays_and_exits_2_on_illegal_records(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["replay", str(RECORDS / "epic-three-parties.json"), "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["winners"] == ["Carla", "Elena"]
    text = runner.invoke(app, ["replay", str(RECORDS / "epic-vampire-tokens.json")])
    assert text.exit_code == 0 and "Vampire clan wins" in text.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**WEREWOLF_TABLE, "steps": [
        {"call": "infected", "player": "Carla", "token": "Dario"},
        {"call": "werewolf", "player": "Anna", "center": [0]}]}))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "step 1" in result.output and "Dream Wolf" in result.output


def test_starting_tokens_are_read_and_only_certainty_is_allowed() -> None:
    # Issue 14 (docs/rulings.md, "Starting tokens"): "Each player receives a Certainty
    # token" ("Setup"); a starting Bat token, which this test once read back, is refused.
    record = {
        "ruleset": "epic", "players": ["Anna", "Bruno", "Carla"],
        "cards": {"Anna": "venus", "Bruno": "werewolf", "Carla": "seer"},
        "center": ["villager", "robber", "tracker"],
        "tokens": {"Carla": "certainty"},
        "steps": [{"call": "venus", "player": "Anna", "skip": True},
                  {"call": "werewolf", "player": "Bruno", "center": [1]},
                  {"votes": {"Anna": "Bruno", "Carla": "Bruno", "Bruno": "Carla"}}],
    }
    st = EPIC.replay(record)
    assert st.tokens == ["certainty", "certainty", "certainty"]
    assert "tokens" not in EPIC.to_record(st)  # nothing to say: the setup's tokens
    assert EPIC.outcome_json(st)["teams"] == ["village"]
    record["tokens"] = {"Carla": "bat"}
    with pytest.raises(RecordError, match="Carla starts with the bat token, but every "
                                          "player starts with a Certainty token"):
        EPIC.replay(record)


def test_mimic_then_for_a_role_that_does_not_wake_is_refused() -> None:
    record = {
        "ruleset": "epic", "players": ["Anna", "Bruno", "Carla"],
        "cards": {"Anna": "mimic", "Bruno": "werewolf", "Carla": "seer"},
        "center": ["villager", "robber", "tracker"],
        "steps": [{"call": "mimic", "player": "Anna", "center": [0],
                   "then": {"look": "Bruno"}}],
    }
    with pytest.raises(RecordError, match="does not wake") as info:
        EPIC.replay(record)
    assert info.value.step == 0


def test_a_choice_free_step_is_information() -> None:
    record = {
        "ruleset": "epic", "players": ["Anna", "Bruno", "Carla"],
        "cards": {"Anna": "insomniac", "Bruno": "werewolf", "Carla": "robber"},
        "center": ["villager", "seer", "tracker"],
        "steps": [{"call": "robber", "player": "Carla", "swap": "Anna"},
                  {"call": "insomniac", "player": "Anna"},
                  {"votes": {"Anna": "Bruno", "Carla": "Bruno", "Bruno": "Carla"}}],
    }
    st = EPIC.replay(record)
    assert st.cards[0] == "robber"
    bad = copy.deepcopy(record)
    bad["steps"][1]["look"] = "Bruno"
    with pytest.raises(RecordError, match="nobody has a choice") as info:
        EPIC.replay(bad)
    assert info.value.step == 1
