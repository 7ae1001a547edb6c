"""Game records for One Night (shared/spec/game-record.md) and `nightcall replay`."""

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightcall.bots.random_bot import RandomBot
from nightcall.cli import app
from nightcall.engine.errors import RecordError
from nightcall.rulesets.onuw.game import ONUW

from .helpers import record

RECORDS = Path(__file__).parent.parent / "records"
runner = CliRunner()


def random_game(seed: int, players: int = 5):  # type: ignore[no-untyped-def]
    names = [f"P{i}" for i in range(players)]
    deck = ONUW.recommended_deck(players, add=["doppelganger", "minion", "drunk", "insomniac",
                                               "hunter", "tanner"][: max(0, players - 5)])
    st = ONUW.deal(names, deck, seed)
    bot = RandomBot(seed)
    while not ONUW.is_over(st):
        for s in ONUW.waiting_for(st):
            ONUW.apply(st, s, bot.choose(ONUW.view(st, s)))  # type: ignore[arg-type]
    return st


@pytest.mark.parametrize("seed", range(30))
def test_a_written_record_replays_to_the_same_game(seed: int) -> None:
    st = random_game(seed, players=3 + seed % 8)
    rec = ONUW.to_record(st)
    again = ONUW.replay(json.loads(json.dumps(rec)))
    assert again.cards == st.cards and again.log == st.log
    assert ONUW.outcome_json(again) == ONUW.outcome_json(st)
    for seat in [None, *range(st.n)]:
        assert ONUW.view(again, seat) == ONUW.view(st, seat)


def test_playing_cards_and_role_ids_may_be_mixed() -> None:
    rec = record(["A♠", "seer", "J♣"], ["7♦", "werewolf", "Q♣"],
                 [{"call": "robber", "player": "Carla", "swap": "Anna"}])
    st = ONUW.replay(rec)
    assert st.cards == ["robber", "seer", "werewolf", "villager", "werewolf", "troublemaker"]


def test_unknown_keys_are_kept_and_ignored() -> None:
    rec = record(["werewolf", "seer", "villager"], ["villager", "werewolf", "robber"],
                 [{"call": "seer", "player": "Bruno", "look": "Anna", "mood": "sleepy"},
                  {"weather": "rain"}])
    rec["venue"] = "kitchen"
    st = ONUW.replay(rec)
    assert {"kind": "saw", "seat": 0, "card": "werewolf"} in ONUW.view(st, 1)["events"]


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([{"call": "seer", "player": "Bruno", "look": "Bruno"}], "step 0: illegal action"),
        ([{"call": "robber", "player": "Anna", "swap": "Carla"}],
         "step 0: nobody is called as robber"),
        ([{"call": "seer", "player": "Carla", "look": "Anna"}], "step 0: Carla does not wake"),
        ([{"call": "seer", "player": "Bruno", "look": "Anna"},
          {"call": "werewolf", "center": [0]}],
         "step 1: out of wake order: the werewolf call comes before the seer"),
        ([{"call": "seer", "player": "Bruno", "center": [0, 3]}], "center indices are 0, 1 or 2"),
        ([{"call": "vampire"}], "not a One Night role"),
        ([{"votes": {"Anna": "Bruno"}}, {"call": "seer", "look": "Anna"}],
         "after the night is over"),
    ],
)
def test_illegal_steps_are_named(steps: list, message: str) -> None:  # type: ignore[type-arg]
    rec = record(["werewolf", "seer", "troublemaker"], ["villager", "werewolf", "villager"], steps)
    with pytest.raises(RecordError, match=message):
        ONUW.replay(rec)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["Anna", "Anna", "Carla"]}, "same name"),
        ({"center": ["villager"]}, "3 center cards"),
        ({"cards": {"Anna": "werewolf", "Bruno": "seer"}}, "no card dealt to Carla"),
        ({"cards": {"Anna": "werewolf", "Bruno": "seer", "Carla": "Z♠"}},
         "not a role or playing card of One Night Ultimate Werewolf"),
        ({"center": ["werewolf", "werewolf", "villager"]}, "at most two Werewolves"),
        ({"options": {"lone_wolf": "yes"}}, "true or false"),
    ],
)
def test_illegal_headers_are_explained(change: dict, message: str) -> None:  # type: ignore[type-arg]
    rec = record(["werewolf", "seer", "villager"], ["villager", "werewolf", "troublemaker"], [])
    rec.update(change)
    with pytest.raises(RecordError, match=message):
        ONUW.replay(rec)


def test_cli_replay_prints_an_account_and_the_winners() -> None:
    result = runner.invoke(app, ["replay", str(RECORDS / "onuw-example-round.json")])
    assert result.exit_code == 0, result.output
    assert "Carla looks at Bruno's card: Werewolf." in result.output
    assert "Winners: Bruno, Carla, Dario and Elena." in result.output


def test_cli_replay_json_prints_the_outcome_object() -> None:
    result = runner.invoke(app, ["replay", str(RECORDS / "onuw-example-round.json"), "--json"])
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert set(out) >= {"final", "dead", "winners", "teams", "explanation", "status"}
    assert out["dead"] == ["Anna"] and out["teams"] == ["village"]


def test_cli_replay_of_an_illegal_record_exits_2_naming_the_step(tmp_path: Path) -> None:
    rec = record(["werewolf", "seer", "villager"], ["villager", "werewolf", "troublemaker"],
                 [{"call": "seer", "player": "Bruno", "look": "Bruno"}])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "illegal record" in result.output and "step 0" in result.output
    # A header's fault is said once ("illegal record: record: ..." until session 26).
    path.write_text(json.dumps({"format": "x"}), encoding="utf-8")
    said = " ".join(runner.invoke(app, ["replay", str(path)]).output.split())
    assert said.startswith("illegal record: the record needs a 'ruleset'"), said
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert runner.invoke(app, ["replay", str(broken)]).exit_code == 2


def test_deal_is_seeded() -> None:
    names = ["A", "B", "C", "D", "E"]
    deck = ONUW.recommended_deck(5)
    assert ONUW.deal(names, deck, 7).cards == ONUW.deal(names, deck, 7).cards
    assert ONUW.deal(names, deck, random.Random(3)).cards == ONUW.deal(names, deck, 3).cards
