"""One seeded bot game through any registered ruleset, and a batch of them.

Bots get what a human gets: ``ruleset.view(state, seat)``. The one shortcut is
for the random bot, which needs nothing but the list of legal moves: it is
handed ``ruleset.legal_actions(state, seat)`` (the same moves, in the same order,
as ``view["legal"]``, so the game is the same) and no view is built.

Seeds: the games of a run with seed S come in blocks of :data:`BLOCK`; block b is
dealt and played from one generator seeded with ``game_seed(S, b)``, game after
game (seeding a generator costs as much as a third of a random game). Workers
get whole blocks, so a game's result does not depend on which worker plays it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from nightcall.bots import Bot, TalkingBot, make_bot
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.ruleset import Ruleset, S, get_ruleset
from nightcall.sim.tally import Tally

MAX_STEPS = 20_000
BLOCK = 100  # games played from one generator, in a row
# Roles whose bot is the --wolves one (every ruleset names its evil roles this way).
# Roles played by the --wolves bot: the werewolf and vampire sides and the lone killers
# (Epic's Count, Master and Renfield are vampires without the word in their id).
WOLF_WORDS = ("wolf", "minion", "possessed", "vampire", "assassin", "hamster",
              "the_count", "the_master", "renfield")


@dataclass(frozen=True)
class Setup:
    ruleset_id: str
    players: int
    deck: tuple[str, ...]
    village: str = "random"
    wolves: str = "random"
    options: dict[str, object] = field(default_factory=dict)
    vampires: str | None = None  # the vampire side's bot (Epic); None: the --wolves one

    def bot_spec(self, role: str) -> str:
        if self.vampires is not None and is_vampire_side(role):
            return self.vampires
        return self.wolves if is_wolf_side(role) else self.village


@cache
def is_wolf_side(role: str) -> bool:
    return any(word in role for word in WOLF_WORDS)


VAMPIRE_WORDS = ("vampire", "the_count", "the_master", "renfield")


@cache
def is_vampire_side(role: str) -> bool:
    return any(word in role for word in VAMPIRE_WORDS)


def game_seed(seed: int, block: int) -> int:
    """A well-spread 63-bit seed for block ``block`` of a run (splitmix64 of both)."""
    x = (seed * 0x9E3779B97F4A7C15 + block + 1) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) >> 1


@cache
def _names(n: int) -> tuple[str, ...]:
    return tuple(f"P{i + 1}" for i in range(n))


def dealt_roles(ruleset: Ruleset[S], state: S, n: int) -> list[str]:
    """Each seat's card at the deal (from ``state.start``, else from each seat's view)."""
    start = getattr(state, "start", None)
    if isinstance(start, tuple | list) and len(start) >= n:
        return list(start[:n])
    out = []
    for seat in range(n):
        deal = next(e for e in ruleset.view(state, seat)["events"] if e["kind"] == "deal")
        out.append(str(deal.get("card") or deal.get("role")))
    return out


def play_game(
    setup: Setup, seed: int | random.Random, ruleset: Ruleset[Any] | None = None
) -> tuple[Any, list[str]]:
    """Play one game to the end; return the final state and the dealt roles.

    ``seed`` is an int, or a generator that the deal and the random bots draw from
    (and that seeds the reasoning bots): a run plays a block of games from one.
    """
    rs = ruleset or get_ruleset(setup.ruleset_id)
    n = setup.players
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    state = rs.deal(_names(n), setup.deck, rng, setup.options or None)
    dealt = dealt_roles(rs, state, n)
    if setup.village == setup.wolves == "random" and setup.vampires in (None, "random"):
        play_random(rs, state, rng)
        return state, dealt
    # A random bot keeps nothing between moves, so one serves every seat of its side;
    # a reasoning bot remembers its seat's night, so it has one each.
    bots_seed = seed if isinstance(seed, int) else rng.getrandbits(56)
    shared = RandomBot(rng)
    bots: list[Bot] = [shared if (spec := setup.bot_spec(dealt[s])) == "random"
                       else make_bot(spec, rs.id, bots_seed * 64 + s) for s in range(n)]
    play(rs, state, bots)
    return state, dealt


def play_random(rs: Ruleset[S], state: S, rng: random.Random) -> None:
    """Every seat a random bot: ``rng.choice`` among the legal moves, as RandomBot
    does, its draws inline (tests/sim/test_simulate.py checks they are the same).
    The inline draws are worth 1.12x the instructions of the simulator's random 5-player
    games (benchmarks/tricks.py --only randbelow, docs/benchmarks.md)."""
    legal, apply, waiting_for, is_over = rs.legal_actions, rs.apply, rs.waiting_for, rs.is_over
    bits = rng.getrandbits
    rounds = 0
    while not is_over(state):
        rounds += 1
        if rounds > MAX_STEPS:  # also a game that waits for seats with nothing to do
            raise RuntimeError(f"no end after {MAX_STEPS} rounds of moves")
        for seat in waiting_for(state):
            options = legal(state, seat)
            if options:
                n = len(options)
                k = n.bit_length()
                j = bits(k)
                while j >= n:  # random's _randbelow(n)
                    j = bits(k)
                apply(state, seat, options[j])


def play(rs: Ruleset[S], state: S, bots: Sequence[Bot]) -> None:
    """Run bots in their seats until the game is over.

    Every seat the game waits for gets a turn, in seat order; a seat whose move
    is no longer wanted (its legal list emptied meanwhile) is skipped.
    """
    # The random bot's shortcut: its RNG's choice over legal_actions, exactly what
    # RandomBot.choose_from does, without the extra call per move.
    fast = [b.rng.choice if type(b) is RandomBot else None for b in bots]
    talking = [(s, b) for s, b in enumerate(bots) if isinstance(b, TalkingBot)]
    # (when no bot weighs claims, the talk changes nobody's move: it is for people)
    talkers = [s for s, _ in talking] if any(b.hears_claims for _, b in talking) else []
    last_phase = None
    legal, apply, waiting_for, is_over = rs.legal_actions, rs.apply, rs.waiting_for, rs.is_over
    for _ in range(MAX_STEPS):
        if is_over(state):
            return
        moved = False
        for seat in waiting_for(state):
            bot = bots[seat]
            pick = fast[seat]
            if pick is not None:
                options = legal(state, seat)
                action = pick(options) if options else None
            else:
                view = rs.view(state, seat)
                phase = view.get("phase")
                if talkers and phase != last_phase and phase == "day":
                    _talk_round(rs, state, bots, talkers)
                    view = rs.view(state, seat)
                last_phase = phase
                action = bot.choose(view)
            if action is not None:
                apply(state, seat, action)
                moved = True
        if not moved:
            raise RuntimeError("the game waits for seats that have nothing to do")
    raise RuntimeError(f"no end after {MAX_STEPS} rounds of moves")


def _talk_round(rs: Ruleset[S], state: S, bots: Sequence[Bot], talkers: list[int]) -> None:
    for s in talkers:
        bot = bots[s]
        assert isinstance(bot, TalkingBot)  # (the talkers were picked so)
        for claim in bot.talk(rs.view(state, s)):
            rs.apply(state, s, claim)


def run_games(setup: Setup, seed: int, first: int, count: int) -> Tally:
    """Games ``first`` .. ``first + count - 1`` of the run with ``seed`` (from the start
    of their block: a run's workers get whole blocks)."""
    rs = get_ruleset(setup.ruleset_id)
    # Counted in bulk at the end (Counter of a list counts in C): a tally update per game
    # cost as much as a tenth of a random game.
    dealt_roles: list[str] = []
    teams: list[str] = []
    winning_roles: list[str] = []
    deaths = nobody_won = 0
    end = first + count
    for block in range(first // BLOCK, (end + BLOCK - 1) // BLOCK):
        rng = random.Random(game_seed(seed, block))
        for g in range(block * BLOCK, min(end, (block + 1) * BLOCK)):
            state, dealt = play_game(setup, rng, rs)
            if g < first:
                continue
            outcome = rs.outcome(state)
            assert outcome is not None
            dealt_roles += dealt
            teams += outcome.teams
            winning_roles += map(dealt.__getitem__, outcome.winners)
            deaths += len(outcome.deaths)
            nobody_won += not outcome.winners
    return Tally(games=count, team_wins=Counter(teams), role_seats=Counter(dealt_roles),
                 role_wins=Counter(winning_roles), deaths=deaths, nobody_won=nobody_won,
                 teams=set(teams))
