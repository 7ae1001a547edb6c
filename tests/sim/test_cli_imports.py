"""Start-up (issue 21): a command imports what it uses and nothing else.

Each case runs the real entry point (``nightcall.cli.main``) in a fresh interpreter
and reads ``sys.modules`` at its end, so the check is about imports, not timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nightcall.cli import command_names

PROBE = """
import json, sys
out, sys.argv = sys.argv[1], ["nightcall", *sys.argv[2:]]
from nightcall.cli import main
try:
    main()
except SystemExit:
    pass
with open(out, "w") as f:
    json.dump(sorted(sys.modules), f)
"""
WEB = ("uvicorn", "starlette", "websockets", "nightcall.server", "nightcall.web")
# Typer's rich help and its pydantic parameter adapters: ~150 ms that --help does not need.
HELP_EXTRAS = ("typer.rich_utils", "pydantic", "matplotlib", "numpy", *WEB)


def modules_after(tmp_path: Path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", PROBE, str(out), *args],
                          capture_output=True, text=True, timeout=120)
    assert out.exists(), done.stderr
    return set(json.loads(out.read_text()))


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_every_command_is_found() -> None:
    assert {"agent", "deck", "play", "serve", "simulate"} <= set(command_names())


@pytest.mark.parametrize("command", ["", *command_names(), "agent play"])
def test_help_imports_only_its_own_command(tmp_path: Path, command: str) -> None:
    modules = modules_after(tmp_path, *command.split(), "--help")
    assert loaded(modules, HELP_EXTRAS) == []
    if command:
        own = f"nightcall.commands.{command.split()[0]}"
        # (modules whose name starts with "_" are shared helpers, not commands)
        others = [m for m in modules if m.startswith("nightcall.commands.") and m != own
                  and not m.removeprefix("nightcall.commands.").startswith("_")]
        assert own in modules
        assert others == []


def test_deck_does_not_load_the_web_server(tmp_path: Path) -> None:
    modules = modules_after(tmp_path, "deck", "onuw", "--players", "5")
    assert "nightcall.commands.deck" in modules
    assert "nightcall.rulesets.onuw" in modules  # it did run
    assert loaded(modules, (*WEB, "matplotlib")) == []


def test_simulate_loads_matplotlib_only_for_a_plot(tmp_path: Path) -> None:
    args = ("simulate", "onuw", "--players", "5", "--games", "20", "--workers", "1", "--json")
    plain = modules_after(tmp_path, *args)
    assert "nightcall.sim.runner" in plain  # it did run
    assert loaded(plain, ("matplotlib", "numpy", *WEB)) == []
    png = tmp_path / "rates.png"
    plotted = modules_after(tmp_path, *args, "--plot", str(png))
    assert "matplotlib" in plotted
    assert png.stat().st_size > 0
