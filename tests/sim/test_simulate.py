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


def test_wilson_interval_holds_the_rate_at_zero_and_one() -> None:
    """Rounding put wilson(0, 3)'s low end a hair above 0, so --plot crashed on a
    negative error bar for a team or role that never (or always) won."""
    for games in range(1, 200):
        for wins in (0, games):
            low, high = wilson(wins, games)
            assert low <= wins / games <= high


def _figure_texts(fig: object) -> list[str]:
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    assert isinstance(fig, Figure)
    return [t.get_text() for t in fig.findobj(Text)]


def test_plot_says_what_it_measured_in_the_readers_language() -> None:
    """The chart names the deck, the games, the bots and the seed, shows "nobody wins"
    and every bar's interval, and speaks --lang (role and team names included)."""
    from matplotlib.container import ErrorbarContainer

    from nightcall.commands.simulate import plot_texts
    from nightcall.narration.locale import load
    from nightcall.sim.plot import win_rate_figure

    rs = get_ruleset("onuw")
    deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
            "villager", "tanner"]
    tally = run_games(Setup("onuw", 5, tuple(deck)), seed=3, first=0, count=40)
    rates = tally.win_rates()
    low, high = wilson(tally.nobody_won, tally.games)
    rates["nobody"] = {"rate": tally.nobody_won / 40, "low": low, "high": high,
                       "wins": tally.nobody_won}
    result = {"deck": deck, "village": "random", "wolves": "reasoning", "vampires": None,
              "seed": 3, "workers": 1, "games": 40, "win_rates": rates}
    for lang, words in (("en", ["40 games", "seed 3", "Tanner", "Village", "Nobody wins",
                                "Troublemaker", "random for the village", "95% interval"]),
                        ("it", ["40 partite", "seed 3", "Conciatore", "Villaggio",
                                "Nessuno vince", "Lupo", "intervallo al 95%"]),
                        ("de", ["40 Partien", "Seed 3", "Gerber", "Dorf", "Niemand gewinnt",
                                "Unruhestifter", "95-%-Intervall"])):
        locale = load(lang)
        fig = win_rate_figure(rates, plot_texts(result, rs, locale, "LABEL"))
        texts = "\n".join(_figure_texts(fig))
        for word in words:
            assert word in texts, (lang, word)
        assert "LABEL" in fig.get_suptitle()
        assert "2 × " + locale.role("onuw", "werewolf") in fig.get_suptitle()
        team_ax, role_ax = fig.axes
        assert team_ax.get_ylabel() and role_ax.get_ylabel()
        ticks = [t.get_text() for t in team_ax.get_xticklabels()]
        assert len(ticks) == len(rates["teams"]) + 1  # the teams and "nobody wins"
        for ax, n in ((team_ax, len(ticks)), (role_ax, len(rates["roles"]))):
            bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
            assert len(bars) == 1 and bars[0].has_yerr
            assert len(bars[0].lines[2][0].get_segments()) == n  # one interval per bar
        if lang != "en":
            assert "tanner" not in texts and "werewolves" not in texts


def test_plot_of_a_team_that_never_wins() -> None:
    from nightcall.sim.plot import PlotTexts, win_rate_figure

    zero = {"rate": 0.0, "low": 0.0, "high": 0.56, "wins": 0}
    rates = {"teams": {"village": zero, "werewolves": {"rate": 1.0, "low": 0.44, "high": 1.0,
                                                       "wins": 3}},
             "roles": {}}
    fig = win_rate_figure(rates, PlotTexts("t", "a", "b", "c", "d"))  # type: ignore[arg-type]
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["village", "werewolves"]


def test_cli_report_speaks_lang_and_shows_each_roles_denominator() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "onuw", "-n", "5", "-g", "30", "-w", "1",
                                 "--bots", "random", "--lang", "it"])
    assert result.exit_code == 0, result.output
    for word in ("30 partite", "Vittorie per squadra", "Villaggio", "Nessuno vince",
                 "Ruolo ricevuto", "volte", "Veggente", "seed 0"):
        assert word in result.stdout, word
    assert "Team win rates" not in result.stdout and "Seer" not in result.stdout


def test_json_is_documented_key_by_key(tmp_path: object) -> None:
    """docs/balance.md holds the guide the report writes, and the guide names every key
    `--json` prints (with --plot, and for a deck with vampires)."""
    from pathlib import Path

    from nightcall.sim.balance import OWN_DECK

    docs = Path(__file__).parents[2] / "docs" / "balance.md"
    assert OWN_DECK.strip() in docs.read_text(encoding="utf-8")
    png = Path(str(tmp_path)) / "e.png"
    out = CliRunner().invoke(app, ["simulate", "epic", "-n", "6", "-g", "8", "-w", "1",
                                   "--bots", "random", "--json", "--plot", str(png)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    keys = set(data) | set(data["win_rates"]) | set(data["win_rates"]["nobody"])
    keys |= {k for r in data["win_rates"]["roles"].values() for k in r}
    assert "plot" in keys and "seats" in keys
    missing = [k for k in sorted(keys) if f"`{k}`" not in OWN_DECK]
    assert not missing
