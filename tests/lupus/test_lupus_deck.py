"""Setup: the player-count table, the extra roles, the 52-card mapping, refused decks.
Source: lupus-in-tabula.md, "Setup" and "Variants";
rulings: docs/rulings.md (Lupus in Tabula), Decks."""

from __future__ import annotations

from collections import Counter

import pytest

from nightcall.engine.errors import DeckError, RecordError
from nightcall.rulesets.lupus.game import LUPUS

# players -> (werewolves, villagers, other roles) straight from the table's rows.
TABLE = {
    7: (2, 4, {"seer"}),
    8: (2, 5, {"seer"}),
    9: (2, 5, {"seer", "medium"}),
    10: (2, 5, {"seer", "medium", "possessed"}),
    11: (2, 5, {"seer", "medium", "possessed", "bodyguard"}),
    12: (2, 5, {"seer", "medium", "possessed", "bodyguard", "harlot"}),
    13: (2, 6, {"seer", "medium", "possessed", "bodyguard", "harlot"}),
    15: (2, 8, {"seer", "medium", "possessed", "bodyguard", "harlot"}),
    16: (3, 8, {"seer", "medium", "possessed", "bodyguard", "harlot"}),
    17: (3, 9, {"seer", "medium", "possessed", "bodyguard", "harlot"}),
    23: (3, 15, {"seer", "medium", "possessed", "bodyguard", "harlot"}),
}


@pytest.mark.parametrize("players", sorted(TABLE))
def test_default_deck_follows_the_table(players: int) -> None:
    wolves, villagers, others = TABLE[players]
    count = Counter(LUPUS.default_deck(players))
    assert count["werewolf"] == wolves
    assert count["villager"] == villagers
    assert {r for r in count if r not in ("werewolf", "villager")} == others
    assert sum(count.values()) == players


@pytest.mark.parametrize(
    ("players", "extras"),
    [
        (11, set()),
        (12, {"owl"}),
        (13, {"owl", "freemason"}),
        (14, {"owl", "freemason"}),
        (15, {"owl", "freemason", "werehamster"}),
        (16, {"owl", "freemason", "werehamster", "mythomaniac"}),
        (23, {"owl", "freemason", "werehamster", "mythomaniac"}),
    ],
)
def test_extra_roles_each_take_a_villagers_place(players: int, extras: set[str]) -> None:
    base = Counter(LUPUS.default_deck(players))
    extra = Counter(LUPUS.default_deck(players, "extra"))
    added = {r for r in extra if r not in base}
    assert added == extras
    assert sum(extra.values()) == players
    replaced = sum(extra[r] for r in extras)
    assert extra["villager"] == base["villager"] - replaced
    assert extra["freemason"] in (0, 2)


@pytest.mark.parametrize("players", range(7, 24))
def test_every_default_deck_is_valid(players: int) -> None:
    for scenario in (None, "extra"):
        assert LUPUS.validate_deck(players, LUPUS.default_deck(players, scenario)) == []


def _deck(players: int, **changes: int) -> list[str]:
    count = Counter(LUPUS.default_deck(players))
    for role, k in changes.items():
        count[role] += k
    return list(count.elements())


@pytest.mark.parametrize(
    ("players", "roles", "reason"),
    [
        (6, ["werewolf"] * 2 + ["seer"] + ["villager"] * 3, "7 to 23 players"),
        (24, ["werewolf"] * 3 + ["villager"] * 21, "7 to 23 players"),
        (9, ["werewolf"] * 2 + ["villager"] * 6, "one each"),
        (15, _deck(15, werewolf=1, villager=-1), "2 Werewolves"),
        (16, _deck(16, werewolf=-1, villager=1), "3 Werewolves"),
        (8, _deck(8, medium=1, villager=-1), "Medium joins from 9"),
        (9, _deck(9, possessed=1, villager=-1), "Possessed joins from 10"),
        (10, _deck(10, bodyguard=1, villager=-1), "Bodyguard joins from 11"),
        (11, _deck(11, harlot=1, villager=-1), "Harlot joins from 12"),
        (11, _deck(11, owl=1, villager=-1), "Owl joins from 12"),
        (12, _deck(12, freemason=2, villager=-2), "Freemason joins from 13"),
        (14, _deck(14, werehamster=1, villager=-1), "Werehamster joins from 15"),
        (15, _deck(15, mythomaniac=1, villager=-1), "Mythomaniac joins from 16"),
        (13, _deck(13, freemason=1, villager=-1), "as a pair"),
        (9, _deck(9, seer=1, villager=-1), "once"),
        (9, [*_deck(9, villager=-1), "robber"], "not Lupus in Tabula roles: robber"),
    ],
)
def test_bad_decks_are_refused_with_a_reason(players: int, roles: list[str], reason: str) -> None:
    with pytest.raises(DeckError, match=reason):
        LUPUS.validate_deck(players, roles)


def test_first_game_any_role_but_the_werewolves_may_be_a_villager() -> None:
    roles = _deck(12, seer=-1, harlot=-1, villager=2)
    warnings = LUPUS.validate_deck(12, roles)
    assert any("Seer" in w for w in warnings) and any("Harlot" in w for w in warnings)
    with pytest.raises(DeckError, match="Werewolves"):
        LUPUS.validate_deck(12, _deck(12, werewolf=-1, villager=1))


def test_options_are_refused() -> None:
    with pytest.raises(DeckError, match="no options"):
        LUPUS.validate_deck(7, LUPUS.default_deck(7), {"lone_wolf": True})


def test_unknown_scenario_is_refused() -> None:
    with pytest.raises(DeckError, match="unknown Lupus deck"):
        LUPUS.default_deck(12, "epic")


@pytest.mark.parametrize(
    ("card", "role"),
    [
        ("A♠", "werewolf"), ("A♣", "werewolf"), ("A♥", "werewolf"),
        ("2♦", "villager"), ("10♣", "villager"), ("7h", "villager"),
        ("K♥", "seer"), ("K♠", "bodyguard"), ("Q♥", "harlot"), ("Q♠", "medium"),
        ("J♠", "possessed"), ("Q♣", "owl"), ("J♥", "freemason"), ("J♦", "freemason"),
        ("JOKER", "werehamster"), ("★", "werehamster"), ("Q♦", "mythomaniac"),
        ("medium", "medium"),
    ],
)
def test_the_52_card_mapping(card: str, role: str) -> None:
    assert LUPUS.card_to_role(card, "test") == role


@pytest.mark.parametrize("card", ["A♦", "K♣", "K♦", "J♣", "1♠", "robber"])
def test_cards_outside_the_mapping_are_refused(card: str) -> None:
    with pytest.raises(RecordError, match="not a role or playing card of Lupus in Tabula"):
        LUPUS.card_to_role(card, "test")


def test_the_mapping_pulls_distinct_cards_for_a_full_deck() -> None:
    assert LUPUS.card_map is not None
    cards = LUPUS.card_map.cards_to_pull(LUPUS.default_deck(23, "extra"))
    assert len(set(cards)) == 23
    assert {"A♠", "A♣", "A♥", "JOKER", "Q♦", "J♥", "J♦"} <= set(cards)
