"""The Epic Battle bot plays whole games through views: only legal moves, every
scenario, every difficulty; the same seeds give the same game; it is stronger
than random play for the Village."""

from __future__ import annotations

import pytest

from nightcall.bots.epic.bot import DIFFICULTIES, EpicBot
from nightcall.bots.epic.measure import play, village_wins
from nightcall.engine.actions import Action
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.scenarios import SCENARIOS, build_deck
from nightcall.rulesets.epic.state import EpicState

# Every scenario at its smallest and largest table, and Anarchy at a few sizes.
SETUPS = sorted({(s.id, n) for s in SCENARIOS for n in (s.min_players, s.max_players)}
                | {("anarchy", n) for n in (3, 6, 10)})


def bot_game(scenario: str, players: int, seed: int, difficulty: str) -> EpicState:
    """Every seat an EpicBot; each move checked against the seat's legal list."""
    roles, extra = build_deck(scenario, players, seed)
    st: EpicState = EPIC.deal([f"P{i}" for i in range(players)],
                              roles + ([extra] if extra else []), seed)
    bots = [EpicBot(seed * 16 + s, difficulty) for s in range(players)]
    while not EPIC.is_over(st):
        waiting = EPIC.waiting_for(st)
        assert waiting
        for s in waiting:
            view = EPIC.view(st, s)
            action = bots[s].choose(view)
            assert action is not None
            assert action.to_json() in view["legal"]
            EPIC.apply(st, s, action)
    return st


@pytest.mark.parametrize(("scenario", "players"), SETUPS,
                         ids=[f"{s}-{n}" for s, n in SETUPS])
def test_bots_only_make_legal_moves(scenario: str, players: int) -> None:
    for seed in range(3):
        st = bot_game(scenario, players, seed, DIFFICULTIES[seed % 3])
        assert EPIC.outcome(st) is not None


def test_no_move_without_legal_moves() -> None:
    st = bot_game("the_first_night", 5, 1, "normal")
    view = EPIC.view(st, 0)  # the game is over: nothing to do
    assert view["legal"] == []
    assert EpicBot(0).choose(view) is None


def test_same_seed_same_game() -> None:
    for difficulty in DIFFICULTIES:
        a = bot_game("epic_battle_intertwined_fates", 6, 11, difficulty)
        b = bot_game("epic_battle_intertwined_fates", 6, 11, difficulty)
        assert a.history == b.history
        assert a.outcome is not None and b.outcome is not None
        assert a.outcome.winners == b.outcome.winners


def test_unknown_difficulty_is_refused() -> None:
    with pytest.raises(ValueError, match="difficulty"):
        EpicBot(0, "nightmare")


# Fixed seeds, so the numbers are the same on every run: the reasoning Village
# against random monsters, and random play on both sides (docs/balance/epic_bot.md).
@pytest.mark.parametrize(("scenario", "players", "margin"),
                         [("the_first_night", 5, 0.08), ("nightfall", 5, 0.04)])
def test_reasoning_village_beats_random_village(scenario: str, players: int,
                                                margin: float) -> None:
    seeds = range(300)
    smart = village_wins(scenario, players, seeds, "reasoning", "random")
    rand = village_wins(scenario, players, seeds, "random", "random")
    assert smart >= rand + margin, (smart, rand)


def test_measure_plays_to_the_end() -> None:
    st = play("nightfall", 4, 3, "reasoning:hard", "reasoning:easy")
    assert EPIC.is_over(st)
    assert isinstance(EpicBot(1).choose(EPIC.view(st, 0)), Action | None)


def test_the_simulator_plays_epic_bots() -> None:
    from nightcall.sim.runner import play as sim_play

    roles, extra = build_deck("epic_battle_blood_moon", 6, 5)
    st: EpicState = EPIC.deal([f"P{i}" for i in range(6)], roles + ([extra] if extra else []), 5)
    sim_play(EPIC, st, [EpicBot(s, "hard") for s in range(6)])
    assert EPIC.is_over(st)
