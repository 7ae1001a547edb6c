"""The app's pages: one shared head (web/head.html) and, per page, only what differs.

A page file (web/play.html, ...) is the rest of its head (its title, its own style
sheets, a meta of its own) and then its ``<body>``; the server wraps it in the shared
head and the closing tags. A ``<meta name="...">`` in the page replaces the shared one
of that name (the phone's viewport covers the whole screen). A line
``<!--#include parts/NAME.html-->`` stands for that file: what two pages share (the
host's screen is the spectator's with the host's controls). The pages are read at each
request, so an edited page shows at the next reload, and answered with an ETag so that
a browser revalidating (``no-cache``) gets a 304 instead of the page again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

HEAD = "head.html"
_META = re.compile(r'<meta name="([^"]+)"')
_INCLUDE = re.compile(r"^<!--#include (parts/[\w-]+\.html)-->\n", re.M)


def web_dir() -> Path:
    return Path(str(resources.files("nightcall").joinpath("web")))


def render(name: str) -> str:
    """The whole page ``name``: the shared head, less the metas the page gives itself,
    then the page with its parts included."""
    own = _INCLUDE.sub(lambda m: (web_dir() / m[1]).read_text(encoding="utf-8"),
                       (web_dir() / name).read_text(encoding="utf-8"))
    own_head, body = own.split("<body", 1)
    mine = set(_META.findall(own_head))
    head = [line for line in (web_dir() / HEAD).read_text(encoding="utf-8").splitlines(True)
            if not (m := _META.match(line)) or m.group(1) not in mine]
    return f"{''.join(head)}{own_head}</head>\n<body{body}</html>\n"


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        body = render(name).encode()
        etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
        headers = {"Cache-Control": "no-cache", "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return HTMLResponse(body, headers=headers)

    return endpoint
