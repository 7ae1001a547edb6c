"""The night replayed (issue 18): the steps the replay page draws, computed from a record.

"The replay is drawn from the record alone": the record is replayed by its ruleset and
the steps are read off the engine's log. These tests hold each step to the engine: a
swap moves exactly the two cards the engine swapped, a look shows the card that lay
there at that moment (the card the engine reported seen), tokens land where the engine
put them, and the table before the final reveal is the engine's final table, for every
stored record of every ruleset and for random games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall.bots.random_bot import RandomBot
from nightcall.engine.errors import RecordError
from nightcall.engine.replay_steps import replay_steps
from nightcall.engine.ruleset import get_ruleset

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json")) + sorted((HERE / "from-main").glob("*.json"))


def record_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data.get("record", data)


def check(out: dict[str, Any]) -> None:
    """Every step against the one before it and the engine's own words."""
    n = len(out["players"])
    before = out["start"]
    for k, step in enumerate(out["steps"]):
        after, e = step["table"], step["event"]
        where = f"step {k}: {e}"
        if step["shape"] == "swap":
            a, b = step["where"]
            moved = list(before["cards"])
            moved[a], moved[b] = moved[b], moved[a]
            assert after["cards"] == moved, where
            assert sorted(map(tuple, step["moves"])) == sorted([(a, b), (b, a)]), where
            if e.get("seats") and len(e["seats"]) == 2:
                assert {a, b} == set(e["seats"]), where
            elif e.get("center") is not None:
                assert n + e["center"] in (a, b), where
        elif step["shape"] == "reveal":
            # The engine's final table, and the one the steps carried up to it.
            assert before["cards"] == e["cards"], where
            if e.get("tokens"):
                assert before["tokens"] == e["tokens"], where
        else:
            assert after["cards"] == before["cards"], where  # only a swap moves a card
        if e is not None and e["kind"] == "saw":
            (pos,) = step["where"]
            assert after["cards"][pos] == e["card"], where  # the eye is on that card
        if e is not None and e["kind"] in ("token", "saw_token"):
            assert after["tokens"][e["seat"]] == e["token"], where
        if e is not None and e["kind"] == "bitten":
            assert after["tokens"][e["seat"]] == "vampire", where
        if e is not None and e["kind"] == "gave_token":
            for s in e.get("seats") or [e["seat"]]:
                assert after["tokens"][s] == e["token"], where
        assert set(before["dead"]) <= set(after["dead"]), where  # nobody comes back
        before = after


