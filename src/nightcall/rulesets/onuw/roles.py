"""The twelve One Night roles: ids, sides, the night's call order and the 52-card mapping.

Source: one-night-ultimate-werewolf.md, "Setup" (card table) and the role table.
"""

from __future__ import annotations

from typing import Final

from nightcall.engine.cards import CardMap

DOPPELGANGER: Final = "doppelganger"
WEREWOLF: Final = "werewolf"
MINION: Final = "minion"
MASON: Final = "mason"
SEER: Final = "seer"
ROBBER: Final = "robber"
TROUBLEMAKER: Final = "troublemaker"
DRUNK: Final = "drunk"
INSOMNIAC: Final = "insomniac"
HUNTER: Final = "hunter"
TANNER: Final = "tanner"
VILLAGER: Final = "villager"

ROLE_IDS: Final = (
    DOPPELGANGER, WEREWOLF, MINION, MASON, SEER, ROBBER, TROUBLEMAKER,
    DRUNK, INSOMNIAC, HUNTER, TANNER, VILLAGER,
)

VILLAGE: Final = "village"
WEREWOLVES: Final = "werewolves"
TANNER_TEAM: Final = "tanner"

# Side of each card at the end of the night. The Doppelgänger takes the side of
# the role it copied (resolved before this table is consulted).
TEAM: Final = {
    WEREWOLF: WEREWOLVES, MINION: WEREWOLVES, TANNER: TANNER_TEAM,
    DOPPELGANGER: VILLAGE, MASON: VILLAGE, SEER: VILLAGE, ROBBER: VILLAGE,
    TROUBLEMAKER: VILLAGE, DRUNK: VILLAGE, INSOMNIAC: VILLAGE, HUNTER: VILLAGE,
    VILLAGER: VILLAGE,
}

# The calls of the night, in the rulebook's order ("Gameplay", "The calls"). The
# last one is the Doppelgänger's second wake after the Insomniac.
DOPPELGANGER_INSOMNIAC: Final = "doppelganger_insomniac"
CALL_ORDER: Final = (
    DOPPELGANGER, WEREWOLF, MINION, MASON, SEER, ROBBER, TROUBLEMAKER, DRUNK,
    INSOMNIAC, DOPPELGANGER_INSOMNIAC,
)

# Roles the Doppelgänger performs at once, inside its own call.
ACTS_AT_ONCE: Final = frozenset({SEER, ROBBER, TROUBLEMAKER, DRUNK})

# Roles that may appear at most once in a deck (werewolves: two; masons: zero or two).
SINGLE: Final = frozenset(
    {DOPPELGANGER, MINION, SEER, ROBBER, TROUBLEMAKER, DRUNK, INSOMNIAC, HUNTER, TANNER}
)

DISPLAY_NAME: Final = {
    DOPPELGANGER: "Doppelgänger", WEREWOLF: "Werewolf", MINION: "Minion", MASON: "Mason",
    SEER: "Seer", ROBBER: "Robber", TROUBLEMAKER: "Troublemaker", DRUNK: "Drunk",
    INSOMNIAC: "Insomniac", HUNTER: "Hunter", TANNER: "Tanner", VILLAGER: "Villager",
}

CARD_MAP: Final = CardMap(
    {
        "A♠": WEREWOLF, "A♣": WEREWOLF, "J♠": MINION, "J♥": MASON, "J♦": MASON,
        "K♥": SEER, "J♣": ROBBER, "Q♣": TROUBLEMAKER, "K♦": DRUNK, "Q♠": INSOMNIAC,
        "K♠": HUNTER, "K♣": TANNER, "Q♦": DOPPELGANGER,
    },
    numbers=VILLAGER,
)
