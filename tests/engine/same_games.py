"""Digests of random games of every ruleset, for the test that engine speed-ups change
nothing a player or a record could see (tests/engine/test_same_games.py).

A game's digest covers, in order: every seat's legal actions each time it is waited
on, the master's, a spectator's and one seat's view after every round of moves, every
seat's view at the end, the record and the outcome. Two kinds of games per ruleset:
the random decks of tests/engine/games.py (every role, One Night's claims, the Lupus
Master's choice) and the benchmarks' own games (benchmarks/*_games.py: fixed decks,
one ``rng.random()`` per move).

    python -m tests.engine.same_games   # rewrite same_games.json from this checkout

The stored digests were made on main at cb4b51d, before session 6's engine changes, and
made again at 86a9aca (main with the session's new renderer, whose reworded outcome lines
they include, still before the engine changes) when the two were merged.

Since session 8 an outcome carries its check as reasons, and the narrator writes the
sentences: a digest reads each outcome as main's did, with the narrator's English
``explanation`` in place of ``reasons`` (:func:`_as_told`), so the digests still hold.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import Ruleset, get_ruleset
from nightcall.narration.telling import explained

from .games import random_deck

FIXTURE = Path(__file__).with_name("same_games.json")
RULESETS = ("onuw", "epic", "lupus")
GAMES = {"onuw": 120, "epic": 120, "lupus": 40}
# The benchmarks' tables: (deck or scenario, players).
BENCH = {
    "onuw": [(None, 5), (None, 10)],
    "epic": [("the_first_night", 5), ("hours_of_despair", 10), ("werewolf_night", 8),
             ("tokens_on_special_offer", 8), ("epic_battle_final_boss", 10), ("anarchy", 7)],
    "lupus": [(None, 8), (None, 12)],
}
BENCH_GAMES = 15


def _text(value: Any) -> str:
    return json.dumps(_as_told(value), sort_keys=True, default=repr)


# Lines reworded since the digests were made (only the wording: the same reason), as
# main wrote them. Session 9: a role starting with a vowel takes "an". Session 10: a
# role whose name has its article says it once ("holds the Count card"). Session 17: two
# dead wolves are not "a" wolf.
AS_MAIN_WROTE = ((": they count as an ", ": they count as a "),
                 ("At least one Werewolf died (", "A Werewolf died ("),
                 ("At least one werewolf died (", "A werewolf died ("),
                 ("At least one vampire died (", "A vampire died ("),
                 (" holds the Count card", " holds the The Count card"),
                 (" holds the Master card", " holds the The Master card"),
                 (" holds the Thing card", " holds the The Thing card"))


def _as_main_wrote(line: str) -> str:
    for now, before in AS_MAIN_WROTE:
        line = line.replace(now, before)
    return line


def _as_told(value: Any) -> Any:
    """``value`` with every outcome's reasons as the English sentences main stored."""
    if not isinstance(value, dict):
        return value
    if "reasons" in value and "winners" in value:
        told = {k: v for k, v in explained(value).items() if k != "reasons"}
        told["explanation"] = [_as_main_wrote(line) for line in told["explanation"]]
        return told
    return {k: _as_told(v) for k, v in value.items()}


def _random_game(rs: Ruleset[Any], rng: random.Random) -> Iterator[str]:
    """The texts of one game of tests/engine/games.py's kind (the same moves)."""
    n, deck = random_deck(rs, rng)
    state = rs.deal(tuple(f"P{i}" for i in range(n)), deck, rng)
    while True:
        seat = rng.randrange(n)
        for viewer in (MASTER, None, seat):
            yield _text(rs.view(state, viewer))
        if rs.is_over(state):
            break
        if rs.id == "lupus" and rs.may_choose_last(state):  # type: ignore[attr-defined]
            dawn = rs.dawn_deaths(state)  # type: ignore[attr-defined]
            if len(dawn) == 2 and rs.last_to_die(state) != dawn[0]:  # type: ignore[attr-defined]
                rs.choose_last(state, dawn[0])  # type: ignore[attr-defined]
        if hasattr(rs, "legal_claims") and rng.random() < 0.3:
            talker = rng.randrange(n)
            claims = rs.legal_claims(state, talker)
            yield _text([talker, claims])
            if claims:
                rs.apply(state, talker, rng.choice(claims))
        for s in rs.waiting_for(state):
            options = rs.legal_actions(state, s)
            yield _text([s, options])
            if options:
                rs.apply(state, s, rng.choice(options))
    yield from _end(rs, state)


def _end(rs: Ruleset[Any], state: Any) -> Iterator[str]:
    for s in range(len(state.names)):
        yield _text(rs.view(state, s))
    yield _text(rs.to_record(state))
    yield _text(rs.outcome_json(state))


def _bench_game(rs: Ruleset[Any], deck: list[str], n: int, rng: random.Random) -> Iterator[str]:
    """One game as the benchmarks play it (the options only, and the end)."""
    cards = list(deck)
    state = rs.deal(tuple(f"P{i}" for i in range(n)), cards, rng)
    while not rs.is_over(state):
        for s in rs.waiting_for(state):
            options = rs.legal_actions(state, s)
            yield _text([s, options])
            if options:
                rs.apply(state, s, options[int(rng.random() * len(options))])
    yield from _end(rs, state)


def _digest(texts: Iterator[str]) -> str:
    h = hashlib.sha256()
    for text in texts:
        h.update(text.encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def digests(rid: str) -> list[str]:
    """One digest per game: the random-deck games, then the benchmarks' tables."""
    rs = get_ruleset(rid)
    rng = random.Random(21)
    out = [_digest(_random_game(rs, rng)) for _ in range(GAMES[rid])]
    for table, n in BENCH[rid]:
        if rid == "epic":
            deck = rs.scenario_deck(str(table), n, seed=1)
        else:
            deck = rs.recommended_deck(n) if rid == "onuw" else rs.default_deck(n)  # type: ignore[attr-defined]
        brng = random.Random(n)
        out += [_digest(_bench_game(rs, deck, n, brng)) for _ in range(BENCH_GAMES)]
    return out


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({rid: digests(rid) for rid in RULESETS}, indent=0) + "\n")
