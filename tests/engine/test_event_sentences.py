"""Every event kind of every ruleset has its sentence, in every language: what a seat
sees in ``nightcall play`` (every language) and in the agents' text (English), and the
master's account (every language). A missing line fails here instead of showing raw
data to a player."""

from __future__ import annotations

import re

import pytest

from nightcall.agents.render import Names, describe_event
from nightcall.commands.play import Renderer
from nightcall.engine.ruleset import get_ruleset
from nightcall.engine.shapes import event_kinds, shapes_of
from nightcall.narration.locale import LANGUAGES, load
from nightcall.server.narration import timeline

from .games import GAMES, finished_games, views_of_games

RULESETS = ("onuw", "epic", "lupus")
# Kinds that only the master's log holds (a seat never sees them), and the bookkeeping
# kinds the terminal shows no sentence for: the next sentence says it all.
MASTER_ONLY = {"causes", "transformed", "artifact_drawn"}
SILENT_IN_PLAY = {"over", "causes", "last"}
RAW = re.compile(r"^[a-z_]+(: \w+=.*)?$")  # play's "kind: key=value" for a kind it lacks


@pytest.mark.parametrize("rid", RULESETS)
def test_every_event_a_seat_sees_is_a_sentence_in_every_language(rid: str) -> None:
    rs = get_ruleset(rid)
    locales = {lang: load(lang) for lang in LANGUAGES}
    rendered: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    agent_kinds: set[str] = set()
    checked = 0
    for view in views_of_games(rs, GAMES[rid] // 3, seed=29):
        seat = view.get("seat")
        if not isinstance(seat, int):
            continue
        players = view["players"]
        for event in view["events"][-8:]:  # the newest ones: every event comes up
            kind = event["kind"]
            for lang, loc in locales.items():
                renderer = Renderer(players, seat, lambda r, loc=loc: loc.role(rid, r), lang)
                text = renderer.event(event)
                if kind in SILENT_IN_PLAY and kind != "last":
                    assert text is None, (kind, text)
                    continue
                if text is None:  # the master's deal, "last": nothing new for the seat
                    assert kind in ("deal", "last"), kind
                    continue
                assert text.strip() and not RAW.match(text), (rid, lang, event, text)
                rendered[lang].add(kind)
            sentence = describe_event(event, Names(players, rs.role_ids, seat))
            assert not sentence.startswith("{"), (rid, event, sentence)
            agent_kinds.add(kind)
            checked += 1
    event_types, _ = shapes_of(rs)
    seat_kinds = set(event_kinds(event_types)) - MASTER_ONLY
    # Epic's claims come only from records; One Night's from talk (none here).
    talk = {"claim"}
    assert checked
    assert agent_kinds >= seat_kinds - talk - {"last"}, sorted(seat_kinds - agent_kinds)
    for lang in LANGUAGES:
        missing = seat_kinds - SILENT_IN_PLAY - talk - rendered[lang]
        assert not missing, (rid, lang, sorted(missing))


@pytest.mark.parametrize("rid", ["onuw", "epic"])  # Lupus has no claims: the talk is free
def test_claims_are_sentences_in_every_language(rid: str) -> None:
    rs = get_ruleset(rid)
    role = rs.role_ids[0]
    claims = [{"kind": "claim", "seat": 1, "role": role}]
    if rid == "onuw":
        claims += [{"kind": "claim", "seat": 1, "saw": 5, "role": role},
                   {"kind": "claim", "seat": 0, "swapped": [1, 2]}]
    players = ["Ann", "Bob", "Cy"]
    for claim in claims:
        for lang in LANGUAGES:
            loc = load(lang)
            text = Renderer(players, 0, lambda r, loc=loc: loc.role(rid, r), lang).event(claim)
            assert text and not RAW.match(text), (lang, claim, text)
        assert not describe_event(claim, Names(players, rs.role_ids, 0)).startswith("{")


@pytest.mark.parametrize("rid", RULESETS)
def test_the_account_tells_every_game_in_every_language(rid: str) -> None:
    """The master's account (the end screen's timeline, ``nightcall replay``) reads every
    kind in the log, in every language, and ends with the judge's reasons (a missing
    ``account.*`` or ``why.*`` line raises LocaleError)."""
    rs = get_ruleset(rid)
    games = 0
    for state in finished_games(rs, GAMES[rid] // 3, seed=31):
        games += 1
        for lang in LANGUAGES:
            lines = timeline(rs, state, lang)
            reasons = rs.outcome(state).explain(lang)
            assert lines[-len(reasons):] == list(reasons), lang
            assert all(line.strip() for line in lines), lang
    assert games
