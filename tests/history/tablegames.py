"""Hand-made finished games for a table's history (records as game-record.md writes them)."""

from __future__ import annotations

from typing import Any

CENTER = ["villager", "troublemaker", "insomniac"]


def onuw(gid: str, finished: float, cards: dict[str, str], votes: dict[str, str],
         bots: tuple[str, ...] = (), center: list[str] | None = None) -> dict[str, Any]:
    """A One Night game with no night moves: everyone keeps the card dealt."""
    record = {"ruleset": "onuw", "players": list(cards), "cards": dict(cards),
              "center": list(center or CENTER), "steps": [{"votes": votes}]}
    return {"id": gid, "room": gid[:4], "finished": finished, "record": record,
            "bots": list(bots), "players": list(cards)}
