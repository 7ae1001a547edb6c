"""Which Epic Battle decks are allowed.

Source: epic-battle-rulebook.txt, "Setup" (3 more cards than players), "Alpha
Wolf" (a werewolf card beside the center), "Freemason" (both or neither) and
"The Game" (3-10 players). Card limits: docs/rulings.md (Epic Battle).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from nightcall.engine.errors import DeckError, Said
from nightcall.rulesets.epic.roles import (
    ALPHA_WOLF,
    EXTRA_CARDS,
    FREEMASON,
    INSOMNIAC,
    MAX_COPIES,
    RENFIELD,
    ROLE_IDS,
    VAMPIRE_CARDS,
    WOLF_CARDS,
    name,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 10
CENTER = 3
# Roles that can change a card, for the Insomniac's warning.
_CARD_MOVERS = frozenset({"robber", "witch", ALPHA_WOLF, "goblin"})


def check_players(players: int) -> None:
    """DeckError unless Epic Battle can be played by ``players``."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DeckError(Said(f"Epic Battle is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players}", "deck.players", title="Epic Battle",
                             low=MIN_PLAYERS, high=MAX_PLAYERS, n=players))


def validate(players: int, roles: Sequence[str], extra: str | None = None) -> list[str]:
    """Raise DeckError for a deck the rules forbid; return the rulebook's warnings."""
    check_players(players)
    if len(roles) != players + CENTER:
        raise DeckError(Said(
            f"{players} players need {players + CENTER} role cards (players + 3), "
            f"got {len(roles)}", "deck.cards", n=players, need=players + CENTER,
            got=len(roles)))
    unknown = sorted({r for r in roles if r not in ROLE_IDS} | (
        {extra} if extra is not None and extra not in ROLE_IDS else set()))
    if unknown:
        raise DeckError(f"not Epic Battle roles: {', '.join(unknown)}")
    count = Counter(roles)
    if ALPHA_WOLF in count:
        if extra is None:
            raise DeckError(
                "with the Alpha Wolf a werewolf card (werewolf, sight_wolf or dream_wolf) "
                "lies beside the center: the deck needs its 'extra' card"
            )
        if extra not in EXTRA_CARDS:
            raise DeckError(
                f"the Alpha Wolf's extra card must be a werewolf, sight_wolf or dream_wolf, "
                f"not {extra}"
            )
        count[extra] += 1
    elif extra is not None:
        raise DeckError("an 'extra' card is only laid beside the center for the Alpha Wolf")
    for role, k in count.items():
        limit = MAX_COPIES.get(role, 1)
        if k > limit:
            raise DeckError(Said(
                f"the box has {limit} × {name(role)}; this deck (with any extra card) "
                f"has {k}", "epic.copies", role=role, limit=limit, k=k))
    if count[FREEMASON] == 1:
        raise DeckError(Said("the Freemasons come into play together: the deck needs both "
                             "or neither", "epic.freemasons"))
    warnings: list[str] = []
    if count[INSOMNIAC] and not any(count[r] for r in _CARD_MOVERS):
        warnings.append(Said("the Insomniac is meant to be played with the Robber, Witch, "
                             "Alpha Wolf or Goblin: without them her card cannot change",
                             "epic.insomniac"))
    if count[RENFIELD] and not any(count[r] for r in VAMPIRE_CARDS):
        warnings.append(Said("Renfield is meant for decks with vampires", "epic.renfield"))
    if not any(count[r] for r in WOLF_CARDS | VAMPIRE_CARDS):
        warnings.append(Said("there are no werewolves or vampires in this deck",
                             "epic.no_monsters"))
    return warnings
