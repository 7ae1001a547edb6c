"""The role table (epic-battle-rulebook.txt, "Roles" titles and the Game Master sheet)."""

from __future__ import annotations

from collections import Counter

from nightcall.rulesets.epic.night import CALL_OF_ROLE, CALL_ORDER
from nightcall.rulesets.epic.roles import (
    ROLES,
    SLEEPERS,
    TOKEN_ROLES,
    TOKEN_SUPPLY,
    wake_key,
)


def test_thirty_roles_with_their_parties() -> None:
    assert len(ROLES) == 30
    parties = Counter(r.party for r in ROLES.values())
    assert parties == {"village": 19, "werewolves": 4, "vampires": 4, "tanner": 1,
                       "assassin": 1, "changing": 1}


def test_sleepers_are_the_five_that_never_wake() -> None:
    assert {"villager", "tanner", "hunter", "dream_wolf", "bodyguard"} == SLEEPERS


def test_calls_follow_the_wake_numbers() -> None:
    order = [wake_key(ROLES[r].wake or "") for r in sorted(
        (r for r in CALL_OF_ROLE if r not in SLEEPERS and r != "the_master"),
        key=lambda r: CALL_ORDER.index(CALL_OF_ROLE[r]))]
    assert order == sorted(order)
    assert wake_key("-6") < wake_key("-6B") < wake_key("-6C") < wake_key("-5")
    assert wake_key("2") < wake_key("2B") < wake_key("2C") < wake_key("4")
    twilight = [r for r in ROLES.values() if r.wake and r.wake.startswith("-")]
    assert {r.id for r in twilight} == TOKEN_ROLES | {"mimic"}
    # The tokens' call sits between the last twilight call and the first night call.
    assert CALL_ORDER.index("assassin") < CALL_ORDER.index("tokens") < \
        CALL_ORDER.index("lovers") < CALL_ORDER.index("werewolves")


def test_token_supply() -> None:
    assert sum(TOKEN_SUPPLY.values()) == 20 and TOKEN_SUPPLY["certainty"] == 12
