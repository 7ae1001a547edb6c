"""A simple belief per seat: the chance it ends the night a werewolf or a vampire.

Not exact (Epic Battle has too many moving parts for that): every place (seats,
center, the Alpha Wolf's extra card) is equally likely to hold any card the seat
has not placed; a fact seen at a place counts with its :func:`confidence`; the
Vampire token goes where the seat saw it, or else to some player when a vampire
card is likely among the players. The seat's own party follows its card, then its
token, then its artifact, as the who-has-won check does
(:func:`nightcall.rulesets.epic.judge.identities`).
"""

from __future__ import annotations

from dataclasses import dataclass

from nightcall.bots.epic.knowledge import Knowledge, confidence
from nightcall.rulesets.epic.roles import (
    ARTIFACT_ROLE,
    ASSASSIN,
    ASSASSIN_TEAM,
    RENFIELD,
    TANNER,
    TANNER_TEAM,
    VAMPIRE_CARDS,
    VAMPIRE_TOKEN,
    VAMPIRES,
    VILLAGE,
    WEREWOLVES,
    WOLF_CARDS,
)

ALLY_BAR = 0.5  # believed more likely than not to share the seat's party


def monster_kind(card: str) -> str | None:
    return WEREWOLVES if card in WOLF_CARDS else VAMPIRES if card in VAMPIRE_CARDS else None


@dataclass(frozen=True)
class Beliefs:
    me: int
    party: str  # the seat's own party, as it believes
    wolf: dict[int, float]  # every seat: P(ends a werewolf) (0 or 1 for the seat itself)
    vampire: dict[int, float]  # P(ends a vampire, by card or by token)
    tanner: dict[int, float]  # P(holds the Tanner card)
    wolves_in_deck: bool
    vampires_in_deck: bool

    @property
    def epic(self) -> bool:
        """Both monster parties in the deck: an Epic Battle when both reach the players."""
        return self.wolves_in_deck and self.vampires_in_deck

    def monster(self, seat: int) -> float:
        return min(1.0, self.wolf[seat] + self.vampire[seat])

    def same_party(self, seat: int) -> float:
        """P(``seat`` ends in this seat's party)."""
        if self.party == WEREWOLVES:
            return self.wolf[seat]
        if self.party == VAMPIRES:
            return self.vampire[seat]
        if self.party == VILLAGE:
            return max(0.0, 1.0 - self.monster(seat) - self.tanner[seat])
        return 0.0  # the Tanner and the Assassin are alone

    def allies(self) -> set[int]:
        return {s for s in self.wolf if s != self.me and self.same_party(s) > ALLY_BAR}


def my_party(k: Knowledge) -> str:
    card = k.my_card()
    if k.artifact in ARTIFACT_ROLE:
        card = ARTIFACT_ROLE[k.artifact]
    if k.my_token() == VAMPIRE_TOKEN:
        return VAMPIRES
    kind = monster_kind(card)
    if kind is not None:
        return kind
    if card == TANNER:
        return TANNER_TEAM
    if card == ASSASSIN:
        return ASSASSIN_TEAM
    if card == RENFIELD:
        # Renfield saw the vampires; with none among the players he is a villager.
        return VAMPIRES if k.vampires else VILLAGE
    return VILLAGE


def beliefs(k: Knowledge, decay: float) -> Beliefs:
    wolves = sum(c for r, c in k.deck.items() if r in WOLF_CARDS)
    vamps = sum(c for r, c in k.deck.items() if r in VAMPIRE_CARDS)
    tanners = k.deck[TANNER]
    places = max(1, sum(k.deck.values()))
    known = known_w = known_v = known_t = 0.0
    sure: dict[int, tuple[float, str]] = {}
    for place, fact in k.cards.items():
        c = 1.0 if place in k.revealed else confidence(fact, k.card_moves, decay)
        sure[place] = (c, fact.value)
        known += c
        known_w += c * (fact.value in WOLF_CARDS)
        known_v += c * (fact.value in VAMPIRE_CARDS)
        known_t += c * (fact.value == TANNER)
    unknown = max(1.0, places - known)
    prior_w = max(0.0, wolves - known_w) / unknown
    prior_v = max(0.0, vamps - known_v) / unknown
    prior_t = max(0.0, tanners - known_t) / unknown
    others = [s for s in range(k.n) if s != k.seat]
    wolf: dict[int, float] = {}
    vamp: dict[int, float] = {}
    tan: dict[int, float] = {}
    for s in others:
        c, card = sure.get(s, (0.0, ""))
        wolf[s] = c * (card in WOLF_CARDS) + (1 - c) * prior_w
        vamp[s] = c * (card in VAMPIRE_CARDS) + (1 - c) * prior_v
        tan[s] = c * (card == TANNER) + (1 - c) * prior_t
    _vampire_token(k, decay, vamp, vamps, places)
    party = my_party(k)
    # The seat itself, as it believes it is (a Witch may swap with herself).
    wolf[k.seat] = float(party == WEREWOLVES)
    vamp[k.seat] = float(party == VAMPIRES)
    tan[k.seat] = float(party == TANNER_TEAM)
    return Beliefs(k.seat, party, wolf, vamp, tan, wolves > 0, vamps > 0)


def _vampire_token(k: Knowledge, decay: float, vamp: dict[int, float], vamps: int,
                   places: int) -> None:
    """Whoever holds the Vampire token is a vampire, whatever the card says."""
    if not vamps or not k.tokens_in_play:
        return
    holder = k.bitten
    if holder is not None:
        c = confidence(k.tokens[holder], k.token_moves, decay)
        if holder in vamp:
            vamp[holder] = 1 - (1 - vamp[holder]) * (1 - c)
        return
    if k.my_token() == VAMPIRE_TOKEN:
        return
    # Unseen: some player got it if a vampire card was dealt to a player.
    p_dealt = 1 - (1 - k.n / places) ** vamps
    pool = [s for s in vamp if s not in k.vampires and s not in k.tokens]
    for s in pool:
        q = p_dealt / max(1, len(pool))
        vamp[s] = 1 - (1 - vamp[s]) * (1 - q)
