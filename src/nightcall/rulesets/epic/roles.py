"""The 30 Epic Battle roles, the symbol tokens and the artifacts, as data.

Source: epic-battle-rulebook.txt, "Roles (in alphabetical order)" (party, wake
number, difficulty of each role), "Symbol tokens", the Curator's artifacts and
the "Game Master Sheet" (wake order). Rulings: docs/rulings.md (Epic Battle).
"""

from __future__ import annotations

from typing import Final, NamedTuple

# --- role ids (shared/spec/game-record.md) ---------------------------------------
MIMIC: Final = "mimic"
VAMPIRE: Final = "vampire"
THE_COUNT: Final = "the_count"
THE_MASTER: Final = "the_master"
RENFIELD: Final = "renfield"
INFECTED: Final = "infected"
VENUS: Final = "venus"
INSTIGATOR: Final = "instigator"
PRIEST: Final = "priest"
ASSASSIN: Final = "assassin"
WEREWOLF: Final = "werewolf"
ALPHA_WOLF: Final = "alpha_wolf"
SIGHT_WOLF: Final = "sight_wolf"
DREAM_WOLF: Final = "dream_wolf"
FREEMASON: Final = "freemason"
THE_THING: Final = "the_thing"
SEER: Final = "seer"
GHOST_HUNTER: Final = "ghost_hunter"
TRACKER: Final = "tracker"
ROBBER: Final = "robber"
WITCH: Final = "witch"
FORTUNE_TELLER: Final = "fortune_teller"
GOBLIN: Final = "goblin"
INSOMNIAC: Final = "insomniac"
ENLIGHTENER: Final = "enlightener"
CURATOR: Final = "curator"
VILLAGER: Final = "villager"
TANNER: Final = "tanner"
HUNTER: Final = "hunter"
BODYGUARD: Final = "bodyguard"

# --- parties (the outcome's team names) ------------------------------------------
VILLAGE: Final = "village"
WEREWOLVES: Final = "werewolves"
VAMPIRES: Final = "vampires"
TANNER_TEAM: Final = "tanner"
ASSASSIN_TEAM: Final = "assassin"
CHANGING: Final = "changing"  # the Mimic: the party of the role it copies


class Role(NamedTuple):
    id: str
    name: str
    party: str
    wake: str | None  # the Game Master sheet number ("-6B", "2C"), None for sleepers
    difficulty: int  # 1..3 stars


ROLES: Final[dict[str, Role]] = {
    r.id: r
    for r in (
        Role(MIMIC, "Mimic", CHANGING, "-8", 2),
        Role(VAMPIRE, "Vampire", VAMPIRES, "-6", 1),
        Role(THE_COUNT, "The Count", VAMPIRES, "-6B", 1),
        Role(THE_MASTER, "The Master", VAMPIRES, "-6", 2),
        Role(RENFIELD, "Renfield", VAMPIRES, "-6C", 2),
        Role(INFECTED, "Infected", VILLAGE, "-5", 3),
        Role(VENUS, "Venus", VILLAGE, "-4", 2),
        Role(INSTIGATOR, "Instigator", VILLAGE, "-3", 3),
        Role(PRIEST, "Priest", VILLAGE, "-2", 1),
        Role(ASSASSIN, "Assassin", ASSASSIN_TEAM, "-1", 2),
        Role(WEREWOLF, "Werewolf", WEREWOLVES, "2", 1),
        Role(ALPHA_WOLF, "Alpha Wolf", WEREWOLVES, "2B", 2),
        Role(SIGHT_WOLF, "Sight Wolf", WEREWOLVES, "2C", 1),
        Role(DREAM_WOLF, "Dream Wolf", WEREWOLVES, None, 2),
        Role(FREEMASON, "Freemason", VILLAGE, "4", 3),
        Role(THE_THING, "The Thing", VILLAGE, "4B", 1),
        Role(SEER, "Seer", VILLAGE, "5", 1),
        Role(GHOST_HUNTER, "Ghost Hunter", VILLAGE, "5C", 2),
        Role(TRACKER, "Tracker", VILLAGE, "5D", 1),
        Role(ROBBER, "Robber", VILLAGE, "6", 1),
        Role(WITCH, "Witch", VILLAGE, "6B", 1),
        Role(FORTUNE_TELLER, "Fortune Teller", VILLAGE, "7C", 1),
        Role(GOBLIN, "Goblin", VILLAGE, "7D", 1),
        Role(INSOMNIAC, "Insomniac", VILLAGE, "9", 1),
        Role(ENLIGHTENER, "Enlightener", VILLAGE, "10", 1),
        Role(CURATOR, "Curator", VILLAGE, "11", 2),
        Role(VILLAGER, "Villager", VILLAGE, None, 1),
        Role(TANNER, "Tanner", TANNER_TEAM, None, 2),
        Role(HUNTER, "Hunter", VILLAGE, None, 2),
        Role(BODYGUARD, "Bodyguard", VILLAGE, None, 2),
    )
}
ROLE_IDS: Final = tuple(ROLES)
SLEEPERS: Final = frozenset(r.id for r in ROLES.values() if r.wake is None)


