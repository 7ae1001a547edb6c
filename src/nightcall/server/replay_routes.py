"""The HTTP side of the night replayed (issue 18, :mod:`nightcall.engine.replay_steps`).

``/replay/CODE`` and ``/replay`` are one page. It asks ``/api/rooms/CODE/replay`` for a
finished room (the room's record, written out and replayed from scratch, never the
room's memory), or posts a record file to ``/api/replay``; both answer the same steps.
A record the engine refuses gets 400 with the engine's reason, never a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from nightcall.engine.errors import NightcallError
from nightcall.engine.jsontype import JSONObject, as_object
from nightcall.engine.replay_steps import replay_steps
from nightcall.engine.ruleset import get_ruleset
from nightcall.engine.shapes import event_kinds, shapes_of
from nightcall.narration.render import Renderer
from nightcall.narration.telling import explained
from nightcall.server.guard import ORIGIN_REFUSED, Endpoint, Guards
from nightcall.server.hub import LANGUAGES, Hub
from nightcall.server.limits import lookup, refusal, too_many
from nightcall.server.ops import reader
from nightcall.server.room import Room, RoomError

log = logging.getLogger(__name__)


def _json(data: object, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status, media_type="application/json")


def bad_record(message: str) -> Response:
    return _json({"code": "bad_record", "message": message}, 400)


def steps_of(record: object, lang: str = "en") -> JSONObject:
    """The replay with its role names and sentences in ``lang`` (the page asks for its
    language, and again when it switches).

    Raises NightcallError for a record the engine refuses; anything else a hostile
    record can provoke inside a ruleset is a refusal too (ValueError)."""
    from nightcall.server.narration import role_name

    if not isinstance(record, dict):
        raise ValueError("a game record is a JSON object")
    try:
        out = replay_steps(record)
    except NightcallError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # a JSON shape no check of the readers foresaw: refused, and logged for us
        log.warning("a record could not be replayed", exc_info=True)
        raise ValueError(f"this record cannot be replayed ({type(exc).__name__})") from None
    rid = str(out["ruleset"])
    roles = get_ruleset(rid).role_ids
    out["role_names"] = {lang: {r: role_name(rid, r, lang) for r in roles}}
    tell(out, lang)
    out["outcome"] = explained(as_object(out["outcome"], "the outcome"), lang)
    out["language"] = lang
    return out


def tell(out: dict[str, Any], lang: str) -> None:
    """Each step's sentence in ``lang``, as the one renderer tells it to each seat that
    saw it during play (``said[lang][str(seat)]``) and to nobody in particular
    (``said[lang][""]``, unless one seat alone saw it); and each night call's sentence
    (``calls[lang][call]``). Only the language asked: the page asks again when it
    switches. The replay opens only after the end, when every secret is public."""
    rid, players, deck = out["ruleset"], out["players"], out["start"]["cards"]
    # The field a call event names its step in ("role" in One Night and Lupus, "call" in
    # Epic), as the ruleset's own shape of it says.
    field = "role" if "role" in event_kinds(shapes_of(get_ruleset(rid))[0])["call"
                                                                          ].__struct_fields__ \
        else "call"
    public = Renderer(rid, players, None, lang, deck)
    by_seat: dict[int, Renderer] = {}
    calls: dict[str, str | None] = {}
    for step in out["steps"]:
        call = step["call"]
        if call is not None and call not in calls:
            calls[call] = public.event({"kind": "call", field: call})
        event = step["event"] or {"kind": "call", field: call}
        seats = step["seen_by"] if isinstance(step["seen_by"], list) else []
        told: dict[str, str | None] = {} if len(seats) == 1 else {"": public.event(event)}
        for seat in seats:
            if seat not in by_seat:
                by_seat[seat] = Renderer(rid, players, seat, lang, deck)
            told[str(seat)] = by_seat[seat].event(event)
        step["said"] = {lang: told}
    out["calls"] = {lang: calls}


def language_of(request: Request, default: str = "en") -> str | Response:
    """The language the page asks for (``?lang=``), or the refusal of one we lack."""
    lang = request.query_params.get("lang") or default
    if lang not in LANGUAGES:
        return _json({"code": "bad_language", "message": f"no replay in {lang!r}: "
                      f"ask for one of {', '.join(LANGUAGES)}"}, 400)
    return lang



async def replay_record(request: Request) -> Response:
    """POST a record (a file dropped on the page): its replay (the check's sentences in
    ``?lang=``, English by default), or 400 with the reason."""
    guards: Guards = request.app.state.guards
    if not guards.origin_ok(request):
        return _json({"code": "bad_origin", "message": ORIGIN_REFUSED}, 403)
    lang = language_of(request)
    if not isinstance(lang, str):
        return lang
    refused = too_many(request)
    if refused is not None:
        return refused
    try:
        record = msgspec.json.decode(await request.body())
    except msgspec.DecodeError as exc:
        return bad_record(f"not valid JSON ({exc})")
    if isinstance(record, dict) and isinstance(record.get("record"), dict):
        record = record["record"]  # a saved game with its outcome (tests/records)
    try:
        return _json(await run_in_threadpool(steps_of, record, lang))
    except (NightcallError, ValueError) as exc:
        return bad_record(str(exc))


async def room_of(request: Request) -> Room | Response:
    """The room the URL names, or the refusal to send (no such room, too many asks)."""
    hub: Hub = request.app.state.hub
    try:
        return lookup(request, await reader(hub, request))
    except RoomError as exc:
        return refusal(exc)


async def ended_room(request: Request, what: str) -> Room | Response:
    """The room the URL names if its game is over: before that its record (and so
    ``what`` is made of it) holds every secret, and is refused."""
    room = await room_of(request)
    if isinstance(room, Room) and room.status != "over":
        return _json({"code": "not_over", "message": f"the {what} opens at the end"}, 403)
    return room


async def room_replay(request: Request) -> Response:
    """A finished room's replay, from its record."""
    room = await ended_room(request, "replay")
    if not isinstance(room, Room):
        return room
    lang = language_of(request, room.settings.language)
    if not isinstance(lang, str):
        return lang
    refused = too_many(request)
    if refused is not None:
        return refused
    record = room.ruleset.to_record(room.state)
    try:
        out = await run_in_threadpool(steps_of, record, lang)
    except (NightcallError, ValueError) as exc:  # (a room's own record replays: a bug)
        log.error("room %s: its record does not replay: %s", room.code, exc)
        return bad_record(str(exc))
    out["room"] = room.code
    return _json(out)


def replay_routes(page: Callable[[str], Endpoint]) -> list[Route]:
    return [
        Route("/replay", page("replay.html")),
        Route("/replay/{code}", page("replay.html")),
        Route("/api/replay", replay_record, methods=["POST"]),
        Route("/api/rooms/{code}/replay", room_replay),
    ]
