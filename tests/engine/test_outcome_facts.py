"""The rules core holds facts, the narrator writes sentences (issue 13: "engine/outcome.py
imports narration"; now it does not). An outcome and its JSON carry no language: the
check is reasons, ``[key, args]``, that read back to the same reasons."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightcall.engine.outcome import Outcome, Reason, Term, reason_json, reasons_from_json, why
from nightcall.engine.ruleset import get_ruleset

from .games import finished_games

OUTCOME_PY = Path(__file__).resolve().parents[2] / "src" / "nightcall" / "engine" / "outcome.py"


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def test_outcome_py_imports_no_narration_and_has_no_sentences() -> None:
    tree = ast.parse(OUTCOME_PY.read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not {m for m in imported if m and m.startswith("nightcall.")}
    assert not hasattr(Outcome, "explain") and not hasattr(Outcome, "explanation")


@pytest.mark.parametrize("rid", ["onuw", "epic", "lupus"])
def test_an_outcomes_json_is_facts_with_no_sentence(rid: str) -> None:
    """Every string in the JSON is a name, an id or a key: no spaces, no sentence
    (random decks with every role: tests/engine/games.py)."""
    rs = get_ruleset(rid)
    for state in finished_games(rs, 40, 8):
        outcome = rs.outcome(state)
        assert outcome is not None
        out = rs.outcome_json(state)
        assert "explanation" not in out and "explanation" not in rs.view(state, None)["outcome"]
        assert out["reasons"] == [reason_json(r) for r in outcome.reasons]
        words = [s for s in _strings(outcome.to_json(state.names)) if " " in s]
        assert not words, words
        assert reasons_from_json(out["reasons"]) == outcome.reasons


_names = st.text("ABCDÉÜ", min_size=1, max_size=4)
_leaf = st.one_of(_names, st.integers(-3, 30), st.tuples(_names, _names),
                  st.builds(Term, st.sampled_from(["role", "artifact", "count"]),
                            st.sampled_from(["seer", "werewolves"]), st.integers(0, 5)))
_args = st.dictionaries(st.sampled_from(["name", "n", "names", "role"]), _leaf, max_size=3)
_reason = st.recursive(
    st.builds(Reason, st.sampled_from(["winners", "onuw.tie"]), _args),
    lambda inner: st.builds(Reason, st.just("epic.clause"),
                            st.dictionaries(st.just("clause"), inner, max_size=1)),
    max_leaves=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(_reason, max_size=4))
def test_reasons_read_back_from_their_json(reasons: list[Reason]) -> None:
    import json

    data = json.loads(json.dumps([reason_json(r) for r in reasons]))
    assert reasons_from_json(data) == tuple(reasons)


@pytest.mark.parametrize("bad", [
    {"winners": []}, [["winners"]], [[3, {}]], [["winners", []]],
    [["winners", {"names": [1, 2]}]], [["winners", {"x": True}]],
    [["winners", {"x": {"term": "role"}}]], [["winners", {"x": {"why": 1, "args": {}}}]],
])
def test_malformed_reasons_are_refused_saying_what_is_wrong(bad: object) -> None:
    with pytest.raises(ValueError, match="reason"):
        reasons_from_json(bad)


def test_a_clause_and_a_term_keep_their_kind() -> None:
    r = why("epic.x", clause=why("winners", names=("A", "B")), who=Term("count", "humans", 2))
    clause = {"why": "winners", "args": {"names": ["A", "B"]}}
    assert reason_json(r) == ["epic.x", {"clause": clause,
                                         "who": {"term": "count", "id": "humans", "n": 2}}]
    assert reasons_from_json([reason_json(r)]) == (r,)
