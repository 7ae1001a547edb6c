"""The Moonlight ruleset (site/moonlight.py) as a third party would install it: a module
and its dist-info on the path, declaring the ``nightcall.rulesets`` entry point. Nothing
outside this folder knows it exists."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nightcall.engine import ruleset as registry

SITE = Path(__file__).resolve().parent / "site"


@pytest.fixture
def moonlight(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The installed ruleset, found through its entry point (in this process, and in
    any process started with this environment: PYTHONPATH carries the site folder)."""
    monkeypatch.syspath_prepend(str(SITE))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(SITE), os.environ.get("PYTHONPATH", "")) if p))
    try:
        yield registry.get_ruleset("moonlight")
    finally:
        registry._REGISTRY.pop("moonlight", None)
        sys.modules.pop("moonlight", None)
