"""The judges' reasoning in every language: the rulesets give reasons (a ``why.*`` key
and its values), the narrator's locales write them out. English stays the default
and reads as before; Italian and German have every line, with the same placeholders."""

from __future__ import annotations

import random
from typing import Any

import pytest

from nightcall.engine.outcome import Outcome, Reason, Term, reasons_from_json, why
from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.locale import LANGUAGES, LocaleError, fields, load
from nightcall.narration.telling import explain, explained, reason_keys
from nightcall.rulesets.epic import roles as epic_roles
from nightcall.rulesets.epic.judge import NO_VOTE, EndOfNight, decide
from nightcall.rulesets.onuw.judge import judge as judge_onuw
from nightcall.server.narration import stage_line, timeline

OTHERS = ("it", "de")


def why_keys(lang: str) -> dict[str, str]:
    return {k: v for k, v in load(lang).lines.items() if k.startswith("why.")}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_explanation_key_exists_with_the_same_placeholders(lang: str) -> None:
    english, other = why_keys("en"), why_keys(lang)
    assert english, "no why.* lines: the pattern or the files changed shape"
    assert set(other) == set(english), sorted(set(other) ^ set(english))
    for key, text in english.items():
        assert fields(other[key]) == fields(text), (lang, key)
        assert other[key] != text, (lang, key)  # written in the language, not copied


def _play(rid: str, n: int, deck: str | None, seed: int) -> Any:
    rs = get_ruleset(rid)
    rng = random.Random(seed)
    st = rs.deal([f"P{i}" for i in range(n)], rs.default_deck(n, deck), seed)
    while not rs.is_over(st):
        seat = rng.choice(rs.waiting_for(st))
        rs.apply(st, seat, rng.choice(rs.legal_actions(st, seat)))
    return st


TABLES = [("onuw", n, None) for n in (3, 5, 7, 10)] + \
    [("epic", n, None) for n in (4, 6, 9)] + \
    [("lupus", n, d) for n in (8, 12, 16) for d in ("base", "extra")]


@pytest.mark.parametrize(("rid", "n", "deck"), TABLES)
def test_random_games_explain_themselves_in_every_language(
        rid: str, n: int, deck: str | None) -> None:
    rs = get_ruleset(rid)
    for seed in range(12):
        st = _play(rid, n, deck, seed)
        outcome = rs.outcome(st)
        assert outcome is not None and outcome.reasons
        english = explain(outcome.reasons)
        # The outcome's JSON carries the reasons; the narrator's one function reads them.
        assert explained(outcome.to_json(st.names))["explanation"] == english
        assert english == explain(outcome.reasons, "en")
        for lang in OTHERS:
            lines = explain(outcome.reasons, lang)  # a missing key or value raises LocaleError
            assert len(lines) == len(english)
            assert all(line and "{" not in line for line in lines), lines
            assert all(line != en for line, en in zip(lines, english, strict=True)), lines
            for name in outcome.to_json(st.names)["winners"]:  # names pass through as they are
                assert name in lines[-1]


def _epic_tables(count: int) -> list[Outcome]:
    """Random end-of-night tables: odd ones, to reach every step of the check."""
    rng = random.Random(7)
    pool = [r for r in epic_roles.ROLE_IDS if r != epic_roles.MIMIC]
    few = ["werewolf", "vampire", "villager", "tanner", "assassin", "hunter", "bodyguard",
           "the_master", "renfield", "dream_wolf"]
    out = []
    for _ in range(count):
        n = rng.randint(3, 9)
        roles = tuple(rng.choice(pool if rng.random() < 0.5 else few) for _ in range(n))
        tokens = ["certainty"] * n
        for token in ("love", "love", "bounty", "plague", "vampire", "traitor"):
            if rng.random() < 0.35:
                tokens[rng.randrange(n)] = token
        artifacts: list[str | None] = [None] * n
        if rng.random() < 0.4:
            artifacts[rng.randrange(n)] = rng.choice(epic_roles.ARTIFACTS)
        votes = tuple(rng.choice([NO_VOTE, *(x for x in range(n) if x != s)])
                      for s in range(n))
        names = tuple(f"N{i}" for i in range(n))
        out.append(decide(EndOfNight(names, roles, tuple(tokens), tuple(artifacts), votes)))
    return out


def _onuw_tables(count: int) -> list[Outcome]:
    rng = random.Random(3)
    out = []
    for _ in range(count):
        n = rng.randint(3, 8)
        names = [f"N{i}" for i in range(n)]
        cards = [rng.choice(["werewolf", "werewolf", "minion", "tanner", "hunter", "villager",
                             "doppelganger"]) for _ in range(n + 3)]
        table: dict[str, Any] = {
            "players": names, "cards": dict(zip(names, cards[:n], strict=True)),
            "center": cards[n:],
            "votes": {p: rng.choice([None, *(q for q in names if q != p)]) for p in names}}
        if "doppelganger" in cards:
            table["doppelganger"] = rng.choice(["werewolf", "minion", "tanner", "hunter"])
        out.append(judge_onuw(table))
    return out


def _unfinished_reasons() -> list[tuple[Reason, ...]]:
    """The reasons of records stopped before the end, after every number of moves of
    a few random games (Lupus: at night, before the accusations, before the execution)."""
    out = []
    for rid, n in (("onuw", 5), ("epic", 6), ("lupus", 9)):
        rs = get_ruleset(rid)
        rng = random.Random(5)
        st = rs.deal([f"P{i}" for i in range(n)], rs.default_deck(n, None), 5)
        while not rs.is_over(st):
            out.append(reasons_from_json(rs.outcome_json(st)["reasons"]))
            seat = rng.choice(rs.waiting_for(st))
            rs.apply(st, seat, rng.choice(rs.legal_actions(st, seat)))
    return out


