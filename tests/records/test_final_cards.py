"""Final cards: the physical cards and what each player counts as (issue 14, "Final cards").

Source: shared/spec/game-record.md, "The outcome": "``cards`` and ``center`` are the
physical cards as they lie (a Doppelgänger card is ``doppelganger``), ``roles`` what
each player counts as for winning (the Doppelgänger card resolved to the role it
copied, a Mimic to its copy, an Epic token or artifact applied)". The issue: "show
both in the account and the web's end screen" (the end screen reads the finished
view's ``outcome.final``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from nightcall.narration.telling import tell
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.onuw.game import ONUW

RECORDS = Path(__file__).parent


def onuw_game() -> Any:
    # Eve (the Doppelgänger) copies Anna's Werewolf; the Troublemaker then swaps
    # Eve's card with Bruno's: Bruno ends with the Doppelgänger card, a Werewolf.
    return ONUW.replay({
        "ruleset": "onuw",
        "players": ["Anna", "Bruno", "Carla", "Eve"],
        "cards": {"Anna": "werewolf", "Bruno": "villager", "Carla": "troublemaker",
                  "Eve": "doppelganger"},
        "center": ["villager", "seer", "villager"],
        "options": {"lone_wolf": False},
        "steps": [{"call": "doppelganger", "player": "Eve", "look": "Anna"},
                  {"call": "troublemaker", "player": "Carla", "swap": ["Eve", "Bruno"]},
                  {"votes": {"Anna": "Carla", "Bruno": "Carla", "Carla": "Anna",
                             "Eve": "Carla"}}],
    })


def test_onuw_final_cards_are_physical_and_roles_resolved() -> None:
    st = onuw_game()
    final = ONUW.outcome_json(st)["final"]
    assert final["cards"] == {"Anna": "werewolf", "Bruno": "doppelganger",
                              "Carla": "troublemaker", "Eve": "villager"}
    assert final["roles"] == {"Anna": "werewolf", "Bruno": "werewolf",
                              "Carla": "troublemaker", "Eve": "villager"}
    assert final["center"] == ["villager", "seer", "villager"]
    # Bruno counts as a Werewolf for winning: Carla died, so the werewolves win.
    out = ONUW.outcome_json(st)
    assert out["dead"] == ["Carla"] and set(out["winners"]) == {"Anna", "Bruno"}


def test_onuw_view_and_account_show_both() -> None:
    st = onuw_game()
    for viewer in (None, 0, 1):
        assert ONUW.view(st, viewer)["outcome"]["final"] == ONUW.outcome_json(st)["final"]
    end = next(line for line in tell(ONUW, st) if line.startswith("Cards at the end"))
    assert "Bruno: the Doppelgänger card, counting as a Werewolf" in end
    assert "Anna: Werewolf" in end
    it = [line for line in tell(ONUW, st, "it") if "vale come" in line]
    assert len(it) == 1 and "Bruno – la carta «Doppelgänger», che vale come" in it[0]
    de = [line for line in tell(ONUW, st, "de") if line.startswith("Die Karten am Ende")]
    assert len(de) == 1 and "Bruno – Karte „Doppelgängerin“, zählt als Werwolf" in de[0]


def test_epic_final_cards_show_the_mimic_card_and_roles_apply_artifacts() -> None:
    record = json.loads((RECORDS / "epic-alpha-mimic-curator.json").read_text())
    st = EPIC.replay(record)
    final = EPIC.outcome_json(st)["final"]
    # Carla the Goblin swapped Anna's Mimic (a Seer) with Dario's card.
    assert final["cards"]["Dario"] == "mimic" and final["roles"]["Dario"] == "seer"
    # The Brand of the Villager makes Bruno, holding a Werewolf card, count as a villager.
    assert final["artifacts"] == {"Bruno": "brand_of_the_villager"}
    assert final["roles"]["Bruno"] == "villager"
    assert final["cards"]["Bruno"] != "villager"
    assert EPIC.view(st, None)["outcome"]["final"] == final
    end = next(line for line in tell(EPIC, st) if line.startswith("At the end"))
    assert "Dario: the Mimic card, counting as a Seer" in end


def test_epic_a_vampire_token_counts_as_a_vampire() -> None:
    record = json.loads((RECORDS / "epic-vampire-tokens.json").read_text())
    final = EPIC.outcome_json(EPIC.replay(record))["final"]
    turned = [p for p, t in final["tokens"].items() if t == "vampire"]
    assert turned
    for p in turned:
        assert final["roles"][p] in ("vampire", "the_count", "the_master")
