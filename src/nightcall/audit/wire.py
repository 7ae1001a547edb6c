"""The leak audit on the wire: real rooms on a real uvicorn server (loopback), every seat
and a spectator a websocket client that plays random legal moves (most seats through the
browser socket, some through the agent protocol's socket), and every message each client
receives checked against the rules' knowledge model at the moment it was sent.

To know "the moment", the audit watches the server without changing it: while a room
broadcasts it notes how many moves the room has applied, and each websocket send is
tagged with that count (the i-th message a client receives is the i-th send to its
socket, and the audit checks they are byte for byte the same). After the game the deal
and the moves are replayed through the knowledge model, and each message is checked
against the model as it stood after that many moves.

The room's game runs on the engine's clock (each call held open until the timer's
end_call), so the replay deals on the same clock and follows every end_call, the silent
seats' defaults one by one: each message must show exactly what the model says its
viewer knows at that moment, no more and no less. Seat tokens and the host token must
never reach another client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from nightcall.audit.core import AuditResult, Finding, Model, Viewer, model_for
from nightcall.engine.actions import Action
from nightcall.engine.clock import END_CALL
from nightcall.engine.ruleset import PackVote, Rules, Ruleset

if TYPE_CHECKING:  # (the server is imported when a run starts, not with the audit)
    from nightcall.server.app import WsSink
    from nightcall.server.hub import Hub
    from nightcall.server.room import Room
    from nightcall.server.store import Store

S = TypeVar("S")

OBSERVATION_KEYS = {"type", "room", "state_id", "view", "clock", "timeline", "said"}
AGENT_KEYS = {"observation": {"type", "seat", "state_id", "view", "talk", "mask"},
              "game_over": {"type", "seat", "state_id", "view", "won"}}
SEATED = ("player", "agent")


def _has_view(text: str) -> bool:
    """An observation (browser or agent) or an agent's game_over: a message with a view."""
    head = text[:40]
    return '"observation"' in head or '"game_over"' in head
CLOCK_KEYS = {"stage", "call", "night", "ends_at", "seconds", "narration"}
# A fast round's countdown: its floor (40 %) leaves every client time to answer.
FAST_ROUND_SECONDS = 0.5
# Timers in seconds: short, but long enough for a loopback round trip.
FAST = {"call_seconds": 0.03, "discussion_seconds": 0.02, "vote_seconds": 0.3,
        "defense_seconds": 0.02}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class SinkLog:
    role: str
    viewer: int | None
    room: str | None = None
    sent: list[tuple[int | None, str]] = field(default_factory=list)


