"""The agent protocol messages: round trips, and clear refusals of bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall import protocol as p
from nightcall.engine.actions import Action


def test_action_message_round_trip_leaves_unused_arguments_out() -> None:
    msg = p.ActionMessage(p.ActionJSON.of(Action("vote", 3)), state_id=7)
    line = p.encode_line(msg)
    assert line.endswith("\n") and "\n" not in line[:-1]
    assert json.loads(line) == {"type": "action", "action": {"kind": "vote", "a": 3}, "state_id": 7}
    back = p.decode_agent(line)
    assert isinstance(back, p.ActionMessage)
    assert back.action.to_action() == Action("vote", 3)
    assert back.state_id == 7


def test_server_messages_round_trip() -> None:
    msgs: list[p.ServerMessage] = [
        p.Welcome("onuw", 1, ["a", "b", "c"], p.PROTOCOL_VERSION),
        p.Observation(1, 4, {"legal": [{"kind": "skip"}]}, [p.ActionJSON("claim", 2)], [0, 1]),
        p.Error(p.ErrorCode.ILLEGAL_ACTION, "no", 4),
        p.GameOver(1, 9, {"phase": "over"}, True),
    ]
    for msg in msgs:
        assert p.decode_server(p.encode(msg)) == msg
    obs = msgs[1]
    assert isinstance(obs, p.Observation)
    assert obs.legal == [Action("skip")]


def test_action_from_engine_json_decodes_identically() -> None:
    # The engine's own Action.to_json is a valid wire action, and vice versa.
    for action in (Action("skip"), Action("look_center", 0, 2), Action("vote", 0)):
        wire = {"type": "action", "action": action.to_json()}
        msg = p.decode_agent(json.dumps(wire))
        assert isinstance(msg, p.ActionMessage)
        assert msg.action.to_action() == action


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("{", p.ErrorCode.BAD_JSON, "not valid JSON"),
        ("[1, 2]", p.ErrorCode.BAD_JSON, "got list"),
        ('{"type": "dance"}', p.ErrorCode.UNKNOWN_TYPE, "'dance'"),
        ('{"action": {"kind": "skip"}}', p.ErrorCode.UNKNOWN_TYPE, 'needs a "type"'),
        ('{"type": "action"}', p.ErrorCode.BAD_MESSAGE, "missing required field `action`"),
        ('{"type": "action", "action": {"kind": "vote", "a": "x"}}', p.ErrorCode.BAD_MESSAGE,
         "$.action.a"),
        ('{"type": "action", "action": {"kind": "vote", "a": 1, "c": 2}}',
         p.ErrorCode.BAD_MESSAGE, "unknown field `c`"),
        ('{"type": "action", "action": {"kind": ""}}', p.ErrorCode.BAD_MESSAGE, "length"),
        ('{"type": "action", "action": {"kind": "vote", "a": -5}}', p.ErrorCode.BAD_MESSAGE,
         ">= -1"),
        ('{"type": "welcome", "ruleset": "onuw", "seat": 0, "players": []}',
         p.ErrorCode.UNKNOWN_TYPE, "'welcome'"),
    ],
)
def test_bad_agent_input_is_refused_with_a_reason(line: str, code: p.ErrorCode, words: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.decode_agent(line)
    assert info.value.error.code == code
    assert words in info.value.error.message


def test_error_is_a_message_of_its_own() -> None:
    err = p.ProtocolError(p.ErrorCode.BAD_JSON, "broken").error
    assert json.loads(p.encode(err)) == {"type": "error", "code": "bad_json", "message": "broken"}


def test_schema_covers_every_message_type() -> None:
    schema = p.schema()
    defs = schema["$defs"]
    for name in ("Welcome", "Observation", "Error", "GameOver", "Hello", "ActionMessage"):
        assert defs[name]["additionalProperties"] is False
    tags = {defs[n]["properties"]["type"]["enum"][0] for n in defs if "properties" in defs[n]
            and "type" in defs[n]["properties"]}
    assert tags == set(p.SERVER_TYPES) | set(p.AGENT_TYPES)
    assert set(defs["ErrorCode"]["enum"]) == {c.value for c in p.ErrorCode}


def test_observation_always_carries_talk_and_leaves_out_an_absent_mask() -> None:
    wire = json.loads(p.encode(p.Observation(0, 1, {"legal": []}, [])))
    assert wire == {"type": "observation", "seat": 0, "state_id": 1, "view": {"legal": []},
                    "talk": []}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=20,
)
near_messages = st.fixed_dictionaries(
    {"type": st.sampled_from([*p.AGENT_TYPES, *p.SERVER_TYPES, "x"])},
    optional={"action": json_values | st.fixed_dictionaries(
        {"kind": json_values}, optional={"a": json_values, "b": json_values}),
        "state_id": json_values, "name": json_values, "protocol": json_values},
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.binary(), json_values.map(json.dumps),
                 near_messages.map(json.dumps)))
def test_decoding_anything_gives_a_message_or_a_protocol_error(data: str | bytes) -> None:
    try:
        message = p.decode_agent(data)
    except p.ProtocolError as exc:
        assert exc.error.message and exc.error.code in p.ErrorCode
    else:
        assert isinstance(message, p.Hello | p.ActionMessage)
        if isinstance(message, p.ActionMessage):
            action = message.action.to_action()
            assert action.kind and -1 <= action.a < 1000 and -1 <= action.b < 1000
