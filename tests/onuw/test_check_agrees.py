"""One who-has-won check: its explanation and its verdict agree, on random games.

Source: issue 13, "One who-has-won check per ruleset, as named steps that both decide
and explain, with a test that the explanation and the verdict agree on random games";
one-night-ultimate-werewolf.md, "Who wins". The verdict (deaths, teams, winners) is
read back from the reasons alone and compared with the outcome's fields; the quiet
run of a live game and the talking run of ``decide`` must give the same outcome.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st_

from nightcall.engine.outcome import Outcome, Reason
from nightcall.narration.telling import explain
from nightcall.rulesets.onuw.day import decide
from nightcall.rulesets.onuw.roles import TANNER_TEAM, VILLAGE, WEREWOLVES

from .test_properties import decks, play_random

VILLAGE_WINS = {"onuw.village_wins", "onuw.village_wins_no_wolf"}
WOLVES_WIN = {"onuw.wolves_win", "onuw.wolves_win_minion", "onuw.minion_wins"}
STEP_KEYS = {  # each step of "Who wins" says exactly one of these
    "village": VILLAGE_WINS | {"onuw.village_loses", "onuw.village_loses_no_wolf"},
    "wolves": {"onuw.wolves", "onuw.no_wolves"},
    "end": {"winners", "nobody_wins"},
}


def as_names(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def verdict_of(reasons: tuple[Reason, ...]) -> tuple[list[str], set[str], list[str]]:
    """Deaths (in order), winning teams and winners, as the reasons tell them."""
    dead: list[str] = []
    teams: set[str] = set()
    winners: list[str] = []
    for key, args in reasons:
        if key in ("onuw.voted_out", "onuw.tie"):
            dead += as_names(args.get("name", args.get("names")))
        elif key == "onuw.hunter":
            dead.append(str(args["name"]))
        elif key in VILLAGE_WINS:
            teams.add(VILLAGE)
        elif key in WOLVES_WIN:
            teams.add(WEREWOLVES)
        elif key == "onuw.tanner_wins":
            teams.add(TANNER_TEAM)
        elif key == "winners":
            winners = as_names(args["names"])
    return dead, teams, winners


def check_agrees(out: Outcome, names: tuple[str, ...]) -> None:
    dead, teams, winners = verdict_of(out.reasons)
    assert dead == [names[d.seat] for d in out.deaths]
    assert teams == set(out.teams)
    assert winners == [names[s] for s in out.winners]
    keys = [r.key for r in out.reasons]
    for step, allowed in STEP_KEYS.items():
        assert sum(k in allowed for k in keys) == 1, (step, keys)
    assert keys[-1] in STEP_KEYS["end"]


@settings(max_examples=300, deadline=None)
@given(decks(), st_.integers(0, 2**32))
def test_the_explanation_and_the_verdict_agree(deck: tuple[int, list[str]], seed: int) -> None:
    players, roles = deck
    st, _ = play_random(players, roles, seed)
    live = st.outcome
    assert live is not None
    check_agrees(live, st.names)
    eager = decide(st.names, st.cards, st.votes, st.copy)  # the same check, talking at once
    assert eager == live
    assert explain(eager.reasons) == explain(live.reasons)


@settings(max_examples=300, deadline=None)
@given(decks(), st_.integers(0, 2**32), st_.data())
def test_they_agree_on_any_votes(deck: tuple[int, list[str]], seed: int,
                                 data: st_.DataObject) -> None:
    """Votes drawn freely (ties, Hunters pointing anywhere, nobody pointing), the cards
    of a random night."""
    players, roles = deck
    st, _ = play_random(players, roles, seed)
    votes = [data.draw(st_.sampled_from([-1, *(t for t in range(players) if t != s)]))
             for s in range(players)]
    out = decide(st.names, list(st.cards), votes, st.copy)
    check_agrees(out, st.names)
    assert decide(st.names, list(st.cards), votes, st.copy, explain_now=False) == out
