"""The JSON API of the browser's table mode (``/table``, narration/tablemode.py).

Three POST endpoints, each a pure function of its request: the setup of a table
(deck, 52-card pulls, night order, warnings, the script), the judge at the end of a
One Night or Epic game, and the game master (Lupus) replayed from the answers so far.
Nothing is stored. A page of another site is refused (403, as room creation is); a bad
request gets 400 with ``{"code", "message"}``, the message
in the request's language where the rules give one; never a 500.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from nightcall.narration import tablemode
from nightcall.server.guard import ORIGIN_REFUSED, Endpoint, Guards
from nightcall.server.limits import too_many


def _json(data: object, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status,
                    media_type="application/json", headers={"Cache-Control": "no-store"})


def _endpoint(work: Callable[[Any], dict[str, Any]]) -> Endpoint:
    async def endpoint(request: Request) -> Response:
        guards: Guards = request.app.state.guards
        if not guards.origin_ok(request):  # another site's page may not use this server
            return _json({"code": "bad_origin", "message": ORIGIN_REFUSED}, 403)
        refused = too_many(request)
        if refused is not None:
            return refused
        try:
            body = msgspec.json.decode(await request.body())
        except msgspec.DecodeError as exc:
            return _json({"code": "bad_message", "message": f"the body is not JSON: {exc}"},
                         400)
        try:
            # (a Lupus replay is a few milliseconds of CPU: off the event loop)
            return _json(await run_in_threadpool(work, body))
        except tablemode.TableModeError as exc:
            return _json({"code": "refused", "message": str(exc)}, 400)

    return endpoint


def narrator_routes() -> list[Route]:
    return [
        Route("/api/narrator/setup", _endpoint(tablemode.setup), methods=["POST"]),
        Route("/api/narrator/judge", _endpoint(tablemode.judge), methods=["POST"]),
        Route("/api/narrator/master", _endpoint(tablemode.master), methods=["POST"]),
    ]
