"""The simulator: seeded and worker-independent, honest tallies, the CLI's JSON."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from nightcall.cli import app
from nightcall.engine.ruleset import get_ruleset
from nightcall.sim.parallel import chunks, simulate
from nightcall.sim.runner import Setup, game_seed, play_game, run_games
from nightcall.sim.tally import Tally, wilson

ONUW5 = Setup("onuw", 5, tuple(get_ruleset("onuw").default_deck(5)))


def test_same_seed_same_result_for_any_worker_count() -> None:
    one, _ = simulate(ONUW5, 300, seed=11, workers=1)
    two, _ = simulate(ONUW5, 300, seed=11, workers=2)
    assert one == two
    other, _ = simulate(ONUW5, 300, seed=12, workers=1)
    assert other != one


def test_tally_matches_the_games_it_counts() -> None:
    tally = run_games(ONUW5, seed=5, first=0, count=40)
    rs = get_ruleset("onuw")
    expected = Tally()
    rng = random.Random(game_seed(5, 0))  # the first block of games, one after the other
    for _ in range(40):
        state, dealt = play_game(ONUW5, rng)
        out = rs.outcome(state)
        assert out is not None
        assert dealt == list(state.start)
        expected.add(dealt, out.teams, out.winners, len(out.deaths))
    assert tally == expected
    assert tally.games == 40
    assert sum(tally.role_seats.values()) == 40 * 5
    rates = tally.win_rates()
    for r in rates["teams"].values():
        assert r["low"] <= r["rate"] <= r["high"]


def test_any_slice_of_a_run_is_the_same_games() -> None:
    """Workers get whole blocks; a slice that starts inside a block is the same games."""
    whole = run_games(ONUW5, seed=9, first=0, count=250)
    parts = Tally()
    for first, count in ((0, 30), (30, 120), (150, 100)):
        parts.merge(run_games(ONUW5, seed=9, first=first, count=count))
    assert parts == whole
    assert chunks(250, 2) == [(0, 100), (100, 100), (200, 50)]


def test_all_random_loop_is_random_bots() -> None:
    """play_random draws like RandomBot (rng.choice), so it plays the same games."""
    from nightcall.bots.random_bot import RandomBot
    from nightcall.sim.runner import play, play_random

    rs = get_ruleset("onuw")
    for seed in range(30):
        names = [f"P{i}" for i in range(5)]
        a, b = random.Random(seed), random.Random(seed)
        fast = rs.deal(names, list(ONUW5.deck), a)
        slow = rs.deal(names, list(ONUW5.deck), b)
        play_random(rs, fast, a)
        play(rs, slow, [RandomBot(b)] * 5)
        assert fast.history == slow.history
        assert rs.outcome_json(fast) == rs.outcome_json(slow)
        assert a.random() == b.random()


def test_fast_path_plays_the_same_game_as_views() -> None:
    """The random bot's shortcut (legal_actions, no view) changes nothing."""
    from nightcall.bots.random_bot import RandomBot
    from nightcall.sim.runner import play

    rs = get_ruleset("onuw")
    for seed in range(20):
        fast = rs.deal([f"P{i}" for i in range(5)], list(ONUW5.deck), seed)
        slow = rs.deal([f"P{i}" for i in range(5)], list(ONUW5.deck), seed)
        play(rs, fast, [RandomBot(seed)] * 5)

        class ViaView(RandomBot):
            pass

        play(rs, slow, [ViaView(seed)] * 5)
        assert fast.history == slow.history
        assert rs.outcome_json(fast) == rs.outcome_json(slow)


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-3)


def test_cli_json(tmp_path: object) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "onuw", "--players", "4", "--games", "60",
                                 "--workers", "1", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 60
    assert set(data["win_rates"]["teams"]) >= {"village", "werewolves"}
    assert data["games_per_second"] > 0
    again = json.loads(runner.invoke(app, ["simulate", "onuw", "-n", "4", "-g", "60", "-w", "1",
                                           "--seed", "2", "--json"]).stdout)
    assert again["win_rates"] == data["win_rates"]


def test_cli_roles_plot_and_errors(tmp_path: object) -> None:
    from pathlib import Path

    png = Path(str(tmp_path)) / "rates.png"
    runner = CliRunner()
    deck = "werewolf,werewolf,seer,robber,troublemaker,villager,minion"
    result = runner.invoke(app, ["simulate", "onuw", "--roles", deck, "--games", "30", "-w", "1",
                                 "--village", "reasoning", "--wolves", "reasoning",
                                 "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "Team win rates" in result.stdout
    assert png.read_bytes()[:4] == b"\x89PNG"
    bad = runner.invoke(app, ["simulate", "onuw", "--players", "5", "--village", "genius"])
    assert bad.exit_code == 2
    assert "genius" in bad.output
