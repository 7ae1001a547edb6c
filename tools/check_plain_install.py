"""Check that a plain install (no extras) runs nightcall's main job.

Run with the Python of a fresh virtual environment where only `pip install .` was done:
it starts `nightcall serve` on a free loopback port, waits for the front page and a
room, and stops the server. Exit 0 when the web app answered, 1 otherwise.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    port = free_port()
    nightcall = Path(sys.executable).with_name("nightcall")
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [str(nightcall), "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(Path(tmp) / "rooms.sqlite3")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(base + "/", timeout=2) as page:
                        assert page.status == 200 and b"<html" in page.read().lower()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        out = server.stdout.read() if server.stdout else ""
                        print(f"nightcall serve did not answer:\n{out}")
                        return 1
                    time.sleep(0.2)
            request = urllib.request.Request(
                base + "/api/rooms", data=json.dumps({"ruleset": "onuw"}).encode(),
                headers={"Content-Type": "application/json", "Origin": base}, method="POST")
            with urllib.request.urlopen(request, timeout=5) as answer:
                room = json.loads(answer.read())
            print(f"plain install: nightcall serve answered and made room {room.get('room')}")
            return 0
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
