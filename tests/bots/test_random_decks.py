"""The reasoning bot on any deck the rules allow: only legal claims and moves.

Session 5 found a 3-player deck (tanner, hunter, drunk, insomniac, villager, minion) on
which the bot claimed a role that is not in the deck: the game refused the claim. The
engine refuses every illegal move with IllegalAction, so a game played to the end by
bots alone is the check; each claim is also compared with ``legal_claims``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall.bots.onuw.bot import OneNightBot
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.roles import DRUNK, HUNTER, INSOMNIAC, MINION, TANNER, VILLAGER
from nightcall.sim.runner import play

from .games import decks


def play_deck(n: int, deck: list[str], seed: int, difficulty: str) -> None:
    game = ONUW.deal([f"P{i}" for i in range(n)], deck, seed)
    bots = [OneNightBot(seed=seed * 100 + s, difficulty=difficulty) for s in range(n)]
    play(ONUW, game, bots)  # an illegal claim or move raises IllegalAction
    assert ONUW.is_over(game)
    assert game.claims  # every bot spoke, and every claim passed the rules' check


@settings(max_examples=150, deadline=None)
@given(decks(), st.integers(0, 2**16), st.sampled_from(["easy", "normal"]))
def test_claims_and_moves_are_legal_on_any_deck(deck: tuple[int, list[str]], seed: int,
                                                difficulty: str) -> None:
    play_deck(*deck, seed, difficulty)


@settings(max_examples=400, deadline=None)
@given(decks(3, 4), st.integers(0, 2**16), st.sampled_from(["easy", "normal", "hard"]))
def test_small_tables_where_decks_lack_whole_roles(deck: tuple[int, list[str]], seed: int,
                                                   difficulty: str) -> None:
    """Three or four players leave most roles out: no Villager, no Werewolf, no Seer."""
    play_deck(*deck, seed, difficulty)


@settings(max_examples=40, deadline=None)
@given(decks(3, 6), st.integers(0, 2**16))
def test_the_hard_bot_too(deck: tuple[int, list[str]], seed: int) -> None:
    play_deck(*deck, seed, "hard")


def test_the_deck_of_session_5() -> None:
    deck = [TANNER, HUNTER, DRUNK, INSOMNIAC, VILLAGER, MINION]
    for seed in range(40):
        for difficulty in ("easy", "normal", "hard"):
            play_deck(3, deck, seed, difficulty)
