"""The type of a JSON value, for documents read from or written to the wire and disk.

The containers are read-only (``Sequence``, ``Mapping``) so that a ``list[str]`` or a
``dict[str, int]`` is a JSON value as it is. A reader narrows a value (``isinstance``)
before use: that narrowing is the check of the input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

JSON: TypeAlias = "str | int | float | bool | Sequence[JSON] | Mapping[str, JSON] | None"
# A JSON object being built (every record, view and message is one at the top).
JSONObject: TypeAlias = "dict[str, JSON]"


# --- narrowing a value read back (each raises ValueError naming what is wrong) -------


def as_object(value: object, what: str) -> Mapping[str, object]:
    """``value`` as a JSON object (its keys strings)."""
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ValueError(f"{what} must be an object, got {value!r}")
    return value


def as_list(value: object, what: str) -> Sequence[object]:
    """``value`` as a JSON array."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list, got {value!r}")
    return value


def as_strs(value: object, what: str) -> list[str]:
    """``value`` as a JSON array of strings."""
    items = as_list(value, what)
    if not all(isinstance(v, str) for v in items):
        raise ValueError(f"{what} must be a list of strings, got {value!r}")
    return [str(v) for v in items]


def as_str_map(value: object, what: str) -> dict[str, str]:
    """``value`` as a JSON object of strings."""
    obj = as_object(value, what)
    if not all(isinstance(v, str) for v in obj.values()):
        raise ValueError(f"{what} must map names to strings, got {value!r}")
    return {k: str(v) for k, v in obj.items()}