def wake_key(number: str) -> tuple[int, str]:
    """Sort key of a wake number: "-6" < "-6B" < "-6C" < "-5" ... "2" < "2B" < "2C" < "4"."""
    digits = number.rstrip("ABCDEFGH")
    return int(digits), number[len(digits):]


def name(role: str) -> str:
    return ROLES[role].name if role in ROLES else role


# --- kinds of card the rules single out ------------------------------------------
WOLF_CARDS: Final = frozenset({WEREWOLF, ALPHA_WOLF, SIGHT_WOLF, DREAM_WOLF})
WAKING_WOLVES: Final = frozenset({WEREWOLF, ALPHA_WOLF, SIGHT_WOLF})
VAMPIRE_CARDS: Final = frozenset({VAMPIRE, THE_COUNT, THE_MASTER})  # Renfield is not a vampire
# The cards that may lie beside the center for the Alpha Wolf ("Alpha Wolf", Setup).
EXTRA_CARDS: Final = (WEREWOLF, SIGHT_WOLF, DREAM_WOLF)
# What the Ghost Hunter turns into when he sees it ("Ghost Hunter").
GHOST_TRANSFORMS: Final = WOLF_CARDS | VAMPIRE_CARDS | {TANNER}
# What the Enlightener turns face down again ("Enlightener").
ENLIGHTENER_HIDES: Final = WOLF_CARDS | VAMPIRE_CARDS | {ASSASSIN, TANNER}

# How many cards of a role a deck may hold (the Freemasons: both or neither). Every
# other role has one card; the Villager has no special card, so any number may play
# (the scenarios need two Villagers and two Dream Wolves; docs/rulings.md (Epic Battle)).
MAX_COPIES: Final = {FREEMASON: 2, VILLAGER: 99, DREAM_WOLF: 2}

# --- symbol tokens -----------------------------------------------------------------
CERTAINTY: Final = "certainty"
LOVE: Final = "love"
BAT: Final = "bat"
BOUNTY: Final = "bounty"
PANIC: Final = "panic"
PLAGUE: Final = "plague"
VAMPIRE_TOKEN: Final = "vampire"
TRAITOR: Final = "traitor"
TOKENS: Final = (CERTAINTY, LOVE, BAT, BOUNTY, PANIC, PLAGUE, VAMPIRE_TOKEN, TRAITOR)
TOKEN_SUPPLY: Final = {CERTAINTY: 12, LOVE: 2, BAT: 1, BOUNTY: 1, PANIC: 1, PLAGUE: 1,
                       VAMPIRE_TOKEN: 1, TRAITOR: 1}


def tokens_beyond_the_box(tokens: list[str]) -> tuple[str, str] | None:
    """The first token ``tokens`` hold more often than the box has it, and the sentence
    that says so; None when the box could have dealt them."""
    for token, limit in TOKEN_SUPPLY.items():
        shown = tokens.count(token)
        if shown > limit:
            plural = "s" if limit > 1 else ""
            return token, f"the box has {limit} {token} token{plural}, the table shows {shown}"
    return None


# The roles whose card shows a token; with any of them in the deck the token board is used.
TOKEN_OF_ROLE: Final = {
    VAMPIRE: VAMPIRE_TOKEN, THE_MASTER: VAMPIRE_TOKEN, THE_COUNT: PANIC, RENFIELD: BAT,
    INFECTED: PLAGUE, VENUS: LOVE, INSTIGATOR: TRAITOR, PRIEST: CERTAINTY, ASSASSIN: BOUNTY,
}
TOKEN_ROLES: Final = frozenset(TOKEN_OF_ROLE)

# --- artifacts -----------------------------------------------------------------------
CLAW: Final = "claw_of_the_werewolf"
BITE: Final = "bite_of_the_vampire"
BRAND: Final = "brand_of_the_villager"
CLUB: Final = "club_of_the_tanner"
MASK: Final = "mask_of_silence"
CLOAK: Final = "cloak_of_shame"
ARTIFACTS: Final = (CLAW, BITE, BRAND, CLUB, MASK, CLOAK)
# The artifacts that replace the role (and with it any ability in the vote).
ARTIFACT_ROLE: Final = {CLAW: WEREWOLF, BITE: VAMPIRE, BRAND: VILLAGER, CLUB: TANNER}
# What the holder of an artifact is told at dawn (our words, not the rulebook's).
ARTIFACT_INSTRUCTION: Final = {
    CLAW: "You now count as a Werewolf, whatever card lies in front of you.",
    BITE: "You now count as a Vampire, whatever card lies in front of you.",
    BRAND: "You now count as a Villager, whatever card lies in front of you.",
    CLUB: "You now count as the Tanner: you win if you die.",
    MASK: "Stay silent until the vote is over: gestures are fine, sounds are not.",
    CLOAK: "Turn your back to the table for the whole day, the vote included; "
           "you may talk, and you point without looking.",
}

TEAM_NAMES_ALL: Final = frozenset({VILLAGE, WEREWOLVES, VAMPIRES, TANNER_TEAM, ASSASSIN_TEAM})
