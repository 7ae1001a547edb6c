"""The bots: legal moves, honest claims, secrets kept, and reasoning that pays off."""

from __future__ import annotations

import random

import pytest

from nightcall.bots import make_bot
from nightcall.bots.onuw.bot import OneNightBot
from nightcall.engine.ruleset import get_ruleset
from nightcall.rulesets.onuw.game import ONUW
from nightcall.rulesets.onuw.roles import ROLE_IDS
from nightcall.rulesets.onuw.state import NIGHT
from nightcall.sim.parallel import simulate
from nightcall.sim.runner import Setup, play

DECK5 = ONUW.recommended_deck(5)


def night_with_choices(deal: list[str], choices: random.Random) -> object:
    st = ONUW.new_game([f"P{i}" for i in range(5)], deal)
    while st.phase == NIGHT:
        ONUW.apply(st, st.actor, choices.choice(list(ONUW.legal_actions(st, st.actor))))
    return st


def day_decisions(st: object, seat: int, difficulty: str) -> tuple[list[object], object]:
    """What a fresh bot in ``seat`` says and votes, everything else fixed."""
    bot = OneNightBot(seed=99, difficulty=difficulty)
    said = bot.talk(ONUW.view(st, seat))
    return said, bot.choose(ONUW.view(st, seat))


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_bot_cannot_read_what_its_seat_may_not_know(difficulty: str) -> None:
    """Two games that differ only in cards the seat never saw (and so give it the
    same view) get the same claims and the same vote from the same bot."""
    pairs = 0
    for game in range(12):
        deal = list(DECK5)
        random.Random(game).shuffle(deal)
        a = night_with_choices(deal, random.Random(1000 + game))
        for seat in range(5):
            view_a = ONUW.view(a, seat)
            for attempt in range(40):
                other = list(DECK5)
                random.Random(game * 1000 + seat * 50 + attempt).shuffle(other)
                b = night_with_choices(other, random.Random(1000 + game))
                if b.cards == a.cards or ONUW.view(b, seat) != view_a:  # type: ignore[attr-defined]
                    continue
                pairs += 1
                assert day_decisions(a, seat, difficulty) == day_decisions(b, seat, difficulty)
                break
    assert pairs >= 20  # the search found enough pairs of games for the test to mean something


@pytest.mark.parametrize("spec", ["random", "reasoning:easy", "reasoning", "reasoning:hard"])
def test_bots_finish_games_with_legal_moves_only(spec: str) -> None:
    rs = get_ruleset("onuw")
    games = 6 if spec.endswith("hard") else 40
    for g in range(games):
        players = 3 + g % 6
        deck = rs.default_deck(players)
        st = rs.deal([f"P{i}" for i in range(players)], deck, g)
        play(rs, st, [make_bot(spec, "onuw", g * 10 + s) for s in range(players)])
        assert rs.is_over(st)  # apply() refuses illegal moves, so getting here means legal


def test_village_tells_the_truth_and_werewolves_do_not_claim_werewolf() -> None:
    rs = get_ruleset("onuw")
    checked = 0
    for g in range(60):
        st = rs.deal([f"P{i}" for i in range(5)], DECK5, g)
        play(rs, st, [make_bot("reasoning", "onuw", g * 10 + s) for s in range(5)])
        for seat, data in st.claims:
            if "role" not in data or "saw" in data:
                continue
            dealt = st.start[seat]
            if dealt == "werewolf":
                assert data["role"] != "werewolf"
            elif dealt not in ("robber",):  # a Robber that stole a Werewolf lies
                assert data["role"] == dealt
                checked += 1
    assert checked > 100


def test_seer_claims_what_it_saw() -> None:
    from nightcall.engine.actions import Action

    deal = ["seer", "werewolf", "villager", "villager", "robber", "werewolf", "troublemaker",
            "villager"]
    st = ONUW.new_game([f"P{i}" for i in range(5)], deal)
    ONUW.apply(st, 1, Action("skip"))  # the lone wolf
    ONUW.apply(st, 0, Action("look", 1))
    ONUW.apply(st, 4, Action("skip"))
    said = OneNightBot(0).talk(ONUW.view(st, 0))
    assert Action("claim", ROLE_IDS.index("seer")) in said
    assert Action("claim_saw", 1, ROLE_IDS.index("werewolf")) in said
    # ... and votes for the Werewolf it saw.
    for s in range(1, 5):
        ONUW.apply(st, s, Action("abstain"))
    assert OneNightBot(0).choose(ONUW.view(st, 0)) == Action("vote", 1)


def test_reasoning_village_wins_more_than_random_village() -> None:
    deck = tuple(DECK5)
    random_v, _ = simulate(Setup("onuw", 5, deck, "random", "random"), 500, seed=4, workers=1)
    reasoning_v, _ = simulate(Setup("onuw", 5, deck, "reasoning", "random"), 500, seed=4,
                              workers=1)
    assert reasoning_v.team_wins["village"] > random_v.team_wins["village"] + 50


def test_make_bot_names() -> None:
    assert make_bot("random", "lupus", 1).name == "random"
    bot = make_bot("reasoning:hard", "onuw", 1)
    assert isinstance(bot, OneNightBot) and bot.difficulty == "hard"
    with pytest.raises(ValueError):
        make_bot("clever", "onuw")
    with pytest.raises(ValueError):
        make_bot("reasoning:genius", "onuw")
