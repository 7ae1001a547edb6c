"""End-to-end fixtures: a real ``nightcall serve`` and Debian's Chromium driven by
Playwright (never a downloaded browser). Screenshots go to test-artifacts/e2e/."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from liveserver import LiveServer

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists():  # pragma: no cover - CI installs it with apt
    if os.environ.get("NIGHTCALL_REQUIRE_BROWSER"):
        raise RuntimeError("NIGHTCALL_REQUIRE_BROWSER is set but /usr/bin/chromium is missing")
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


# Module scope, not session: Playwright's sync API keeps an event loop on the main thread
# while it is open, which would break every later test that calls asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="nightcall-chromium-")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=[*ARGS, f"--disk-cache-dir={profile}/cache"])
        yield b
        b.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    s = LiveServer(tmp_path / "rooms.sqlite3").start()
    yield s
    s.stop()


@pytest.fixture
def shots() -> Any:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return shot
