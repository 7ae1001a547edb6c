"""The rulebook's 30 named scenarios and Anarchy, as data, and decks built from them.

Source: epic-battle-rulebook.txt, "Scenarios". Each scenario lists its roles for
the lowest player count and, per larger count, the roles added to that first
line (the card counts show "+" is relative to the first line, not the previous
one; docs/rulings.md (Epic Battle)). With the Alpha Wolf a werewolf card is also laid
beside the center: :func:`build_deck` returns it separately.
"""

from __future__ import annotations

import difflib
import random
from collections import Counter
from dataclasses import dataclass
from typing import Final

from nightcall.engine.errors import NEAR, DeckError, Said
from nightcall.rulesets.epic import deck as deck_rules
from nightcall.rulesets.epic.roles import (
    ALPHA_WOLF,
    ASSASSIN,
    BODYGUARD,
    CURATOR,
    DREAM_WOLF,
    ENLIGHTENER,
    EXTRA_CARDS,
    FORTUNE_TELLER,
    FREEMASON,
    GHOST_HUNTER,
    GOBLIN,
    HUNTER,
    INFECTED,
    INSOMNIAC,
    INSTIGATOR,
    MAX_COPIES,
    MIMIC,
    PRIEST,
    RENFIELD,
    ROBBER,
    ROLE_IDS,
    SEER,
    SIGHT_WOLF,
    TANNER,
    THE_COUNT,
    THE_MASTER,
    THE_THING,
    TRACKER,
    VAMPIRE,
    VAMPIRE_CARDS,
    VENUS,
    VILLAGER,
    WEREWOLF,
    WITCH,
    WOLF_CARDS,
)

WEREWOLVES_VS_VILLAGERS: Final = "Werewolves vs. Villagers"
VAMPIRES_VS_VILLAGERS: Final = "Vampires vs. Villagers"
EPIC_BATTLES: Final = "Epic Battles"
ANY_ROLES: Final = "Any Role Distribution"

DIFFICULTIES: Final = ("beginner", "easy", "medium", "hard", "extreme")


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    parties: str
    difficulty: str
    min_players: int
    max_players: int
    base: tuple[str, ...]
    added: dict[int, tuple[str, ...]]  # player count -> roles added to ``base``

    def check_players(self, players: int) -> None:
        """DeckError unless the scenario is written for ``players``."""
        if not self.min_players <= players <= self.max_players:
            raise DeckError(Said(
                f"the scenario {self.name!r} is for {self.min_players}–{self.max_players} "
                f"players, not {players}", "epic.scenario_players", scenario=self.id,
                low=self.min_players, high=self.max_players, n=players))

    def roles_for(self, players: int) -> list[str]:
        self.check_players(players)
        return [*self.base, *self.added.get(players, ())]


def _s(
    name: str, parties: str, difficulty: str, players: tuple[int, int],
    base: tuple[str, ...], *added: tuple[str, ...],
) -> Scenario:
    ident = "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")
    while "__" in ident:
        ident = ident.replace("__", "_")
    lo, hi = players
    assert len(added) == hi - lo, name
    return Scenario(ident, name, parties, difficulty, lo, hi, base,
                    {lo + 1 + i: extra for i, extra in enumerate(added)})


WW, VV, EB = WEREWOLVES_VS_VILLAGERS, VAMPIRES_VS_VILLAGERS, EPIC_BATTLES
FM2 = (FREEMASON, FREEMASON)

