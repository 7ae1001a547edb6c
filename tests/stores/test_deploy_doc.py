"""docs/deploy.md, run: every command of its ``sh`` blocks, in order, as root would, in a
temporary directory standing for ``/`` (docs/deploy.md, "How the test runs these
commands", says how each root-only step is checked here)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from clusterplay import free_port
from proxy import ROOT, Nginx, site
from test_proxy import _busy, _need_nginx

RedisServer = Any
DOC = ROOT / "docs" / "deploy.md"
NIGHTCALL = Path(sys.executable).with_name("nightcall")


def doc_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


class Machine:
    """The temporary "/" and what runs on it: the service, nginx."""

    def __init__(self, root: Path, redis_url: str) -> None:
        self.root = root
        self.redis_url = redis_url
        first = free_port()
        while _busy(first + 1):
            first = free_port()
        self.ports = {8000: free_port(), 8001: first, 8002: first + 1, 80: free_port(),
                      443: free_port()}
        for d in ("etc/systemd/system", "etc/nginx/conf.d", "var/lib"):
            (root / d).mkdir(parents=True, exist_ok=True)
        self.server: subprocess.Popen[bytes] | None = None
        self.server_log = root / "journal.log"
        self.nginx: Nginx | None = None
        self.ran: list[str] = []

    # --- rewriting a command for this "/" ------------------------------------------
    def rewrite(self, text: str) -> str:
        text = text.replace("sudo -u nightcall ", "").replace("sudo ", "")
        text = text.replace("/opt/nightcall/bin/nightcall", str(NIGHTCALL))
        text = re.sub(r"(?<![\w.])/(etc|var/lib)/", lambda m: f"{self.root}/{m.group(1)}/",
                      text)
        text = text.replace("redis://127.0.0.1:6379/0", self.redis_url)
        text = text.replace("https://127.0.0.1/", f"https://127.0.0.1:{self.ports[443]}/")
        text = text.replace("http://127.0.0.1/", f"http://127.0.0.1:{self.ports[80]}/")
        return re.sub(r"(?<=127\.0\.0\.1:)(8000|8001|8002)\b",
                      lambda m: str(self.ports[int(m.group(1))]), text)

    def rewrite_ports(self, argv: list[str]) -> list[str]:
        out = list(argv)
        for i, arg in enumerate(out[:-1]):
            if arg == "--port":
                out[i + 1] = str(self.ports[int(out[i + 1])])
        return out

    # --- running ------------------------------------------------------------------------
    def run(self, command: str) -> None:
        self.ran.append(command)
        line = self.rewrite(command)
        words = shlex.split(line)
        head = words[0]
        if head == "useradd":
            assert Path(words[words.index("--shell") + 1]).exists()
        elif head == "apt":
            for package in words[2:]:
                assert shutil.which(package), f"{package} is not installed"
        elif head == "systemctl":
            self.systemctl(words[1:])
        elif head == "nginx" and words[1:] == ["-t"]:
            nginx = self.make_nginx()
            done = nginx.test()
            assert done.returncode == 0, done.stderr
        elif head == "journalctl":
            self.journal()
        else:
            if ".backup" in line:
                self.play_a_game()  # the backup is taken while a game goes on
            done = subprocess.run(["bash", "-c", line], cwd=ROOT, capture_output=True,
                                  text=True, timeout=60)
            assert done.returncode == 0, (command, done.stderr)
            if ".backup" in line:
                self.check_backup(Path(shlex.split(line)[-1].split()[-1]))
            if "PRAGMA integrity_check" in line:
                assert done.stdout.strip() == "ok"
            if "/metrics" in line:
                assert "nightcall_rooms" in done.stdout and "nightcall_event_loop" in done.stdout
            if "/readyz" in line:
                assert done.stdout.strip() == "ready"

    def systemctl(self, args: list[str]) -> None:
        unit = self.root / "etc/systemd/system/nightcall.service"
        if args == ["daemon-reload"]:
            copy = self.root / "verify" / "nightcall.service"
            copy.parent.mkdir(exist_ok=True)
            copy.write_text(unit.read_text().replace("/opt/nightcall/bin/nightcall",
                                                     str(NIGHTCALL)))
            done = subprocess.run(["systemd-analyze", "verify", str(copy)],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
        elif args in (["enable", "--now", "nightcall"], ["restart", "nightcall"]):
            self.stop_server()
            self.start_server(unit.read_text())
        elif args == ["stop", "nightcall"]:
            took = self.stop_server()
            assert took < 5, f"the service took {took:.1f} s to stop"
        elif args == ["reload", "nginx"]:
            if self.nginx is not None:
                self.nginx.stop()
            self.nginx = self.make_nginx()
            scheme = "https" if self.uses_tls() else "http"
            port = self.ports[443 if scheme == "https" else 80]
            self.nginx.start(f"{scheme}://127.0.0.1:{port}/healthz")
        else:
            raise AssertionError(f"no check for systemctl {' '.join(args)}")

    def unit_settings(self, text: str) -> tuple[list[str], dict[str, str], int]:
        settings = dict(re.findall(r"^(\w+)=(.*)$", text, flags=re.M))
        argv = self.rewrite_ports(shlex.split(self.rewrite(settings["ExecStart"])))
        env = {}
        env_file = settings.get("EnvironmentFile", "")
        path = Path(self.rewrite(env_file.lstrip("-")))
        if env_file and path.exists():
            env = dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
        assert settings["KillSignal"] == "SIGTERM"
        if settings.get("StateDirectory"):
            (self.root / "var/lib" / settings["StateDirectory"]).mkdir(exist_ok=True)
        return argv, env, int(argv[argv.index("--port") + 1])

    def start_server(self, unit_text: str) -> None:
        argv, env, port = self.unit_settings(unit_text)
        log = self.server_log.open("ab")
        self.server = subprocess.Popen(argv, stdout=log, stderr=log, start_new_session=True,
                                       env={**os.environ, **env, "PYTHONUNBUFFERED": "1"})
        self.server_port = port
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.server.poll() is None, self.server_log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the service did not start")

    def stop_server(self) -> float:
        if self.server is None or self.server.poll() is not None:
            return 0.0
        started = time.monotonic()
        self.server.send_signal(signal.SIGTERM)
        try:
            self.server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.server.pid, signal.SIGKILL)
            self.server.wait(10)
        return time.monotonic() - started

    def uses_tls(self) -> bool:
        return "ssl_certificate" in (self.root / "etc/nginx/conf.d/nightcall.conf").read_text()

    def make_nginx(self) -> Nginx:
        text = (self.root / "etc/nginx/conf.d/nightcall.conf").read_text()
        text = re.sub(r"(?<![\w.])/etc/", f"{self.root}/etc/", text)
        ports = {80: self.ports[80], 443: self.ports[443]}
        if self.nginx is not None:
            self.nginx.stop()
            self.nginx = None
        return Nginx(self.root / "nginx", site(text, ports, [self.ports[8001],
                                                             self.ports[8002]]))

    # --- what the checks look at ---------------------------------------------------------
    def play_a_game(self) -> None:
        url = f"http://127.0.0.1:{self.server_port}"
        room = httpx.post(f"{url}/api/rooms", json={"seats": 3, "call_seconds": 0.2,
                                                    "discussion_seconds": 0.2,
                                                    "vote_seconds": 30}).json()
        self.room = room["room"]

        async def go() -> None:
            ws_url = url.replace("http", "ws") + f"/ws/{self.room}"
            host = await websockets.connect(ws_url)
            await host.send(json.dumps({"type": "hello", "as": "host",
                                        "token": room["host_token"]}))
            ann = await websockets.connect(ws_url)
            await ann.send(json.dumps({"type": "hello", "name": "Ann"}))
            assert json.loads(await ann.recv())["type"] == "welcome"
            await host.send(json.dumps({"type": "start"}))  # bots fill the other seats
            async with asyncio.timeout(20):
                while json.loads(await ann.recv()).get("type") != "observation":
                    pass
            await asyncio.sleep(1.0)  # a few calls of the night, saved as they go
            await ann.close()
            await host.close()

        asyncio.run(go())

    def check_backup(self, copy: Path) -> None:
        with sqlite3.connect(copy) as con:
            doc = json.loads(con.execute("SELECT doc FROM rooms WHERE code=?",
                                         (self.room,)).fetchone()[0])
        assert doc["status"] == "playing" and doc["seats"][0]["name"] == "Ann"

    def journal(self) -> None:
        lines = self.server_log.read_text().splitlines()
        assert lines and not [x for x in lines if x.startswith("Traceback")]
        assert any(f"room {self.room} created" in x for x in lines)

    def close(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        if self.server is not None and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGKILL)
            self.server.wait(10)


def test_every_command_of_the_deploy_doc_works(durable_redis: RedisServer,
                                               tmp_path: Path) -> None:
    _need_nginx()
    missing = [c for c in ("systemd-analyze", "sqlite3", "openssl", "curl")
               if shutil.which(c) is None]
    if missing:
        if os.environ.get("NIGHTCALL_REQUIRE_NGINX"):
            pytest.fail(f"NIGHTCALL_REQUIRE_NGINX is set but {missing} are missing")
        pytest.skip(f"{missing} are needed")
    machine = Machine(tmp_path / "root", durable_redis.url)
    try:
        for command in doc_commands():
            machine.run(command)
    finally:
        machine.close()
    assert len(machine.ran) >= 25
    # The three deployments were all reached: SQLite, Redis behind nginx, TLS.
    assert any("nightcall-redis.service" in c for c in machine.ran)
    assert any("nginx-tls.conf" in c for c in machine.ran)
