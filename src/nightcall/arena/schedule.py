"""The duplicate format: who sits where in every game of a tournament.

As in duplicate bridge, luck of the deal is taken out by playing each deal
several times with the players moved round. Deal ``d`` is dealt from seed
``game_seed(seed, d)`` (the cards per seat and in the center depend on that seed
alone, not on the names), and played at ``tables`` tables so that every entrant
sits at one (an entrant may fill two chairs of a table when there are fewer
entrants than seats, or when the last table needs filling up). Each table plays
the deal once per *rotation*: with ``n`` seats, ``n`` games, in which each of the
table's chairs visits every seat exactly once. So every entrant plays every seat
of every deal.

Nobody can tell who is who: which chairs an entrant gets, how the chairs are
laid around the table (a random permutation of seats), and each game's player
names (drawn afresh from :data:`NAMES`) are shuffled from the tournament's seed.

Game ``g`` is deal ``g // games_per_deal``; everything about it follows from the
seed and ``g``, so any worker can play any game and get the same result.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from nightcall.arena.config import Tournament
from nightcall.sim.runner import game_seed

# Salts keep the three random streams (deal, chairs, names) independent.
CHAIRS_SALT = 0x5EA7
NAMES_SALT = 0x4A3E5

NAMES = (
    "Ada", "Bram", "Cleo", "Dario", "Edda", "Finn", "Greta", "Hugo", "Ines", "Jonas",
    "Kira", "Luca", "Mila", "Nils", "Olga", "Piet", "Quinn", "Rosa", "Sven", "Tilde",
    "Ugo", "Vera", "Wim", "Xenia", "Yann", "Zora",
)


@dataclass(frozen=True)
class Game:
    index: int
    deal: int
    table: int
    rotation: int
    deal_seed: int
    entrants: tuple[int, ...]  # the entrant (index in the tournament) in each seat
    names: tuple[str, ...]


def deal_seed(t: Tournament, deal: int) -> int:
    return game_seed(t.seed, deal)


@dataclass(frozen=True)
class DealPlan:
    """Everything random about one deal's games, drawn once for all of them."""

    chairs: tuple[int, ...]  # the entrant in each chair, table after table
    layouts: tuple[tuple[int, ...], ...]  # per table: chair j sits in seat layout[j] first
    names: tuple[tuple[str, ...], ...]  # per game of the deal: the seats' names


def plan(t: Tournament, deal: int) -> DealPlan:
    rng = random.Random(game_seed(t.seed ^ CHAIRS_SALT, deal))
    n, count = t.players, len(t.entrants)
    order = list(range(count))
    rng.shuffle(order)
    need = t.tables * n
    if count < n:
        # Fewer entrants than seats: each fills the same number of chairs, give or take one.
        chairs = order * (n // count) + rng.sample(order, n % count)
        rng.shuffle(chairs)
    else:
        # The last table is filled up with entrants who sit at full tables.
        spare = need - count
        full = order[: count - count % n] if count % n else order
        chairs = order + rng.sample(full, spare)
    layouts = tuple(tuple(rng.sample(range(n), n)) for _ in range(t.tables))
    # A fresh draw of names for every game, from a stream of its own.
    pool = _pool(n)
    names_rng = random.Random(game_seed(t.seed ^ NAMES_SALT, deal))
    names = tuple(tuple(names_rng.sample(pool, n)) for _ in range(t.games_per_deal))
    return DealPlan(tuple(chairs), layouts, names)


def game(t: Tournament, index: int, deal_plan: DealPlan | None = None) -> Game:
    """Game ``index``; give the deal's plan when playing several games of one deal."""
    deal, k = divmod(index, t.games_per_deal)
    table, rotation = divmod(k, t.players)
    p = deal_plan or plan(t, deal)
    n = t.players
    seats = [0] * n
    layout = p.layouts[table]
    for j in range(n):
        # Chair j moves one seat along the table's layout with every rotation.
        seats[layout[(j + rotation) % n]] = p.chairs[table * n + j]
    return Game(index, deal, table, rotation, deal_seed(t, deal), tuple(seats), p.names[k])


def games(t: Tournament, indices: Iterable[int]) -> Iterator[Game]:
    """The games ``indices``, each deal's plan drawn once."""
    plans: dict[int, DealPlan] = {}
    for g in indices:
        deal = g // t.games_per_deal
        if deal not in plans:
            plans = {deal: plan(t, deal)}  # games come deal by deal: keep one
        yield game(t, g, plans[deal])


def _pool(n: int) -> tuple[str, ...]:
    """Enough distinct names for ``n`` seats (Lupus seats up to 23; names get a number
    past the list)."""
    if n <= len(NAMES):
        return NAMES
    return NAMES + tuple(f"{NAMES[i % len(NAMES)]} {i // len(NAMES) + 1}"
                         for i in range(len(NAMES), n))


def bot_seed(g: Game, seat: int) -> int:
    """A seat's bot seed: the same for whoever sits there in this deal, so two entrants
    that play a seat of a deal play it under the same dice."""
    return g.deal_seed * 64 + seat
