"""Live play against its record on the paths issue 14 lists for Lupus: werewolves
splitting their picks or tying, the Master's "last to die" choice, tables of 20 and
more, an Owl pick who dies at dawn, a day with fewer than two accused, an execution
vote of 0-0. Each legal game must replay from its record to the same outcome and views.

Source: lupus-in-tabula.md, "Gameplay": "point at one victim, a single one"; "Dawn":
"When there are two deaths, the Master ... says which of the two counts as the last to
die"; "The accusation round": "The two most accused become Suspects; ties go to whoever
sits closer, clockwise, to the last player to die"; "The execution": "Somebody is
always executed"; "Variants", Owl: "that player is a Suspect automatically"; the player
table up to 23; docs/rulings.md (Lupus in Tabula).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as strat
from lupus_helpers import TABLE16, dawn_dead, night, seat, start

from nightcall.engine.actions import Action
from nightcall.engine.errors import DeckError, RecordError
from nightcall.engine.events import MASTER
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.lupus.roles import OWL, WEREWOLF
from nightcall.rulesets.lupus.state import ACCUSE, DAY, LupusState


def play(players: int, seed: int, quiet: float, master: float,
         seen: Counter[str] | None = None) -> LupusState:
    """A random legal game. ``quiet``: how often a player accuses nobody or does not
    point; ``master``: how often the Master names the other death as the last to die."""
    rng = random.Random(seed)
    st = LUPUS.deal([f"P{i}" for i in range(players)], LUPUS.default_deck(players, "extra"),
                    seed)
    seen = seen if seen is not None else Counter()
    for _ in range(20 * players * players):
        if LUPUS.is_over(st):
            return st
        if st.phase == DAY and st.stage == ACCUSE and st.accuse_i == 0 \
                and len(st.dawn_dead) > 1 and rng.random() < master:
            other = rng.choice([s for s in st.dawn_dead if s != st.last])
            LUPUS.choose_last(st, other)
            seen["master named the last"] += 1
        seat_ = rng.choice(LUPUS.waiting_for(st))
        legal = list(LUPUS.legal_actions(st, seat_))
        silent = [a for a in legal if a.kind in ("no_accusation", "abstain")]
        action = rng.choice(silent) if silent and rng.random() < quiet else rng.choice(legal)
        before = (st.night, st.day, st.stage, len(st.executed))
        LUPUS.apply(st, seat_, action)
        note(st, before, seen)
    raise AssertionError(f"game at {players} players, seed {seed} did not end")


def note(st: LupusState, before: tuple[int, int, int, int], seen: Counter[str]) -> None:
    """Count the paths a step just took (to show the games cover them)."""
    night_no, _day, stage, executed = before
    if st.night != night_no or (st.phase == DAY and stage != st.stage and st.stage == ACCUSE):
        log = st.nights_log[night_no - 1] if night_no - 1 < len(st.nights_log) else {}
        picks = log.get("wolf_picks", {})
        if len(set(picks.values())) > 1:
            seen["wolves split"] += 1
            if len(set(Counter(picks.values()).values())) == 1:
                seen["wolves tied"] += 1
        if "owl" in log and log["owl"] in st.dawn_dead:
            seen["owl pick died at dawn"] += 1
    if len(st.executed) > executed:
        day = st.days_log[-1]
        if len({t for t in day.get("accuse", {}).values() if t >= 0}) < 2:
            seen["fewer than two accused"] += 1
        if all(t < 0 for t in day.get("execute", {}).values()):
            seen["0-0 execution"] += 1


def same_from_record(st: LupusState) -> None:
    again = LUPUS.replay(LUPUS.to_record(st))
    assert LUPUS.outcome_json(again) == LUPUS.outcome_json(st)
    for viewer in (None, MASTER, *range(st.n)):
        assert LUPUS.view(again, viewer) == LUPUS.view(st, viewer)


@settings(max_examples=40, deadline=None)
@given(players=strat.integers(7, 23), seed=strat.integers(0, 10**6),
       quiet=strat.sampled_from([0.0, 0.5, 0.95]), master=strat.sampled_from([0.0, 0.7]))
def test_a_record_replays_like_live_play_on_every_path(players: int, seed: int, quiet: float,
                                                      master: float) -> None:
    same_from_record(play(players, seed, quiet, master))


def test_the_paths_are_all_taken() -> None:
    """The games above are not all alike: over fixed seeds each listed path happens."""
    seen: Counter[str] = Counter()
    for seed in range(20):
        for players in (16, 20, 23):
            st = play(players, seed, 0.6 if seed % 2 else 0.0, 0.7, seen)
            same_from_record(st)
    for path in ("wolves split", "wolves tied", "master named the last",
                 "owl pick died at dawn", "fewer than two accused", "0-0 execution"):
        assert seen[path] > 0, (path, seen)


@pytest.mark.parametrize("players", [20, 21, 22, 23])
def test_tables_of_20_and_more(players: int) -> None:
    # The table: 3 werewolves from 16, "+ 1 Villager for every extra player" to 23.
    deck = LUPUS.default_deck(players)
    assert len(deck) == players and deck.count(WEREWOLF) == 3
    extra = LUPUS.default_deck(players, "extra")
    assert OWL in extra and deck.count("villager") > extra.count("villager")
    for seed in range(3):
        same_from_record(play(players, seed, 0.3, 0.5))


def test_24_players_are_too_many() -> None:
    with pytest.raises(DeckError):
        LUPUS.default_deck(24)


def live_night(st: LupusState, picks: dict[str, str], others: dict[str, str]) -> None:
    """Night 1 played live: each werewolf's pick in ``picks`` order, the rest by name."""
    order = [seat(st, w) for w in picks]
    while st.phase != DAY:
        waiting = LUPUS.waiting_for(st)
        wolf = next((w for w in order if w in waiting), None)
        if wolf is not None:
            LUPUS.apply(st, wolf, Action("kill", seat(st, picks[st.names[wolf]])))
            continue
        s = waiting[0]
        legal = LUPUS.legal_actions(st, s)
        want = [a for a in legal if a.a == seat(st, others.get(st.names[s], "Bea"))]
        LUPUS.apply(st, s, want[0] if want else legal[-1])


