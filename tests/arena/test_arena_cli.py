"""``nightcall arena``: a TOML tournament, the leaderboard files, the plot, and bad input
answered in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from llmhelpers import ScriptedLLM
from typer.testing import CliRunner

from nightcall.cli import app

from .conftest import Script, last_option

ROOT = Path(__file__).resolve().parents[2]

TOML = f"""
ruleset = "onuw"
players = 5
deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
        "villager"]
games = 12   # rounded up to whole deals: 3 deals x 5 seatings
seed = 4

[[entrant]]
name = "hard"
bot = "reasoning:hard"

[[entrant]]
bot = "random"

[[entrant]]
name = "example"
command = ["{sys.executable}", "{ROOT / 'examples' / 'agent.py'}"]
timeout = 20
"""


def arena(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_tournament_from_a_toml_file(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_text(TOML)
    out = tmp_path / "out"
    code, stdout, stderr = arena(str(config), "-o", str(out), "-w", "1")
    assert code == 0, stderr
    for name in ("hard", "random", "example"):
        assert name in stdout
    assert "One Night Ultimate Werewolf, 5 players (2 × Werewolf, Seer, Robber, Troublemaker, " \
        "3 × Villager); 15 games (3 deals × 5 seatings), seed 4" in " ".join(stdout.split())
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["games"] == 15 and board["tournament"]["seed"] == 4
    rows = board["leaderboard"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert sorted(r["name"] for r in rows) == ["example", "hard", "random"]
    assert sum(r["seats"] for r in rows) == 15 * 5
    example = next(r for r in rows if r["name"] == "example")
    assert example["protocol"]["moves"] > 0 and example["protocol"]["timeouts"] == 0
    assert all("protocol" not in r for r in rows if r["name"] != "example")
    md = (out / "leaderboard.md").read_text()
    assert md.count("\n| ") == 4  # the head and three entrants
    assert "| 1 | " in md and "village μ ± σ" in md
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 16 and json.loads(lines[0])["format"] == "nightcall-arena/1"
    assert (out / "agents.log").exists()
    # Run again: nothing to play, the same table.
    code, again, stderr = arena(str(config), "-o", str(out), "-w", "1", "--json")
    assert code == 0 and "15 of 15 games already played" in stderr
    assert json.loads(again) == board


def test_flags_plot_and_workers(tmp_path: Path) -> None:
    png = tmp_path / "ratings.png"
    code, stdout, stderr = arena("-e", "random", "-e", "easy=reasoning:easy", "-e",
                                 "reasoning", "--deals", "30", "-w", "2", "-o",
                                 str(tmp_path / "o"), "--plot", str(png))
    assert code == 0, stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    assert "plot:" in stdout


def test_roles_are_named_as_for_deck(tmp_path: Path) -> None:
    """--roles takes what `deck --roles` takes: names in any language and counts, the
    same deck as its ids (session 26: arena alone took ids only)."""
    deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
            "villager"]
    base = ["-e", "random", "-e", "reasoning", "--deals", "1", "-w", "1", "--json"]
    code, by_names, stderr = arena(*base, "-o", str(tmp_path / "a"), "--roles",
                                   "2x Lupo, Veggente, Robber, troublemaker, 3 Dorfbewohner")
    assert code == 0, stderr
    code, by_ids, stderr = arena(*base, "-o", str(tmp_path / "b"), "--roles", ",".join(deck))
    assert code == 0, stderr
    assert json.loads(by_names)["tournament"]["deck"] == deck
    assert json.loads(by_names)["leaderboard"] == json.loads(by_ids)["leaderboard"]
    code, _, stderr = arena(*base, "-o", str(tmp_path / "c"), "--roles", "2x werewolf, sear")
    assert code == 2 and "did you mean 'Seer'?" in stderr and "Traceback" not in stderr


def test_matplotlib_is_imported_only_for_the_plot(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from nightcall.cli import app\n"
        f"r = CliRunner().invoke(app, ['arena', '-e', 'random', '-e', 'reasoning', '--deals',"
        f" '2', '-w', '1', '-o', {str(tmp_path)!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('matplotlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.parametrize(("args", "toml", "message"), [
    (["missing.toml"], None, "no such file: missing.toml"),
    (["t.toml"], "ruleset = [\n", "t.toml is not valid TOML"),
    (["t.toml"], "rulset = 'onuw'\n", "unknown key 'rulset'"),
    (["t.toml"], "[[entrant]]\nbot = 'random'\n[[entrant]]\nbot = 'genius'\n",
     "entrant 'genius': there is no bot 'genius'; an entrant is a bot (random, reasoning, "
     "reasoning:easy, reasoning:normal, reasoning:hard), stdio:COMMAND, llm:MODEL@URL or "
     "python:MODULE:ATTRIBUTE"),
    (["t.toml"], "[[entrant]]\nbot = 'random'\ncommand = 'x'\n",
     "give exactly one of bot, command, llm or python"),
    (["t.toml"], "[[entrant]]\nllm = 'm'\n[[entrant]]\nbot = 'random'\n", "needs url"),
    (["-e", "random", "-e", "reasoning:genius"], None, "there is no bot 'reasoning:genius'"),
    (["-e", "random"], None, "at least two entrants"),
    (["-e", "random", "-e", "random"], None, "two entrants are called 'random'"),
    (["-e", "random", "-e", "reasoning", "-r", "chess"], None, "chess"),
    (["-e", "random", "-e", "reasoning", "--roles", "werewolf,seer"], None, "deck"),
    (["-e", "random", "-e", "x=stdio:no-such-program-here"], None, "no program"),
    (["-e", "random", "-e", "python:no_such_module:Bot"], None, "cannot import"),
    (["-e", "random", "-e", "llm:model"], None, "llm:MODEL@URL"),
    (["-e", "random", "-e", "llm:m@ftp://x"], None, "url must start with http"),
    (["-e", "random", "-e", "stdio:python3 'unclosed"], None, "No closing quotation"),
    (["t.toml"], "[[entrant]]\nbot = 'random'\ntimeout = 3\n", "'timeout' does not apply to a bot"),
    (["t.toml"], "[[entrant]]\nname = 'x'\ncommand = 'ls'\ntimeout = 0\n",
     "timeout must be a positive number"),
    (["t.toml"], "deals = 3\ngames = 10\n[[entrant]]\nbot = 'random'\n[[entrant]]\n"
     "bot = 'reasoning'\n", "give deals or games, not both"),
    (["-e", "random", "-e", "reasoning", "--deals", "0"], None, "deals must be"),
    (["t.toml"], "scenario = 3\n[[entrant]]\nbot = 'random'\n[[entrant]]\nbot = 'reasoning'\n",
     "scenario must be a scenario's name"),
    (["-e", "random", "-e", "reasoning", "-w", "0"], None, "workers must be"),
])
def test_bad_input_is_one_line_and_no_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], toml: str | None,
        message: str) -> None:
    monkeypatch.chdir(tmp_path)
    if toml is not None:
        (tmp_path / "t.toml").write_text(toml)
    code, stdout, stderr = arena(*args)
    assert code == 2, stdout + stderr
    assert stderr.startswith("nightcall arena: ") and stderr.count("\n") == 1, stderr
    assert message in stderr and "Traceback" not in stderr
    assert not (tmp_path / "arena-out").exists()  # nothing written for a bad tournament


def test_a_program_that_crashes_is_named_under_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A program that dies at once still gets a rating (it passed every move): a newcomer
    # must not read that as "my agent works". The warning goes to stderr, --json or not.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dies.py").write_text("raise SystemExit(1)\n")
    for extra in ([], ["--json"]):
        code, stdout, stderr = arena("-e", f"mine=stdio:{sys.executable} dies.py", "-e",
                                     "random", "--deals", "1", "-w", "1", "--fresh", *extra)
        assert code == 0, stderr
        warning = next(line for line in stderr.splitlines() if line.startswith("warning:"))
        assert warning.startswith("warning: mine: its program stopped")
        assert warning.endswith(f"seats, and passed for the rest of those games: see "
                                f"{Path('arena-out') / 'agents.log'}")
        if not extra:  # the table marks it too: its rating is not its own play
            assert "mine (!)" in stdout and "random (!)" not in stdout
            assert "(!): some of its moves were not its own" in " ".join(stdout.split())
    json.loads(stdout)  # --json: stdout is the leaderboard alone
    board = (tmp_path / "arena-out" / "leaderboard.md").read_text()
    assert "| mine (!) |" in board and "(!): some of its moves were not its own" in board


def test_another_tournament_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    out = str(tmp_path / "o")
    assert arena("-e", "random", "-e", "reasoning", "--deals", "2", "-o", out)[0] == 0
    code, _, stderr = arena("-e", "random", "-e", "reasoning", "--deals", "2", "--seed", "9",
                            "-o", out)
    assert code == 2 and "holds another tournament (different seed)" in stderr
    assert stderr.count("\n") == 1
    assert arena("-e", "random", "-e", "reasoning", "--deals", "2", "--seed", "9", "-o", out,
                 "--fresh")[0] == 0


def test_without_openskill_the_message_names_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    code, _, stderr = arena("-e", "random", "-e", "reasoning", "-o", str(tmp_path / "o"))
    assert code == 2 and stderr.count("\n") == 1
    assert "pip install 'nightcall[arena]'" in stderr and "Traceback" not in stderr


def test_an_llm_entrant_from_the_file_with_its_cost(
        tmp_path: Path, endpoint: Callable[[Script], ScriptedLLM]) -> None:
    server = endpoint(last_option)
    config = tmp_path / "t.toml"
    config.write_text(
        "deals = 1\n[[entrant]]\nbot = 'reasoning'\n[[entrant]]\nname = 'tiny'\n"
        f"llm = 'tiny-model'\nurl = '{server.url}'\ntimeout = 10\nmax_talk = 1\n"
        "requests_per_minute = 6000\nprice_input = 1.0\nprice_output = 4.0\n")
    code, stdout, stderr = arena(str(config), "-o", str(tmp_path / "o"), "-w", "1")
    assert code == 0, stderr
    assert "tokens" in stdout
    board = json.loads((tmp_path / "o" / "leaderboard.json").read_text())
    tiny = next(r for r in board["leaderboard"] if r["name"] == "tiny")
    p = tiny["protocol"]
    assert p["requests"] == len(server.times) > 0
    assert p["cost"] == pytest.approx((p["tokens_in"] * 1.0 + p["tokens_out"] * 4.0) / 1e6)
    assert "| tiny | LLM tiny-model at " in (tmp_path / "o" / "leaderboard.md").read_text()


def test_a_python_bot_from_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mybots.py").write_text(
        "from nightcall.bots.random_bot import RandomBot\n\n"
        "class Mine(RandomBot):\n"
        "    def __init__(self, ruleset, seed):\n"
        "        super().__init__(seed)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, stderr = arena("-e", "python:mybots:Mine", "-e", "random", "--deals", "3",
                                 "-w", "1")
    assert code == 0, stderr
    rows = json.loads((tmp_path / "arena-out" / "leaderboard.json").read_text())["leaderboard"]
    assert {r["name"] for r in rows} == {"Mine", "random"}
    assert next(r for r in rows if r["name"] == "Mine")["entrant"] == "Python mybots:Mine"
