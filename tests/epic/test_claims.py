"""Epic Battle talk on the phones, as in One Night: "During the Day you discuss ...
You may claim anything" (rulebook, "Day"). A claim names a role of the deck, a card
seen or a swap made; it is talk, never a move (the vote and the end are unchanged),
it is refused at night, and the record keeps it so that the game replays exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.narration.telling import tell
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.roles import ROLE_IDS
from nightcall.rulesets.epic.scenarios import SCENARIOS, build_deck
from nightcall.rulesets.epic.state import DAY, EpicState


def to_day(scenario: str, players: int, seed: int) -> tuple[EpicState, random.Random]:
    roles, extra = build_deck(scenario, players, seed)
    names = [f"P{i}" for i in range(players)]
    st = EPIC.deal(names, roles + ([extra] if extra else []), seed)
    rng = random.Random(seed)
    while st.phase != DAY and not EPIC.is_over(st):
        for seat in EPIC.waiting_for(st):
            EPIC.apply(st, seat, rng.choice(EPIC.legal_actions(st, seat)))
    return st, rng


def finish(st: EpicState, rng: random.Random) -> None:
    while not EPIC.is_over(st):
        for seat in EPIC.waiting_for(st):
            EPIC.apply(st, seat, rng.choice(EPIC.legal_actions(st, seat)))


def test_claims_name_the_decks_roles_seats_and_center_cards_and_only_by_day() -> None:
    roles, extra = build_deck("nightfall", 5, 3)
    st = EPIC.deal([f"P{i}" for i in range(5)], roles + ([extra] if extra else []), 3)
    assert EPIC.legal_claims(st, 0) == ()  # the night: nothing to say yet
    with pytest.raises(IllegalAction, match="claims are made during the day"):
        EPIC.apply(st, 0, Action("claim", ROLE_IDS.index(st.deck[0])))
    st, _ = to_day("nightfall", 5, 3)
    claims = EPIC.legal_claims(st, 0)
    said = {ROLE_IDS[a.a] for a in claims if a.kind == "claim"}
    assert said == set(st.deck)
    saw = {a.a for a in claims if a.kind == "claim_saw"}
    assert saw == set(range(5 + 3))  # every seat (one's own too) and the three center cards
    assert {a.kind for a in claims} == {"claim", "claim_saw", "claim_swap"}
    absent = next(r for r in ROLE_IDS if r not in st.deck)
    with pytest.raises(IllegalAction, match="a role in the deck"):
        EPIC.apply(st, 0, Action("claim", ROLE_IDS.index(absent)))
    before = list(st.votes)
    EPIC.apply(st, 2, Action("claim_saw", 6, ROLE_IDS.index(st.deck[1])))
    EPIC.apply(st, 2, Action("claim_swap", 0, 1))
    assert st.votes == before and EPIC.waiting_for(st) == tuple(range(5))  # talk only
    lines = tell(EPIC, st, "en")
    assert any(line.strip().startswith("P2") and "center card 2" in line for line in lines)
    events = [e for e in EPIC.view(st, None)["events"] if e["kind"] == "claim"]
    assert events == [{"kind": "claim", "seat": 2, "saw": 6, "role": st.deck[1]},
                      {"kind": "claim", "seat": 2, "swapped": [0, 1]}]


@settings(max_examples=40, deadline=None)
@given(hs.sampled_from([s.id for s in SCENARIOS]), hs.integers(0, 2**31))
def test_talk_changes_no_outcome_and_the_record_replays_it(scenario: str, seed: int) -> None:
    spec = next(s for s in SCENARIOS if s.id == scenario)
    players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    quiet, _ = to_day(scenario, players, seed)
    talky, _ = to_day(scenario, players, seed)
    finish(quiet, random.Random(seed))
    # The same votes after every seat said two things (their own generator).
    said = random.Random(~seed)
    for seat in EPIC.waiting_for(talky):
        for _ in range(2):
            EPIC.apply(talky, seat, said.choice(EPIC.legal_claims(talky, seat)))
    finish(talky, random.Random(seed))
    assert EPIC.outcome_json(talky) == EPIC.outcome_json(quiet)
    record = EPIC.to_record(talky)
    again = EPIC.replay(record)
    assert EPIC.view(again, None)["events"] == EPIC.view(talky, None)["events"]
    assert EPIC.to_record(again) == record
