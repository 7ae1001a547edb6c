"""The JSON readers (engine/jsontype.py): what a record, an outcome or a message read back
is narrowed with. Each accepts exactly its shape and refuses anything else with a
ValueError naming what was read."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightcall.engine.jsontype import as_list, as_object, as_str_map, as_strs

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _strs(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _str_map(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


READERS: list[tuple[Callable[[object, str], object], Callable[[object], bool], str]] = [
    (as_object, lambda v: isinstance(v, dict), "must be an object"),
    (as_list, lambda v: isinstance(v, list), "must be a list"),
    (as_strs, _strs, "must be a list"),
    (as_str_map, _str_map, "must "),
]


@pytest.mark.parametrize(("read", "fits", "refusal"), READERS)
@given(value=json_values)
def test_a_reader_returns_what_fits_its_shape_and_refuses_the_rest(
        read: Callable[[object, str], object], fits: Callable[[object], bool], refusal: str,
        value: object) -> None:
    if fits(value):
        assert read(value, "the field") == value
    else:
        with pytest.raises(ValueError, match=f"the field {refusal}"):
            read(value, "the field")


def test_an_object_with_a_key_that_is_not_a_string_is_refused() -> None:
    # (JSON keys are strings; a Python mapping read back from elsewhere may not be)
    with pytest.raises(ValueError, match="the cards must be an object"):
        as_object({1: "seer"}, "the cards")
