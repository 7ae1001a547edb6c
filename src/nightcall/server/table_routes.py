"""The HTTP side of a table's history (issue 20, :mod:`.tables`): its page, its numbers,
its exports, and the host's merges and deletions.

Nothing lists tables: each answer needs the table's token, and a wrong token gets the
same 404 as a deleted table. Wrong tokens and wrong host keys count against the
address's wrong-token limit (limits.TokenGuard); past it, a wrong one gets 429.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from nightcall.history import table_csv, table_stats
from nightcall.server.guard import ORIGIN_REFUSED, Guards
from nightcall.server.hub import Hub
from nightcall.server.limits import TokenGuard, address, lookup
from nightcall.server.messages import TableToken
from nightcall.server.ops import finder
from nightcall.server.pipeline import SlowDown
from nightcall.server.room import Room, RoomError, same_token
from nightcall.server.tables import TableError, Tables

KEY_HEADER = "x-table-key"  # the host's key, never in a URL (URLs end up in logs)
PRIVATE = {"Cache-Control": "no-store"}
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    language: str = "en"


class Merge(msgspec.Struct, forbid_unknown_fields=True, rename={"spelling": "from"}):
    """``from`` is the same player as ``into``: every game of ``from`` counts for ``into``."""

    spelling: Name
    into: Name


class LinkRoom(msgspec.Struct, forbid_unknown_fields=True):
    """The host screen keeps this room's games at a table (or, with null, no more)."""

    host_token: Annotated[str, msgspec.Meta(max_length=128)]
    table: TableToken | None


def _json(data: object, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status, PRIVATE, media_type="application/json")


def _tables(request: Request) -> Tables:
    hub: Hub = request.app.state.hub
    if hub.tables is None:
        raise TableError("no_tables", "this server's store keeps no tables")
    return hub.tables


def _refused(request: Request, exc: TableError | RoomError) -> Response:
    """A refusal; a wrong token or key is counted, and past the limit slowed down."""
    status = {"no_table": 404, "not_host": 403, "no_game": 404, "no_player": 400,
              "same_player": 400, "no_tables": 404, "bad_token": 403,
              "no_room": 404, "unavailable": 503}.get(exc.code, 400)
    if exc.code in ("no_table", "not_host", "bad_token"):
        guard: TokenGuard = request.app.state.tokens
        wait = guard.addresses.wait(address(request))
        guard.wrong(address(request))
        if wait > 0:
            slow = SlowDown(f"too many wrong tokens from your address: try again in {wait} s",
                            wait)
            return Response(msgspec.json.encode({"code": slow.code, "message": slow.message}),
                            429, {"Retry-After": str(math.ceil(slow.retry_after)), **PRIVATE},
                            media_type="application/json")
    return _json({"code": exc.code, "message": exc.message}, status)


def _bad(exc: Exception) -> Response:
    return _json({"code": "bad_message", "message": str(exc)}, 400)


def _origin_refused(request: Request) -> Response | None:
    guards: Guards = request.app.state.guards
    if guards.origin_ok(request):
        return None
    return _json({"code": "bad_origin", "message": ORIGIN_REFUSED}, 403)


def _token(request: Request) -> str:
    return str(request.path_params["token"])


async def create_table(request: Request) -> Response:
    refused = _origin_refused(request)
    if refused is not None:
        return refused
    try:
        body = await request.body()
        asked = msgspec.json.decode(body, type=NewTable) if body else NewTable()
        request.app.state.creations.take(address(request))
        tables = _tables(request)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _bad(exc)
    except SlowDown as exc:
        return Response(msgspec.json.encode({"code": exc.code, "message": exc.message}), 429,
                        {"Retry-After": str(math.ceil(exc.retry_after))},
                        media_type="application/json")
    except TableError as exc:
        return _refused(request, exc)
    language = asked.language if asked.language in ("en", "it", "de") else "en"
    token, key = tables.create(language)
    return _json({"token": token, "key": key, "url": f"/t/{token}"}, 201)


def _summary(tables: Tables, token: str) -> dict[str, Any]:
    meta = tables.meta(token)
    games = tables.games(token)
    aliases = dict(meta.get("aliases") or {})
    language = games[-1].get("language") if games else meta.get("language")
    return {"language": language or "en", "created": meta.get("created"),
            "aliases": aliases, "stats": table_stats(games, aliases)}


