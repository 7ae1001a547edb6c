"""What the Lupus state keeps between moves instead of recomputing it (the day's
accusation choices, the living werewolves and humans) always equals what the rule
sentences give when worked out from scratch, after every move of random games.
Source: lupus-in-tabula.md, "The accusation round" (each player in turn, clockwise from
the left of the last to die, accuses a living player or nobody), "Objective" and "The end"
(the werewolves win once they are as many as the humans), "Variants" (Mythomaniac)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as strat

from nightcall.engine.actions import Action
from nightcall.rulesets.lupus import day
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.state import ACCUSE, DAY, OVER, LupusState


def _recounted(st: LupusState) -> tuple[int, int]:
    living = [st.roles[s] for s in range(st.n) if st.alive[s]]
    wolves = living.count("werewolf")
    return wolves, len(living) - wolves


def _accusation_from_scratch(st: LupusState, seat: int) -> tuple[Action, ...]:
    """The accuser's choices by the rule sentence; everyone else has none."""
    turn = st.accuse_order[st.accuse_i]
    if seat != turn:
        return ()
    others = [Action("accuse", s) for s in range(st.n) if st.alive[s] and s != seat]
    return (*others, Action("no_accusation"))


def _check(st: LupusState) -> None:
    assert (st.wolves, st.humans) == _recounted(st)
    for role in {*st.roles, "seer", "werewolf", "owl"}:
        assert st.living_with(role) == [s for s in range(st.n)
                                        if st.roles[s] == role and st.alive[s]]
    if st.phase == DAY and st.stage == ACCUSE:
        turn = st.accuse_order[st.accuse_i]
        assert LUPUS.waiting_for(st) == (turn,)
        assert day.accuser(st) == turn
        for seat in range(st.n):
            assert tuple(LUPUS.legal_actions(st, seat)) == _accusation_from_scratch(st, seat)


@settings(max_examples=25, deadline=None)
@given(seed=strat.integers(0, 2**32 - 1),
       players=strat.integers(LUPUS.min_players, LUPUS.max_players),
       extra=strat.booleans(), name_last=strat.booleans())
def test_kept_state_matches_the_rules_after_every_move(
    seed: int, players: int, extra: bool, name_last: bool
) -> None:
    rng = random.Random(seed)
    deck = LUPUS.default_deck(players, "extra" if extra else None)
    rng.shuffle(deck)
    st = LUPUS.new_game(tuple(f"P{i}" for i in range(players)), deck)
    while st.phase != OVER:
        _check(st)
        if name_last and len(st.dawn_dead) == 2 and LUPUS.may_choose_last(st) \
                and st.last != st.dawn_dead[0]:
            LUPUS.choose_last(st, st.dawn_dead[0])  # the accusation round starts again
            _check(st)
        for seat in LUPUS.waiting_for(st):
            options = LUPUS.legal_actions(st, seat)
            if options:
                LUPUS.apply(st, seat, rng.choice(options))
                _check(st)
    _check(st)


def test_a_mythomaniac_turned_werewolf_moves_from_the_humans_to_the_wolves() -> None:
    # Play random 16-seat games with the Mythomaniac until one turns into a werewolf.
    for seed in range(400):
        rng = random.Random(seed)
        deck = LUPUS.default_deck(16, "extra")
        rng.shuffle(deck)
        st = LUPUS.new_game(tuple(f"P{i}" for i in range(16)), deck)
        myth = deck.index("mythomaniac")
        while st.phase != OVER and st.roles[myth] == "mythomaniac":
            for seat in LUPUS.waiting_for(st):
                options = LUPUS.legal_actions(st, seat)
                if options:
                    LUPUS.apply(st, seat, rng.choice(options))
        if st.roles[myth] == "werewolf":
            assert (st.wolves, st.humans) == _recounted(st)
            assert myth in st.living_with("werewolf")
            assert not st.living_with("mythomaniac")
            return
    raise AssertionError("no Mythomaniac turned werewolf in 400 random games")
