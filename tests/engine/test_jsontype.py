"""The JSON readers (engine/jsontype.py): what a record, an outcome or a message read back
is narrowed with. Each accepts exactly its shape and refuses anything else with a
ValueError naming what was read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightcall.engine.jsontype import as_list, as_object, as_str_map, as_strs

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_an_object_is_read_as_itself_and_anything_else_is_refused(value: object) -> None:
    if isinstance(value, dict):
        assert as_object(value, "the thing") is value
    else:
        with pytest.raises(ValueError, match="the thing must be an object"):
            as_object(value, "the thing")


@given(json_values)
def test_a_list_is_read_as_itself_and_anything_else_is_refused(value: object) -> None:
    if isinstance(value, list):
        assert as_list(value, "steps") is value
    else:
        with pytest.raises(ValueError, match="steps must be a list"):
            as_list(value, "steps")


@given(json_values)
def test_a_list_of_strings_only_when_every_item_is_a_string(value: object) -> None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        assert as_strs(value, "the players") == value
    else:
        with pytest.raises(ValueError, match="the players must be a list"):
            as_strs(value, "the players")


@given(json_values)
def test_a_map_of_strings_only_when_every_value_is_a_string(value: object) -> None:
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        assert as_str_map(value, "the roles") == value
    else:
        with pytest.raises(ValueError, match="the roles must"):
            as_str_map(value, "the roles")


def test_an_object_with_a_key_that_is_not_a_string_is_refused() -> None:
    # (JSON keys are strings; a Python mapping read back from elsewhere may not be)
    with pytest.raises(ValueError, match="must be an object"):
        as_object({1: "seer"}, "the cards")
