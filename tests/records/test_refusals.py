"""Every record the engine refuses says, in one line, which step and which rule (issue 14).

Records from main (from-main/) are damaged at random the way a hand-written record
goes wrong (steps out of order or doubled, a stranger's name, a player pointing at
themselves, a center card that does not exist, a field that does not fit, a step
removed); each result must either replay or be refused with a RecordError that is one
line, starts with "step N:" or "record:", and gives a reason. Nothing else may escape.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st_

from nightcall.engine.errors import RecordError
from nightcall.engine.ruleset import get_ruleset

FIXTURES = sorted((Path(__file__).parent / "from-main").glob("*.json"))
RECORDS = [json.loads(p.read_text())["record"] for p in FIXTURES]


def damage(record: dict[str, Any], data: st_.DataObject) -> dict[str, Any]:
    rec = copy.deepcopy(record)
    steps: list[dict[str, Any]] = rec["steps"]
    names: list[str] = rec["players"]
    if not steps:
        return rec
    kind = data.draw(st_.sampled_from(["swap", "double", "stranger", "self", "center",
                                       "field", "drop", "late_night"]))
    i = data.draw(st_.integers(0, len(steps) - 1))
    step = steps[i]
    if kind == "swap" and len(steps) > 1:
        j = data.draw(st_.integers(0, len(steps) - 1))
        steps[i], steps[j] = steps[j], steps[i]
    elif kind == "double":
        steps.insert(i, copy.deepcopy(step))
    elif kind == "stranger":
        key = data.draw(st_.sampled_from(sorted(step)))
        if isinstance(step[key], str):
            step[key] = "Zoe"
        elif isinstance(step[key], dict) and step[key]:
            inner = data.draw(st_.sampled_from(sorted(step[key])))
            step[key]["Zoe"] = step[key].pop(inner)
    elif kind == "self":
        player = step.get("player")
        for key in ("look", "swap", "token"):
            if player and key in step:
                step[key] = player
        for key in ("votes", "accuse", "execute"):
            if isinstance(step.get(key), dict) and step[key]:
                voter = data.draw(st_.sampled_from(sorted(step[key])))
                step[key][voter] = voter
    elif kind == "center":
        step["center"] = [data.draw(st_.sampled_from([3, -1, 7]))]
    elif kind == "field":
        step[data.draw(st_.sampled_from(["look", "swap", "tap", "reveal", "seer"]))] = \
            data.draw(st_.sampled_from(names))
    elif kind == "drop":
        del steps[i]
    elif kind == "late_night":
        steps.append({"call": data.draw(st_.sampled_from(["seer", "insomniac", "mason",
                                                          "werewolf", "robber"]))})
    return rec


@settings(max_examples=400, deadline=None)
@given(st_.sampled_from(range(len(RECORDS))), st_.data())
def test_a_refused_record_names_its_step_and_rule_in_one_line(
    index: int, data: st_.DataObject
) -> None:
    rec = damage(RECORDS[index], data)
    ruleset = get_ruleset(rec["ruleset"])
    try:
        ruleset.replay(rec)
    except RecordError as exc:
        text = str(exc)
        assert "\n" not in text
        assert re.match(r"(step \d+|record): \S", text), text
        assert len(exc.detail) > 12, text  # a reason, not a bare code
        assert "Traceback" not in text
