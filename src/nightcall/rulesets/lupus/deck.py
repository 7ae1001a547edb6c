"""Which decks Lupus in Tabula allows, and the player-count table.

Source: lupus-in-tabula.md, "Setup" (the table: two Werewolves, three from 16;
the Seer; Medium from 9, Possessed from 10, Bodyguard from 11, Harlot from 12;
Villagers for the rest; in a first game any role may become a Villager) and
"Variants" (Owl from 12, Freemasons from 13, Werehamster from 15, Mythomaniac
from 16, each replacing a Villager). Rulings: docs/rulings.md (Lupus in Tabula), "Decks".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from nightcall.engine.errors import DeckError, Said
from nightcall.rulesets.lupus.roles import (
    BODYGUARD,
    DISPLAY_NAME,
    FREEMASON,
    HARLOT,
    MEDIUM,
    MYTHOMANIAC,
    OWL,
    POSSESSED,
    ROLE_IDS,
    SEER,
    VILLAGER,
    WEREHAMSTER,
    WEREWOLF,
)

MIN_PLAYERS: Final = 7
MAX_PLAYERS: Final = 23

# From how many players each role may be in the deck, and how many of its cards.
BASE_FROM: Final = {SEER: 7, MEDIUM: 9, POSSESSED: 10, BODYGUARD: 11, HARLOT: 12}
EXTRA_FROM: Final = {OWL: 12, FREEMASON: 13, WEREHAMSTER: 15, MYTHOMANIAC: 16}
COPIES: Final = {FREEMASON: 2}
SCENARIOS: Final = ("base", "extra")


def werewolves_for(players: int) -> int:
    return 3 if players >= 16 else 2


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DeckError(Said(
            f"Lupus in Tabula is for {MIN_PLAYERS} to {MAX_PLAYERS} players "
            f"(the Master not counted), not {players}", "lupus.players",
            low=MIN_PLAYERS, high=MAX_PLAYERS, n=players))


def validate(players: int, roles: Sequence[str]) -> list[str]:
    """Raise DeckError for a deck the table forbids; warn about first-game swaps."""
    _check_players(players)
    if len(roles) != players:
        raise DeckError(Said(f"{players} players need {players} cards, one each; got "
                             f"{len(roles)}", "lupus.cards", n=players, got=len(roles)))
    unknown = sorted({r for r in roles if r not in ROLE_IDS})
    if unknown:
        raise DeckError(f"not Lupus in Tabula roles: {', '.join(map(str, unknown))}")
    count = Counter(roles)
    wolves = werewolves_for(players)
    if count[WEREWOLF] != wolves:
        raise DeckError(Said(
            f"{players} players play with {wolves} Werewolves (three from 16 players), "
            f"the deck has {count[WEREWOLF]}", "lupus.werewolves", n=players, wolves=wolves,
            k=count[WEREWOLF]))
    for role, start in (BASE_FROM | EXTRA_FROM).items():
        have = count[role]
        if not have:
            continue
        copies = COPIES.get(role, 1)
        name = DISPLAY_NAME[role]
        if have != copies:
            raise DeckError(Said(
                f"the {name} card comes {'as a pair' if copies == 2 else 'once'}, "
                f"the deck has {have}", "lupus.pair" if copies == 2 else "lupus.once",
                role=role, k=have))
        if players < start:
            raise DeckError(Said(f"the {name} joins from {start} players, not at {players}",
                                 "lupus.joins", role=role, start=start, n=players))
    return [
        Said(f"first-game deck: the {DISPLAY_NAME[role]} is replaced by a Villager",
             "lupus.first_game", role=role)
        for role, start in BASE_FROM.items()
        if players >= start and not count[role]
    ]


def table_deck(players: int, scenario: str | None = None) -> list[str]:
    """The deck of the player-count table; ``"extra"`` also swaps in every extra role
    the player count allows, each in place of a Villager."""
    _check_players(players)
    if scenario not in (None, *SCENARIOS):
        raise DeckError(
            f"unknown Lupus deck {scenario!r}: use 'base' (the table) or 'extra' "
            "(the table with every extra role the player count allows)"
        )
    deck = [WEREWOLF] * werewolves_for(players)
    deck += [role for role, start in BASE_FROM.items() if players >= start]
    if scenario == "extra":
        for role, start in EXTRA_FROM.items():
            if players >= start:
                deck += [role] * COPIES.get(role, 1)
    deck += [VILLAGER] * (players - len(deck))
    validate(players, deck)
    return deck
