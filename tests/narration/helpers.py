"""Shared helpers for the narrator's tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nightcall.engine.ruleset import all_rulesets

ROOT = Path(__file__).resolve().parents[2]
RULES = Path("/work/shared/rules")
_BESIDE = Path(sys.executable).with_name("nightcall")  # the venv's own command
NIGHTCALL = str(_BESIDE) if _BESIDE.exists() else (shutil.which("nightcall") or "nightcall")


def rules_text(name: str) -> str:
    path = RULES / name
    if not path.exists():
        pytest.skip(f"rulebook {path} is not available here")
    return path.read_text(encoding="utf-8")


def need_ruleset(rid: str) -> None:
    if rid not in all_rulesets():
        pytest.skip(f"the {rid} ruleset is not registered yet (being written in parallel)")


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real ``nightcall`` command, as a user would."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run([NIGHTCALL, *args], capture_output=True, text=True, input=stdin,
                          env=env, timeout=60)


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """The command in-process (no interpreter start-up): exit code, stdout, stderr."""
    from typer.testing import CliRunner

    from nightcall.cli import app

    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr
