"""Random messages at the websocket of a game in progress (hypothesis).

A One Night table of three phones, two bots and the host screen is held in its
vote (the vote lasts an hour and nobody has voted), so that nothing moves but
what the fuzzer sends. Each example sends one frame from one client (a seated
player, the host screen, or a new connection): JSON that is not an object, objects
of unknown types, known types with missing, extra or wrongly typed fields, huge
strings and numbers, out-of-range seats, moves out of phase, stale and huge state
ids, hellos with other seats' and made-up tokens, text that is not JSON, binary
frames. Each must get exactly one clear error, to that client alone, and change
nothing: the room's moves, state and record and every client's last message stay
as they were. At the end a legal vote by another player still goes through.
"""

from __future__ import annotations

import contextlib
import json
import string
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webhelpers import WS, make_room

from nightcall import protocol
from nightcall.server.app import create_app
from nightcall.server.limits import Limits
from nightcall.server.room import Room, RoomError, clean_name
from nightcall.server.store import SQLiteStore

pytestmark = pytest.mark.timeout(120)

# A browser gets the agent protocol's in-game codes as ``error``; the codes about the
# connection itself (agents get those as ``error`` too) as ``room_error``.
PROTOCOL_CODES = {c.value for c in protocol.ErrorCode} - {"too_long", "slow_down", "refused"}
TALK = {"claim", "claim_saw", "claim_swap"}
KINDS = ["vote", "skip", "abstain", "look", "look_center", "swap", "swap_two", "take_center",
         "copy", "claim", "claim_saw", "claim_swap"]
MESSAGE_FIELDS = {
    "hello": {"as", "name", "token", "protocol"},
    "action": {"action", "state_id"},
    "start": {"seats"},
    "add_bot": set(),
    "kick": {"seat"},
    "advance": set(),
    "ping": set(),
}
HUGE = 10**30
MAX_MESSAGE = 4096


@dataclass
class Table:
    client: TestClient
    room: Room
    clients: dict[str, WS]  # ann (seat 0, the fuzzer's seat), bob, cy, host
    tokens: dict[str, str]
    state_id: int  # Ann's
    legal: list[dict[str, Any]]  # Ann's moves
    claims: list[dict[str, Any]]  # what Ann may say


@dataclass
class Case:
    sender: str  # "ann", "host" or "new" (a connection that has not said hello)
    frame: str | bytes
    expect: str | None  # the error code (or "pong"); None: it would be accepted
    # Text that is not JSON may be read far enough to see it is no message (msgspec
    # validates as it parses: '0:' is "Expected `object`, got `int`").
    also: frozenset[str] = frozenset()


@contextlib.contextmanager
def vote_room(tmp_path: Path) -> Iterator[tuple[Any, TestClient, str, str]]:
    """An app with no rate limits (they have their own tests; here the message limit
    would only slow the fuzzer, and a run of wrong tokens drawn close together would
    get ``slow_down`` instead of ``bad_token``) and a 5-seat room whose night runs to a
    long vote: the app, its client, the room's code and host token."""
    loose = Limits(messages_per_second=1e6, message_burst=10**6, misses_per_minute=1e6,
                   miss_burst=10**6, wrong_tokens_per_minute=1e6, wrong_token_burst=10**6)
    app = create_app(SQLiteStore(tmp_path / "rooms.sqlite3"), limits=loose)
    with TestClient(app) as client:
        code, host_token = make_room(client, seats=5, call_seconds=0.05,
                                     discussion_seconds=0, vote_seconds=3600, bots="random")
        yield app, client, code, host_token


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with vote_room(tmp_path) as (app, client, code, host_token), \
            client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as aw, \
            client.websocket_connect(f"/ws/{code}") as bw, \
            client.websocket_connect(f"/ws/{code}") as cw:
        clients = {"host": WS(hw), "ann": WS(aw), "bob": WS(bw), "cy": WS(cw)}
        clients["host"].send(type="hello", **{"as": "host", "token": host_token})
        tokens = {"host": host_token}
        for name in ("ann", "bob", "cy"):
            clients[name].send(type="hello", name=name.title())
            tokens[name] = clients[name].until(lambda m: m["type"] == "welcome")["token"]
        clients["host"].until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 3)
        clients["host"].send(type="start")
        for w in clients.values():
            w.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "vote")
        settle(clients.values())
        room = app.state.hub.get(code)
        last = clients["ann"].latest("observation")
        assert last["state_id"] == room.state_id(0)
        claims = [a.to_json() for a in room.ruleset.legal_claims(room.state, 0)]
        yield Table(client, room, clients, tokens, last["state_id"], last["view"]["legal"],
                    claims)


def settle(clients: Any) -> None:
    """Read every client up to the answer to a ping: nothing is left in flight."""
    for w in clients:
        w.send(type="ping")
        w.until(lambda m: m["type"] == "pong")


# --- frames ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-HUGE, HUGE)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)


def not_json(text: str) -> bool:
    try:
        msgspec.json.decode(text)
    except msgspec.DecodeError:
        return True
    return False


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def action_json(kind: str, a: int, b: int) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind}
    if a != -1:
        out["a"] = a
    if b != -1:
        out["b"] = b
    return out


def cases(t: Table) -> st.SearchStrategy[Case]:
    """Every kind of bad frame, with the error the server must answer."""
    sid = t.state_id

    def expect_action(sender: str, act: dict[str, Any], state_id: int | None) -> str | None:
        if sender == "host":
            return "not_a_player"
        if sender == "new":
            return "bad_hello"
        if state_id is not None and state_id != sid:
            return "stale_state"
        if act["kind"] in TALK:  # a claim is heard in the day, if the rules allow it
            return None if act in t.claims else "illegal_action"
        return None if act in t.legal else "not_your_turn"

    def expect_valid(sender: str, msg: dict[str, Any]) -> str | None:
        """A well-formed message: what the pipeline says to this sender now."""
        kind = msg["type"]
        if kind == "action":
            return expect_action(sender, msg["action"], msg.get("state_id"))
        if sender == "new":
            return expect_hello(msg) if kind == "hello" else "bad_hello"
        if kind == "ping":
            return "pong"
        if kind == "hello":
            return "already_seated"
        if sender != "host":
            return "not_host"
        return "not_now" if kind == "advance" else "started"

    def seated(name: str) -> bool:
        try:
            wanted = clean_name(name).casefold()
        except RoomError:
            return False
        return any(s.name.casefold() == wanted for s in t.room.seats if not s.bot)

    def expect_hello(msg: dict[str, Any]) -> str | None:
        as_, token, name = msg.get("as", "player"), msg.get("token"), msg.get("name")
        if as_ == "spectator":
            return None
        if as_ == "host":
            return None if token == t.tokens["host"] else "bad_token"
        if token:
            known = token in (t.tokens["ann"], t.tokens["bob"], t.tokens["cy"])
            return None if known else "bad_token"
        if name is not None and seated(name):
            return None  # a seat's name asks the host (a phone that died): not refused
        return "started" if name is not None else "bad_hello"

    tokens = st.sampled_from(sorted(t.tokens.values())) | st.text(max_size=30)
    state_ids = (st.sampled_from([sid, sid - 1, sid + 1, 0, -1, HUGE, -HUGE])
                 | st.integers() | st.none())
    args = st.integers(-1, 999)
    actions = st.builds(action_json, st.sampled_from(KINDS) | st.text(min_size=1, max_size=64),
                        args, args)
    for_ann = st.sampled_from([a for a in t.legal + t.claims])
    valid: dict[str, st.SearchStrategy[dict[str, Any]]] = {
        "hello": st.fixed_dictionaries({"type": st.just("hello")}, optional={
            "as": st.sampled_from(["player", "host", "spectator"]),
            "name": st.text(max_size=40) | st.none(),
            "token": tokens | st.none(),
            "protocol": st.integers(-HUGE, HUGE)}),
        "action": st.fixed_dictionaries(
            {"type": st.just("action"), "action": actions | for_ann},
            optional={"state_id": state_ids}),
        "start": st.fixed_dictionaries({"type": st.just("start")},
                                       optional={"seats": st.integers(-HUGE, HUGE) | st.none()}),
        "add_bot": st.just({"type": "add_bot"}),
        "kick": st.fixed_dictionaries({"type": st.just("kick"),
                                       "seat": st.integers(-HUGE, HUGE)}),
        "advance": st.just({"type": "advance"}),
        "ping": st.just({"type": "ping"}),
    }
    well_formed = st.one_of(*valid.values())

    # Known types, broken: an extra field, a field of the wrong type, a missing field.
    not_str = (st.integers() | st.floats(allow_nan=False, allow_infinity=False)
               | st.booleans() | st.lists(st.integers(), max_size=2) | st.just({}))
    not_int = (st.text(max_size=5) | st.floats(allow_nan=False, allow_infinity=False)
               | st.booleans() | st.lists(st.integers(), max_size=2) | st.just({}))
    wrong_types: list[tuple[str, Callable[[dict[str, Any], Any], None], Any]] = [
        ("action", lambda m, v: m["action"].__setitem__("a", v), not_int),
        ("action", lambda m, v: m["action"].__setitem__("b", v),
         st.integers(1000, HUGE) | st.integers(-HUGE, -2)),
        # (any short text is a well-formed kind: only the rules can refuse it)
        ("action", lambda m, v: m["action"].__setitem__("kind", v),
         st.just("") | st.text(string.ascii_lowercase, min_size=65, max_size=300) | not_str),
        ("action", lambda m, v: m.__setitem__("state_id", v), not_int),
        ("action", lambda m, v: m.__setitem__("action", v),
         st.none() | st.text(max_size=5) | st.integers()),
        ("action", lambda m, v: m["action"].__setitem__(v, 1),
         st.text(max_size=8).filter(lambda k: k not in ("kind", "a", "b"))),
        ("action", lambda m, v: m["action"].pop("kind"), st.none()),
        ("action", lambda m, v: m.pop("action"), st.none()),
        ("kick", lambda m, v: m.__setitem__("seat", v), not_int | st.none()),
        ("kick", lambda m, v: m.pop("seat"), st.none()),
        ("start", lambda m, v: m.__setitem__("seats", v), not_int),
        ("hello", lambda m, v: m.__setitem__("as", v),
         st.text(max_size=10).filter(lambda s: s not in ("player", "host", "spectator"))),
        ("hello", lambda m, v: m.__setitem__("name", v), st.integers() | st.booleans()),
        ("hello", lambda m, v: m.__setitem__("token", v), st.integers() | st.lists(st.none())),
    ]

    @st.composite
    def broken(draw: st.DrawFn) -> dict[str, Any]:
        if draw(st.booleans()):  # an extra field on any type
            msg = dict(draw(well_formed))  # a copy: st.just() hands out the same dict
            key = draw(st.text(max_size=8).filter(
                lambda k: k != "type" and k not in MESSAGE_FIELDS[msg["type"]]))
            msg[key] = draw(json_values)
            return msg
        kind, change, values = draw(st.sampled_from(wrong_types))
        msg = dict(draw(valid[kind]))
        if kind == "action":
            msg["action"] = dict(msg["action"])
        change(msg, draw(values))
        return msg

    senders = st.sampled_from(["ann", "ann", "ann", "host", "new"])

    @st.composite
    def case(draw: st.DrawFn) -> Case:
        sender = draw(senders)
        shape = draw(st.sampled_from(["valid", "broken", "value", "object", "text", "huge",
                                      "binary"]))
        if shape == "valid":
            msg = draw(well_formed)
            return Case(sender, dumps(msg), expect_valid(sender, msg))
        if shape == "broken":
            return Case(sender, dumps(draw(broken())), "bad_message")
        if shape == "value":  # JSON, but not an object
            value = draw(json_values.filter(lambda v: not isinstance(v, dict)))
            return Case(sender, dumps(value), "bad_message")
        if shape == "object":  # an object without a known type
            obj = draw(st.dictionaries(st.text(max_size=8), json_values, max_size=4))
            if draw(st.booleans()):
                obj["type"] = draw(json_values.filter(
                    lambda v: not (isinstance(v, str) and v in MESSAGE_FIELDS)))
            return Case(sender, dumps(obj), "unknown_type" if "type" in obj else "bad_message")
        if shape == "text":
            return Case(sender, draw(st.text(max_size=60).filter(not_json)), "bad_json",
                        frozenset({"bad_message"}))
        if shape == "huge":  # over the size limit, well formed or not
            body = draw(well_formed | st.just({"type": "hello"}))
            pad = draw(st.integers(MAX_MESSAGE, 3 * MAX_MESSAGE))
            return Case(sender, dumps({**body, "name": "x" * pad}), "too_long")
        # Binary frames are read as UTF-8 text: the same answers, and garbage is bad JSON.
        if draw(st.booleans()):
            msg = draw(well_formed)
            return Case(sender, dumps(msg).encode(), expect_valid(sender, msg))
        return Case(sender, b"\xff" + draw(st.binary(max_size=40)), "bad_json")  # not UTF-8

    return case()