def test_there_are_records_of_every_ruleset() -> None:
    assert {record_of(p)["ruleset"] for p in FILES} == {"onuw", "epic", "lupus"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_stored_record_replays_step_by_step(path: Path) -> None:
    record = record_of(path)
    out = replay_steps(record)
    assert out["players"] == record["players"]
    check(out)
    rules = get_ruleset(record["ruleset"])
    assert out["outcome"] == rules.outcome_json(rules.replay(record))
    final = out["steps"][-1]["table"]["cards"]
    if out["outcome"].get("status", "over") == "over":
        assert [final[i] for i in range(len(record["players"]))] == \
            [out["outcome"]["final"]["cards"][p] for p in record["players"]]


def test_the_example_round_step_by_step() -> None:
    """The page's example round: the lone wolf's look, the Seer's, the Robber's swap and
    the Troublemaker's, each where the page says."""
    out = replay_steps(record_of(HERE / "onuw-example-round.json"))
    names = out["players"]
    night = [s for s in out["steps"] if s["phase"] == "night"]
    looks = [s for s in night if s["shape"] == "look"]
    swaps = [s for s in night if s["shape"] == "swap"]
    n = len(names)
    # Bruno, alone, looks at center card 1, a Werewolf; the Seer Carla looks at Bruno.
    assert looks[0]["where"] == [n + 1] and looks[0]["seen_by"] == [names.index("Bruno")]
    assert looks[0]["table"]["cards"][n + 1] == "werewolf"
    assert looks[1]["where"] == [names.index("Bruno")] and looks[1]["event"]["card"] == "werewolf"
    assert looks[1]["seen_by"] == [names.index("Carla")]
    # Dario robs Bruno, then sees his new card; Elena swaps Anna and Dario.
    rob, trouble = swaps
    assert rob["call"] == "robber"
    assert set(rob["where"]) == {names.index("Dario"), names.index("Bruno")}
    assert rob["table"]["cards"][names.index("Dario")] == "werewolf"
    assert rob["table"]["cards"][names.index("Bruno")] == "robber"
    assert trouble["call"] == "troublemaker" and trouble["seen_by"] == [names.index("Elena")]
    assert trouble["table"]["cards"][names.index("Anna")] == "werewolf"
    assert trouble["table"]["cards"][names.index("Dario")] == "villager"
    # Calls are public; the deal is not a step (the picture starts from it).
    assert all(s["seen_by"] == "everyone" for s in out["steps"] if s["shape"] == "call")
    assert all(s["event"] is None or s["event"]["kind"] != "deal" for s in out["steps"])
    assert out["center"] == 3 and out["extra"] is False
    assert out["steps"][-1]["shape"] == "reveal" and out["steps"][-1]["phase"] == "end"


def test_the_alpha_wolf_swaps_the_extra_card_and_the_mimic_copies() -> None:
    record = record_of(HERE / "epic-alpha-mimic-curator.json")
    out = replay_steps(record)
    names, n = out["players"], len(record["players"])
    assert out["extra"] is True and len(out["start"]["cards"]) == n + 4
    alpha = next(s for s in out["steps"] if s["call"] == "alpha_wolf")
    dario = names.index("Dario")
    assert alpha["shape"] == "swap" and set(alpha["where"]) == {dario, n + 3}
    assert alpha["table"]["cards"][dario] == "werewolf"
    assert alpha["table"]["cards"][n + 3] == "ghost_hunter"
    became = next(s for s in out["steps"] if s["event"] and s["event"]["kind"] == "became")
    assert became["event"]["role"] == "seer" and became["seen_by"] == [names.index("Anna")]
    curator = next(s for s in out["steps"] if s["event"] and s["event"]["kind"] == "artifact")
    assert curator["table"]["artifacts"] == {str(names.index("Bruno")): "brand_of_the_villager"}


def test_tokens_pass_as_the_vampires_and_the_twilight_give_them() -> None:
    out = replay_steps(record_of(HERE / "epic-vampire-tokens.json"))
    names = out["players"]
    bite = next(s for s in out["steps"] if s["event"] and s["event"]["kind"] == "bitten")
    assert bite["shape"] == "token" and bite["where"] == [names.index("Dario")]
    assert bite["table"]["tokens"][names.index("Dario")] == "vampire"
    assert bite["seen_by"] == [names.index("Anna"), names.index("Bruno")]  # the vampires
    love = next(s for s in out["steps"] if s["call"] == "venus" and s["shape"] == "token")
    assert set(love["where"]) == {names.index("Carla"), names.index("Elena")}
    assert out["start"]["tokens"] == ["certainty"] * len(names)


def test_lupus_nights_and_days_in_order() -> None:
    path = HERE / "from-main" / "lupus-base-8-1.json"
    out = replay_steps(record_of(path))
    nights = [s["night"] for s in out["steps"]]
    assert nights == sorted(nights) and max(nights) >= 2  # several nights, in order
    assert {s["phase"] for s in out["steps"]} == {"night", "day", "end"}
    executed = [s for s in out["steps"] if s["event"] and s["event"]["kind"] == "executed"]
    assert executed and all(s["event"]["seat"] in s["table"]["dead"] for s in executed)
    assert out["center"] == 0 and out["extra"] is False
    seer = next(s for s in out["steps"] if s["event"] and s["event"]["kind"] == "seen")
    assert seer["shape"] == "look" and seer["call"] == "seer"


def test_a_bad_record_is_refused_with_the_engines_reason() -> None:
    record = record_of(HERE / "onuw-example-round.json")
    record["steps"][2] = {"call": "robber", "player": "Dario", "swap": "Zeno"}
    with pytest.raises(RecordError) as info:
        replay_steps(record)
    assert info.value.step == 2 and "'Zeno' is not seated" in str(info.value)
    with pytest.raises(RecordError, match="ruleset"):
        replay_steps({"players": ["A", "B", "C"]})


def random_record(ruleset: str, players: int, seed: int) -> dict[str, Any]:
    rules = get_ruleset(ruleset)
    names = [f"P{i}" for i in range(players)]
    state = rules.deal(names, rules.default_deck(players), seed)
    bot, rng = RandomBot(seed), random.Random(seed)
    for _ in range(5000):
        if rules.is_over(state):
            break
        waiting = list(rules.waiting_for(state))
        if not waiting:
            break
        seat = rng.choice(waiting)
        rules.apply(state, seat, bot.choose(rules.view(state, seat)))  # type: ignore[arg-type]
    return json.loads(json.dumps(rules.to_record(state)))  # type: ignore[no-any-return]


@settings(max_examples=40, deadline=None)
@given(ruleset=st.sampled_from(["onuw", "epic", "lupus"]), seed=st.integers(0, 10**6),
       extra=st.integers(0, 5))
def test_random_games_replay_step_by_step(ruleset: str, seed: int, extra: int) -> None:
    low = get_ruleset(ruleset).min_players
    record = random_record(ruleset, low + extra, seed)
    check(replay_steps(record))
