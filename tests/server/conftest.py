"""Fixtures for the web app: an app on a real SQLite file."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

# Starlette 1.0 suggests httpx2 for its test client; httpx is what is installed here.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from nightcall.server.app import create_app  # noqa: E402
from nightcall.server.store import SQLiteStore  # noqa: E402


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "rooms.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    app = create_app(SQLiteStore(db_path))
    with TestClient(app) as c:
        yield c