# --- the test ------------------------------------------------------------------------------


def answer_of(w: WS) -> dict[str, Any]:
    return w.until(lambda m: m["type"] != "lobby", limit=3)


def test_random_frames_get_one_clear_error_and_change_nothing(table: Table) -> None:
    t = table
    room = t.room
    seats = range(len(room.seats))
    before_doc = room.to_doc()
    before_ids = [room.state_id(s) for s in seats]
    seen_codes: set[str] = set()

    @settings(max_examples=250, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                     HealthCheck.data_too_large])
    @given(cases(t))
    # One of each refusal for sure, whatever hypothesis draws.
    @example(Case("new", dumps({"type": "hello", "token": "A" * 22}), "bad_token"))
    @example(Case("new", dumps({"type": "hello", "as": "host", "token": t.tokens["ann"]}),
                  "bad_token"))
    @example(Case("new", dumps({"type": "hello", "name": "Eve"}), "started"))
    @example(Case("new", dumps({"type": "ping"}), "bad_hello"))
    @example(Case("ann", dumps({"type": "hello", "token": t.tokens["bob"]}), "already_seated"))
    @example(Case("ann", dumps({"type": "kick", "seat": HUGE}), "not_host"))
    @example(Case("host", dumps({"type": "kick", "seat": -HUGE}), "started"))
    @example(Case("host", dumps({"type": "advance"}), "not_now"))
    @example(Case("host", dumps({"type": "action", "action": {"kind": "skip"}}), "not_a_player"))
    @example(Case("ann", dumps({"type": "action", "action": t.legal[0],
                                "state_id": t.state_id - 1}), "stale_state"))
    @example(Case("ann", dumps({"type": "action", "action": t.legal[0], "state_id": HUGE}),
                  "stale_state"))
    @example(Case("ann", dumps({"type": "action", "action": {"kind": "look", "a": 1}}),
                  "not_your_turn"))
    @example(Case("ann", dumps({"type": "action", "action": {"kind": "vote", "a": 999},
                                "state_id": t.state_id}), "not_your_turn"))
    @example(Case("ann", dumps({"type": "action", "action": {"kind": "claim", "a": 999}}),
                  "illegal_action"))
    @example(Case("ann", dumps({"type": "action", "action": {"kind": "vote", "a": 1000}}),
                  "bad_message"))
    @example(Case("ann", dumps({"type": "teleport"}), "unknown_type"))
    @example(Case("ann", "{not json", "bad_json"))
    @example(Case("ann", b"\x00\xff\xfe", "bad_json"))
    @example(Case("ann", dumps({"type": "ping"}).encode(), "pong"))
    @example(Case("ann", dumps({"type": "hello", "name": "x" * 5000}), "too_long"))
    # Found by this test: a non-ASCII token made compare_digest raise and drop the socket.
    @example(Case("new", dumps({"type": "hello", "token": "\u0080"}), "bad_token"))
    @example(Case("new", dumps({"type": "hello", "as": "host", "token": "é"}), "bad_token"))
    def one(case: Case) -> None:
        if case.expect is None:  # a move or a join the rules accept: not what we test here
            return
        if case.sender == "new":
            with t.client.websocket_connect(f"/ws/{room.code}") as ws:
                send(ws, case.frame)
                err = WS(ws).recv()
                assert_error(err, case.expect, case.frame, case.also)
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == 4000
        else:
            w = t.clients[case.sender]
            send(w.session, case.frame)
            got = answer_of(w)
            if case.expect == "pong":
                assert got == {"type": "pong"}
            else:
                assert_error(got, case.expect, case.frame, case.also)
        seen_codes.add(case.expect)
        # Nobody else heard anything, and the sender nothing more: the next message each
        # client gets is the answer to its own ping.
        for w in t.clients.values():
            w.send(type="ping")
            assert answer_of(w) == {"type": "pong"}
        assert room.to_doc() == before_doc
        assert [room.state_id(s) for s in seats] == before_ids

    one()
    # Every refusal was met (and each checked above).
    assert {"bad_json", "bad_message", "unknown_type", "too_long", "stale_state",
            "not_your_turn", "illegal_action", "not_host", "not_a_player", "not_now",
            "already_seated", "bad_token", "bad_hello", "started"} <= seen_codes, seen_codes

    # Still serving: Bob's legal vote goes through and everyone sees it.
    bob = t.clients["bob"]
    obs = bob.latest("observation")
    vote = next(a for a in obs["view"]["legal"] if a["kind"] == "vote")
    bob.send(type="action", action=vote, state_id=obs["state_id"])
    after = bob.until(lambda m: m["type"] == "observation")
    assert after["view"]["voted"] == ["Bob"]
    assert room.actions[-1][0] == 1 and room.actions[-1][1].to_json() == vote
    assert len(room.actions) == len(before_doc["actions"]) + 1
    ann = t.clients["ann"].until(lambda m: m["type"] == "observation")
    assert ann["view"]["voted"] == ["Bob"]


