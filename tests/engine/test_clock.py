"""The engine owns the night's clock (issue 13, "The engine owns the clock"; rulings
17d-17f): on a clock every call is a step that stays open until ``end_call``, the
state always names it, a silent seat gets the default move, and a game played on a
clock ends exactly as its record replays."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from nightcall.engine.actions import Action
from nightcall.engine.clock import (
    CLOCK_SEAT,
    DUSK,
    END_CALL,
    default_move,
    end_idle_calls,
)
from nightcall.engine.errors import IllegalAction
from nightcall.engine.ruleset import Ruleset, get_ruleset

ONUW = get_ruleset("onuw")
EPIC = get_ruleset("epic")
LUPUS = get_ruleset("lupus")
RULESETS = {"onuw": ONUW, "epic": EPIC, "lupus": LUPUS}
DAY_STAGES = {"vote", "accuse", "execute"}


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def snapshot(ruleset: Ruleset, state: Any) -> Any:
    """Everything a refusal must leave as it was: every seat's view and the record."""
    n = len(ruleset.view(state, None)["players"])
    return ([ruleset.view(state, v) for v in (None, *range(n))], ruleset.to_record(state),
            ruleset.open_call(state), ruleset.waiting_for(state))


def deal_with(ruleset: Ruleset, players: int, roles: list[str], want: Any,
              clock: int = 1) -> Any:
    """A game on a clock whose deal satisfies ``want(cards)`` (seats then center)."""
    for seed in range(2000):
        state = ruleset.deal(names(players), roles, seed, clock=clock)
        cards = ruleset.view(state, "master")["events"][0]["cards"]
        if want(cards):
            return state
    raise AssertionError("no seed deals that")  # pragma: no cover


# --- the state names the open call ------------------------------------------------


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_state_names_the_open_call_at_each_step(rid: str) -> None:
    """Ended only by end_call, the steps are dusk, every call of the deck in wake
    order (the narrator's night_calls), then the day; the view's call agrees."""
    ruleset = RULESETS[rid]
    players = 8 if rid == "lupus" else 5
    roles = ruleset.default_deck(players)
    state = ruleset.deal(names(players), roles, 3, clock=3)
    seen = []
    while ruleset.open_call(state) not in DAY_STAGES:
        step = ruleset.open_call(state)
        seen.append(step)
        view = ruleset.view(state, None)
        assert view["phase"] == "night"
        assert view["call"] == (None if step == DUSK else step)
        ruleset.apply(state, CLOCK_SEAT, END_CALL)
    assert seen == [DUSK, *ruleset.night_calls(roles, 1)]
    assert ruleset.view(state, None)["phase"] == "day"
    assert ruleset.open_call(state) == ("accuse" if rid == "lupus" else "vote")


def test_a_game_on_a_clock_starts_at_dusk_with_nothing_to_do() -> None:
    state = ONUW.deal(names(5), ONUW.default_deck(5), 1, clock=1)
    assert ONUW.open_call(state) == DUSK
    assert ONUW.waiting_for(state) == ()
    for seat in range(5):
        view = ONUW.view(state, seat)
        assert view["legal"] == []
        assert [e["kind"] for e in view["events"]] == ["deal"]  # only one's own card


def test_a_center_role_s_call_stays_open_until_end_call() -> None:
    """The Seer in the center: nobody chooses in its call, and it is still the open call
    however long the table waits; end_call alone moves the night on."""
    roles = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
             "villager", "villager"]
    state = deal_with(ONUW, 5, roles, lambda cards: "seer" in cards[5:])
    while ONUW.open_call(state) != "seer":
        ONUW.apply(state, CLOCK_SEAT, END_CALL)
    before = snapshot(ONUW, state)
    assert ONUW.waiting_for(state) == ()
    assert ONUW.view(state, None)["events"][-1] == {"kind": "call", "role": "seer"}
    for seat in range(5):  # nobody at the table can end it
        with pytest.raises(IllegalAction):
            ONUW.apply(state, seat, END_CALL)
    assert snapshot(ONUW, state) == before
    ONUW.apply(state, CLOCK_SEAT, END_CALL)
    assert ONUW.open_call(state) == "robber"


