"""Resuming gives the same final table as an uninterrupted run; so do more workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nightcall.arena import ArenaError
from nightcall.arena.config import Entrant, Tournament
from nightcall.arena.ratings import rate
from nightcall.arena.results import ResultsFile
from nightcall.arena.run import run
from nightcall.engine.ruleset import get_ruleset

DECK = tuple(get_ruleset("onuw").default_deck(5))
PEOPLE = (Entrant("easy", "bot", bot="reasoning:easy"), Entrant("normal", "bot", bot="reasoning"),
          Entrant("coin", "bot", bot="random"))


def board(t: Tournament, path: Path) -> list[dict[str, object]]:
    results = ResultsFile(path, t)
    return rate(t, results.ordered()).leaderboard()


def test_an_interrupted_run_resumed_ends_at_the_same_table(tmp_path: Path) -> None:
    t = Tournament("onuw", 5, DECK, PEOPLE, 60, seed=8)
    whole = tmp_path / "whole.jsonl"
    run(t, ResultsFile(whole, t))
    expected = board(t, whole)

    cut = tmp_path / "cut.jsonl"
    played = 0

    def stop_midway(k: int) -> None:
        nonlocal played
        played += k
        if played >= 120:
            raise KeyboardInterrupt

    results = ResultsFile(cut, t)
    with pytest.raises(KeyboardInterrupt):
        run(t, results, progress=stop_midway)
    results.close()
    lines = cut.read_bytes().splitlines()
    assert len(lines) == 1 + 200  # the header, and the games of the chunks that finished
    # A line cut short by the interruption, as a kill mid-write leaves it:
    with cut.open("ab") as f:
        f.write(lines[-1][:37])
    again = ResultsFile(cut, t)
    assert len(again.done) == 200
    assert run(t, again) == t.games - 200
    again.close()
    assert board(t, cut) == expected
    # The file now holds every game once.
    games = [json.loads(x)["game"] for x in cut.read_bytes().splitlines()[1:]]
    assert sorted(games) == list(range(t.games))


def test_two_workers_give_the_same_table_as_one(tmp_path: Path) -> None:
    t = Tournament("onuw", 5, DECK, PEOPLE, 40, seed=2)
    run(t, ResultsFile(tmp_path / "one.jsonl", t), workers=1)
    run(t, ResultsFile(tmp_path / "two.jsonl", t), workers=2)
    assert board(t, tmp_path / "one.jsonl") == board(t, tmp_path / "two.jsonl")


def test_more_deals_extend_the_file_and_another_tournament_is_refused(tmp_path: Path) -> None:
    small = Tournament("onuw", 5, DECK, PEOPLE, 10, seed=1)
    big = Tournament("onuw", 5, DECK, PEOPLE, 20, seed=1)
    path = tmp_path / "r.jsonl"
    run(small, ResultsFile(path, small))
    extended = ResultsFile(path, big)
    assert len(extended.done) == small.games
    run(big, extended)
    extended.close()
    run(big, ResultsFile(tmp_path / "direct.jsonl", big))
    assert board(big, path) == board(big, tmp_path / "direct.jsonl")
    with pytest.raises(ArenaError, match=r"another tournament .*seed"):
        ResultsFile(path, Tournament("onuw", 5, DECK, PEOPLE, 20, seed=2))
    with pytest.raises(ArenaError, match="holds 20 deals"):
        ResultsFile(path, small)
    fresh = ResultsFile(path, Tournament("onuw", 5, DECK, PEOPLE, 20, seed=2), fresh=True)
    assert not fresh.done


def test_ctrl_c_on_the_command_then_the_same_command_again(tmp_path: Path) -> None:
    """A real interruption (SIGINT to the running command, two workers), then a resume,
    against an uninterrupted run."""
    args = [sys.executable, "-m", "nightcall.cli", "arena", "-e", "easy=reasoning:easy",
            "-e", "normal=reasoning", "-e", "coin=random", "--deals", "600", "--seed", "5",
            "--json"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cut = tmp_path / "cut"
    proc = subprocess.Popen([*args, "-w", "2", "-o", str(cut)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    results = cut / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if results.exists() and results.read_bytes().count(b"\n") > 300:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    saved = results.read_bytes().count(b"\n") - 1
    assert 300 <= saved < 3000
    resumed = subprocess.run([*args, "-w", "1", "-o", str(cut)], capture_output=True,
                             text=True, env=env, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming {results}: {saved:,} of 3,000" in resumed.stderr
    whole = subprocess.run([*args, "-w", "1", "-o", str(tmp_path / "whole")],
                           capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    assert (cut / "leaderboard.md").read_text() == (tmp_path / "whole/leaderboard.md").read_text()


@pytest.mark.parametrize("line", [
    b'{"game": "zero"}',  # a game index that is not a number
    b'{"game": 0, "deal": 0, "table": 0, "rotation": 0, "entrants": [0, 1, 2, 0, 1], '
    b'"dealt": ["seer"], "winners": "everyone", "teams": []}',  # winners not a list
    b'[1, 2, 3]',
])
def test_a_result_line_of_the_wrong_shape_is_refused_saying_where(
        tmp_path: Path, line: bytes) -> None:
    """A results file is read back typed (arena.seats.GameResult): a line of another
    shape is refused with its line number, never rated as if it were a game."""
    t = Tournament("onuw", 5, DECK, PEOPLE, 2, seed=4)
    path = tmp_path / "results.jsonl"
    run(t, ResultsFile(path, t))
    path.write_bytes(path.read_bytes() + line + b"\n")
    with pytest.raises(ArenaError, match=r"results\.jsonl, line \d+: not a game result"):
        ResultsFile(path, t)
