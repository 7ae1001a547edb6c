"""Property tests of the seat-order rules: whatever the accusations and votes, the Suspects
and the executed player are the ones the rule sentences describe.
Source: lupus-in-tabula.md, "The accusation round", "The execution", "Variants" (Owl)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as strat
from lupus_helpers import TABLE12, night, start

from nightcall.engine.actions import Action
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.state import LupusState

HUMANS = [n for n, r in TABLE12.items() if r != "werewolf"]


def _clockwise_from_last(st: LupusState, seat: int, last: int) -> int:
    """Steps from the player to the left of the last to die, going clockwise."""
    steps, s = 0, (last + 1) % st.n
    while s != seat:
        s, steps = (s + 1) % st.n, steps + 1
    return steps


def _beats(st: LupusState, tally: list[int], a: int, b: int, last: int) -> bool:
    """``a`` goes before ``b``: more votes, or as many and closer clockwise to ``last``."""
    if tally[a] != tally[b]:
        return tally[a] > tally[b]
    return _clockwise_from_last(st, a, last) < _clockwise_from_last(st, b, last)


@settings(max_examples=40, deadline=None)
@given(victim=strat.sampled_from(HUMANS), owl=strat.sampled_from(list(TABLE12)),
       accusations=strat.lists(strat.integers(-1, 11), min_size=12, max_size=12),
       votes=strat.lists(strat.integers(-1, 1), min_size=12, max_size=12))
def test_suspects_and_execution_follow_the_rule_sentences(
    victim: str, owl: str, accusations: list[int], votes: list[int]
) -> None:
    st = start(TABLE12)
    assume(victim != "Ivy")  # Ivy is the Owl: below it points at the victim instead of itself
    if owl == "Ivy":
        owl = victim  # the Owl points at someone else; its pick dies at dawn here
    night(st, wolves=victim, seer="Hal", owl=owl)
    owl_seat = st.names.index(owl)
    for seat in st.accuse_order:
        target = accusations[seat]
        action = Action("accuse", target) if target >= 0 else Action("no_accusation")
        if action not in LUPUS.legal_actions(st, seat):
            action = Action("no_accusation")
        LUPUS.apply(st, seat, action)
    tally = [0] * st.n
    for target in st.accusations:
        if target >= 0:
            tally[target] += 1
    first, second = st.suspects
    living = st.living()
    last = st.last
    assert first != second and st.alive[first] and st.alive[second]
    assert all(not _beats(st, tally, x, first, last) for x in living if x != first)
    if st.alive[owl_seat] and owl_seat != first:
        assert second == owl_seat
    else:
        assert all(not _beats(st, tally, x, second, last)
                   for x in living if x not in (first, second))
    # the execution: living non-Suspects point, the most pointed at (ties: closer) dies
    voters = st.voters
    assert set(voters) == {x for x in living if x not in (first, second)}
    ballots = [0] * st.n
    for voter in voters:
        pick = votes[voter]
        if pick >= 0:
            ballots[(first, second)[pick]] += 1
        LUPUS.apply(st, voter, Action("execute", (first, second)[pick])
                    if pick >= 0 else Action("abstain"))
    executed = st.executed[-1]
    other = second if executed == first else first
    assert executed in (first, second)
    assert _beats(st, ballots, executed, other, last)
