"""The duplicate format: every entrant plays every seat of every deal, and nobody can
tell who is who by seat or by name."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall.arena.config import Entrant, Tournament
from nightcall.arena.schedule import NAMES, game
from nightcall.arena.seats import Context, play_game
from nightcall.engine.ruleset import get_ruleset

ONUW5 = tuple(get_ruleset("onuw").default_deck(5))


def tournament(entrants: int, players: int = 5, deals: int = 3, seed: int = 0) -> Tournament:
    deck = tuple(get_ruleset("onuw").default_deck(players))
    people = tuple(Entrant(f"e{i}", "bot", bot="random") for i in range(entrants))
    return Tournament("onuw", players, deck, people, deals, seed)


@settings(max_examples=60, deadline=None)
@given(entrants=st.integers(2, 13), players=st.integers(3, 10), seed=st.integers(0, 2**40),
       deal=st.integers(0, 50))
def test_every_entrant_plays_every_seat_of_every_deal(
        entrants: int, players: int, seed: int, deal: int) -> None:
    t = tournament(entrants, players, deals=deal + 1, seed=seed)
    games = [game(t, g) for g in range(deal * t.games_per_deal, (deal + 1) * t.games_per_deal)]
    assert all(g.deal == deal for g in games)
    seats_of: dict[int, set[int]] = defaultdict(set)
    for g in games:
        assert len(g.entrants) == players
        for seat, e in enumerate(g.entrants):
            seats_of[e].add(seat)
    assert set(seats_of) == set(range(entrants))  # everybody sat at the deal
    for e in range(entrants):
        assert seats_of[e] == set(range(players)), f"entrant {e} missed a seat"
    # Each table's chairs: each one visits every seat exactly once over the rotations.
    for table in range(t.tables):
        at = [g for g in games if g.table == table]
        assert sorted(g.rotation for g in at) == list(range(players))
        for seat in range(players):
            chairs = [g.entrants[seat] for g in at]
            # Over the rotations, a seat is taken by each chair once: the entrants in a
            # seat are the table's entrants, with their multiplicity.
            assert sorted(chairs) == sorted(at[0].entrants)


def test_with_as_many_entrants_as_seats_each_sits_once_per_game() -> None:
    t = tournament(5)
    for g in range(t.games):
        assert sorted(game(t, g).entrants) == [0, 1, 2, 3, 4]
    assert t.games_per_deal == 5 and t.tables == 1


def test_fewer_entrants_than_seats_share_the_chairs_evenly() -> None:
    t = tournament(2, players=5, deals=40)
    for g in range(0, t.games, 5):
        counts = sorted(game(t, g).entrants.count(e) for e in (0, 1))
        assert counts == [2, 3]


def test_more_entrants_than_seats_play_at_several_tables() -> None:
    t = tournament(7, players=5, deals=4)
    assert t.tables == 2 and t.games_per_deal == 10
    for d in range(4):
        at_deal = {e for g in range(d * 10, d * 10 + 10) for e in game(t, g).entrants}
        assert at_deal == set(range(7))


def test_a_deal_is_the_same_cards_in_every_seating() -> None:
    t = tournament(5, deals=4)
    rs = get_ruleset("onuw")
    ctx = Context()
    for d in range(4):
        results = [play_game(t, game(t, g), ctx, rs) for g in range(d * 5, d * 5 + 5)]
        assert all(r["dealt"] == results[0]["dealt"] for r in results)
        # ...while the entrant in each seat changes.
        assert len({tuple(r["entrants"]) for r in results}) == 5
    # and the deals differ from each other
    firsts = [play_game(t, game(t, g), ctx, rs)["dealt"] for g in range(0, 20, 5)]
    assert len({tuple(f) for f in firsts}) > 1


def test_the_cards_do_not_depend_on_the_names() -> None:
    rs = get_ruleset("onuw")
    one = rs.deal(("Ada", "Bram", "Cleo", "Dario", "Edda"), ONUW5, 99)
    two = rs.deal(("Zora", "Yann", "Xenia", "Wim", "Vera"), ONUW5, 99)
    assert one.start == two.start


def test_names_and_positions_say_nothing_about_the_entrant() -> None:
    t = tournament(5, deals=60, seed=3)
    names_of: dict[int, set[str]] = defaultdict(set)
    first_seat: dict[int, set[int]] = defaultdict(set)
    neighbours: dict[int, set[int]] = defaultdict(set)
    for g in range(t.games):
        gm = game(t, g)
        assert len(set(gm.names)) == 5 and set(gm.names) <= set(NAMES)
        assert not {e.name for e in t.entrants} & set(gm.names)
        for seat, e in enumerate(gm.entrants):
            names_of[e].add(gm.names[seat])
            if gm.rotation == 0:
                first_seat[e].add(seat)
            neighbours[e].add(gm.entrants[(seat + 1) % 5])
    for e in range(5):
        assert len(names_of[e]) > 15  # a fresh name each game, from the whole list
        assert len(first_seat[e]) == 5  # config order does not fix the seats
        assert neighbours[e] == set(range(5)) - {e}  # nor who sits on your left


def test_the_schedule_is_fixed_by_the_seed() -> None:
    a, b, c = tournament(6, seed=1), tournament(6, seed=1), tournament(6, seed=2)
    assert [game(a, g) for g in range(a.games)] == [game(b, g) for g in range(b.games)]
    assert [game(a, g) for g in range(a.games)] != [game(c, g) for g in range(c.games)]


def test_a_scenario_named_in_another_language_is_its_deck() -> None:
    """`--scenario` reads as in `deck` and `simulate`: "Blutmond" is Blood Moon's id."""
    from nightcall.arena.config import build

    flags = {"ruleset": "epic", "players": 5, "scenario": "Blutmond", "games": 10}
    t = build({}, flags, ["random", "reasoning"])
    assert t.scenario == "epic_battle_blood_moon"
    assert list(t.deck) == get_ruleset("epic").scenario_deck("epic_battle_blood_moon", 5)
