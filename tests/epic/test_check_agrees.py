"""Epic's one who-has-won check (judge.py): the deaths its reasons name, in order, and
its winners' sentence are the outcome's, on random games of every scenario.
Source: issue 13, "One who-has-won check per ruleset ... with a test that the
explanation and the verdict agree on random games"."""

from __future__ import annotations

from typing import Any

from nightcall.engine.events import MASTER
from nightcall.rulesets.epic.day import end_of_night
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.judge import decide as epic_decide
from nightcall.rulesets.epic.record import RECORD_CALL

from .test_playouts import ALL_COUNTS, play


def as_names(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def test_epic_explanation_names_the_same_deaths_and_winners() -> None:
    """Epic's check (judge.py) on random games: the dead the reasons name, in order, and
    the winners' sentence are the outcome's."""
    for scenario, n in ALL_COUNTS[::3]:
        for seed in range(3):
            st = play(scenario, n, seed)
            out = epic_decide(end_of_night(st))
            dead: list[str] = []
            winners: list[str] = []
            for key, args in out.reasons:
                if key == "epic.vote_kills":
                    dead += as_names(args["names"])
                elif key == "epic.hunter":
                    dead.append(str(args["target"]))
                elif key == "epic.lovers":
                    dead.append(str(args["other"]))
                elif key == "winners":
                    winners = as_names(args["names"])
            assert dead == [st.names[d.seat] for d in out.deaths]
            assert winners == [st.names[s] for s in out.winners]
            assert (out.reasons[-1].key == "nobody_wins") == (not out.winners)


def test_a_record_naming_every_call_replays_like_the_live_game() -> None:
    """Issue 14: a step may name a call with nothing to choose (spec, "Night actions").
    Every random game's record, with a step added for each call nobody chose in, in
    wake order, replays to the same outcome and views."""
    for scenario, n in ALL_COUNTS[::2]:
        for seed in range(2):
            st = play(scenario, n, seed)
            record = EPIC.to_record(st)
            night = [s for s in record["steps"] if "call" in s]
            day = [s for s in record["steps"] if "call" not in s]
            chosen = {call for _seat, _action, call in st.history if call != "day"}
            steps = []
            for call in st.schedule:
                written = RECORD_CALL.get(call, call)
                if call in chosen:
                    steps += [s for s in night if s["call"] == written]
                else:
                    steps.append({"call": written})
            assert len(steps) >= len(night)
            again = EPIC.replay({**record, "steps": steps + day})
            assert EPIC.outcome_json(again) == EPIC.outcome_json(st)
            for viewer in (None, MASTER, *range(n)):
                assert EPIC.view(again, viewer) == EPIC.view(st, viewer)