async def table_info(request: Request) -> Response:
    try:
        tables = _tables(request)
        data = await run_in_threadpool(_summary, tables, _token(request))
    except TableError as exc:
        return _refused(request, exc)
    return _json(data)


def _csv(tables: Tables, token: str) -> str:
    meta = tables.meta(token)
    return table_csv(tables.games(token), meta.get("aliases") or {})


async def table_csv_export(request: Request) -> Response:
    try:
        text = await run_in_threadpool(_csv, _tables(request), _token(request))
    except TableError as exc:
        return _refused(request, exc)
    return Response(text, 200, {
        "Content-Disposition": 'attachment; filename="nightcall-table.csv"', **PRIVATE,
    }, media_type="text/csv; charset=utf-8")


async def table_records(request: Request) -> Response:
    """Every game as the table keeps it: the game record, the names, who won."""
    try:
        tables = _tables(request)
        games = await run_in_threadpool(tables.games, _token(request))
    except TableError as exc:
        return _refused(request, exc)
    return Response(msgspec.json.encode({"games": games}), 200, {
        "Content-Disposition": 'attachment; filename="nightcall-table-records.json"',
        **PRIVATE}, media_type="application/json")


async def table_merge(request: Request) -> Response:
    refused = _origin_refused(request)
    if refused is not None:
        return refused
    try:
        merge = msgspec.json.decode(await request.body(), type=Merge)
        aliases = _tables(request).merge(_token(request), request.headers.get(KEY_HEADER),
                                         merge.spelling.strip(), merge.into.strip())
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _bad(exc)
    except TableError as exc:
        return _refused(request, exc)
    return _json({"aliases": aliases})


async def table_delete_game(request: Request) -> Response:
    refused = _origin_refused(request)
    if refused is not None:
        return refused
    try:
        _tables(request).delete_game(_token(request), request.headers.get(KEY_HEADER),
                                     str(request.path_params["game"]))
    except TableError as exc:
        return _refused(request, exc)
    return Response(status_code=204, headers=PRIVATE)


async def table_delete(request: Request) -> Response:
    refused = _origin_refused(request)
    if refused is not None:
        return refused
    try:
        _tables(request).delete(_token(request), request.headers.get(KEY_HEADER))
    except TableError as exc:
        return _refused(request, exc)
    return Response(status_code=204, headers=PRIVATE)


async def link_room(request: Request) -> Response:
    """POST /api/rooms/CODE/table from the host screen: keep this room's games at a table
    (a game already over is kept at once). Any process may be asked: a room another
    one serves is changed there (Node.link_table), and the answer waits for its save."""
    refused = _origin_refused(request)
    if refused is not None:
        return refused
    hub: Hub = request.app.state.hub
    try:
        link = msgspec.json.decode(await request.body(), type=LinkRoom)
        found = lookup(request, await finder(hub, request))  # (through the guessing limit)
        host_token = found.host_token if isinstance(found, Room) else \
            str((found.doc or {}).get("host_token", ""))
        if not same_token(host_token, link.host_token):
            raise RoomError("bad_token", "only the host's screen can do that")
        tables = _tables(request)
        if link.table is not None and not await run_in_threadpool(tables.exists, link.table):
            raise TableError("no_table", "there is no such table (it may have been deleted)")
        if isinstance(found, Room):
            hub.link_table(found, link.table)
        else:
            assert hub.node is not None
            if not await hub.node.link_table(found, link.host_token, link.table):
                raise RoomError("unavailable", "the room is changing hands: try again in a "
                                               "moment")
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return _bad(exc)
    except (TableError, RoomError) as exc:
        return _refused(request, exc)
    return _json({"room": found.code, "table": link.table is not None})


def table_routes() -> list[Route]:
    return [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{token}", table_info, methods=["GET"]),
        Route("/api/tables/{token}", table_delete, methods=["DELETE"]),
        Route("/api/tables/{token}/games.csv", table_csv_export),
        Route("/api/tables/{token}/records.json", table_records),
        Route("/api/tables/{token}/merge", table_merge, methods=["POST"]),
        Route("/api/tables/{token}/games/{game}", table_delete_game, methods=["DELETE"]),
        Route("/api/rooms/{code}/table", link_room, methods=["POST"]),
    ]