def test_the_public_night_is_the_same_whether_a_role_is_in_the_center() -> None:
    """What the host screen sees after each end_call does not depend on where the
    Seer's card lies: the calls come one per end_call, in the same order."""
    roles = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
             "villager", "villager"]

    def public_night(state: Any) -> list[list[dict[str, Any]]]:
        steps = []
        while ONUW.open_call(state) != "vote":
            steps.append(ONUW.view(state, None)["events"])
            ONUW.apply(state, CLOCK_SEAT, END_CALL)
        return steps

    center = public_night(deal_with(ONUW, 5, roles, lambda c: "seer" in c[5:]))
    seated = public_night(deal_with(ONUW, 5, roles, lambda c: "seer" in c[:5]))
    assert center == seated


def test_a_choice_does_not_end_its_call() -> None:
    roles = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
             "villager", "villager"]
    state = deal_with(ONUW, 5, roles, lambda cards: cards[0] == "seer")
    while ONUW.open_call(state) != "seer":
        ONUW.apply(state, CLOCK_SEAT, END_CALL)
    assert ONUW.waiting_for(state) == (0,)
    ONUW.apply(state, 0, Action("look", 1))
    assert ONUW.open_call(state) == "seer"  # still the Seer's call...
    assert ONUW.waiting_for(state) == ()  # ...with nothing more to choose
    assert ONUW.legal_actions(state, 0) == ()
    assert ONUW.view(state, 0)["events"][-1]["kind"] == "saw"
    ONUW.apply(state, CLOCK_SEAT, END_CALL)
    assert ONUW.open_call(state) == "robber"


# --- refusals ----------------------------------------------------------------------


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_end_call_is_refused_once_the_game_is_over(rid: str) -> None:
    ruleset = RULESETS[rid]
    players = 8 if rid == "lupus" else 5
    state = ruleset.deal(names(players), ruleset.default_deck(players), 5, clock=5)
    for _ in range(10_000):
        if ruleset.is_over(state):
            break
        ruleset.apply(state, CLOCK_SEAT, END_CALL)  # everyone silent, to the end
    assert ruleset.is_over(state) and ruleset.open_call(state) is None
    before = snapshot(ruleset, state)
    with pytest.raises(IllegalAction) as refused:
        ruleset.apply(state, CLOCK_SEAT, END_CALL)
    assert "the game is over" in refused.value.reason
    assert snapshot(ruleset, state) == before


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_a_seat_may_not_end_a_call(rid: str) -> None:
    ruleset = RULESETS[rid]
    players = 8 if rid == "lupus" else 5
    state = ruleset.deal(names(players), ruleset.default_deck(players), 2, clock=2)
    ruleset.apply(state, CLOCK_SEAT, END_CALL)
    before = snapshot(ruleset, state)
    with pytest.raises(IllegalAction) as refused:
        ruleset.apply(state, 0, END_CALL)
    assert "only the clock ends a call" in refused.value.reason
    assert snapshot(ruleset, state) == before


# --- the silent seat -----------------------------------------------------------------


def test_default_move_skips_or_abstains_when_allowed_else_picks_a_legal_choice() -> None:
    rng = random.Random(0)
    assert default_move((Action("look", 1), Action("skip")), rng) == Action("skip")
    assert default_move((Action("vote", 1), Action("abstain")), rng) == Action("abstain")
    assert default_move((), rng) is None
    compulsory = tuple(Action("take_center", i) for i in range(3))
    picks = {default_move(compulsory, rng) for _ in range(60)}
    assert picks == set(compulsory)  # random, and always one of the choices


def test_a_silent_seer_skips_and_a_silent_drunk_still_swaps() -> None:
    roles = ["werewolf", "werewolf", "seer", "robber", "drunk", "villager", "villager",
             "villager"]
    state = deal_with(ONUW, 5, roles, lambda c: c[0] == "seer" and c[1] == "drunk")
    while not ONUW.is_over(state):
        ONUW.apply(state, CLOCK_SEAT, END_CALL)  # nobody ever touches their phone
    steps = ONUW.to_record(state)["steps"]
    assert {"call": "seer", "player": "P0", "skip": True} in steps
    drunk = [s for s in steps if s.get("call") == "drunk"]
    assert len(drunk) == 1 and drunk[0]["player"] == "P1" and len(drunk[0]["center"]) == 1
    votes = next(s for s in steps if "votes" in s)["votes"]
    assert votes == {}  # everybody abstained


