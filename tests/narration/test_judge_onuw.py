"""The who-has-won check for a real One Night table."""

from __future__ import annotations

import random

import pytest

from nightcall.bots.random_bot import RandomBot
from nightcall.narration.telling import explained
from nightcall.rulesets.onuw.deck import recommended
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.judge import TableError, judge

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena"]


def table(cards: list[str], votes: dict[str, str], **extra: object) -> dict[str, object]:
    names = NAMES[: len(cards)]
    return {"players": names, "cards": dict(zip(names, cards, strict=True)), "votes": votes,
            **extra}


def test_the_rulebooks_example_round() -> None:
    # one-night-ultimate-werewolf.md, "Example round": final cards after the night.
    t = table(["A♠", "J♣", "K♥", "2♦", "Q♣"],
              {"Anna": "Dario", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna",
               "Elena": "Anna"})
    out = explained(judge(t).to_json(NAMES))
    assert out["dead"] == ["Anna"]
    assert out["teams"] == ["village"]
    assert out["winners"] == ["Bruno", "Carla", "Dario", "Elena"]
    assert any("Anna" in line and "dies" in line for line in out["explanation"])


def test_hunter_takes_the_one_they_point_at() -> None:
    t = table(["hunter", "werewolf", "seer", "villager"],
              {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Carla"})
    out = judge(t).to_json(NAMES[:4])
    assert out["dead"] == ["Anna", "Bruno"]
    assert out["causes"] == {"Anna": "votes", "Bruno": "hunter"}
    assert out["teams"] == ["village"]


def test_tanner_dies_alone_so_only_the_tanner_wins() -> None:
    t = table(["tanner", "werewolf", "seer", "villager"],
              {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"})
    out = judge(t).to_json(NAMES[:4])
    assert out["winners"] == ["Anna"]
    assert out["teams"] == ["tanner"]


def test_nobody_dies_without_werewolves_the_village_wins() -> None:
    t = table(["minion", "seer", "robber"], {"Anna": "Bruno", "Bruno": "Carla",
                                            "Carla": "Anna"})
    out = judge(t).to_json(NAMES[:3])
    assert out["dead"] == []
    assert out["teams"] == ["village"]
    assert "Anna" not in out["winners"]


def test_the_doppelganger_counts_as_what_it_copied() -> None:
    base = ["doppelganger", "werewolf", "seer", "villager"]
    votes = {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna", "Dario": "Anna"}
    as_wolf = judge(table(base, votes, doppelganger="werewolf")).to_json(NAMES[:4])
    assert as_wolf["teams"] == ["village"]  # a werewolf (the copy) died
    as_seer = judge(table(base, votes, doppelganger="seer")).to_json(NAMES[:4])
    # As a Seer, Anna is on the village side: she dies, the Werewolf lives.
    assert as_seer["teams"] == ["werewolves"]
    assert as_seer["winners"] == ["Bruno"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"votes": {"Anna": "Anna"}}, "points at themselves"),
        ({"votes": {"Anna": "Zoe"}}, "'Zoe', who is not seated"),
        ({"votes": {"Zoe": "Anna"}}, "'Zoe' is not seated"),
        ({"cards": {"Anna": "wizard", "Bruno": "seer", "Carla": "robber"}}, "'wizard'"),
        ({"cards": {"Anna": "seer"}}, "no final card given for Bruno, Carla"),
        ({"players": ["Anna", "Anna", "Carla"]}, "same name"),
        ({"doppelganger": "seer"}, "no card is the Doppelgänger"),
        ({"center": ["seer"]}, "3 center cards"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(change: dict, message: str) -> None:
    t = table(["werewolf", "seer", "robber"], {"Anna": "Bruno"})
    t.update(change)
    with pytest.raises(TableError, match=message):
        judge(t)


def test_a_table_judges_like_the_played_game() -> None:
    """Random games to the end; judging their final cards and votes gives the same end."""
    rng = random.Random(7)
    for game in range(150):
        n = rng.randint(3, 7)
        deck = recommended(n)
        if rng.random() < 0.5 and n >= 4:
            deck = recommended(n, add=["doppelganger", "hunter", "tanner", "minion"])
        names = [f"P{i}" for i in range(n)]
        st = ONUW.deal(names, deck, seed=game)
        bot = RandomBot(game)
        while not ONUW.is_over(st):
            for s in ONUW.waiting_for(st):
                action = bot.choose(ONUW.view(st, s))
                assert action is not None
                ONUW.apply(st, s, action)
        played = ONUW.outcome(st)
        assert played is not None
        t = {
            "players": names,
            "cards": {names[s]: st.cards[s] for s in range(n)},
            "center": st.cards[n:],
            "votes": {names[s]: names[v] for s, v in enumerate(st.votes) if v >= 0},
        }
        if st.copy is not None:
            t["doppelganger"] = st.copy
        judged = judge(t)
        assert judged.deaths == played.deaths, game
        assert judged.teams == played.teams, game
        assert judged.winners == played.winners, game
