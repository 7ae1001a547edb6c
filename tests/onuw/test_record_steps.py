"""Night steps that name a call with nothing to choose (issue 14, "Errors").

Source: shared/spec/game-record.md, "Steps": ``player`` may be left out when the
role's action needs no choice, and steps come in wake order; nothing forbids naming
a call that has nothing to choose. one-night-ultimate-werewolf.md, the role table:
the Masons and the Minion only look, the Insomniac looks at her own card, a lone
Werewolf may look at one center card (the ``lone_wolf`` option), the
Doppelgänger-Insomniac wakes again after the Insomniac.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings

from nightcall.engine.errors import RecordError
from nightcall.engine.events import MASTER
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.record import wakers
from nightcall.rulesets.onuw.roles import DOPPELGANGER_INSOMNIAC
from nightcall.rulesets.onuw.state import OneNightState

from .helpers import outcome, play, record
from .test_properties import Table, play_random, tables

V = "villager"


def test_the_masons_call_may_be_named_at_its_place() -> None:
    st = play(["mason", "mason", "seer", "werewolf"], [V, V, "robber"],
              [{"call": "werewolf", "player": "Dario", "skip": True},
               {"call": "mason", "player": "Anna"},
               {"call": "mason", "player": "Bruno"},
               {"call": "seer", "player": "Carla", "look": "Dario"}])
    assert {"kind": "saw", "seat": 3, "card": "werewolf"} in ONUW.view(st, 2)["events"]


def test_the_insomniac_may_be_the_last_step() -> None:
    st = play(["insomniac", "robber", "werewolf"], [V, V, V],
              [{"call": "robber", "player": "Bruno", "swap": "Anna"},
               {"call": "insomniac", "player": "Anna"},
               {"votes": {"Anna": "Carla", "Bruno": "Carla", "Carla": "Anna"}}],
              {"lone_wolf": False})
    assert {"kind": "saw", "seat": 0, "card": "robber"} in ONUW.view(st, 0)["events"]
    assert ONUW.outcome_json(st)["dead"] == ["Carla"]


def test_the_minion_call_is_not_blamed_on_the_lone_wolf() -> None:
    # The lone wolf's look is open when the record names the Minion: the wolf skips.
    st = play(["minion", "werewolf", "seer"], [V, V, V],
              [{"call": "minion", "player": "Anna"},
               {"call": "seer", "player": "Carla", "look": "Anna"}])
    assert {"kind": "thumbs", "seats": [1]} in ONUW.view(st, 0)["events"]


def test_two_werewolves_may_each_be_named_in_their_call() -> None:
    out = outcome(["werewolf", "werewolf", "seer"], [V, V, V],
                  [{"call": "werewolf", "player": "Anna"},
                   {"call": "werewolf", "player": "Bruno"},
                   {"votes": {"Anna": "Carla", "Bruno": "Carla"}}])
    assert out["dead"] == ["Carla"] and out["teams"] == ["werewolves"]


def test_the_werewolves_call_without_a_lone_wolf_look_replays() -> None:
    st = play(["werewolf", "seer", V], [V, V, V],
              [{"call": "werewolf", "player": "Anna"}], {"lone_wolf": False})
    assert st.phase == 1


@pytest.mark.parametrize("second", ["doppelganger_insomniac", "doppelganger"])
def test_the_doppelganger_insomniacs_second_call_replays(second: str) -> None:
    st = play(["doppelganger", "insomniac", "robber"], ["werewolf", V, V],
              [{"call": "doppelganger", "player": "Anna", "look": "Bruno"},
               {"call": "robber", "player": "Carla", "swap": "Anna"},
               {"call": "insomniac", "player": "Bruno"},
               {"call": second, "player": "Anna"}])
    assert {"kind": "saw", "seat": 0, "card": "robber"} in ONUW.view(st, 0)["events"]


@pytest.mark.parametrize(
    ("seats", "steps", "options", "message"),
    [
        # A look the rules do not allow: the lone-wolf option is off.
        (["werewolf", "seer", V], [{"call": "werewolf", "player": "Anna", "center": [0]}],
         {"lone_wolf": False}, r"step 0: .*lone werewolf.*option lone_wolf: false"),
        # A look by one of two werewolves.
        (["werewolf", "werewolf", V], [{"call": "werewolf", "player": "Anna", "center": [0]}],
         None, r"step 0: only a lone werewolf may look at a center card, and 2 players"),
        # Out of order: the Seer's step, then the Masons'.
        (["mason", "mason", "seer"], [{"call": "seer", "player": "Carla", "look": "Anna"},
                                      {"call": "mason", "player": "Anna"}],
         None, r"step 1: out of wake order: the mason call comes before the seer call, "
               r"and night steps come in wake order"),
        # A choice in a call that has none.
        (["mason", "mason", "seer"], [{"call": "mason", "player": "Anna", "look": "Carla"}],
         None, r"step 0: the mason only looks and has nothing to choose"),
        # Somebody who does not wake in that call.
        (["mason", "mason", "seer"], [{"call": "mason", "player": "Carla"}],
         None, r"step 0: Carla does not wake in the mason call"),
        (["insomniac", "seer", V], [{"call": "insomniac", "player": "Bruno"}],
         None, r"step 0: Bruno does not wake in the insomniac call"),
        # The same choosing call twice.
        (["seer", V, V], [{"call": "seer", "player": "Anna", "look": "Bruno"},
                          {"call": "seer", "player": "Anna", "look": "Carla"}],
         None, r"step 1: the seer call is already over"),
        (["seer", V, V], [{"call": "villager", "player": "Bruno"}],
         None, r"step 0: the villager is never called"),
        (["seer", V, V], [{"votes": {}}, {"call": "insomniac"}],
         None, r"step 1: a night step \(insomniac\) after the night is over: the day began "
               r"at step 0"),
    ],
)
def test_wrong_steps_say_which_step_and_which_rule(
    seats: list[str], steps: list[dict[str, Any]], options: dict[str, Any] | None,
    message: str,
) -> None:
    center = center_for(seats)
    rec = record(seats, center, steps, options)
    with pytest.raises(RecordError, match=message) as err:
        ONUW.replay(rec)
    assert "\n" not in str(err.value)


def center_for(seats: list[str]) -> list[str]:
    """Three center cards that keep the deck legal: a second werewolf unless two are
    dealt, and an Insomniac (called, though in the center) unless one is dealt."""
    wolf = "werewolf" if seats.count("werewolf") < 2 else "robber"
    return ["insomniac" if "insomniac" not in seats else V, V, wolf]


# --- live play against every way of writing its record --------------------------------


def verbose_record(st: OneNightState, rng: random.Random) -> dict[str, Any]:
    """The game's record with every call of the night written out in wake order: the
    calls with a choice as the engine wrote them, and each call with nothing to choose
    as one step per player who wakes in it (named or not, the Doppelgänger's second
    call under either name)."""
    rec = ONUW.to_record(st)
    night = [s for s in rec["steps"] if "call" in s]
    day = [s for s in rec["steps"] if "call" not in s]
    chosen = {call for _seat, _action, call in st.history if call != "day"}
    steps: list[dict[str, Any]] = []
    for call in st.schedule:
        if call in chosen:
            steps += [s for s in night if s["call"] == call]
            continue
        for seat in wakers(st, call) or [None]:
            name = call
            if call == DOPPELGANGER_INSOMNIAC and rng.random() < 0.5:
                name = "doppelganger"
            step: dict[str, Any] = {"call": name}
            if seat is not None and rng.random() < 0.8:
                step["player"] = st.names[seat]
            steps.append(step)
    rec["steps"] = steps + day
    return rec


@settings(max_examples=150, deadline=None)
@given(tables())
def test_a_record_naming_every_call_replays_like_the_live_game(t: Table) -> None:
    live, _ = play_random(*t)
    for rec in (ONUW.to_record(live), verbose_record(live, random.Random(t.seed))):
        again = ONUW.replay(json.loads(json.dumps(rec)))
        assert again.log == live.log
        assert ONUW.outcome_json(again) == ONUW.outcome_json(live)
        for viewer in (None, MASTER, *range(t.players)):
            assert ONUW.view(again, viewer) == ONUW.view(live, viewer)
