"""Standard 52-card deck stand-ins for role cards, both ways.

Rulesets that can be played with an ordinary deck (One Night, Lupus) give a
:class:`CardMap`: exact cards for face cards and aces, plus one role for all
number cards 2-10. Cards are written as the rules pages write them ("A♠",
"10♣", "JOKER"); letter suits ("AS", "10c") are accepted on input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from nightcall.engine.errors import DeckError

SUITS = "♠♥♦♣"
_SUIT_LETTERS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
NUMBER_RANKS = RANKS[1:10]
JOKER = "JOKER"


def parse_playing_card(text: str) -> str | None:
    """Normalise a playing card ("a♠", "10C", "joker", "★") or return None if it is not one."""
    t = text.strip().upper()
    if t in (JOKER, "★", "JK"):
        return JOKER
    if len(t) < 2:
        return None
    rank, suit = t[:-1], t[-1]
    suit = _SUIT_LETTERS.get(suit, suit)
    if suit not in SUITS or rank not in RANKS:
        return None
    return rank + suit


class CardMap:
    """Maps playing cards to role ids for one ruleset."""

    def __init__(self, exact: Mapping[str, str], numbers: str) -> None:
        self.exact = dict(exact)
        self.numbers = numbers
        self._by_role: dict[str, list[str]] = {}
        for card, role in self.exact.items():
            self._by_role.setdefault(role, []).append(card)
        # Number cards in a fixed, easy-to-find order: 2♠..10♠, then 2♥..10♥, ...
        self._by_role.setdefault(numbers, []).extend(
            rank + suit for suit in SUITS for rank in NUMBER_RANKS
        )

    def role_of(self, card: str) -> str | None:
        c = parse_playing_card(card)
        if c is None:
            return None
        if c in self.exact:
            return self.exact[c]
        if c[:-1] in NUMBER_RANKS:
            return self.numbers
        return None

    def cards_of(self, role: str) -> list[str]:
        return list(self._by_role.get(role, ()))

    def cards_to_pull(self, roles: Iterable[str]) -> list[str]:
        """The playing cards to take out of a 52-card deck for these roles, in order."""
        need = Counter(roles)
        pulled: dict[str, list[str]] = {}
        for role, count in need.items():
            available = self._by_role.get(role, [])
            if len(available) < count:
                raise DeckError(
                    f"a standard deck has only {len(available)} card(s) for {role!r}, "
                    f"the deck needs {count}"
                )
            pulled[role] = available[:count]
        out: list[str] = []
        taken: Counter[str] = Counter()
        for role in roles:
            out.append(pulled[role][taken[role]])
            taken[role] += 1
        return out
