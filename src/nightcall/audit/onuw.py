"""Who may know what in One Night (one-night-ultimate-werewolf.md, the role table):

- every player knows the card they were dealt, nothing else of the deal;
- the Werewolves (and a Doppelgänger that copied one) see each other when their call
  begins; a lone wolf may look at one center card;
- the Minion sees the Werewolves' thumbs (as does a Doppelgänger-Minion, at once);
- the Masons see each other;
- the Seer sees the one card or two center cards it chose, as they are at that moment;
- the Robber knows the swap and sees its new card; the Troublemaker knows the swap;
  the Drunk knows which center card it took but not what it is;
- the Insomniac sees its own card as it is at its call (the Doppelgänger-Insomniac too);
- the Doppelgänger sees the card it copies and knows what it became;
- claims are public as they are made; ballots only once every seat voted; the cards,
  the deaths and the outcome once the game is over. A spectator knows the public part.

Legal moves go only to the seat the rules ask to act now.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from nightcall.audit.base import (
    Fact,
    OneNightFamilyModel,
    Problems,
    Viewer,
    exact_keys,
    seats,
)
from nightcall.audit.core import GameConfig
from nightcall.engine.actions import Action
from nightcall.engine.errors import DeckError
from nightcall.engine.ruleset import Rules
from nightcall.rulesets.onuw.state import OneNightState

ROLE_IDS = ("doppelganger", "werewolf", "minion", "mason", "seer", "robber",
            "troublemaker", "drunk", "insomniac", "hunter", "tanner", "villager")
# The moves each role's call offers (the Doppelgänger: "copy", then its copy's moves).
MOVES = {
    "doppelganger": {"copy"}, "werewolf": {"look_center", "skip"},
    "seer": {"look", "look_center", "skip"}, "robber": {"swap", "skip"},
    "troublemaker": {"swap_two", "skip"}, "drunk": {"take_center"},
}


@dataclass(frozen=True)
class Snap:
    cards: tuple[str, ...]
    call: str | None
    stage: int


class OnuwModel(OneNightFamilyModel[Snap, OneNightState]):
    PUBLIC_FIELDS = frozenset({"ruleset", "phase", "players", "roles_in_play", "call", "voted",
                               "events"})
    SEAT_FIELDS = frozenset({"seat", "legal"})
    game = "One Night"
    role_ids = ROLE_IDS

    def __init__(self, state: OneNightState) -> None:
        st = state
        super().__init__(st.n, st.names, st.start, st.cards, st.schedule)
        self.lone_wolf = bool(st.options.get("lone_wolf", True))
        self.doppel = self.start.index("doppelganger") if "doppelganger" in self.start else -1
        self.copy: str | None = None
        self._catch_up(state)

    # --- following the game ---------------------------------------------------------
    def snapshot(self, state: OneNightState) -> Snap:
        return Snap(tuple(state.cards), state.call, state.stage)

    def holders(self, role: str) -> list[int]:
        """Who wakes for ``role``: its starting card, or the Doppelgänger's copy."""
        out = [s for s in range(self.n) if self.start[s] == role]
        if self.copy == role and self.doppel >= 0:
            out.append(self.doppel)
        return out

    def _night(self, seat: int, action: Action, before: Snap) -> None:
        call, cards, n = before.call, before.cards, self.n
        if call == "doppelganger" and action.kind == "copy":
            self.copy = cards[action.a]
            self.k.tell(seat, "saw", "seat", action.a, self.copy)
            self.k.tell(seat, "became", self.copy)
            if self.copy == "minion":
                self.k.tell(seat, "thumbs", seats(s for s in range(n)
                                                  if self.start[s] == "werewolf"))
            return
        role = self.copy if call == "doppelganger" else call
        kind, a, b = action
        if kind == "skip":
            return
        if role == "seer" and kind == "look":
            self.k.tell(seat, "saw", "seat", a, cards[a])
        elif role in ("seer", "werewolf") and kind == "look_center":
            for i in (a, b):
                if i >= 0:
                    self.k.tell(seat, "saw", "center", i, cards[n + i])
        elif role == "robber":
            self.k.tell(seat, "swapped", seats((seat, a)))
            self.k.tell(seat, "saw", "seat", seat, cards[a])
        elif role == "troublemaker":
            self.k.tell(seat, "swapped", seats((a, b)))
        elif role == "drunk":
            self.k.tell(seat, "swapped_center", seat, a)
        else:
            raise AssertionError(f"the model has no rule for {kind} in the {call} call")

    def _begin(self, call: str, state: OneNightState) -> None:
        cards = state.cards
        if call == "werewolf":
            wolves = self.holders("werewolf")
            self.k.tell_all(wolves, "wolves", seats(wolves))
        elif call == "minion":
            self.k.tell_all([s for s in range(self.n) if self.start[s] == "minion"],
                            "thumbs", seats(self.holders("werewolf")))
        elif call == "mason":
            masons = self.holders("mason")
            self.k.tell_all(masons, "masons", seats(masons))
        elif call == "insomniac":
            for s in range(self.n):
                if self.start[s] == "insomniac":
                    self.k.tell(s, "saw", "seat", s, cards[s])
        elif call == "doppelganger_insomniac" and self.copy == "insomniac":
            self.k.tell(self.doppel, "saw", "seat", self.doppel, cards[self.doppel])

    # --- checking a view --------------------------------------------------------------
    def check(self, viewer: Viewer, view: dict[str, Any]) -> Problems:
        out = self.check_top(viewer, view) + self.check_table(view)
        got, claims, problems = self.reader.read(viewer, view.get("events", []), self._read)
        out.extend(("leak", p) for p in problems)
        if claims != self.claims:
            out.append(("leak" if len(claims) > len(self.claims) else "missing",
                        f"claims shown {claims} differ from the claims made {self.claims}"))
        out.extend(self.k.compare(viewer, got))
        out.extend(self.check_moves(viewer, view))
        return out

    def expected_moves(self, viewer: int, view: Mapping[str, Any]) -> set[str]:
        state_call = view.get("call") if view.get("phase") == "night" else None
        return self._expected_kinds(viewer, state_call) or set()

    def _expected_kinds(self, viewer: int, call: str | None) -> set[str] | None:
        if call is None:
            if self.over or viewer in self.votes:
                return None
            return {"vote", "abstain"}
        if viewer not in self._actors_for(call):
            return None
        if call == "doppelganger":
            return MOVES["doppelganger"] | MOVES.get(self.copy or "", set())
        return MOVES[call]

    def _actors_for(self, call: str) -> set[int]:
        if call == "doppelganger":
            return {self.doppel}
        if call == "werewolf":
            wolves = self.holders("werewolf")
            return set(wolves) if len(wolves) == 1 and self.lone_wolf else set()
        return set(self.holders(call)) if call in MOVES else set()

    def _read(self, e: dict[str, Any], got: Counter[Fact], claims: list[object]) -> str | None:
        kind = e.get("kind")
        if kind == "deal":
            got["deal", e.get("seat"), e.get("card")] += 1
            return exact_keys(e, "seat", "card")
        if kind in ("wolves", "thumbs", "masons"):
            got[kind, seats(e.get("seats", []))] += 1
            return exact_keys(e, "seats")
        if kind == "saw":
            where = "seat" if "seat" in e else "center"
            got["saw", where, e.get(where), e.get("card")] += 1
            return exact_keys(e, where, "card")
        if kind == "swapped":
            if "center" in e:
                got["swapped_center", e.get("seat"), e.get("center")] += 1
                return exact_keys(e, "seat", "center")
            got["swapped", seats(e.get("seats", []))] += 1
            return exact_keys(e, "seats")
        if kind == "became":
            got["became", e.get("role")] += 1
            return exact_keys(e, "role")
        # --- public ---
        if kind == "call":
            if e.get("role") not in self.schedule:
                return f"call of {e.get('role')!r}, not a role of this deck"
            return exact_keys(e, "role")
        if kind == "dawn":
            return exact_keys(e)
        if kind == "claim":
            claims.append({k: v for k, v in e.items() if k != "kind"})
            return None
        if kind == "votes":
            if not self.over:
                return "ballots shown before every seat voted"
            if e.get("votes") != [self.votes[s] for s in range(self.n)]:
                return f"ballots {e.get('votes')} are not the votes cast"
            return exact_keys(e, "votes")
        if kind in ("died", "reveal"):
            if not self.over:
                return f"{kind!r} before the game is over"
            return exact_keys(e, "deaths") if kind == "died" else exact_keys(e, "cards", "copy")
        return f"event kind {kind!r} that the rules do not explain"


# --- the games the audit plays (Ruleset.audit_games) ---------------------------------


def games(rs: Rules, rng: random.Random) -> Iterator[GameConfig]:
    """Random legal One Night decks, 3-10 players, any mix of the twelve roles."""
    from nightcall.rulesets.onuw import deck

    pool = ["doppelganger", "werewolf", "werewolf", "minion", "mason", "seer", "robber",
            "troublemaker", "drunk", "insomniac", "hunter", "tanner", "villager",
            "villager", "villager"]
    while True:
        players = rng.randint(3, 10)
        need = players + 3
        cards = rng.sample(pool, min(need, len(pool)))
        if rng.random() < 0.3 and "mason" in cards:
            cards = [c for c in cards if c != "mason"]
        if cards.count("mason") == 1:
            cards.append("mason")
        cards = cards[:need] + ["villager"] * max(0, need - len(cards))
        try:
            deck.validate(players, cards)
        except DeckError:
            continue
        yield GameConfig(rs.id, players, cards, rng.randrange(2**31), rs.id)
