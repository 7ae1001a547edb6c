"""The Lupus in Tabula roles: ids, sides, the night's call order and the 52-card mapping.

Source: lupus-in-tabula.md, "Setup" (card tables, role table), "Gameplay" (the
calls) and "Variants" (the extra roles).
"""

from __future__ import annotations

from typing import Final

from nightcall.engine.cards import JOKER, CardMap

WEREWOLF: Final = "werewolf"
VILLAGER: Final = "villager"
SEER: Final = "seer"
MEDIUM: Final = "medium"
POSSESSED: Final = "possessed"
BODYGUARD: Final = "bodyguard"
HARLOT: Final = "harlot"
OWL: Final = "owl"
FREEMASON: Final = "freemason"
WEREHAMSTER: Final = "werehamster"
MYTHOMANIAC: Final = "mythomaniac"

ROLE_IDS: Final = (
    WEREWOLF, VILLAGER, SEER, MEDIUM, POSSESSED, BODYGUARD, HARLOT,
    OWL, FREEMASON, WEREHAMSTER, MYTHOMANIAC,
)

# Sides, as team names in the outcome. Everyone but the werewolves is human for
# the Seer and for the count; the Possessed is human but wins with the werewolves.
VILLAGE: Final = "village"
WEREWOLVES: Final = "werewolves"
HAMSTER_TEAM: Final = "werehamster"


def side_of(role: str) -> str:
    if role in (WEREWOLF, POSSESSED):
        return WEREWOLVES
    if role == WEREHAMSTER:
        return HAMSTER_TEAM
    return VILLAGE


# The calls, in the rulebook's fixed order ("Gameplay", "The calls", plus the extra
# roles of "Variants"). The Villager, the Possessed and the Werehamster are never called.
CALL_ORDER: Final = (MEDIUM, BODYGUARD, HARLOT, WEREWOLF, SEER, OWL, FREEMASON, MYTHOMANIAC)

# The first night a role is called, and the only night for the once-only roles.
FIRST_NIGHT: Final = {MEDIUM: 2, BODYGUARD: 2, MYTHOMANIAC: 2}
ONLY_NIGHT: Final = {FREEMASON: 1, MYTHOMANIAC: 2}

DISPLAY_NAME: Final = {
    WEREWOLF: "Werewolf", VILLAGER: "Villager", SEER: "Seer", MEDIUM: "Medium",
    POSSESSED: "Possessed", BODYGUARD: "Bodyguard", HARLOT: "Harlot", OWL: "Owl",
    FREEMASON: "Freemason", WEREHAMSTER: "Werehamster", MYTHOMANIAC: "Mythomaniac",
}

# How the Master calls each role at night (the werewolves and Freemasons wake together).
CALL_NAME: Final = {**DISPLAY_NAME, WEREWOLF: "Werewolves", FREEMASON: "Freemasons"}

CARD_MAP: Final = CardMap(
    {
        "A♠": WEREWOLF, "A♣": WEREWOLF, "A♥": WEREWOLF,
        "K♥": SEER, "K♠": BODYGUARD, "Q♥": HARLOT, "Q♠": MEDIUM, "J♠": POSSESSED,
        "Q♣": OWL, "J♥": FREEMASON, "J♦": FREEMASON, JOKER: WEREHAMSTER, "Q♦": MYTHOMANIAC,
    },
    numbers=VILLAGER,
)

assert set(DISPLAY_NAME) == set(ROLE_IDS)