def test_split_picks_replay_from_the_record() -> None:
    # "point at one victim, a single one": split 2 to 1, the most picked dies.
    st = start(TABLE16)
    live_night(st, {"Ned": "Pia", "Ada": "Ola", "Dan": "Pia"}, {"Cal": "Bea", "Fay": "Kim"})
    assert dawn_dead(st) == ["Pia"]
    record = LUPUS.to_record(st)
    assert record["steps"][0]["wolf_picks"] == {"Ned": "Pia", "Ada": "Ola", "Dan": "Pia"}
    same_from_record(st)


def test_tied_picks_replay_from_the_record() -> None:
    # Three different picks: the tie goes to the closer, clockwise, to the last to die
    # (nobody yet: from the first seat), so Ola (seat 14) loses to Bea (seat 1).
    st = start(TABLE16)
    live_night(st, {"Ada": "Ola", "Dan": "Bea", "Ned": "Pia"}, {"Cal": "Bea", "Fay": "Kim"})
    assert dawn_dead(st) == ["Bea"]
    same_from_record(st)


def test_the_masters_last_to_die_replays_from_the_record() -> None:
    # "When there are two deaths, the Master ... says which of the two counts as the
    # last to die": the host and the visiting Harlot die.
    st = start(TABLE16)
    night(st, wolves="Bea", harlot="Bea", seer="Hal", owl="Jon")
    assert sorted(dawn_dead(st)) == ["Bea", "Fay"]
    LUPUS.choose_last(st, seat(st, "Bea"))
    record = LUPUS.to_record(st)
    assert record["steps"][0]["last"] == "Bea"
    same_from_record(st)
    assert LUPUS.replay(record).accuse_order[0] == seat(st, "Cal")


def test_the_owls_pick_who_dies_at_dawn_is_no_suspect() -> None:
    # "Variants", Owl: the pick is a Suspect "unless they were already among the two";
    # a pick who died at dawn cannot be one: the pair is the two most accused.
    st = start(TABLE16)
    night(st, wolves="Pia", seer="Bea", owl="Pia")
    assert dawn_dead(st) == ["Pia"]
    announced = [e for e in st.log if e.kind == "accusation"][-1].data
    assert announced["owl"] is None
    again = LUPUS.replay(LUPUS.to_record(st))
    assert [e.data for e in again.log if e.kind == "accusation"][-1] == announced


def test_a_call_step_with_nothing_to_choose_changes_nothing() -> None:
    # As in the one-night games (spec, "Night actions"), naming a call with no choice
    # (the Freemasons looking at each other) is information.
    plain = start(TABLE16)
    night(plain, wolves="Pia", seer="Bea", owl="Ola")
    named = LUPUS.replay({"ruleset": "lupus", "players": list(TABLE16),
                          "cards": dict(TABLE16),
                          "steps": [{"call": "freemason", "player": "Jon"},
                                    {"wolves": "Pia", "seer": "Bea", "owl": "Ola"}]})
    assert LUPUS.outcome_json(named) == LUPUS.outcome_json(plain)


@pytest.mark.parametrize(("step", "message"), [
    ({"call": "seer", "player": "Cal", "look": "Bea"},
     r"step 0: a Lupus night is one step with every choice of the night, so the seer "
     r"call goes in its 'seer' key"),
    ({"call": "medium", "look": "Bea"}, r"step 0: a Lupus night is one step"),
])
def test_a_choice_in_a_call_step_is_refused_with_the_rule(step: dict[str, str],
                                                         message: str) -> None:
    with pytest.raises(RecordError, match=message):
        LUPUS.replay({"ruleset": "lupus", "players": list(TABLE16), "cards": dict(TABLE16),
                      "steps": [step]})