SCENARIOS: Final[tuple[Scenario, ...]] = (
    _s("The First Night", WW, "beginner", (3, 5),
       (WEREWOLF, SIGHT_WOLF, SEER, ROBBER, GOBLIN, VILLAGER),
       (VILLAGER,), (VILLAGER, THE_THING)),
    _s("Horror Awakens", WW, "beginner", (3, 6),
       (WEREWOLF, SIGHT_WOLF, ENLIGHTENER, WITCH, MIMIC, VILLAGER),
       (BODYGUARD,), (BODYGUARD, VILLAGER), (BODYGUARD, VILLAGER, DREAM_WOLF)),
    _s("Lonely Night", WW, "easy", (3, 4),
       (WEREWOLF, SEER, ROBBER, GOBLIN, VILLAGER, VILLAGER),
       (THE_THING,)),
    _s("The Moonwalkers", WW, "beginner", (3, 6),
       (WEREWOLF, SIGHT_WOLF, INSOMNIAC, ROBBER, GOBLIN, VILLAGER),
       (VILLAGER,), (VILLAGER, SEER), (VILLAGER, SEER, THE_THING)),
    _s("Confusion", WW, "medium", (3, 9),
       (WEREWOLF, DREAM_WOLF, CURATOR, ROBBER, GOBLIN, VILLAGER),
       (VILLAGER,), (VILLAGER, SEER), (VILLAGER, SEER, THE_THING),
       (VILLAGER, SEER, THE_THING, INSOMNIAC),
       (VILLAGER, SEER, THE_THING, INSOMNIAC, DREAM_WOLF),
       (SEER, THE_THING, INSOMNIAC, DREAM_WOLF, *FM2)),
    _s("Payback", WW, "medium", (4, 7),
       (WEREWOLF, SIGHT_WOLF, HUNTER, SEER, ROBBER, TANNER, GOBLIN),
       (INSOMNIAC,), (INSOMNIAC, VILLAGER), (INSOMNIAC, VILLAGER, THE_THING)),
    _s("Hours of Despair", WW, "medium", (4, 10),
       (WEREWOLF, DREAM_WOLF, TANNER, SEER, ROBBER, GHOST_HUNTER, INSOMNIAC),
       (GOBLIN,), (GOBLIN, VILLAGER), (GOBLIN, *FM2), (GOBLIN, *FM2, HUNTER),
       (GOBLIN, *FM2, HUNTER, DREAM_WOLF), (GOBLIN, *FM2, HUNTER, DREAM_WOLF, VILLAGER)),
    # The rulebook lists one card too few here; a Villager completes it (ruling).
    _s("A Fearsome Opponent", WW, "hard", (3, 4),
       (ALPHA_WOLF, WITCH, GHOST_HUNTER, BODYGUARD, VILLAGER, VILLAGER),
       (ENLIGHTENER,)),
    _s("Werewolf Night", WW, "medium", (5, 10),
       (SIGHT_WOLF, ALPHA_WOLF, TRACKER, ENLIGHTENER, WITCH, FORTUNE_TELLER, CURATOR,
        VILLAGER),
       (BODYGUARD,), (BODYGUARD, GHOST_HUNTER), (BODYGUARD, GHOST_HUNTER, VILLAGER),
       (BODYGUARD, GHOST_HUNTER, VILLAGER, DREAM_WOLF),
       (BODYGUARD, GHOST_HUNTER, VILLAGER, DREAM_WOLF, THE_THING)),
    _s("The Knowing Ones", WW, "medium", (5, 10),
       (WEREWOLF, SIGHT_WOLF, SEER, TRACKER, GHOST_HUNTER, INSOMNIAC, WITCH, ENLIGHTENER),
       (GOBLIN,), FM2, (*FM2, GOBLIN), (*FM2, GOBLIN, DREAM_WOLF),
       (*FM2, GOBLIN, DREAM_WOLF, ROBBER)),
    _s("Secret Companions", WW, "medium", (6, 7),
       (WEREWOLF, SIGHT_WOLF, DREAM_WOLF, HUNTER, SEER, ROBBER, GOBLIN, *FM2),
       (THE_THING,)),
    _s("Halloween Party", WW, "medium", (7, 10),
       (THE_THING, GOBLIN, MIMIC, TRACKER, INSTIGATOR, ALPHA_WOLF, SIGHT_WOLF, GHOST_HUNTER,
        WITCH, FORTUNE_TELLER),
       (VENUS,), (VENUS, INFECTED), (VENUS, INFECTED, DREAM_WOLF)),
    _s("Unstable Alliances", WW, "hard", (3, 7),
       (ALPHA_WOLF, WITCH, CURATOR, GHOST_HUNTER, ENLIGHTENER, ASSASSIN),
       (FORTUNE_TELLER,), (FORTUNE_TELLER, BODYGUARD),
       (FORTUNE_TELLER, BODYGUARD, INSTIGATOR),
       (FORTUNE_TELLER, BODYGUARD, INSTIGATOR, SIGHT_WOLF)),
    _s("Trust Nobody!", WW, "hard", (3, 7),
       (ALPHA_WOLF, DREAM_WOLF, MIMIC, TANNER, ROBBER, WITCH),
       (INSOMNIAC,), (INSOMNIAC, WEREWOLF), (INSOMNIAC, WEREWOLF, GOBLIN),
       (INSOMNIAC, WEREWOLF, GOBLIN, SEER)),
    _s("Evil Transformations", WW, "hard", (3, 10),
       (ALPHA_WOLF, SIGHT_WOLF, MIMIC, DREAM_WOLF, ROBBER, WITCH),
       (INSOMNIAC,), (INSOMNIAC, WEREWOLF), (INSOMNIAC, WEREWOLF, GOBLIN),
       (INSOMNIAC, WEREWOLF, GOBLIN, SEER), (INSOMNIAC, WEREWOLF, GOBLIN, SEER, CURATOR),
       (INSOMNIAC, WEREWOLF, GOBLIN, SEER, CURATOR, GHOST_HUNTER),
       (INSOMNIAC, WEREWOLF, GOBLIN, SEER, CURATOR, GHOST_HUNTER, VILLAGER)),
    _s("Secret Alliances", WW, "medium", (6, 10),
       (ASSASSIN, VENUS, INSTIGATOR, WEREWOLF, ALPHA_WOLF, GHOST_HUNTER, *FM2, PRIEST),
       (THE_THING,), (THE_THING, TRACKER), (THE_THING, TRACKER, SEER),
       (THE_THING, TRACKER, SEER, MIMIC)),
    _s("Nightfall", VV, "beginner", (3, 5),
       (VAMPIRE, THE_COUNT, PRIEST, TRACKER, ROBBER, GOBLIN),
       (MIMIC,), (MIMIC, THE_THING)),
    _s("Election Day", VV, "medium", (3, 5),
       (VAMPIRE, THE_MASTER, MIMIC, INFECTED, TRACKER, THE_THING),
       (INSTIGATOR,), (INSTIGATOR, ROBBER)),
    _s("Tokens on Special Offer", VV, "hard", (6, 10),
       (THE_COUNT, THE_MASTER, RENFIELD, TRACKER, ASSASSIN, ROBBER, PRIEST, VENUS, GOBLIN),
       (MIMIC,), (MIMIC, INFECTED), (MIMIC, INFECTED, INSTIGATOR),
       (MIMIC, INFECTED, INSTIGATOR, THE_THING)),
    _s("Swapping Frenzy", VV, "medium", (4, 7),
       (VAMPIRE, THE_COUNT, GOBLIN, MIMIC, WITCH, ROBBER, INSOMNIAC),
       (CURATOR,), (CURATOR, VILLAGER), (CURATOR, VILLAGER, HUNTER)),
    _s("Well Protected", VV, "hard", (3, 6),
       (VAMPIRE, THE_MASTER, ASSASSIN, PRIEST, ENLIGHTENER, BODYGUARD),
       (INFECTED,), (INFECTED, RENFIELD), (INFECTED, RENFIELD, VILLAGER)),
    _s("Murderous Monster Chaos", VV, "hard", (4, 6),
       (VAMPIRE, THE_COUNT, THE_MASTER, GOBLIN, THE_THING, INSTIGATOR, INFECTED),
       (TRACKER,), (TRACKER, RENFIELD)),
    _s("One Against All?", VV, "hard", (4, 7),
       (THE_MASTER, MIMIC, ASSASSIN, TANNER, WITCH, GHOST_HUNTER, INFECTED),
       (RENFIELD,), (RENFIELD, VENUS), (RENFIELD, VENUS, VILLAGER)),
    _s("The Outlaws", VV, "hard", (6, 10),
       (VAMPIRE, THE_MASTER, ASSASSIN, TANNER, INSTIGATOR, GHOST_HUNTER, *FM2, INFECTED),
       (VENUS,), (VENUS, MIMIC), (VENUS, MIMIC, SEER), (VENUS, MIMIC, SEER, TRACKER)),
    _s("Cultured Cultists", VV, "hard", (8, 10),
       (VAMPIRE, THE_COUNT, MIMIC, RENFIELD, HUNTER, SEER, ROBBER, GOBLIN, VILLAGER, *FM2),
       (INSOMNIAC,), (INSOMNIAC, BODYGUARD)),
    _s("Epic Battle: Intertwined Fates", EB, "extreme", (4, 8),
       (VAMPIRE, THE_COUNT, PRIEST, SIGHT_WOLF, WEREWOLF, SEER, ROBBER),
       (WITCH,), (WITCH, GOBLIN), (WITCH, GOBLIN, VENUS), (WITCH, GOBLIN, VENUS, TRACKER)),
    _s("Epic Battle: Blood Moon", EB, "extreme", (5, 8),
       (VAMPIRE, THE_COUNT, TRACKER, GOBLIN, WEREWOLF, SIGHT_WOLF, ROBBER, INSOMNIAC),
       (HUNTER,), (HUNTER, VENUS), (HUNTER, VENUS, PRIEST)),
    _s("Epic Battle: Until the First Ray of Sunlight", EB, "extreme", (6, 10),
       (VAMPIRE, THE_MASTER, GOBLIN, ASSASSIN, ROBBER, SIGHT_WOLF, WEREWOLF, BODYGUARD, SEER),
       (PRIEST,), (PRIEST, CURATOR), (PRIEST, CURATOR, DREAM_WOLF),
       (PRIEST, CURATOR, DREAM_WOLF, RENFIELD)),
    _s("Epic Battle: The Last Showdown", EB, "extreme", (8, 10),
       (THE_MASTER, VAMPIRE, RENFIELD, TRACKER, ENLIGHTENER, WITCH, ALPHA_WOLF, WEREWOLF,
        TANNER, *FM2),
       (INSTIGATOR,), (INSTIGATOR, FORTUNE_TELLER)),
    _s("Epic Battle: Final Boss", EB, "extreme", (4, 10),
       (THE_MASTER, ALPHA_WOLF, THE_THING, SEER, FORTUNE_TELLER, ENLIGHTENER, WITCH),
       (TANNER,), (TANNER, GHOST_HUNTER), (TANNER, GHOST_HUNTER, RENFIELD),
       (TANNER, GHOST_HUNTER, RENFIELD, DREAM_WOLF),
       (TANNER, GHOST_HUNTER, RENFIELD, DREAM_WOLF, MIMIC),
       (TANNER, GHOST_HUNTER, RENFIELD, DREAM_WOLF, MIMIC, INFECTED)),
)

