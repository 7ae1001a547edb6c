"""What the web app checks of every request before any endpoint sees it: the size of
the body, where a state-changing request comes from (``Origin``), and the headers
every page goes out with.

Cross-site: a page on another site can make a visitor's browser open our websocket
or POST a room, with the visitor's network position (a LAN server is reachable from
any page a player opens). Browsers always send ``Origin`` on websockets and on
cross-site POSTs, so a request whose ``Origin`` is not ours is refused. Ours are the
public URL's origin, those given with ``--allow-origin``, and the page's own origin
when the page was reached by an IP address or ``localhost`` (a site can point its own
*name* at our address, DNS rebinding, but not make a browser believe it is
``http://192.168.1.5:8000``). Requests without ``Origin`` are not from a page (agents,
scripts): they pass.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect

# What sending on (or closing) a socket the client has left raises: Starlette's
# WebSocketDisconnect, its RuntimeError once the socket is closed, and the server's
# OSError (uvicorn's ClientDisconnected). The reader notices and cleans up.
SOCKET_GONE = (WebSocketDisconnect, RuntimeError, OSError)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# A Starlette endpoint (what a Route calls).
Endpoint = Callable[[Request], Awaitable[Response]]

# The biggest body any endpoint reads: a room's settings are a few hundred bytes.
MAX_BODY = 16 * 1024

# Only the app's own files: no inline script or style, no other site, no frames.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; media-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # (frame-ancestors, for browsers without CSP 2)
]
ORIGIN_REFUSED = ("this server does not take requests from pages of another site "
                  "(start it with --allow-origin to allow one)")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower case, default ports left out."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if not scheme or not host:
        return ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        return ""
    if port is None or (scheme, port) in (("http", 80), ("https", 443), ("ws", 80),
                                          ("wss", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _literal_host(host: str) -> bool:
    """An IP address or localhost: a name no other site can point at us."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Guards:
    """The app's own origins (public URL and ``--allow-origin``)."""

    origins: frozenset[str]

    @classmethod
    def of(cls, public_url: str, allow_origins: tuple[str, ...] | list[str] = ()) -> Guards:
        found = {origin_of(u) for u in (public_url, *allow_origins)}
        return cls(frozenset(o for o in found if o))

    def origin_ok(self, conn: HTTPConnection) -> bool:
        origin = conn.headers.get("origin")
        if origin is None:
            return True  # not sent by a page: an agent, a script, a test client
        given = origin_of(origin)
        if given and given in self.origins:
            return True
        # The page's own origin, when it was reached by an address rather than a name.
        host = urlsplit(f"//{conn.headers.get('host', '')}").hostname or ""
        scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
        own = origin_of(f"{scheme}://{conn.headers.get('host', '')}")
        return bool(given) and given == own and _literal_host(host)


def server_base(conn: HTTPConnection) -> str:
    """The address this server listens on, as the connection reached it (the socket's
    own address, never the Host header a client may set to anything)."""
    server = conn.scope.get("server")
    if not server or server[0] is None:
        return ""
    host, port = str(server[0]), server[1]
    if ":" in host:
        host = f"[{host}]"
    scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
    return origin_of(f"{scheme}://{host}" + (f":{port}" if port else ""))


BODY = "nightcall.body"


class SecurityHeaders:
    """ASGI middleware for every HTTP request: the body read whole up to
    :data:`MAX_BODY` (past it, 413 before any endpoint runs), and the security
    headers on every response."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in SECURITY_HEADERS if h[0] not in names)]
            await send(message)

        declared = dict(scope.get("headers", [])).get(b"content-length")
        too_long = declared is not None and (not declared.isdigit()
                                             or int(declared) > self.max_body)
        chunks: list[bytes] = []
        size = 0
        while not too_long:
            message = await receive()
            if message["type"] != "http.request":
                break  # (the client left: the endpoint's next receive sees it too)
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            too_long = size > self.max_body
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        if too_long:
            body = msgspec.json.encode({
                "code": "too_long",
                "message": f"a request body has at most {self.max_body} bytes"})
            await send_with_headers({"type": "http.response.start", "status": 413,
                                     "headers": [(b"content-type", b"application/json"),
                                                 (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})
            return
        scope[BODY] = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": scope[BODY], "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


__all__ = ["CSP", "MAX_BODY", "ORIGIN_REFUSED", "Guards", "SecurityHeaders",
           "origin_of", "server_base"]
