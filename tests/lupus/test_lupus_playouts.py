"""Random legal playouts: every game ends, replays exactly, and never leaks a secret.
Source: the issue's "random legal playouts at 7, 12, 16 and 23 players always end";
lupus-in-tabula.md, FAQ (ghosts, cards stay secret); rulings: docs/rulings.md (Lupus in Tabula)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as strat

from nightcall.bots.random_bot import RandomBot
from nightcall.engine.events import EVERYONE, MASTER
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.roles import side_of
from nightcall.rulesets.lupus.state import LupusState

SECRET_KINDS = {"deal", "wolves", "wolf_pick", "victim", "seen", "protect", "visit", "medium",
                "mark", "freemasons", "imitate", "transformed", "causes"}


def play(players: int, seed: int, scenario: str | None = "extra") -> LupusState:
    rng = random.Random(seed)
    st = LUPUS.deal([f"P{i}" for i in range(players)], LUPUS.default_deck(players, scenario),
                    seed)
    for _ in range(20 * players * players):
        if LUPUS.is_over(st):
            return st
        seat = rng.choice(LUPUS.waiting_for(st))
        LUPUS.apply(st, seat, rng.choice(LUPUS.legal_actions(st, seat)))
    raise AssertionError(f"game at {players} players, seed {seed} did not end")


def check_ended_well(st: LupusState) -> None:
    out = st.outcome
    assert out is not None and LUPUS.is_over(st) and LUPUS.waiting_for(st) == ()
    dead = [d.seat for d in out.deaths]
    assert len(dead) == len(set(dead)) == st.alive.count(False)
    assert len(out.teams) == 1
    team = out.teams[0]
    if team == "werehamster":
        assert [st.roles[s] for s in out.winners] == ["werehamster"]
        assert st.alive[out.winners[0]]
    else:
        assert out.winners == tuple(s for s in range(st.n) if side_of(st.roles[s]) == team)
    wolves = sum(1 for s in st.living() if st.roles[s] == "werewolf")
    humans = len(st.living()) - wolves
    assert wolves == 0 or wolves >= humans
    assert len(st.executed) in (st.night - 1, st.night)  # one execution per completed day


@pytest.mark.parametrize("players", [7, 12, 16, 23])
@pytest.mark.parametrize("scenario", ["base", "extra"])
def test_random_playouts_always_end(players: int, scenario: str) -> None:
    for seed in range(25):
        check_ended_well(play(players, seed, scenario))


@settings(max_examples=30, deadline=None)
@given(players=strat.integers(7, 23), seed=strat.integers(0, 10**6),
       scenario=strat.sampled_from(["base", "extra"]))
def test_a_written_record_replays_to_the_same_views(players: int, seed: int,
                                                    scenario: str) -> None:
    st = play(players, seed, scenario)
    again = LUPUS.replay(LUPUS.to_record(st))
    assert LUPUS.outcome_json(again) == LUPUS.outcome_json(st)
    for viewer in (None, MASTER, *range(players)):
        assert LUPUS.view(again, viewer) == LUPUS.view(st, viewer)


@settings(max_examples=20, deadline=None)
@given(players=strat.integers(7, 23), seed=strat.integers(0, 10**6), cut=strat.integers(0, 40))
def test_a_record_cut_short_is_ongoing(players: int, seed: int, cut: int) -> None:
    record = LUPUS.to_record(play(players, seed))
    steps = record["steps"]
    if cut >= len(steps):
        return
    record["steps"] = steps[:cut]
    out = LUPUS.outcome_json(LUPUS.replay(record))
    assert out["status"] == "ongoing" and out["winners"] == []
    assert len(out["nights"]) == sum(1 for s in steps[:cut] if "wolves" in s)


def test_the_same_seed_plays_the_same_game() -> None:
    assert LUPUS.to_record(play(16, 7)) == LUPUS.to_record(play(16, 7))
    assert LUPUS.to_record(play(16, 7)) != LUPUS.to_record(play(16, 8))


def test_the_random_bot_plays_from_its_view() -> None:
    st = LUPUS.deal([f"P{i}" for i in range(12)], LUPUS.default_deck(12, "extra"), 3)
    bots = [RandomBot(seed=s) for s in range(12)]
    while not LUPUS.is_over(st):
        seat = LUPUS.waiting_for(st)[0]
        action = bots[seat].choose(LUPUS.view(st, seat))
        assert action is not None
        LUPUS.apply(st, seat, action)
    check_ended_well(st)


def _secrets_hold(st: LupusState) -> None:
    """Nothing secret reaches a spectator, and nothing new reaches a ghost."""
    over = LUPUS.is_over(st)
    public = LUPUS.view(st, None)
    if not over:
        assert not SECRET_KINDS & {e["kind"] for e in public["events"]}
        assert "roles" not in public and "outcome" not in public
    alive = [True] * st.n
    for e in st.log:
        if isinstance(e.audience, frozenset):
            assert all(alive[s] for s in e.audience), f"a ghost was told {e}"
        if e.kind == "dawn":
            for s in e.data["dead"]:
                alive[s] = False
        if e.kind == "executed":
            alive[e.data["seat"]] = False
        if e.audience == EVERYONE and e.kind == "dawn":
            assert set(e.data) == {"night", "dead", "last"}
    for seat in range(st.n):
        view = LUPUS.view(st, seat)
        deals = [e for e in view["events"] if e["kind"] == "deal"]
        assert deals == [{"kind": "deal", "seat": seat, "card": st.start[seat]}]
        if view["legal"]:
            assert seat in LUPUS.waiting_for(st)


@pytest.mark.parametrize("players", [9, 16])
def test_secrets_stay_on_the_server_at_every_step(players: int) -> None:
    rng = random.Random(players)
    st = LUPUS.deal([f"P{i}" for i in range(players)], LUPUS.default_deck(players, "extra"), 1)
    steps = 0
    while not LUPUS.is_over(st):
        if steps % 7 == 0:
            _secrets_hold(st)
        seat = rng.choice(LUPUS.waiting_for(st))
        LUPUS.apply(st, seat, rng.choice(LUPUS.legal_actions(st, seat)))
        steps += 1
    _secrets_hold(st)
    reveal = [e for e in LUPUS.view(st, None)["events"] if e["kind"] == "reveal"]
    assert reveal == [{"kind": "reveal", "cards": st.roles}]  # cards shown at the end only


@settings(max_examples=20, deadline=None)
@given(players=strat.integers(7, 16), seed=strat.integers(0, 10**6), stop=strat.integers(0, 300))
def test_a_game_saved_mid_way_replays_to_its_last_finished_part(
    players: int, seed: int, stop: int
) -> None:
    rng = random.Random(seed)
    st = LUPUS.deal([f"P{i}" for i in range(players)], LUPUS.default_deck(players), seed)
    for _ in range(stop):
        if LUPUS.is_over(st):
            break
        who = rng.choice(LUPUS.waiting_for(st))
        LUPUS.apply(st, who, rng.choice(LUPUS.legal_actions(st, who)))
    again = LUPUS.replay(LUPUS.to_record(st))
    assert again.deaths == st.deaths[: len(again.deaths)]
    if st.phase == 0:  # mid-night: replayed to the start of that night
        assert (again.phase, again.night) == (0, st.night)
        assert again.nights_log[-1] == {} and again.picks == {}
    elif st.phase == 1:
        assert (again.phase, again.day, again.stage) == (1, st.day, st.stage)
        if st.stage == 0:
            assert again.accuse_i == 0
    else:
        assert LUPUS.outcome_json(again) == LUPUS.outcome_json(st)
