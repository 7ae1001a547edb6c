"""Random legal games of every scenario at every player count: they end with a valid
outcome, cards and tokens are only ever permuted, records replay to the same end,
the same seed gives the same game, and no view shows a seat what it may not know."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from nightcall.engine.actions import Action
from nightcall.engine.events import MASTER, visible_to
from nightcall.narration.telling import explain, tell
from nightcall.rulesets.epic.day import end_of_night
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.judge import decide
from nightcall.rulesets.epic.roles import TEAM_NAMES_ALL
from nightcall.rulesets.epic.scenarios import ANARCHY, SCENARIOS, build_deck
from nightcall.rulesets.epic.state import EpicState

ALL_COUNTS = [(s.id, n) for s in (*SCENARIOS, ANARCHY)
              for n in range(s.min_players, s.max_players + 1)]


def play(scenario: str, players: int, seed: int) -> EpicState:
    roles, extra = build_deck(scenario, players, seed)
    names = [f"P{i}" for i in range(players)]
    st = EPIC.deal(names, roles + ([extra] if extra else []), seed)
    start_cards = Counter(st.cards)
    start_tokens = Counter(st.tokens) + Counter(st.board)
    rng = random.Random(seed)
    while not EPIC.is_over(st):
        waiting = EPIC.waiting_for(st)
        assert waiting, "a game that is not over waits for somebody"
        for seat in waiting:
            legal = EPIC.legal_actions(st, seat)
            assert legal
            EPIC.apply(st, seat, rng.choice(legal))
        assert Counter(st.cards) == start_cards  # cards are only permuted
        assert Counter(st.tokens) + Counter(st.board) == start_tokens  # so are tokens
    return st


def check_outcome(st: EpicState) -> None:
    o = EPIC.outcome(st)
    assert o is not None
    dead = o.dead
    assert len(set(dead)) == len(dead) and all(0 <= s < st.n for s in dead)
    assert set(o.teams) <= TEAM_NAMES_ALL
    assert all(0 <= s < st.n for s in o.winners)
    assert explain(o.reasons) and explain(o.reasons)[-1].startswith(("Winners:", "Nobody wins"))
    assert bool(o.winners) == (explain(o.reasons)[-1] != "Nobody wins.")


@pytest.mark.parametrize(("scenario", "players"), ALL_COUNTS,
                         ids=[f"{s}-{n}" for s, n in ALL_COUNTS])
def test_random_games_of_every_scenario_end_well(scenario: str, players: int) -> None:
    for seed in range(4):
        st = play(scenario, players, seed)
        check_outcome(st)
        eager = decide(end_of_night(st))  # the live game explains lazily: same words
        outcome = EPIC.outcome(st)
        assert outcome is not None and explain(outcome.reasons) == explain(eager.reasons)
        assert (outcome.deaths, outcome.winners) == (eager.deaths, eager.winners)
        record = json.loads(json.dumps(EPIC.to_record(st)))
        again = EPIC.replay(record)
        assert EPIC.outcome_json(again) == EPIC.outcome_json(st)
        lines = tell(EPIC, st)  # every event kind reads as a sentence
        assert lines[0].startswith("Dealt:")
        # The end names each seat's token only when token roles could have moved one.
        end = next(line for line in lines if line.startswith("At the end: "))
        assert end.count(" token)") == (players if st.tokens_in_play else 0), end
        assert lines[-len(explain(outcome.reasons)):] == explain(outcome.reasons)
        for viewer in (None, MASTER, *range(players)):  # same state, same views
            assert EPIC.view(again, viewer) == EPIC.view(st, viewer)


@settings(max_examples=40, deadline=None)
@given(hs.sampled_from(ALL_COUNTS), hs.integers(0, 10**6))
def test_same_seed_same_game_and_views(case: tuple[str, int], seed: int) -> None:
    scenario, players = case
    a, b = play(scenario, players, seed), play(scenario, players, seed)
    for viewer in (None, MASTER, *range(players)):
        assert EPIC.view(a, viewer) == EPIC.view(b, viewer)


@settings(max_examples=40, deadline=None)
@given(hs.sampled_from(ALL_COUNTS), hs.integers(0, 10**6))
def test_views_hold_only_what_the_viewer_may_know(case: tuple[str, int], seed: int) -> None:
    scenario, players = case
    roles, extra = build_deck(scenario, players, seed)
    st = EPIC.deal([f"P{i}" for i in range(players)], roles + ([extra] if extra else []), seed)
    rng = random.Random(seed)
    while not EPIC.is_over(st):
        for seat in range(players):
            view = EPIC.view(st, seat)
            allowed = [{"kind": e.kind, **e.data} for e in st.log if visible_to(e, seat)]
            assert view["events"] == allowed
            # Nobody is shown another seat's starting card or the master's deal.
            for e in view["events"]:
                if e["kind"] == "deal":
                    assert e.get("seat") == seat and "cards" not in e
            if seat not in EPIC.waiting_for(st):
                assert view["legal"] == [] or st.phase != 0
        public = EPIC.view(st, None)
        assert all(e["kind"] not in ("deal", "saw", "token", "artifact")
                   for e in public["events"])
        seat = EPIC.waiting_for(st)[0]
        EPIC.apply(st, seat, rng.choice(EPIC.legal_actions(st, seat)))


def test_an_illegal_action_changes_nothing() -> None:
    roles, _ = build_deck("the_first_night", 4)
    st = EPIC.deal(["A", "B", "C", "D"], roles, 1)
    before = EPIC.view(st, MASTER)
    for seat in range(4):
        for bad in (Action("vote", 0), Action("look", 9), Action("fly")):
            if bad not in EPIC.legal_actions(st, seat):
                with pytest.raises(Exception, match="illegal action"):
                    EPIC.apply(st, seat, bad)
    assert EPIC.view(st, MASTER) == before