def _tanner_and_two_monsters(monster: str) -> Outcome:
    """A three-way tie kills the Tanner and two monsters of one kind: a rare table."""
    roles = ("tanner", monster, monster, "villager", "villager", "villager", "villager")
    votes = (2, 2, 3, 0, 0, 1, 1)  # Tanner, first and second monster: 2 votes each
    names = tuple("ABCDEFG")
    return decide(EndOfNight(names, roles, ("certainty",) * 7, (None,) * 7, votes))


def test_every_explanation_line_is_reached_and_reads_in_every_language() -> None:
    rare = [_tanner_and_two_monsters("vampire"), _tanner_and_two_monsters("werewolf")]
    assert explain(rare[0].reasons)[-2] == "The vampires B and C died as well: the Village wins."
    outcomes = rare + _epic_tables(4000) + _onuw_tables(1500)
    outcomes += [get_ruleset("lupus").outcome(_play("lupus", n, d, seed))  # type: ignore[misc]
                 for n in (8, 11, 16) for d in ("base", "extra") for seed in range(30)]
    used: set[str] = set()
    for outcome in outcomes:
        for reason in outcome.reasons:
            used |= reason_keys(reason)
        for lang in LANGUAGES:
            assert len(explain(outcome.reasons, lang)) == len(outcome.reasons)
    for reasons in _unfinished_reasons():  # a record that stops before the end
        for reason in reasons:
            used |= reason_keys(reason)
        for lang in LANGUAGES:
            assert len(explain(reasons, lang)) == len(reasons)
    # A line nothing reaches is dead, or a judge lost a step: either way, look.
    assert not set(why_keys("en")) - used, sorted(set(why_keys("en")) - used)


def test_a_reason_is_data_and_the_words_come_from_the_locale() -> None:
    safe = why("epic.safe.bodyguard", name="Bea")
    reason = why("epic.protected", name="Ada", why=safe)
    assert reason_keys(reason) == {"why.epic.protected", "why.epic.safe.bodyguard"}
    assert explain([reason]) == ["Ada cannot be killed: the Bodyguard Bea points at them."]
    italian = explain([reason], "it")[0]
    assert italian.startswith("Ada ") and "Guardia del Corpo Bea" in italian
    two = why("lupus.wolves_win", wolves=Term("count", "werewolves", 1),
              humans=Term("count", "humans", 2))
    assert explain([two]) == ["1 werewolf and 2 humans alive: the werewolves are as many "
                              "as the humans and win."]
    assert "2 Menschen" in explain([two], "de")[0]
    role = why("lupus.mythomaniac", name="Ugo", role=Term("role", "seer"))
    assert "Veggente" in explain([role], "it")[0] and "Seherin" in explain([role], "de")[0]
    names = why("winners", names=("A", "B", "C"))
    assert explain([names], "it") == ["Vincitori: A, B e C."]
    with pytest.raises(LocaleError):
        explain([Reason("onuw.no_such_step", {})], "de")


def test_outcomes_compare_by_their_reasons_and_explain_lazily() -> None:
    calls: list[int] = []

    def later() -> list[Reason]:
        calls.append(1)
        return [why("nobody_wins")]

    lazy = Outcome((), (), (), later)
    assert not calls  # nothing worked out until someone reads it
    assert lazy == Outcome((), (), (), [why("nobody_wins")])
    assert explain(lazy.reasons, "de") == ["Niemand gewinnt."]
    assert explain(lazy.reasons) == ["Nobody wins."]
    assert calls == [1]


@pytest.mark.parametrize(("rid", "n", "deck"), [("onuw", 5, None), ("epic", 6, None),
                                                 ("lupus", 9, "extra")])
def test_the_web_timeline_ends_with_the_reasoning_in_the_rooms_language(
        rid: str, n: int, deck: str | None) -> None:
    rs = get_ruleset(rid)
    st = _play(rid, n, deck, 1)
    outcome = rs.outcome(st)
    assert outcome is not None
    k = len(explain(outcome.reasons))
    assert timeline(rs, st, "en")[-k:] == explain(outcome.reasons)
    for lang in OTHERS:
        told = timeline(rs, st, lang)
        assert told[-k:] == explain(outcome.reasons, lang)
        assert len(told) == len(timeline(rs, st, "en"))


def test_the_spoken_end_says_who_won_in_the_rooms_language() -> None:
    view = {"outcome": {"winners": ["Ada", "Bea"], "teams": ["village"]}}
    assert stage_line("onuw", "over", "it", view) == "Vincitori: Ada e Bea."
    assert stage_line("epic", "over", "de", {"outcome": {"winners": [], "teams": []}}) == \
        "Niemand gewinnt."
    hamster = {"outcome": {"winners": ["Ugo"], "teams": ["werehamster"]}}
    said = stage_line("lupus", "over", "it", hamster)
    assert said.startswith("Il Criceto Mannaro") and said.endswith("Vincitori: Ugo.")
    wolves = stage_line("lupus", "over", "en", {"outcome": {"winners": ["A"],
                                                            "teams": ["werewolves"]}})
    assert wolves.startswith("The werewolves are as many")
    assert stage_line("onuw", "over", "en", {}) == "The game is over."  # no outcome yet
    # The lobby's line is the room's too (it used to be English in every room).
    assert stage_line("lupus", "lobby", "de") == load("de").line("host.lobby")
    assert stage_line("lupus", "lobby", "de") != stage_line("lupus", "lobby", "en")
