"""The handoff's own checks (server/handoff.py): its socket directory must be private to
this user, and it only hands sockets to processes of this very machine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from nightcall.server import handoff
from nightcall.server.handoff import Handoff


def test_the_socket_directory_must_be_private(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    made = handoff.socket_dir()
    assert made.stat().st_mode & 0o777 == 0o700
    made.chmod(0o777)  # as if someone else had made it, open to all
    with pytest.raises(PermissionError):
        handoff.socket_dir()
    with pytest.raises(PermissionError):
        Handoff("w1")


def test_only_a_process_of_this_machine_is_a_target(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    mine = Handoff("w1")
    try:
        here = mine.announcement()
        elsewhere = json.dumps({"machine": "other-host/boot", "path": "/tmp/x.sock"})
        announced = {"w2": here.encode(), "w3": elsewhere, "w4": None}
        assert mine.path_of("w2", announced.get) == str(mine.path)
        assert mine.path_of("w3", announced.get) is None  # another machine: relay
        assert mine.path_of("w4", announced.get) is None  # gone
        announced["w3"] = here  # answers are kept a few seconds, not re-read per socket
        assert mine.path_of("w3", announced.get) is None
        assert os.getuid() == mine.path.parent.stat().st_uid
    finally:
        mine.close()
