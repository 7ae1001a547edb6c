"""The Epic Battle reasoning bot: sensible twilight and night moves, and a vote from
beliefs, all read from the seat's view (``choose(view)``); it never sees the state.

Difficulty:

- ``easy``: four moves in ten at random among the legal ones, the rest as
  ``normal`` but with facts trusted less and no vote plan (ties broken at random);
- ``normal``: the rules of :mod:`.night` and :mod:`.vote`;
- ``hard``: the same with better night play: the Seer always looks at a player
  (a suspect of the vote plan first), the Ghost Hunter stops after one look (a
  second one risks turning him), the Robber does not rob a suspect (he would take
  its monster card out of the vote's way), vampires and the Alpha Wolf always make
  their new monster outside the suspects, and the Curator lays an artifact only on
  a probable monster.

At dawn the bot talks once (:meth:`EpicBot.talk`), as the engine's claims: on the
Village's side the truth (its card, what it saw), on a monster's side a cover story
(docs/rulings.md, Bots).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from nightcall.bots.epic.beliefs import Beliefs, beliefs, monster_kind
from nightcall.bots.epic.knowledge import Knowledge, read_view
from nightcall.bots.epic.night import Choice, choose_night
from nightcall.bots.epic.vote import choose_vote, plan, public_order
from nightcall.bots.reasoning import DIFFICULTIES as DIFFICULTIES  # re-exported
from nightcall.bots.reasoning import ReasoningBot
from nightcall.engine.actions import Action
from nightcall.rulesets.epic.roles import ROLE_IDS, VILLAGE


def decay_for(n: int, difficulty: str) -> float:
    """How much a seen card is still trusted after one card-moving call: a Robber or
    Goblin moves one or two of the n seats' cards, so about 1 - 1.5/n."""
    if difficulty == "easy":
        return 0.5
    return max(0.5, 1.0 - 1.5 / n)


class EpicBot(ReasoningBot):
    careless_odds = 0.4
    hears_claims = False  # its beliefs come from what it saw (a simulation skips the talk)

    def __init__(self, seed: int | None = 0, difficulty: str = "normal") -> None:
        super().__init__(seed, difficulty)
        self._said = False  # (a bot plays one game: it talks once)

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> Action:
        k, b = self.read(view)
        easy = self.difficulty == "easy"
        order = self.rng.sample(range(k.n), k.n) if easy else public_order(view)
        if view.get("phase") == "night":
            suspects = [] if easy else sorted(set(plan(order).values()), key=order.index)
            choice = Choice(legal, k, b, self.rng, self.difficulty == "hard", suspects)
            return choose_night(view.get("call"), choice)
        return choose_vote(legal, k, b, order, split=not easy)

    def read(self, view: Mapping[str, Any]) -> tuple[Knowledge, Beliefs]:
        """The seat's knowledge and beliefs from its view alone."""
        k = read_view(view)
        return k, beliefs(k, decay_for(k.n, self.difficulty))

    def talk(self, view: Mapping[str, Any]) -> list[Action]:
        """What the bot says at dawn, once, as claim actions (``EPIC.apply``): the truth
        on the Village's side (its card, the cards it saw where they are now), a cover
        story on a monster's side (a village card it did not see elsewhere)."""
        if self._said or view.get("phase") != "day":
            return []
        self._said = True
        k, b = self.read(view)
        if b.party != VILLAGE:
            claimed = Counter(str(e["role"]) for e in view.get("events", ())
                              if e.get("kind") == "claim" and "role" in e and "saw" not in e
                              and e.get("seat") != k.seat)
            return [Action("claim", ROLE_IDS.index(_cover(k, claimed)))]
        said = [Action("claim", ROLE_IDS.index(k.start))]
        for place, fact in sorted(k.cards.items()):
            if place in k.revealed or (place == k.seat and fact.value == k.start) \
                    or not k.deck[fact.value]:
                continue  # (a card face up needs no telling, nor its own card; the
                # Alpha Wolf's extra card seen as "some werewolf" is no role to name)
            said.append(Action("claim_saw", place, ROLE_IDS.index(fact.value)))
        return said


# Village roles a monster claims as cover, the quietest first (nothing to report).
COVER_ROLES = ("villager", "the_thing", "insomniac", "goblin", "robber", "seer")


def _cover(k: Knowledge, claimed: Counter[str]) -> str:
    """A village role to claim: a center card it saw (nobody holds it, so nobody can
    contradict it: the rulebook's tip for a lone wolf), else one in play that it did
    not see on another seat, with a card left that nobody has claimed yet (bots talk
    one after another: two monsters do not tell the same story)."""
    for place in range(k.n, k.n + 3):
        fact = k.cards.get(place)
        if fact is not None and _village_role(fact.value) and not claimed[fact.value]:
            return fact.value
    seen = {f.value for p, f in k.cards.items() if p != k.seat}
    for role in COVER_ROLES:
        if k.deck[role] > claimed[role] and role not in seen:
            return role
    # A claim names a role of the deck: the least claimed village one, else its own card.
    village = [r for r in sorted(k.deck) if k.deck[r] and _village_role(r)]
    return min(village, key=lambda r: claimed[r], default=k.start)


def _village_role(role: str) -> bool:
    """A role a monster may claim as cover: no monster, nor a loner of its own."""
    return monster_kind(role) is None and role not in ("tanner", "assassin", "renfield")
