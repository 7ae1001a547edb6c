"""Win rates of the Epic Battle bot against random play (docs/balance/epic_bot.md).

    python -m nightcall.bots.epic.measure --games 2000 the_first_night:5 nightfall:5

Seats dealt a werewolf or vampire card (and Renfield) are played by the monster
bot, every other seat by the village bot; each bot sees only its seat's view.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from nightcall.bots.epic.bot import EpicBot
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.actions import Action
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.roles import RENFIELD, VAMPIRE_CARDS, VILLAGE, WOLF_CARDS
from nightcall.rulesets.epic.scenarios import build_deck
from nightcall.rulesets.epic.state import EpicState

Chooser = Callable[[EpicState, int], Action | None]
MONSTER_CARDS = WOLF_CARDS | VAMPIRE_CARDS | {RENFIELD}


def make(spec: str, seed: int) -> Chooser:
    """A seat's player: "random" or "reasoning[:difficulty]", fed its view only."""
    if spec == "random":
        rnd = RandomBot(seed)
        return lambda st, s: rnd.choose_from(EPIC.legal_actions(st, s))
    difficulty = spec.split(":", 1)[1] if ":" in spec else "normal"
    bot = EpicBot(seed, difficulty)
    return lambda st, s: bot.choose(EPIC.view(st, s))


def play(scenario: str, players: int, seed: int, village: str, monsters: str) -> EpicState:
    roles, extra = build_deck(scenario, players, seed)
    names = [f"P{i}" for i in range(players)]
    st: EpicState = EPIC.deal(names, roles + ([extra] if extra else []), seed)
    seats = [make(monsters if st.start[s] in MONSTER_CARDS else village, seed * 64 + s)
             for s in range(players)]
    while not EPIC.is_over(st):
        for s in EPIC.waiting_for(st):
            action = seats[s](st, s)
            if action is not None:
                EPIC.apply(st, s, action)
    return st


def village_wins(scenario: str, players: int, seeds: range, village: str,
                 monsters: str) -> float:
    won = 0
    for seed in seeds:
        outcome = EPIC.outcome(play(scenario, players, seed, village, monsters))
        won += outcome is not None and VILLAGE in outcome.teams
    return won / len(seeds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("setups", nargs="+", help="scenario:players")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    pairs = [("random", "random"), ("reasoning", "random"), ("reasoning:hard", "random"),
             ("random", "reasoning"), ("reasoning", "reasoning")]
    print("| scenario | players | " + " | ".join(f"{v} vs {m}" for v, m in pairs) + " |")
    print("|---|---|" + "---|" * len(pairs))
    for setup in args.setups:
        scenario, players = setup.rsplit(":", 1)
        rates = [village_wins(scenario, int(players), seeds, v, m) for v, m in pairs]
        print(f"| {scenario} | {players} | " + " | ".join(f"{r:.1%}" for r in rates) + " |")


if __name__ == "__main__":
    main()
