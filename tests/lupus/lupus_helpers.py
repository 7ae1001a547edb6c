"""Shared helpers for the Lupus tests: tables, nights and days by player name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightcall.engine.events import EVERYONE
from nightcall.rulesets.lupus import record
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.state import DAY, EXECUTE, LupusState

# A 12-player table with every base role and the Owl; names in seat order.
TABLE12 = {
    "Ada": "werewolf", "Bea": "villager", "Cal": "seer", "Dan": "werewolf",
    "Eve": "bodyguard", "Fay": "harlot", "Gus": "medium", "Hal": "possessed",
    "Ivy": "owl", "Jon": "villager", "Kim": "villager", "Lea": "villager",
}
# 16 players: three werewolves and every extra role.
TABLE16 = {
    "Ada": "werewolf", "Bea": "villager", "Cal": "seer", "Dan": "werewolf",
    "Eve": "bodyguard", "Fay": "harlot", "Gus": "medium", "Hal": "possessed",
    "Ivy": "owl", "Jon": "freemason", "Kim": "freemason", "Lea": "werehamster",
    "Max": "mythomaniac", "Ned": "werewolf", "Ola": "villager", "Pia": "villager",
}


def table(roles: Mapping[str, str], steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"ruleset": "lupus", "players": list(roles), "cards": dict(roles),
            "steps": steps or []}


def start(roles: Mapping[str, str]) -> LupusState:
    return LUPUS.replay(table(roles))


def seat(st: LupusState, name: str) -> int:
    return st.names.index(name)


def night(st: LupusState, **choices: Any) -> None:
    """Play one night from record keys (wolves=, seer=, bodyguard=, harlot=, ...)."""
    record.apply_step(LUPUS, st, choices)


def lynch(st: LupusState, name: str) -> None:
    """A day where everyone accuses and executes ``name``."""
    victim = seat(st, name)
    other = next(s for s in st.living() if s != victim)
    accuse = {st.names[s]: name for s in range(st.n)}
    accuse[name] = st.names[other]
    record.apply_step(LUPUS, st, {"accuse": accuse})
    assert st.phase == DAY and st.stage == EXECUTE and victim in st.suspects
    record.apply_step(LUPUS, st, {"execute": {st.names[v]: name for v in st.voters}})


def dawn_dead(st: LupusState) -> list[str]:
    """The names the public last dawn announced."""
    dawns = [e for e in st.log if e.kind == "dawn" and e.audience == EVERYONE]
    return [st.names[s] for s in dawns[-1].data["dead"]]


def told(st: LupusState, name: str, kind: str) -> list[dict[str, Any]]:
    """Events of ``kind`` that the player ``name`` sees in their own view."""
    view = LUPUS.view(st, seat(st, name))
    return [e for e in view["events"] if e["kind"] == kind]