def send(session: Any, frame: str | bytes) -> None:
    if isinstance(frame, bytes):
        session.send_bytes(frame)
    else:
        session.send_text(frame)


def assert_error(msg: dict[str, Any], code: str, frame: str | bytes,
                 also: frozenset[str] = frozenset()) -> None:
    got = msg.get("code")
    assert got == code or got in also, (frame[:300], msg)
    kind = "error" if got in PROTOCOL_CODES else "room_error"
    assert msg.get("type") == kind, (frame[:300], msg)
    assert isinstance(msg["message"], str) and msg["message"], msg
    assert set(msg) == {"type", "code", "message"}


# --- both endpoints: nesting, sizes and unicode (issue 15) -------------------------------------


@dataclass
class Mixed:
    client: TestClient
    room: Room
    ann: WS  # a browser, seat 0
    robo: Any  # an agent's websocket, seat 1
    host: WS


@pytest.fixture
def mixed(tmp_path: Path) -> Iterator[Mixed]:
    with vote_room(tmp_path) as (app, client, code, host_token), \
            client.websocket_connect(f"/ws/{code}") as hw, \
            client.websocket_connect(f"/ws/{code}") as aw:
        host, ann = WS(hw), WS(aw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        ann.send(type="hello", name="Ann")
        ann.until(lambda m: m["type"] == "welcome")
        with client.websocket_connect(f"/ws/{code}/agent?name=Robo") as rw:
            host.until(lambda m: m["type"] == "lobby" and len(m["seats"]) == 2)
            host.send(type="start")
            for w in (host, ann):
                w.until(lambda m: m["type"] == "observation"
                        and m["clock"]["stage"] == "vote")
            while True:  # the agent's turn to vote: it is being asked
                msg = protocol.decode_server(rw.receive_text())
                if isinstance(msg, protocol.Observation) and any(
                        a.kind == "vote" for a in msg.legal):
                    break
            settle([host, ann])
            rw.send_text('{"type":"ping"}')
            assert json.loads(rw.receive_text()) == {"type": "pong"}
            yield Mixed(client, app.state.hub.get(code), ann, rw, host)


DEFAULT_RECURSION = 1000  # CPython's
unicode_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@st.composite
def nested_frames(draw: st.DrawFn) -> str:
    depth = draw(st.integers(1, 2500))
    arrays = draw(st.booleans())
    core = "[" * depth + "]" * depth if arrays else '{"a":' * depth + "1" + "}" * depth
    where = draw(st.sampled_from(["bare", "before_type", "in_action", "in_hello"]))
    if where == "bare":
        return core
    if where == "before_type":  # msgspec must read it whole before it knows the type
        return '{"x":' + core + ',"type":"ping"}'
    if where == "in_action":
        return '{"type":"action","action":' + core + "}"
    return '{"type":"hello","name":' + core + "}"


@st.composite
def sized_frames(draw: st.DrawFn) -> str:
    n = draw(st.integers(MAX_MESSAGE - 40, MAX_MESSAGE + 40))
    kind = draw(st.sampled_from(["ping", "hello", "action"]))
    pad = draw(st.sampled_from(["x", "é", "€", "\U0001f43a"]))  # 1 to 4 bytes each
    return dumps({"type": kind, "pad": pad * n})[: n + 40]


@st.composite
def unicode_frames(draw: st.DrawFn) -> str:
    text = draw(unicode_text)
    shape = draw(st.sampled_from(["type", "kind", "name", "token", "raw", "string", "key"]))
    if shape == "type":
        return dumps({"type": text if text not in MESSAGE_FIELDS else text + "?"})
    if shape == "kind":
        kind = text if text not in KINDS and text else "\u00e9" + text
        return dumps({"type": "action", "action": {"kind": kind[:64]}})
    if shape == "name":  # seated already: a hello is refused, whatever the name
        return dumps({"type": "hello", "name": text})
    if shape == "token":
        return dumps({"type": "hello", "token": text})
    if shape == "string":
        return dumps(text)
    if shape == "key":
        return dumps({"type": "ping", text or "\u200b": 1})
    return "\u2603" + text  # not JSON


def test_both_endpoints_answer_nesting_sizes_and_unicode_with_one_error(mixed: Mixed) -> None:
    """A browser and an agent, seated in a game in play, send frames nested up to 2,500
    deep, around the size limit (in characters of 1 to 4 bytes), and of any unicode:
    each gets exactly one error, to that client alone, and the game does not change."""
    t = mixed
    room = t.room
    before = room.to_doc()
    ids = [room.state_id(s) for s in range(len(room.seats))]
    seen: set[tuple[str, str]] = set()

    def answer_of_agent() -> dict[str, Any]:
        got: dict[str, Any] = json.loads(t.robo.receive_text())
        return got

    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.sampled_from(["ann", "robo"]),
           st.one_of(nested_frames(), sized_frames(), unicode_frames()))
    @example("robo", '{"x":' + "[" * 2000 + "]" * 2000 + ',"type":"ping"}')
    @example("ann", '{"x":' + "[" * 2000 + "]" * 2000 + ',"type":"ping"}')
    @example("robo", "[" * 3000)
    @example("ann", dumps({"type": "ping", "pad": "\U0001f43a" * 2000}))
    def one(sender: str, frame: str) -> None:
        # Hypothesis raises Python's recursion limit while it runs a test (for the whole
        # process: the server's thread too); a server runs with the default, where a
        # 2 KB frame of "[[[[" used to be past it.
        raised = sys.getrecursionlimit()
        sys.setrecursionlimit(DEFAULT_RECURSION)
        try:
            if sender == "ann":
                t.ann.send_raw(frame)
                got = answer_of(t.ann)
            else:
                t.robo.send_text(frame)
                got = answer_of_agent()
        finally:
            sys.setrecursionlimit(raised)
        assert got.get("type") in ("error", "room_error"), (frame[:200], got)
        if sender == "robo":  # an agent hears nothing but its protocol
            assert got["type"] == "error", got
            assert got["code"] in {c.value for c in protocol.ErrorCode}, got
        else:
            assert got["type"] == ("error" if got["code"] in PROTOCOL_CODES else "room_error")
        assert isinstance(got["message"], str) and got["message"], got
        assert set(got) == {"type", "code", "message"}
        if len(frame) > MAX_MESSAGE:
            assert got["code"] == "too_long", (len(frame), got)
        seen.add((sender, got["code"]))
        # One answer only, to the sender only: the next thing each gets is its pong.
        for w in (t.ann, t.host):
            w.send(type="ping")
            assert answer_of(w) == {"type": "pong"}
        t.robo.send_text('{"type":"ping"}')
        assert answer_of_agent() == {"type": "pong"}
        assert room.to_doc() == before
        assert [room.state_id(s) for s in range(len(room.seats))] == ids

    one()
    for sender in ("ann", "robo"):
        assert {(sender, "too_long"), (sender, "bad_message")} <= seen, seen
