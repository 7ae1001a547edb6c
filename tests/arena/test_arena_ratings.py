"""Ratings move the right way: a rigged tournament, and one where nobody differs."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from nightcall.arena.config import Entrant, Tournament
from nightcall.arena.ratings import rate
from nightcall.arena.run import play_games
from nightcall.arena.seats import Context
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import get_ruleset
from nightcall.rulesets.onuw.roles import WEREWOLF

DECK = tuple(get_ruleset("onuw").default_deck(5))


class Peek:
    """The test's window on the game being played (the arena never gives bots the state)."""

    state: Any = None


@pytest.fixture
def peek(monkeypatch: pytest.MonkeyPatch) -> type[Peek]:
    rs = get_ruleset("onuw")
    real_deal = rs.deal

    def deal(*args: Any, **kw: Any) -> Any:
        Peek.state = real_deal(*args, **kw)
        return Peek.state

    monkeypatch.setattr(rs, "deal", deal)
    return Peek


class WolfFinder:
    """Rigged: it sees the cards, and on the village side always votes a werewolf.
    Otherwise it plays at random, as its opponent does."""

    name = "oracle"

    def __init__(self, ruleset: str, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> Action | None:
        legal = [Action.from_json(a) for a in view.get("legal") or ()]
        if not legal:
            return None
        me = view["seat"]
        cards = Peek.state.cards[: len(view["players"])]
        wolves = [s for s, c in enumerate(cards) if c == WEREWOLF and s != me]
        if view["phase"] == "day" and cards[me] != WEREWOLF and wolves:
            return Action("vote", wolves[0])
        return self.rng.choice(legal)


def rigged(deals: int, seed: int = 0) -> Tournament:
    people = (Entrant("oracle", "python", factory=WolfFinder),
              Entrant("coin", "bot", bot="random"))
    return Tournament("onuw", 5, DECK, people, deals, seed)


def test_the_bot_that_votes_the_werewolf_rises_above_the_one_that_votes_at_random(
        peek: type[Peek]) -> None:
    t = rigged(300)
    results = play_games(t, range(t.games), Context())
    ratings = rate(t, results, keep_history=True)
    board = {row["name"]: row for row in ratings.leaderboard()}
    oracle, coin = board["oracle"], board["coin"]
    assert oracle["rank"] == 1 and oracle["score"] > coin["score"]
    for side in ("village", "werewolf"):
        assert oracle[side]["mu"] > coin[side]["mu"], side
        assert oracle[side]["win_rate"] > coin[side]["win_rate"] + 0.1, side
        # Both started at 25 +- 8.3; hundreds of games later they are far surer.
        assert oracle[side]["sigma"] < 25 / 3 / 4 and coin[side]["sigma"] < 25 / 3 / 4
    # As werewolves they meet each other's villages, where the difference shows most:
    # the gap is beyond both uncertainties.
    gap = oracle["werewolf"]["mu"] - coin["werewolf"]["mu"]
    assert gap > oracle["werewolf"]["sigma"] + coin["werewolf"]["sigma"]
    # The ratings were moved game by game, and moved apart.
    hist = ratings.history
    assert len(hist[(0, "village")]) > 1000
    first = hist[(0, "werewolf")][0][1] - hist[(1, "werewolf")][0][1]
    assert abs(first) < 2 < hist[(0, "werewolf")][-1][1] - hist[(1, "werewolf")][-1][1]


def test_with_no_difference_between_entrants_nobody_is_ahead() -> None:
    """Five identical random entrants at five seats: each plays each seat of each deal
    once, under that seat's dice, so all five win exactly the same games."""
    people = tuple(Entrant(f"r{i}", "bot", bot="random") for i in range(5))
    t = Tournament("onuw", 5, DECK, people, 60, 4)
    ratings = rate(t, play_games(t, range(t.games), Context()))
    rows = ratings.leaderboard()
    for side in ("village", "werewolf"):
        assert len({(r[side]["seats"], r[side]["wins"]) for r in rows}) == 1
        mus = [r[side]["mu"] for r in rows]
        assert max(mus) - min(mus) < 0.5 * min(r[side]["sigma"] for r in rows)


def test_a_game_everybody_lost_moves_no_rating() -> None:
    people = (Entrant("a", "bot", bot="random"), Entrant("b", "bot", bot="random"))
    t = Tournament("onuw", 5, DECK, people, 1)
    base = {"deal": 0, "table": 0, "rotation": 0, "entrants": [0, 1, 0, 1, 0],
            "dealt": ["werewolf", "seer", "villager", "werewolf", "robber"], "teams": []}
    ratings = rate(t, [{**base, "game": 0, "winners": []}])
    assert ratings.unrated == 1
    assert all(r["village"]["mu"] == 25 and r["werewolf"]["mu"] == 25
               for r in ratings.leaderboard())
    # The winners' side goes up, the losers' down; seats and wins are counted per side.
    ratings = rate(t, [{**base, "game": 0, "winners": [0, 3], "teams": ["werewolves"]}])
    rows = {r["name"]: r for r in ratings.leaderboard()}
    assert rows["a"]["werewolf"]["mu"] > 25 and rows["b"]["werewolf"]["mu"] > 25
    assert rows["a"]["village"]["mu"] < 25 and rows["b"]["village"]["mu"] < 25
    assert (rows["a"]["village"]["seats"], rows["a"]["werewolf"]["wins"]) == (2, 1)


def test_the_title_counts_one_deal_in_the_singular() -> None:
    """A one-deal tournament's title said "1 deals"."""
    from nightcall.arena.ratings import title

    people = tuple(Entrant(f"r{i}", "bot", bot="random") for i in range(5))
    one = Tournament("onuw", 5, DECK, people, 1, 4)
    said = " ".join(title(rate(one, play_games(one, range(one.games), Context()))).split())
    assert "; 5 games (1 deal × 5 seatings), seed 4" in said
    two = Tournament("onuw", 5, DECK, people, 2, 4)
    said = " ".join(title(rate(two, play_games(two, range(two.games), Context()))).split())
    assert "; 10 games (2 deals × 5 seatings), seed 4" in said


def test_the_title_names_the_game_and_its_scenario_in_words() -> None:
    """The title says the ruleset's and the scenario's names (it said "epic" and the
    scenario's id, or a deck of ids such as "dream_wolf")."""
    from nightcall.arena.config import build
    from nightcall.arena.ratings import title

    t = build({}, {"ruleset": "epic", "players": 5, "scenario": "Blutmond", "games": 5},
              ["random", "reasoning"])
    said = " ".join(title(rate(t, play_games(t, range(t.games), Context()))).split())
    assert said.startswith("One Night Ultimate Werewolf: Epic Battle, 5 players (scenario "
                           "“Epic Battle: Blood Moon”); ")
