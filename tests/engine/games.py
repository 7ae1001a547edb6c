"""Random games that bring up every event kind: their views after every round of moves
(tests/engine/test_shapes.py, test_event_sentences.py)."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nightcall.engine.errors import DeckError
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import Ruleset
from nightcall.rulesets.lupus.state import ACCUSE

ROOT = Path(__file__).resolve().parents[2]
# Enough games for every event kind to come up at least once (Lupus games are long).
GAMES = {"onuw": 150, "epic": 150, "lupus": 60}


def random_deck(rs: Ruleset, rng: random.Random) -> tuple[int, list[str]]:
    """A deck drawn from every role the ruleset has (Epic: a scenario; Lupus: the
    table, with or without its extra roles), so rare roles and their events come up."""
    if rs.id == "epic":
        from nightcall.rulesets.epic import scenarios

        sc = rng.choice([*scenarios.SCENARIOS, scenarios.ANARCHY])
        n = rng.randint(max(sc.min_players, rs.min_players), min(sc.max_players, rs.max_players))
        return n, rs.scenario_deck(sc.id, n, rng.randrange(1000))  # type: ignore[attr-defined]
    if rs.id == "lupus":  # the table's deck, or with every extra role the count allows
        n = rng.randint(rs.min_players, rs.max_players)
        return n, rs.default_deck(n, rng.choice([None, "extra"]))
    ids = importlib.import_module(f"nightcall.rulesets.{rs.id}.roles").ROLE_IDS
    while True:
        n = rng.randint(rs.min_players, rs.max_players)
        deck = [rng.choice(ids) for _ in range(n + (3 if rs.id == "onuw" else 0))]
        try:
            rs.validate_deck(n, deck)
        except DeckError:
            continue
        return n, deck


def rounds_of_games(rs: Ruleset, games: int, seed: int) -> Iterator[tuple[Any, int]]:
    """(state, one seat) before every round of moves of ``games`` random games, and at
    the end; the state is the same object, moved on after each yield."""
    rng = random.Random(seed)
    for _ in range(games):
        n, deck = random_deck(rs, rng)
        state = rs.deal(tuple(f"P{i}" for i in range(n)), deck, rng)
        while True:
            yield state, rng.randrange(n)
            if rs.is_over(state):
                break
            if rs.id == "lupus" and len(state.dawn_dead) == 2 and state.stage == ACCUSE \
                    and state.accuse_i == 0 and state.last != state.dawn_dead[0]:
                rs.choose_last(state, state.dawn_dead[0])  # type: ignore[attr-defined]
            if hasattr(rs, "legal_claims") and rng.random() < 0.3:  # One Night's talk
                seat = rng.randrange(n)
                claims = rs.legal_claims(state, seat)
                if claims:
                    rs.apply(state, seat, rng.choice(claims))
            for seat in rs.waiting_for(state):
                options = rs.legal_actions(state, seat)
                if options:
                    rs.apply(state, seat, rng.choice(options))


def views_of_games(rs: Ruleset, games: int, seed: int) -> Iterator[dict[str, Any]]:
    """The views of the master, a spectator and one seat (in turn), after every round of
    moves of ``games`` random games, and every seat's at the end."""
    for state, seat in rounds_of_games(rs, games, seed):
        yield rs.view(state, MASTER)
        yield rs.view(state, None)
        yield rs.view(state, seat)
        if rs.is_over(state):
            for s in range(len(state.names)):
                yield rs.view(state, s)


def finished_games(rs: Ruleset, games: int, seed: int) -> Iterator[Any]:
    """The final states of ``games`` random games."""
    for state, _ in rounds_of_games(rs, games, seed):
        if rs.is_over(state):
            yield state


def views_of_records(rs: Ruleset) -> Iterator[dict[str, Any]]:
    """The master's view at the end of every recorded game of ``rs`` in tests/records
    (Epic's claims come only from records)."""
    for path in sorted((ROOT / "tests" / "records").rglob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(record, dict) and record.get("ruleset") == rs.id:
            yield rs.view(rs.replay(record), MASTER)
