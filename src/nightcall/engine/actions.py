"""Actions: the one vocabulary for humans, bots and agents.

An action is a tiny immutable value. ``a`` and ``b`` are seat numbers or
center indices depending on ``kind`` (each ruleset documents its kinds);
-1 means "not used". Rulesets cache their action tuples, so creating them
is off the hot path.
"""

from __future__ import annotations

from typing import NamedTuple, NotRequired, TypedDict


class ActionJSON(TypedDict):
    """An action as a reader of a view's ``legal`` list finds it (``to_json``: a and b
    are left out at -1)."""

    kind: str
    a: NotRequired[int]
    b: NotRequired[int]


class Action(NamedTuple):
    kind: str
    a: int = -1
    b: int = -1

    def to_json(self) -> dict[str, str | int]:
        out: dict[str, str | int] = {"kind": self.kind}
        if self.a != -1:
            out["a"] = self.a
        if self.b != -1:
            out["b"] = self.b
        return out

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Parse ``{"kind": ..., "a": int, "b": int}``; raise ValueError with a reason."""
        if not isinstance(data, dict):
            raise ValueError("an action must be an object with a 'kind'")
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ValueError("an action needs a 'kind' string")
        unknown = set(data) - {"kind", "a", "b"}
        if unknown:
            raise ValueError(f"unknown action fields: {sorted(unknown)}")
        args = []
        for key in ("a", "b"):
            value = data.get(key, -1)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"action field '{key}' must be an integer")
            if not -1 <= value < 1000:
                raise ValueError(f"action field '{key}' out of range")
            args.append(value)
        return cls(kind, args[0], args[1])

    def __str__(self) -> str:
        parts = [self.kind] + [str(x) for x in (self.a, self.b) if x != -1]
        return "(" + " ".join(parts) + ")"
