"""Which decks One Night allows, and the recommended ones.

Source: one-night-ultimate-werewolf.md, "Setup": cards = players + 3; the
recommended decks for 3-5 players; one more role per extra player; at most two
Werewolves; both Masons or neither; the Insomniac only with the Robber or the
Troublemaker (a recommendation, so a warning, not a refusal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from nightcall.engine.errors import DeckError, Said
from nightcall.rulesets.onuw.roles import (
    DOPPELGANGER,
    DRUNK,
    HUNTER,
    INSOMNIAC,
    MASON,
    MINION,
    ROBBER,
    ROLE_IDS,
    SEER,
    SINGLE,
    TANNER,
    TROUBLEMAKER,
    VILLAGER,
    WEREWOLF,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 10
CENTER = 3

_BASE = (WEREWOLF, WEREWOLF, SEER, ROBBER, TROUBLEMAKER, VILLAGER)
# The order in which the helper adds "one card of another role" per extra player.
# Masons come as a pair, so they are offered only through ``add``.
DEFAULT_EXTRAS = (MINION, DRUNK, INSOMNIAC, HUNTER, TANNER, DOPPELGANGER)


def validate(players: int, roles: Sequence[str]) -> list[str]:
    """Raise DeckError for a deck the rules forbid; return the rulebook's warnings."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DeckError(Said(f"One Night is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players}", "deck.players", title="One Night",
                             low=MIN_PLAYERS, high=MAX_PLAYERS, n=players))
    if len(roles) != players + CENTER:
        raise DeckError(Said(
            f"{players} players need {players + CENTER} cards (players + 3), got {len(roles)}",
            "deck.cards", n=players, need=players + CENTER, got=len(roles)))
    unknown = sorted({r for r in roles if r not in ROLE_IDS})
    if unknown:
        raise DeckError(f"not One Night roles: {', '.join(unknown)}")
    count = Counter(roles)
    if count[WEREWOLF] > 2:
        raise DeckError(Said(f"at most two Werewolves, the deck has {count[WEREWOLF]}",
                             "onuw.two_werewolves", k=count[WEREWOLF]))
    if count[MASON] not in (0, 2):
        raise DeckError(Said(f"the Masons are used both or neither, the deck has "
                             f"{count[MASON]}", "onuw.masons", k=count[MASON]))
    for role in SINGLE:
        if count[role] > 1:
            raise DeckError(Said(f"there is only one {role} card, the deck has {count[role]}",
                                 "onuw.single", role=role, k=count[role]))
    warnings: list[str] = []
    if count[INSOMNIAC] and not (count[ROBBER] or count[TROUBLEMAKER]):
        warnings.append(Said(
            "the Insomniac is meant to be played with the Robber or the Troublemaker: "
            "without them nobody can change its card", "onuw.insomniac"))
    if not count[WEREWOLF]:
        warnings.append(Said("there are no Werewolves in this deck", "onuw.no_werewolves"))
    return warnings


def recommended(players: int, add: Sequence[str] = ()) -> list[str]:
    """The rulebook's first-game deck for 3-5 players, plus one role per extra player.

    ``add`` chooses the extra roles (in order); the default order is
    :data:`DEFAULT_EXTRAS`. Masons count as the two cards they are.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DeckError(Said(f"One Night is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players}", "deck.players", title="One Night",
                             low=MIN_PLAYERS, high=MAX_PLAYERS, n=players))
    deck = list(_BASE) + [VILLAGER] * max(0, min(players, 5) - 3)
    extras = list(add) if add else list(DEFAULT_EXTRAS)
    wanted = players + CENTER - len(deck)
    chosen: list[str] = []
    for role in extras:
        if len(chosen) >= wanted:
            break
        chosen.append(role)
    if len(chosen) < wanted:
        raise DeckError(
            f"{players} players need {wanted} extra role(s), only {len(chosen)} given"
        )
    deck += chosen
    validate(players, deck)
    return deck


__all__ = ["CENTER", "DEFAULT_EXTRAS", "DRUNK", "HUNTER", "recommended", "validate"]
