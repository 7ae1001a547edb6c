"""`nightcall serve` refuses a wrong option before it starts, saying which and why
(never a traceback, never a server that crashes at its first room)."""

from __future__ import annotations

from pathlib import Path

import pytest
from liveserver import free_port
from typer.testing import CliRunner

from nightcall.cli import app


def serve(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["serve", "--host", "127.0.0.1",
                                      "--port", str(free_port()), *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "said"), [
    (("--time-scale", "0"), "--time-scale must be more than 0, not 0"),
    (("--time-scale", "-1"), "--time-scale must be more than 0, not -1"),
    (("--dusk-scale", "-2"), "--dusk-scale must be more than 0, not -2"),
    (("--lease-seconds", "nan"), "--lease-seconds must be more than 0, not nan"),
    (("--public-url", "notaurl"), "--public-url is a web address"),
    (("--public-url", "ftp://host"), "--public-url is a web address"),
    (("--public-url", "http://host:port"), "--public-url is a web address"),
    (("--allow-origin", "games.example.org"), "--allow-origin is a web address"),
])
def test_a_wrong_value_is_refused_by_name(args: tuple[str, ...], said: str,
                                          tmp_path: Path) -> None:
    code, out = serve("--db", str(tmp_path / "rooms.sqlite3"), *args)
    assert code == 2
    assert said in out
    assert "Traceback" not in out


def test_a_folder_or_a_file_that_is_no_database_is_refused_before_serving(
        tmp_path: Path) -> None:
    code, out = serve("--db", str(tmp_path))
    assert code == 2 and "it is a folder" in out and "rooms are kept" not in out
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n")
    code, out = serve("--db", str(junk))
    assert code == 2 and f"cannot keep rooms in {junk}" in out
    assert junk.read_text() == "not a database\n"  # left as it was


def test_the_address_checks_accept_what_a_phone_can_open() -> None:
    from nightcall.commands.serve import _web_address

    for good in ("http://192.168.1.5:8000", "https://games.example.org",
                 "http://[::1]:8000/", "http://localhost"):
        assert _web_address(good), good
    for bad in ("", "192.168.1.5:8000", "http://", "mailto:x@y", "http://h:99x"):
        assert not _web_address(bad), bad
