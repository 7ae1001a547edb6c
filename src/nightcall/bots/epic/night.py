"""The bot's twilight and night choices, one small rule per call, always from ``legal``.

A :class:`Choice` is what a rule needs: the legal moves, the seat's knowledge and
beliefs, a seeded RNG and the difficulty. Rules pick among the moves of the kinds
they want and fall back to any legal move, so an unexpected option list never
makes the bot return something illegal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from nightcall.bots.epic.beliefs import Beliefs, monster_kind
from nightcall.bots.epic.knowledge import Knowledge
from nightcall.engine.actions import Action
from nightcall.rulesets.epic.roles import TANNER, VILLAGE

CURATOR_BAR = 0.4  # an artifact is as likely to make a monster as to unmake one: only
# lay it on a seat that is probably a monster already (a Brand or Club removes it).
SEER_PLAYER_ODDS = 0.75  # normal: a player's card tells more for the vote than the center


@dataclass
class Choice:
    legal: list[Action]
    k: Knowledge
    b: Beliefs
    rng: random.Random
    hard: bool
    suspects: list[int]  # whom the Village's vote plan will point at (public, :mod:`.vote`)

    def of(self, *kinds: str) -> list[Action]:
        return [a for a in self.legal if a.kind in kinds]

    def best(self, options: Iterable[Action], score: Callable[[Action], float]) -> Action:
        """The best-scoring option, ties broken by the seeded RNG."""
        opts = list(options) or self.legal
        top = max(score(a) for a in opts)
        return self.rng.choice([a for a in opts if score(a) >= top - 1e-9])

    def unknown(self, seat: int) -> float:
        """How little the seat knows about ``seat``'s card (1 = nothing)."""
        return 0.0 if seat in self.k.cards or seat == self.k.seat else 1.0

    def non_allies(self, options: list[Action]) -> list[Action]:
        allies = self.b.allies()
        return [a for a in options if a.a not in allies] or options

    def suspect(self, options: list[Action]) -> Action | None:
        """The option on the first suspect that is not this seat."""
        for t in self.suspects:
            if t != self.k.seat:
                hit = next((a for a in options if a.a == t), None)
                if hit is not None:
                    return hit
        return None

    def not_suspects(self, options: list[Action]) -> list[Action]:
        return [a for a in options if a.a not in self.suspects] or options

    def any_move(self) -> Action:
        moves = [a for a in self.legal if a.kind != "skip"]
        return self.rng.choice(moves or self.legal)


def choose_night(call: str | None, c: Choice) -> Action:
    rule = RULES.get(call or "")
    return rule(c) if rule is not None else c.any_move()


# --- twilight -----------------------------------------------------------------------


def _random_target(c: Choice) -> Action:
    """Twilight tokens go out before anyone has seen anything: any legal seat, not
    oneself when avoidable."""
    others = [a for a in c.legal if a.kind != "skip" and a.a != c.k.seat]
    return c.rng.choice(others or c.legal)


def _bite(c: Choice) -> Action:
    """Vampires and the Alpha Wolf make a new monster out of the Village's suspects'
    way: a seat the vote plan does not point at."""
    others = [a for a in c.legal if a.kind != "skip" and a.a != c.k.seat]
    return c.rng.choice(c.not_suspects(others) if c.hard or c.rng.random() < 0.5
                        else others or c.legal)


def _assassin(c: Choice) -> Action:
    # The Bounty goes where the votes will go: on the Village's first suspect.
    targets = [a for a in c.of("token") if a.a != c.k.seat]
    return c.suspect(targets) or c.rng.choice(targets or c.legal)


def _venus(c: Choice) -> Action:
    # Lovers die together: for the Village a second death can only add a monster.
    pairs = [a for a in c.of("token_two") if c.k.seat not in (a.a, a.b)]
    if c.b.party != VILLAGE:
        return c.rng.choice(c.of("skip") or c.legal)
    return c.best(pairs, lambda a: c.b.monster(a.a) + c.b.monster(a.b))


def _instigator(c: Choice) -> Action:
    # The Traitor on a monster makes it root for its own pack's loss.
    targets = [a for a in c.of("token") if a.a != c.k.seat]
    if c.b.party != VILLAGE:
        return c.rng.choice(c.of("skip") or c.legal)
    return c.best(targets, lambda a: c.b.monster(a.a))


def _priest(c: Choice) -> Action:
    """He has healed himself already. Healing a stranger blind cannot help the Village:
    a vampire it removes is one fewer the vote could catch, and if it was the only
    one, the Village must then kill nobody. So he heals only at easy (random)."""
    return next(iter(c.of("skip")), c.rng.choice(c.legal))


# --- night ------------------------------------------------------------------------------


def _look_center(c: Choice) -> Action:
    return c.rng.choice(c.of("look_center") or c.legal)


def _sight_wolf(c: Choice) -> Action:
    return c.best(c.non_allies(c.of("look")), lambda a: c.unknown(a.a))


