"""A real nginx for the tests, on the shipped configuration (deploy/nginx*.conf).

The shipped file is written for Debian's /etc/nginx/conf.d/; here it is included in a
small main configuration whose every path is in a temporary directory, its ports
replaced by free loopback ones: no root, nothing outside the test's directory.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import httpx
from processes import ProcessGroups, wait_ready
from prochelpers import stop

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                  else None)


def site(text: str, listen: dict[int, int], upstreams: list[int],
         replace: dict[str, str] | None = None) -> str:
    """The shipped site file with its ports moved: ``listen`` maps each shipped port
    (80, 443) to a free one, on loopback; the upstream lists ``upstreams``."""
    text = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", text)
    text = re.sub(r"listen (\d+)( ssl)?;",
                  lambda m: f"listen 127.0.0.1:{listen[int(m.group(1))]}{m.group(2) or ''};",
                  text)
    shipped = re.search(r"\n    server \S+ ([^;]*);", text)
    params = f" {shipped.group(1)}" if shipped else ""  # (the shipped failover settings)
    servers = "".join(f"    server 127.0.0.1:{p}{params};\n" for p in upstreams)
    text, n = re.subn(r"(upstream nightcall \{\n(?:.*\n)*?)((?:    server .*\n)+)",
                      lambda m: m.group(1) + servers, text)
    assert n == 1, "the upstream block was not found"
    # 443 redirects carry the shipped port in the address: keep the test's.
    text = text.replace("https://$host$request_uri",
                        f"https://$host:{listen.get(443, 443)}$request_uri")
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def main_config(tmp: Path, site_file: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf would be, every path in ``tmp``."""
    temps = "\n".join(f"    {kind}_temp_path {tmp}/{kind};"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
{temps}
    include {site_file};
}}
"""


def answers(url: str) -> bool:
    """Whatever the status: something listens at ``url`` (else httpx raises)."""
    httpx.get(url, timeout=1, verify=False)
    return True


class Nginx:
    def __init__(self, tmp: Path, site_text: str, groups: ProcessGroups | None = None
                 ) -> None:
        if NGINX is None:
            raise RuntimeError("nginx not found")
        self.tmp = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        self.site = tmp / "nightcall.conf"
        self.site.write_text(site_text)
        self.conf = tmp / "nginx.conf"
        self.conf.write_text(main_config(tmp, self.site))
        self.proc: subprocess.Popen[bytes] | None = None
        self.groups = groups  # (then the test's finalizer kills it, master and workers)

    def command(self, *extra: str) -> list[str]:
        assert NGINX is not None
        return [NGINX, "-p", str(self.tmp), "-e", str(self.tmp / "error.log"),
                "-c", str(self.conf), *extra]

    def test(self) -> subprocess.CompletedProcess[str]:
        """``nginx -t``: the configuration parses and every file it names is there."""
        return subprocess.run(self.command("-t"), capture_output=True, text=True, timeout=30)

    def start(self, probe: str) -> None:
        if self.groups is not None:
            self.proc = self.groups.popen(self.command(), stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE)
        else:
            self.proc = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
        wait_ready(self.proc, "nginx", lambda: answers(probe), pause=0.05,
                   not_yet=(httpx.HTTPError,))

    def stop(self) -> None:
        stop(self.proc)
        self.proc = None