ANARCHY: Final = Scenario("anarchy", "Anarchy", ANY_ROLES, "hard", 3, 10, (), {})
ANARCHY_MAX_MONSTERS: Final = 3
# "All role cards": one of each role, with the second Freemason and the second Villager
# (32 cards, as the box lists).
ANARCHY_POOL: Final = (*ROLE_IDS, FREEMASON, VILLAGER)

BY_ID: Final = {s.id: s for s in (*SCENARIOS, ANARCHY)}
# Every spelling find() takes whole: the ids, and without their prefix "Epic Battle:"
# or "The" ("blood_moon", "first_night", "last_showdown").
_SHORT: Final = {sid: sid.removeprefix("epic_battle_") for sid in BY_ID}
SPELLINGS: Final = {spelling: BY_ID[sid] for sid, short in _SHORT.items()
                    for spelling in (sid, short, short.removeprefix("the_"))}


def find(name: str) -> Scenario:
    """A scenario by id ("the_first_night") or by its name, in any case."""
    key = "".join(c if c.isalnum() else "_" for c in name.strip().lower())
    while "__" in key:
        key = key.replace("__", "_")
    key = key.strip("_")
    if key in SPELLINGS:
        return SPELLINGS[key]
    # (by name, in the rulebook's order, as the other languages list them: find takes both)
    known = ", ".join(s.name for s in BY_ID.values())
    near = difflib.get_close_matches(key, list(SPELLINGS), n=1, cutoff=NEAR)
    if near:
        meant = SPELLINGS[near[0]]
        raise DeckError(Said(f"no scenario called {name!r} (did you mean {meant.name!r}?); "
                             f"known scenarios: {known}", "epic.no_scenario_near", name=name,
                             scenario=meant.id, scenarios=list(BY_ID)))
    raise DeckError(Said(f"no scenario called {name!r}; known scenarios: {known}",
                         "epic.no_scenario", name=name, scenarios=list(BY_ID)))