def test_silent_werewolves_in_lupus_still_pick_a_victim() -> None:
    state = LUPUS.deal(names(8), LUPUS.default_deck(8), 4, clock=4)
    LUPUS.apply(state, CLOCK_SEAT, END_CALL)  # the dusk
    assert LUPUS.open_call(state) == "werewolf"
    wolves = LUPUS.waiting_for(state)
    assert wolves
    LUPUS.apply(state, CLOCK_SEAT, END_CALL)
    picks = [e for e in LUPUS.view(state, wolves[0])["events"] if e["kind"] == "wolf_pick"]
    assert sorted(e["seat"] for e in picks) == sorted(wolves)  # each wolf pointed
    while LUPUS.view(state, None)["phase"] == "night":
        LUPUS.apply(state, CLOCK_SEAT, END_CALL)
    night = LUPUS.to_record(state)["steps"][0]
    assert night["wolves"] in names(8)


def test_the_defaults_are_the_clock_seed_s() -> None:
    """The same seed draws the same defaults (a rebuilt room lands on the same game)."""
    def silent_game(clock: int) -> Any:
        roles = ["doppelganger", "werewolf", "seer", "robber", "drunk", "troublemaker",
                 "villager", "villager"]
        state = ONUW.deal(names(5), roles, 11, clock=clock)
        while not ONUW.is_over(state):
            ONUW.apply(state, CLOCK_SEAT, END_CALL)
        return ONUW.to_record(state)

    assert silent_game(7) == silent_game(7)


def test_end_idle_calls_stops_where_a_seat_must_choose() -> None:
    roles = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
             "villager", "villager"]
    state = deal_with(ONUW, 5, roles, lambda c: c[2] == "robber" and "seer" in c[5:])
    ended = end_idle_calls(ONUW, state)
    assert ended == 1 + ONUW.night_calls(roles).index("robber")  # the dusk, then calls
    assert ONUW.open_call(state) == "robber" and ONUW.waiting_for(state) == (2,)
    assert end_idle_calls(ONUW, state) == 0


def test_without_a_clock_end_call_still_closes_the_open_call() -> None:
    """A game without a clock passes idle calls by itself; end_call ends one with a
    choice pending, with the same default."""
    roles = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
             "villager", "villager"]
    for seed in range(200):
        state = ONUW.deal(names(5), roles, seed)
        if ONUW.open_call(state) == "seer":
            break
    assert ONUW.waiting_for(state)
    ONUW.apply(state, CLOCK_SEAT, END_CALL)
    assert ONUW.open_call(state) != "seer"
    assert ONUW.to_record(state)["steps"][-1]["skip"] is True


# --- a game on a clock is its record -----------------------------------------------------


def drive(ruleset: Ruleset, players: int, seed: int, choices: random.Random,
          patience: float) -> tuple[Any, list[tuple[int, Action]]]:
    """A random game on a clock: each step, a waiting seat chooses, or (with chance
    ``1 - patience``, and always when nobody is choosing) the clock ends the call."""
    state = ruleset.deal(names(players), ruleset.default_deck(players), seed, clock=seed)
    moves: list[tuple[int, Action]] = []
    for _ in range(20_000):
        if ruleset.is_over(state):
            break
        call = ruleset.open_call(state)
        assert call is not None
        waiting = ruleset.waiting_for(state)
        if waiting and choices.random() < patience:
            seat = choices.choice(waiting)
            move = choices.choice(list(ruleset.legal_actions(state, seat)))
            ruleset.apply(state, seat, move)
            moves.append((seat, move))
        else:
            ruleset.apply(state, CLOCK_SEAT, END_CALL)
            moves.append((CLOCK_SEAT, END_CALL))
    return state, moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=hs.sampled_from(sorted(RULESETS)), seed=hs.integers(0, 2**31),
       players=hs.integers(0, 10), patience=hs.floats(0.0, 1.0))
def test_a_game_on_a_clock_ends_as_its_record_replays(rid: str, seed: int, players: int,
                                                      patience: float) -> None:
    ruleset = RULESETS[rid]
    n = min(max(players, ruleset.min_players), ruleset.max_players)
    state, moves = drive(ruleset, n, seed, random.Random(seed), patience)
    record = ruleset.to_record(state)
    replayed = ruleset.replay(record)
    assert ruleset.outcome_json(replayed) == ruleset.outcome_json(state)
    assert ruleset.to_record(replayed) == record
    # The same moves and end_calls again land on the same game (a room's rebuild).
    again = ruleset.deal(names(n), ruleset.default_deck(n), seed, clock=seed)
    for seat, move in moves:
        ruleset.apply(again, seat, move)
    assert ruleset.to_record(again) == record
    assert ruleset.view(again, None) == ruleset.view(state, None)
