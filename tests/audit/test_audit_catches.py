"""The audit is only worth its zero if it fails on a real leak: plant one leak at a time
in an engine (widening one event's audience, offering moves out of turn, showing the
ballots early, dropping a look) and check the audit names it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import nightcall.rulesets.epic.game as epic_game
import nightcall.rulesets.lupus.game as lupus_game
import nightcall.rulesets.onuw.game as onuw_game
from nightcall.audit.core import AuditResult, run_audit
from nightcall.engine.events import Event, Viewer, visible_to
from nightcall.engine.ruleset import get_ruleset


def widen(kind: str, to: Callable[[Viewer], bool]) -> Callable[[Event, Viewer], bool]:
    """``visible_to``, except that events of ``kind`` also reach the viewers ``to`` picks."""

    def patched(event: Event, viewer: Viewer) -> bool:
        if event.kind == kind and to(viewer):
            return True
        return visible_to(event, viewer)

    return patched


def any_seat(viewer: Viewer) -> bool:
    return isinstance(viewer, int)


def spectator(viewer: Viewer) -> bool:
    return viewer is None


def found(result: AuditResult, kind: str, text: str, viewer: Any = "any") -> bool:
    return any(f.kind == kind and text in f.what and (viewer == "any" or f.viewer == viewer)
               for f in result.findings)


@pytest.mark.parametrize(("module", "ruleset", "games", "event", "to", "text"), [
    (onuw_game, "onuw", 20, "saw", spectator, "'saw'"),
    (onuw_game, "onuw", 20, "wolves", any_seat, "'wolves'"),
    (onuw_game, "onuw", 20, "deal", any_seat, "event 'deal' carries unexpected fields"),
    (lupus_game, "lupus", 2, "causes", any_seat, "event kind 'causes'"),
    (lupus_game, "lupus", 2, "victim", spectator, "'victim'"),
    (lupus_game, "lupus", 2, "seen", any_seat, "'seen'"),
    (epic_game, "epic", 30, "artifact_drawn", any_seat, "event kind 'artifact_drawn'"),
    (epic_game, "epic", 30, "token", any_seat, "'token'"),
    (epic_game, "epic", 30, "saw", spectator, "'saw'"),
])
def test_a_widened_audience_is_a_leak(
    monkeypatch: pytest.MonkeyPatch, module: Any, ruleset: str, games: int, event: str,
    to: Callable[[Viewer], bool], text: str,
) -> None:
    monkeypatch.setattr(module, "visible_to", widen(event, to))
    result = run_audit({ruleset: games}, seed=3)
    assert result.leaks, f"the audit missed {event!r} shown to more viewers"
    assert found(result, "leak", text), [str(f) for f in result.leaks[:5]]
    if to is spectator:
        assert all(f.viewer is None for f in result.leaks)


def test_moves_offered_out_of_turn_are_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = get_ruleset("onuw")
    honest = type(rs).legal_actions

    def everyone_acts(self: Any, state: Any, seat: int) -> Any:
        if state.phase == 0:  # at night every seat is shown the actor's choices
            return state.choices
        return honest(self, state, seat)

    monkeypatch.setattr(type(rs), "legal_actions", everyone_acts)
    result = run_audit({"onuw": 10}, seed=4)
    assert found(result, "leak", "for a seat the rules do not ask to act now")


def test_ballots_shown_early_are_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = get_ruleset("epic")
    honest = type(rs).view

    def early(self: Any, state: Any, viewer: Viewer) -> dict[str, Any]:
        out = honest(self, state, viewer)
        if state.phase == 1 and any(v != -2 for v in state.votes):
            out["events"].append({"kind": "votes", "votes": list(state.votes)})
        return out

    monkeypatch.setattr(type(rs), "view", early)
    result = run_audit({"epic": 10}, seed=5)
    assert found(result, "leak", "ballots shown before every seat voted")


def test_a_dropped_look_is_reported_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_insomniac(event: Event, viewer: Viewer) -> bool:
        if event.kind == "saw" and event.data.get("seat") == viewer and viewer is not None:
            return False  # the Insomniac (and the Robber) never see their own card
        return visible_to(event, viewer)

    monkeypatch.setattr(onuw_game, "visible_to", no_insomniac)
    result = run_audit({"onuw": 30}, seed=6)
    assert result.leaks == []
    assert found(result, "missing", "'saw', 'seat'")


def test_the_knowledge_model_is_not_trivially_empty() -> None:
    """A model that allowed nothing and expected nothing would pass no game with a look:
    the honest run must check private facts, not only public ones."""
    from nightcall.audit.onuw import OnuwModel

    rs = get_ruleset("onuw")
    state = rs.deal(["A", "B", "C", "D"], ["werewolf", "werewolf", "seer", "robber",
                                           "troublemaker", "villager", "minion"], 11)
    model = OnuwModel(state)
    told = {v: sum(c.values()) for v, c in model.k.facts.items()}
    assert told[None] == 0 and all(told[s] >= 1 for s in range(4))
