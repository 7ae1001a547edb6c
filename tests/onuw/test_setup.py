"""Setup: one-night-ultimate-werewolf.md, "Setup" and the card table."""

import pytest

from nightcall.engine.errors import DeckError
from nightcall.rulesets.onuw.deck import recommended, validate
from nightcall.rulesets.onuw.roles import CARD_MAP


def test_cards_are_players_plus_three() -> None:
    validate(3, ["werewolf"] * 2 + ["seer", "robber", "troublemaker", "villager"])
    with pytest.raises(DeckError, match="need 6 cards"):
        validate(3, ["werewolf"] * 2 + ["seer", "robber", "troublemaker"])


@pytest.mark.parametrize("players", [2, 11])
def test_three_to_ten_players(players: int) -> None:
    with pytest.raises(DeckError, match="3 to 10 players"):
        validate(players, ["villager"] * (players + 3))


def test_two_werewolves_no_more() -> None:
    with pytest.raises(DeckError, match="at most two Werewolves"):
        validate(3, ["werewolf"] * 3 + ["seer", "robber", "villager"])


def test_both_masons_or_neither() -> None:
    with pytest.raises(DeckError, match="both or neither"):
        validate(3, ["werewolf", "werewolf", "mason", "seer", "robber", "villager"])
    assert validate(3, ["werewolf", "werewolf", "mason", "mason", "robber", "villager"]) == []


def test_one_card_per_special_role() -> None:
    with pytest.raises(DeckError, match="only one seer"):
        validate(3, ["werewolf", "werewolf", "seer", "seer", "robber", "villager"])


def test_unknown_role_is_refused_by_name() -> None:
    with pytest.raises(DeckError, match="not One Night roles: vampire"):
        validate(3, ["werewolf", "werewolf", "vampire", "seer", "robber", "villager"])


def test_insomniac_without_robber_or_troublemaker_warns() -> None:
    deck = ["werewolf", "werewolf", "seer", "insomniac", "villager", "villager"]
    assert any("Insomniac" in w for w in validate(3, deck))
    with_robber = ["werewolf", "werewolf", "seer", "insomniac", "robber", "villager"]
    assert validate(3, with_robber) == []


@pytest.mark.parametrize(
    ("players", "villagers"), [(3, 1), (4, 2), (5, 3)]
)
def test_recommended_first_game_decks(players: int, villagers: int) -> None:
    deck = recommended(players)
    assert sorted(deck) == sorted(
        ["werewolf", "werewolf", "seer", "robber", "troublemaker"] + ["villager"] * villagers
    )


def test_one_more_role_per_extra_player() -> None:
    five = recommended(5)
    for players in range(6, 11):
        deck = recommended(players)
        assert len(deck) == players + 3
        assert deck[: len(five)] == five  # the 5-player deck plus new roles
        assert deck.count("werewolf") == 2 and deck.count("villager") == 3
    assert recommended(7, add=["mason", "mason"])[-2:] == ["mason", "mason"]
    with pytest.raises(DeckError, match="only 1 given"):
        recommended(7, add=["hunter"])


def test_playing_cards_map_to_roles() -> None:
    table = {
        "A♠": "werewolf", "A♣": "werewolf", "J♠": "minion", "J♥": "mason", "J♦": "mason",
        "K♥": "seer", "J♣": "robber", "Q♣": "troublemaker", "K♦": "drunk",
        "Q♠": "insomniac", "K♠": "hunter", "K♣": "tanner", "Q♦": "doppelganger",
    }
    for card, role in table.items():
        assert CARD_MAP.role_of(card) == role
    for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10"]:
        for suit in "♠♥♦♣":
            assert CARD_MAP.role_of(rank + suit) == "villager"
    assert CARD_MAP.role_of("10c") == "villager" and CARD_MAP.role_of("as") == "werewolf"
    # Cards with no role in One Night.
    assert CARD_MAP.role_of("A♥") is None and CARD_MAP.role_of("Q♥") is None
    assert CARD_MAP.role_of("JOKER") is None and CARD_MAP.role_of("Z9") is None


def test_roles_map_back_to_distinct_cards() -> None:
    deck = recommended(10, add=["mason", "mason", "minion", "drunk", "insomniac"])
    pulled = CARD_MAP.cards_to_pull(deck)
    assert len(set(pulled)) == len(pulled)
    assert [CARD_MAP.role_of(c) for c in pulled] == deck
    with pytest.raises(DeckError, match="only 1 card"):
        CARD_MAP.cards_to_pull(["seer", "seer"])
