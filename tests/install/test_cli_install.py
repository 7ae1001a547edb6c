"""The installed command: its version, and a missing optional part named in one line."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import nightcall
from nightcall import cli
from nightcall.cli import EXTRAS

ROOT = Path(__file__).resolve().parents[2]

# Run the command with some modules made unimportable, as on an install without an extra.
RUN_WITHOUT = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # importing it now raises ModuleNotFoundError
sys.argv = ["nightcall", *sys.argv[2:]]
from nightcall.cli import main
main()
"""


def run(*args: str, without: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN_WITHOUT, without, *args],
                          capture_output=True, text=True, timeout=120)


def test_version_is_the_package_version() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"nightcall {nightcall.__version__}"


def test_pyproject_takes_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" in project["dynamic"] and "version" not in project


def test_a_missing_plot_library_names_the_extra(tmp_path: Path) -> None:
    done = run("simulate", "onuw", "--players", "5", "--games", "2",
               "--plot", str(tmp_path / "rates.png"), without="matplotlib")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "pip install 'nightcall[plot]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_every_extra_named_for_a_module_exists_in_pyproject() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for module, extra in EXTRAS.items():
        assert extra in extras, (module, extra)
        assert extra in extras["all"][0], f"[all] leaves out {extra}"


def test_the_web_app_needs_no_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    for needed in ("starlette", "uvicorn", "websockets", "segno", "msgspec", "typer"):
        assert needed in core


def test_an_unknown_missing_module_is_not_hidden(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # Only the optional parts get the "pip install" line; anything else is a bug of
    # ours, said as one (with its module), never as a missing extra.
    def broken(args: list[str]) -> None:
        raise ModuleNotFoundError("No module named 'nightcall.gone'", name="nightcall.gone")

    monkeypatch.setattr(cli, "run", broken)
    monkeypatch.delenv("NIGHTCALL_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 70
    err = capsys.readouterr().err
    assert "stopped on a bug (ModuleNotFoundError: No module named 'nightcall.gone')" in err
    assert "pip install" not in err
    monkeypatch.setenv("NIGHTCALL_DEBUG", "1")
    with pytest.raises(ModuleNotFoundError):
        cli.main()


def test_a_bug_is_one_line_to_report_not_a_traceback() -> None:
    """Session 15 found ``play epic`` printing a traceback; whatever the next bug is,
    the user gets one line that says what to do."""
    done = run("deck", "onuw", "-n", "5", without="nightcall.narration.deckspec")
    assert done.returncode == 70, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Please report it with the command you ran" in done.stderr
