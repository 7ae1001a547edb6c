"""The scenario table (epic-battle-rulebook.txt, "Scenarios") and deck validation
("Setup", "Alpha Wolf", "Freemason")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from nightcall.engine.errors import DeckError
from nightcall.rulesets.epic import deck, scenarios
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.roles import (
    ALPHA_WOLF,
    EXTRA_CARDS,
    FREEMASON,
    ROLE_IDS,
    VAMPIRE_CARDS,
    WOLF_CARDS,
)
from nightcall.rulesets.epic.scenarios import ANARCHY, SCENARIOS, build_deck, find

ALL_COUNTS = [(s, n) for s in SCENARIOS for n in range(s.min_players, s.max_players + 1)]


def test_thirty_named_scenarios_in_three_groups() -> None:
    assert len(SCENARIOS) == 30
    groups = Counter(s.parties for s in SCENARIOS)
    assert groups == {scenarios.WEREWOLVES_VS_VILLAGERS: 16,
                      scenarios.VAMPIRES_VS_VILLAGERS: 9, scenarios.EPIC_BATTLES: 5}
    assert len({s.id for s in SCENARIOS}) == 30


@pytest.mark.parametrize(("scenario", "players"), ALL_COUNTS,
                         ids=[f"{s.id}-{n}" for s, n in ALL_COUNTS])
def test_every_scenario_deck_is_players_plus_three_plus_the_extra(
        scenario: scenarios.Scenario, players: int) -> None:
    roles, extra = build_deck(scenario.id, players)
    assert len(roles) == players + 3
    assert (extra is not None) == (ALPHA_WOLF in roles)
    if extra is not None:
        assert extra in EXTRA_CARDS
    assert set(roles) <= set(ROLE_IDS)


def test_scenario_lines_add_to_the_first_line() -> None:
    confusion = find("Confusion")
    assert Counter(confusion.roles_for(9)) - Counter(confusion.base) == Counter(
        {"seer": 1, "the_thing": 1, "insomniac": 1, "dream_wolf": 1, "freemason": 2})


def test_epic_battle_scenarios_hold_all_three_parties() -> None:
    for s in SCENARIOS:
        roles = set(s.base)
        has_both = bool(roles & WOLF_CARDS) and bool(roles & VAMPIRE_CARDS)
        assert has_both == (s.parties == scenarios.EPIC_BATTLES), s.name


def test_find_by_name_id_or_short_name() -> None:
    assert find("The First Night").id == "the_first_night"
    assert find("trust nobody!").name == "Trust Nobody!"
    assert find("blood moon").name == "Epic Battle: Blood Moon"
    with pytest.raises(DeckError, match="no scenario called"):
        find("Teatime")


def test_player_count_outside_the_scenario_is_refused() -> None:
    with pytest.raises(DeckError, match="3–4 players, not 5"):
        build_deck("Lonely Night", 5)
    with pytest.raises(DeckError, match="'Anarchy' is for 3–10 players, not 11"):
        build_deck("anarchy", 11)
    # No scenario chosen: the refusal is the game's range, not a default scenario's.
    with pytest.raises(DeckError, match=r"^Epic Battle is for 3 to 10 players, not 12$"):
        EPIC.default_deck(12)


@settings(max_examples=60, deadline=None)
@given(hs.integers(3, 10), hs.integers(0, 2**32))
def test_anarchy_draws_a_playable_deck(players: int, seed: int) -> None:
    roles, extra = build_deck("anarchy", players, seed)
    assert len(roles) == players + 3
    monsters = sum(1 for r in roles if r in WOLF_CARDS | VAMPIRE_CARDS)
    assert monsters <= scenarios.ANARCHY_MAX_MONSTERS
    assert roles.count(FREEMASON) in (0, 2)
    assert Counter(roles) <= Counter(scenarios.ANARCHY_POOL)
    assert (extra is not None) == (ALPHA_WOLF in roles)
    assert build_deck("anarchy", players, seed) == (roles, extra)  # seeded


def test_anarchy_varies_with_the_seed() -> None:
    assert len({tuple(build_deck("anarchy", 6, s)[0]) for s in range(10)}) > 5
    assert ANARCHY.min_players == 3 and ANARCHY.max_players == 10


def test_default_deck_is_a_scenario_with_the_extra_card_last() -> None:
    d = EPIC.default_deck(5, "werewolf night")
    assert len(d) == 9 and d[-1] in EXTRA_CARDS
    EPIC.validate_deck(5, d)
    assert len(EPIC.default_deck(4)) == 7 and len(EPIC.default_deck(8)) == 11


@pytest.mark.parametrize(
    ("players", "roles", "extra", "message"),
    [
        (2, ["werewolf", "seer", "villager", "villager", "robber"], None, "3 to 10 players"),
        (3, ["werewolf", "seer", "villager"], None, "need 6 role cards"),
        (3, ["werewolf", "seer", "villager", "villager", "robber", "wizard"], None,
         "not Epic Battle roles"),
        (3, ["alpha_wolf", "seer", "villager", "villager", "robber", "witch"], None,
         "'extra' card"),
        (3, ["alpha_wolf", "seer", "villager", "villager", "robber", "witch"], "seer",
         "must be a werewolf"),
        (3, ["werewolf", "seer", "villager", "villager", "robber", "witch"], "werewolf",
         "only laid beside the center"),
        (3, ["werewolf", "seer", "seer", "villager", "robber", "witch"], None,
         "1 × Seer;"),
        (3, ["werewolf", "freemason", "villager", "villager", "robber", "witch"], None,
         "both or neither"),
        (3, ["alpha_wolf", "werewolf", "villager", "villager", "robber", "witch"], "werewolf",
         "1 × Werewolf;"),
    ],
)
def test_bad_decks_are_refused_with_a_reason(
        players: int, roles: list[str], extra: str | None, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        deck.validate(players, roles, extra)


def test_deck_warnings() -> None:
    assert deck.validate(3, ["insomniac", "seer", "villager", "villager", "hunter", "werewolf"])
    assert not deck.validate(3, ["werewolf", "seer", "villager", "villager", "robber", "witch"])