class SendTap:
    """Tags every websocket send with the sending room's move count (see module doc)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.logs: dict[int, SinkLog] = {}
        self._current: tuple[str, int] | None = None

    @contextlib.contextmanager
    def installed(self) -> Iterator[SendTap]:
        from nightcall.server import app as app_mod
        from nightcall.server import room as room_mod

        tap = self
        sink_cls = app_mod.WsSink
        room_cls = room_mod.Room
        send, broadcast = sink_cls.send, room_cls.broadcast

        def tagged_broadcast(room: Room) -> None:
            outer = tap._current
            tap._current = (room.code, len(room.actions))
            try:
                broadcast(room)
            finally:
                tap._current = outer

        def tagged_send(sink: WsSink, data: bytes) -> None:
            with tap.lock:
                log = tap.logs.setdefault(id(sink), SinkLog(sink.role, sink.viewer))
                log.viewer = sink.viewer
                step = None
                if tap._current is not None:
                    log.room, step = tap._current
                log.sent.append((step, data.decode()))
            send(sink, data)

        # (the audit taps the real classes for the length of one run: every message
        # any socket gets, tagged with the room and step it was sent at)
        sink_cls.send, room_cls.broadcast = tagged_send, tagged_broadcast  # type: ignore[method-assign,assignment]
        try:
            yield self
        finally:
            sink_cls.send, room_cls.broadcast = send, broadcast  # type: ignore[method-assign]

    def log_of(self, room: str, role: str, viewer: int | None) -> SinkLog | None:
        with self.lock:
            for log in self.logs.values():
                if log.room == room and log.role == role and log.viewer == viewer:
                    return log
        return None


class LiveServer:
    """The real app under uvicorn in a thread of this process, on a loopback port."""

    def __init__(self, store: Store) -> None:
        import uvicorn

        from nightcall.server.app import create_app

        self.app = create_app(store)
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(20)


@dataclass
class Client:
    role: str
    viewer: int | None
    got: list[str] = field(default_factory=list)
    refused: int = 0


async def _client(url: str, hello: dict[str, Any] | None, client: Client,
                  rng: random.Random, done: asyncio.Event,
                  on_welcome: Callable[[dict[str, Any]], None],
                  start: asyncio.Event | None = None) -> None:
    """Reads everything; a player or agent answers its observations with a random legal
    move; the host's screen sends ``start`` once ``start`` is set, as a click would.
    An agent (``hello`` None) takes its seat with ``?name=`` in the URL."""
    import websockets

    async with websockets.connect(url, max_size=2**22) as ws:
        if hello is not None:
            await ws.send(json.dumps(hello))
        while True:
            if start is not None and start.is_set():
                await ws.send(json.dumps({"type": "start"}))
                start = None
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.05)
            except TimeoutError:
                if done.is_set():
                    return
                continue
            text = raw if isinstance(raw, str) else raw.decode()
            client.got.append(text)
            msg = json.loads(text)
            if msg.get("type") == "welcome":
                client.viewer = msg.get("seat")
                on_welcome(msg)
            elif msg.get("type") == "error":
                client.refused += 1
            elif msg.get("type") == "observation" and client.role in ("player", "agent"):
                legal = msg["view"].get("legal") or []
                if legal and rng.random() < 0.9:
                    await asyncio.sleep(rng.uniform(0, 0.003))
                    await ws.send(json.dumps({"type": "action", "action": rng.choice(legal),
                                              "state_id": msg["state_id"]}))


async def play_room(base: str, hub: Hub, tap: SendTap, ruleset: str, players: int, seed: int,
                    scenario: str | None = None, agents: float = 0.25, fast: bool = False,
                    ) -> tuple[str, list[Client], list[str]]:
    """One room, every seat a websocket client; returns the code, clients and tokens.
    ``fast``: the room plays the fast night (server/fast.py)."""
    import httpx

    rng = random.Random(seed)
    body: dict[str, Any] = {"ruleset": ruleset, "seats": players, **FAST}
    if fast:
        body |= {"fast_night": True, "fast_seconds": FAST_ROUND_SECONDS}
    if scenario is not None:
        body["scenario"] = scenario
    async with httpx.AsyncClient() as http:
        r = await http.post(f"http://{base}/api/rooms", json=body)
        r.raise_for_status()
        created = r.json()
    code, host_token = created["room"], created["host_token"]
    url = f"ws://{base}/ws/{code}"
    done = asyncio.Event()
    tokens: list[str] = [host_token]
    # A phone in most seats; an agent (the agent protocol's socket) in some.
    clients = [Client("agent" if rng.random() < agents else "player", None)
               for _ in range(players)]
    spectator, host = Client("spectator", None), Client("host", None)

    def on_welcome(msg: dict[str, Any]) -> None:
        if msg.get("token"):
            tokens.append(msg["token"])

    tasks = [asyncio.create_task(_client(
        f"{url}/agent?name=P{i}" if c.role == "agent" else url,
        None if c.role == "agent" else {"type": "hello", "as": "player", "name": f"P{i}"},
        c, random.Random(seed + i), done, on_welcome)) for i, c in enumerate(clients)]
    # Phones are welcomed at once; an agent only once the cards are dealt, so wait
    # for every seat to be taken instead.
    deadline = time.monotonic() + 20
    while len(hub.rooms[code].seats) < players:
        if time.monotonic() > deadline:
            raise RuntimeError(f"room {code}: the seats were not all taken")
        await asyncio.sleep(0.01)
    tasks.append(asyncio.create_task(_client(url, {"type": "hello", "as": "spectator"},
                                             spectator, rng, done, lambda m: None)))
    start = asyncio.Event()
    tasks.append(asyncio.create_task(_client(url, {"type": "hello", "as": "host",
                                                   "token": host_token},
                                             host, rng, done, lambda m: None, start)))
    await asyncio.sleep(0.1)
    start.set()
    room = hub.rooms[code]
    deadline = time.monotonic() + 300
    while room.status != "over":
        if time.monotonic() > deadline:
            raise RuntimeError(f"room {code} did not finish")
        await asyncio.sleep(0.02)
    everyone = [*clients, spectator, host]
    await _drain(tap, code, everyone)
    done.set()
    await asyncio.gather(*tasks)
    return code, everyone, tokens


async def _drain(tap: SendTap, code: str, clients: list[Client], limit: float = 30) -> None:
    """Wait until every client has read every observation the server sent it, and the
    server has sent nothing new for a moment (on a busy machine the last observations
    and the agents' game_over can still be on their way when the room says "over")."""
    deadline = time.monotonic() + limit
    before = -1
    while time.monotonic() < deadline:
        behind, total = False, 0
        for c in clients:
            log = tap.log_of(code, c.role, c.viewer if c.role in SEATED else None)
            with tap.lock:
                sent = list(log.sent) if log is not None else []
            total += len(sent)
            last = max((i for i, (_, t) in enumerate(sent) if _has_view(t)), default=-1)
            behind = behind or len(c.got) <= last
        if not behind and total == before:
            return
        before = total
        await asyncio.sleep(0.2)


def check_room(result: AuditResult, tap: SendTap, hub: Hub, code: str, clients: list[Client],
               tokens: list[str]) -> None:
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.server.room import clock_seed

    room = hub.rooms[code]
    rs = get_ruleset(room.ruleset.id)
    label = f"wire {rs.id} p={len(room.seats)} seed={room.seed}"

    def find(step: int, viewer: Viewer, what: str, kind: str = "leak") -> None:
        result.findings.append(Finding(kind, rs.id, label, step, viewer, what))

    # Which messages, tagged with the move count they were sent at.
    by_step: dict[int, list[tuple[Viewer, dict[str, Any], str]]] = {}
    for c in clients:
        log = tap.log_of(code, c.role, c.viewer if c.role in SEATED else None)
        if log is None:
            find(0, c.viewer, f"no send log for the {c.role} client", "missing")
            continue
        sent = [text for _, text in log.sent]
        # After the game the clients hang up, and each goodbye re-sends the lobby to the
        # others; a late move is refused: only those may be missing at the end.
        unread = {json.loads(t).get("type") for t in sent[len(c.got):]}
        if c.got != sent[: len(c.got)] or unread - {"lobby", "error"}:
            find(0, c.viewer, f"{c.role}: received {len(c.got)} messages, the server sent "
                              f"{len(sent)}: {sorted(map(str, unread))} not received",
                 "missing")
        own = {c.role == "host" and tokens[0], *(
            [t for t in tokens[1:] if c.role == "player"
             and json.loads(c.got[0]).get("token") == t][:1])} - {False}
        if c.role == "agent":
            own = set()  # an agent that brings no token of its own is given none
        for text in c.got:
            for t in tokens:
                if t not in own and t in text:
                    find(0, c.viewer, f"{c.role} received another client's secret token")
        for (step, _), text in zip(log.sent, c.got, strict=False):
            msg = json.loads(text)
            if "view" not in msg:
                continue
            result.messages += 1
            viewer = c.viewer if c.role in SEATED else None
            by_step.setdefault(step if step is not None else -1, []).append(
                (viewer, msg, c.role))

    fast = room.settings.fast_night
    for c in clients:
        if c.role != "agent":  # an agent hears only its own turns
            rhythm = _fast_rhythm(c) if fast else _night_rhythm(rs, room.roles, c)
            for problem in rhythm:
                find(0, c.viewer if c.role == "player" else None, problem)
    if fast:
        for problem in _fast_widths([c for c in clients if c.role == "player"]):
            find(0, None, problem)

    names = [s.name for s in room.seats]
    # The room's game on the room's clock: each call held open until an end_call.
    state = rs.deal(names, room.roles, room.seed, room.settings.options,
                    clock=clock_seed(room.seed))
    model = model_for(rs.id)(state)

    def watched(seat: int, action: Action) -> None:
        before = model.snapshot(state)
        rs.apply(state, seat, action)
        model.step(seat, action, before, state)
        result.actions += 1

    steps = len(room.actions)
    rounds: dict[int, tuple[Any, list[tuple[int, Action]]]] = {}
    for j in range(steps + 1):
        for viewer, msg, role in by_step.get(j, []):
            problems = _envelope(msg, model, role)
            view = msg["view"]
            if role != "agent":  # (an agent's messages carry no sentences)
                problems += _check_said(room.ruleset.id, room.settings.language, room.roles,
                                        viewer, msg)
            if "fast" in view and viewer is not None:
                if j not in rounds:
                    rounds[j] = _round_from(rs, state, room.actions[j:])
                problems += _check_task(rs, state, viewer, view, *rounds[j])
                view = {k: v for k, v in view.items() if k not in ("fast", "legal")}
                view["legal"] = [a.to_json() for a in rs.legal_actions(state, viewer)
                                 ] if rs.waiting_for(state) else []
            problems += [p for kind, p in model.check(viewer, view) if kind == "leak"]
            for p in problems:
                if len(result.findings) < 200:
                    find(j, viewer, p)
        if j < steps:
            seat, action = room.actions[j]
            if action == END_CALL:  # the timer: the model sees each silent seat's default
                rs.end_call(state, watched)
                model.master_step("end_call", model.snapshot(state), state)
            else:
                watched(seat, Action(action.kind, action.a, action.b))
    if -1 in by_step:
        find(0, None, "observations sent outside any broadcast", "missing")


def _check_said(ruleset: str, lang: str, deck: list[str], viewer: Viewer,
                msg: dict[str, Any]) -> list[str]:
    """The sentences a page shows are the one renderer's for the events of the same
    message, which the model checks: a sentence that differs could tell something its
    events do not."""
    from nightcall.narration.render import Told

    view = msg["view"]
    told = Told(ruleset, view.get("players") or [], viewer, lang, deck)
    out = []
    if msg.get("said") != told(view.get("events") or []):
        out.append(f"the sentences {msg.get('said')} are not the view's events told")
    task = view.get("fast")
    if task is not None and task.get("said") != [told.tell(e) for e in task.get("seen") or []]:
        out.append(f"the fast glimpse's sentences {task.get('said')} are not its events told")
    return out


def _round_from(rs: Ruleset[S], state: S, actions: list[tuple[int, Action]]
                ) -> tuple[S, list[tuple[int, Action]]]:
    """The fast round open in ``state``, played on a copy with the room's next moves:
    the state at its end, and the moves it was resolved with."""
    import copy

    from nightcall.engine.fast import current_round

    calls = current_round(rs, state)
    end = copy.deepcopy(state)
    made: list[tuple[int, Action]] = []
    for seat, action in actions:
        if not calls or rs.open_call(end) not in calls:
            break
        rs.apply(end, seat, action)
        made.append((seat, action))
    return end, made


def _check_task(rs: Ruleset[S], state: S, seat: int, view: dict[str, Any], end: S,
                made: list[tuple[int, Action]]) -> list[str]:
    """A phone's fast task: the decoy, or its role's real choices at one of its stages
    (the engine's, given the picks the round was resolved with); and what its pick
    showed it is what its role saw that night."""
    from nightcall.engine.fast import choices, ghosts
    from nightcall.server.fast import NO_SECOND, SUSPECT

    legal = [Action.from_json(a) for a in view.get("legal") or []]
    mine = [a for s, a in made if s == seat]
    seats = range(len(view.get("players") or []))
    dead = ghosts(rs, state)  # (public: the decoy names the living, as real choices do)
    decoys: tuple[list[Action], ...] = (
        [Action(SUSPECT, s) for s in seats if s != seat and s not in dead], [NO_SECOND], [])
    stages = [list(choices(rs, state, seat, mine[:i])) for i in range(len(mine) + 1)]
    out = []
    if legal not in decoys and legal not in stages:
        out.append(f"fast task {[str(a) for a in legal]} is neither a decoy nor the "
                   "seat's own choices")
    night = rs.view(end, seat)["events"]
    out += [f"fast glimpse {e} is not what this seat saw" for e in
            view["fast"].get("seen", []) if e not in night]
    # The pack's picks go to the pack alone, and name only its members.
    kind = rs.pack_action if isinstance(rs, PackVote) else None
    pack = {s for s in range(len(view.get("players") or []))
            if any(a.kind == kind for a in choices(rs, state, s, []))}
    shown = view["fast"].get("pack_picks")
    if shown is not None and (seat not in pack or {int(s) for s in shown} - pack):
        out.append(f"the pack's picks {shown} shown to seat {seat}, outside the pack")
    return out


def _night_rhythm(rs: Rules, roles: list[str], c: Client) -> list[str]:
    """The narrator calls every role of the deck in order, wherever its card lies, and
    the calls of a night must reach every client the same way: one by one, all of them,
    and the spectator and the host's screen (no news of their own) exactly one message
    per call."""
    nights: dict[int, list[str]] = {}
    for text in c.got:
        msg = json.loads(text)
        if msg.get("type") == "observation" and msg["clock"]["stage"] == "night":
            nights.setdefault(msg["clock"]["night"], []).append(msg["clock"]["call"])
    out = []
    for night, calls in nights.items():
        want = list(rs.night_calls(roles, night))
        heard = [x for i, x in enumerate(calls) if i == 0 or calls[i - 1] != x]
        if heard != want:
            out.append(f"night {night}: the calls heard {heard} are not the deck's {want}")
        if c.role in ("spectator", "host") and calls != want:
            out.append(f"night {night}: the {c.role} got {len(calls)} night messages for "
                       f"{len(want)} calls (a message inside a call tells someone acted)")
    return out


def _fast_rhythm(c: Client) -> list[str]:
    """A fast room's night: the host's screen and the spectator get one message per
    round (one countdown), naming no call; a phone's frames in a round are its task,
    its second stage and its "done", in answer to its own taps, and nothing else."""
    out = []
    rounds: dict[tuple[object, object], list[dict[str, Any]]] = {}
    for text in c.got:
        msg = json.loads(text)
        if msg.get("type") == "observation" and msg["clock"]["stage"] == "night":
            rounds.setdefault((msg["clock"]["night"], msg["clock"]["ends_at"]), []).append(msg)
    for key, msgs in rounds.items():
        if any(m["clock"]["call"] is not None for m in msgs):
            out.append(f"round {key}: a fast round's clock names a call")
        if c.role in ("spectator", "host") and len(msgs) != 1:
            out.append(f"round {key}: the {c.role} got {len(msgs)} messages in one round")
        if c.role == "player":
            stages = [m["view"].get("fast", {}).get("stage") for m in msgs]
            if stages != sorted(stages) or len(stages) > 3:
                out.append(f"round {key}: the phone's stages came as {stages}")
    return out


def _fast_widths(phones: list[Client]) -> list[str]:
    """Every phone frame of a fast round has that round's one width (bytes count)."""
    widths: dict[tuple[object, object], set[int]] = {}
    for c in phones:
        for text in c.got:
            msg = json.loads(text)
            if msg.get("type") == "observation" and "fast" in msg.get("view", {}):
                key = (msg["clock"]["night"], msg["clock"]["ends_at"])
                widths.setdefault(key, set()).add(len(text.encode()))
    return [f"round {key}: phone frames of {sorted(w)} bytes (one width expected)"
            for key, w in widths.items() if len(w) > 1]


def _envelope(msg: dict[str, Any], model: Model, role: str) -> list[str]:
    if role == "agent":
        extra = set(msg) - AGENT_KEYS.get(msg.get("type", ""), set())
        if msg.get("type") == "game_over" and not model.over:
            return ["game_over sent before the game is over"]
        return [f"agent message carries unexpected fields {sorted(extra)}"] if extra else []
    out = []
    if set(msg) - OBSERVATION_KEYS:
        out.append(f"observation carries unexpected fields {sorted(set(msg) - OBSERVATION_KEYS)}")
    if set(msg.get("clock") or {}) - CLOCK_KEYS:
        out.append("the clock carries unexpected fields")
    if msg.get("timeline") is not None and not model.over:
        out.append("the master's account (timeline) sent before the game is over")
    return out


def run_wire_audit(store: Store, plan: list[tuple[str, int, str | None]], seed: int = 0,
                   parallel: int = 4, agents: float = 0.25, fast: bool = False) -> AuditResult:
    """Play ``plan`` (ruleset, players, scenario) rooms on a live server and check them;
    ``agents`` is the share of seats played through the agent protocol's socket;
    ``fast``: the rooms play the fast night."""
    result = AuditResult()
    started = time.perf_counter()
    tap = SendTap()
    with tap.installed(), LiveServer(store) as live:
        base = f"127.0.0.1:{live.port}"

        async def main() -> None:
            for i in range(0, len(plan), parallel):
                batch = plan[i:i + parallel]
                rooms = await asyncio.gather(*(
                    play_room(base, live.hub, tap, rid, players, seed * 1000 + i + k, scenario,
                              agents, fast)
                    for k, (rid, players, scenario) in enumerate(batch)))
                for code, clients, tokens in rooms:
                    check_room(result, tap, live.hub, code, clients, tokens)
                    result.games += 1
                    result.per_ruleset[live.hub.rooms[code].ruleset.id] += 1

        asyncio.run(main())
    result.seconds = time.perf_counter() - started
    return result