def _seer(c: Choice) -> Action:
    players = c.of("look")
    if players and (c.hard or c.rng.random() < SEER_PLAYER_ODDS):
        # A suspect of the vote plan: whether the plan points at a monster matters most.
        if c.b.party == VILLAGE:
            hit = c.suspect([a for a in players if c.unknown(a.a)])
            if hit is not None:
                return hit
        return c.best(c.non_allies(players), lambda a: c.unknown(a.a))
    return c.rng.choice(c.of("look_center") or c.legal)


def _ghost_hunter(c: Choice) -> Action:
    # Every look risks turning him into what he sees: hard stops after one.
    looks = c.of("look")
    second = any(e["kind"] == "saw" for e in c.k.this_call)
    if second and c.hard and c.of("skip"):
        return c.of("skip")[0]
    return c.best(c.non_allies(looks), lambda a: c.unknown(a.a))


def _tracker(c: Choice) -> Action:
    looks = c.of("look")
    if looks:
        return c.best(c.non_allies(looks), lambda a: c.unknown(a.a))
    tokens = c.of("look_token")
    return c.best(tokens, lambda a: 0.0 if a.a in c.k.tokens else 1.0)


def _robber(c: Choice) -> Action:
    # Steal from someone unknown: the card seen afterwards is one more sure fact. Hard:
    # not from a suspect of the vote plan, whose monster card he would take away.
    swaps = c.non_allies(c.of("swap"))
    if c.hard and c.b.party == VILLAGE:
        swaps = c.not_suspects(swaps)
    return c.best(swaps, lambda a: c.unknown(a.a))


def _witch(c: Choice) -> Action:
    if c.of("look_center"):
        return c.rng.choice(c.of("look_center"))
    seen = _witch_card(c)
    swaps = c.of("swap_center")
    if c.b.party == VILLAGE or seen is None:
        others = [a for a in swaps if a.a != c.k.seat]
        if seen is not None and monster_kind(seen) is not None:
            # A monster card on a suspect of the vote plan: the vote will catch it.
            return c.suspect(others) or c.best(others, lambda a: c.b.monster(a.a))
        if seen == TANNER:
            return c.rng.choice(c.not_suspects(others))  # not on one the vote kills
        # A villager card changes nothing for herself; given away it may unmake a monster.
        return next((a for a in swaps if a.a == c.k.seat), c.rng.choice(swaps))
    if monster_kind(seen) == c.b.party:
        return next((a for a in swaps if a.a == c.k.seat), c.rng.choice(swaps))
    return c.best(c.non_allies(swaps), lambda a: -c.b.same_party(a.a))


def _witch_card(c: Choice) -> str | None:
    """The center card the Witch has just looked at."""
    seen = [e for e in c.k.this_call if e["kind"] == "saw" and "center" in e]
    return str(seen[-1]["card"]) if seen else None


def _goblin(c: Choice) -> Action:
    # Swapping blind spoils what the Village's seers learned: the Village leaves it.
    skip = c.of("skip")
    if c.b.party == VILLAGE and skip:
        return skip[0]
    allies = c.b.allies() | {c.k.seat}
    swaps = [a for a in c.of("swap_two") if a.a not in allies and a.b not in allies]
    return c.rng.choice(swaps or c.legal)


def _enlightener(c: Choice) -> Action:
    # Revealing a suspect's villager card clears it in public: the plan moves on.
    reveals = c.non_allies(c.of("reveal"))
    if c.b.party == VILLAGE:
        hit = c.suspect([a for a in reveals if c.unknown(a.a) or c.b.monster(a.a) < 0.5])
        if hit is not None:
            return hit
    return c.best(reveals, lambda a: c.unknown(a.a) + c.b.monster(a.a))


def _curator(c: Choice) -> Action:
    targets = [a for a in c.of("artifact") if a.a != c.k.seat]
    if c.b.party == VILLAGE:
        best = c.best(targets, lambda a: c.b.monster(a.a))
        if not c.hard:
            # A Claw or a Bite on a suspect makes the vote's victim a monster.
            return c.suspect(targets) or best
        bar = CURATOR_BAR if c.hard else CURATOR_BAR / 2
        if c.b.monster(best.a) >= bar or not c.of("skip"):
            return best
        return c.of("skip")[0]
    return c.rng.choice(c.of("skip") or c.legal)


RULES: dict[str, Callable[[Choice], Action]] = {
    "mimic": lambda c: c.rng.choice(c.legal),
    "vampires": _bite,
    "the_count": _random_target,
    "infected": _random_target,
    "venus": _venus,
    "instigator": _instigator,
    "priest": _priest,
    "assassin": _assassin,
    "werewolves": _look_center,
    "werewolves_dream_wolf": _look_center,
    "alpha_wolf": _bite,
    "sight_wolf": _sight_wolf,
    "the_thing": lambda c: c.rng.choice(c.of("tap") or c.legal),
    "seer": _seer,
    "ghost_hunter": _ghost_hunter,
    "tracker": _tracker,
    "robber": _robber,
    "witch": _witch,
    "goblin": _goblin,
    "enlightener": _enlightener,
    "curator": _curator,
}
