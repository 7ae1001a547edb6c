"""Beliefs as plain JSON for a client (web app hints, agents): what this seat may
conclude, per player name and center card, at the deal and at dawn.

    hints_from_view(ONUW.view(state, seat))
    -> {"start": {"Anna": {"villager": 1.0}, ..., "center 1": {...}}, "end": {...},
        "exact": true, "error": 0.0}

Only the view is read, so a hint never tells a seat more than it knows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightcall.bots.onuw.knowledge import knowledge_from_view
from nightcall.bots.onuw.solver import DEFAULT_TRUST, solve


def hints_from_view(
    view: Mapping[str, Any], *, use_claims: bool = True, trust: float = DEFAULT_TRUST
) -> dict[str, Any]:
    k = knowledge_from_view(view)
    b = solve(k, use_claims=use_claims, trust=trust, samples=2000)
    labels = [*view["players"], "center 1", "center 2", "center 3"]

    def table(rows: tuple[tuple[float, ...], ...]) -> dict[str, dict[str, float]]:
        return {
            label: {r: round(p, 4) for r, p in zip(b.roles, row, strict=True) if p > 0}
            for label, row in zip(labels, rows, strict=True)
        }

    return {"start": table(b.start), "end": table(b.end), "exact": b.error == 0.0,
            "error": b.error}