def extra_card_for(roles: list[str]) -> str:
    """The werewolf card laid beside the center for the Alpha Wolf: the first one
    (Werewolf, Sight Wolf, Dream Wolf) the deck still has a card left for."""
    count = Counter(roles)
    for card in EXTRA_CARDS:
        if count[card] < MAX_COPIES.get(card, 1):
            return card
    raise DeckError("no werewolf card is left to lay beside the center for the Alpha Wolf")


def build_deck(name: str, players: int, seed: int = 0) -> tuple[list[str], str | None]:
    """The deck of scenario ``name`` for ``players`` and the Alpha Wolf's extra card
    (None without the Alpha Wolf), validated. ``seed`` drives Anarchy's draw."""
    scenario = find(name)
    if scenario is ANARCHY:
        roles, extra = anarchy(players, seed)
    else:
        roles = scenario.roles_for(players)
        extra = extra_card_for(roles) if ALPHA_WOLF in roles else None
    deck_rules.validate(players, roles, extra)
    return roles, extra


def _monsters(roles: list[str]) -> int:
    return sum(1 for r in roles if r in WOLF_CARDS or r in VAMPIRE_CARDS)


def anarchy(players: int, seed: int) -> tuple[list[str], str | None]:
    """Draw players + 3 cards from all the role cards with a seeded RNG, redrawing
    until the deck is playable: at most 3 werewolves and vampires together, and
    both Freemasons or neither."""
    ANARCHY.check_players(players)
    rng = random.Random(seed)
    while True:
        pool = list(ANARCHY_POOL)
        rng.shuffle(pool)
        roles, rest = pool[: players + 3], pool[players + 3 :]
        if _monsters(roles) > ANARCHY_MAX_MONSTERS or roles.count(FREEMASON) == 1:
            continue
        if ALPHA_WOLF not in roles:
            return roles, None
        extra = next((c for c in rest if c in EXTRA_CARDS), None)
        if extra is not None:
            return roles, extra


__all__ = ["ANARCHY", "SCENARIOS", "Scenario", "build_deck", "extra_card_for", "find"]
