"""Live random games on main (commit d0d9ad4), each written as {"record", "outcome"}.

Run from a checkout of that commit: ``PYTHONPATH=src python generate.py DIR``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.scenarios import ANARCHY, SCENARIOS, build_deck
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.onuw.game import ONUW

ONUW_DECKS = [
    (5, "werewolf werewolf seer robber troublemaker drunk insomniac villager"),
    (6, "doppelganger werewolf werewolf minion seer robber troublemaker insomniac hunter"),
    (7, "doppelganger werewolf minion mason mason seer robber troublemaker drunk tanner"),
    (4, "werewolf minion tanner hunter seer insomniac doppelganger"),
    (8, "werewolf werewolf mason mason seer robber troublemaker drunk insomniac hunter tanner"),
]


def run(rs: Any, st: Any, rng: random.Random) -> Any:
    for _ in range(100_000):
        if rs.is_over(st):
            return st
        seat = rng.choice(list(rs.waiting_for(st)))
        rs.apply(st, seat, rng.choice(list(rs.legal_actions(st, seat))))
    raise AssertionError("the game did not end")


def main(out: Path) -> None:
    def save(name: str, rs: Any, st: Any) -> None:
        doc = {"record": rs.to_record(st), "outcome": rs.outcome_json(st)}
        (out / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")

    for i, (n, deck) in enumerate(ONUW_DECKS):
        for seed in (1, 2, 3):
            st = ONUW.deal([f"P{k}" for k in range(n)], deck.split(), seed * 7 + i)
            save(f"onuw-{i}-{seed}", ONUW, run(ONUW, st, random.Random(seed * 7 + i)))
    for sc in (*SCENARIOS, ANARCHY):
        n = (sc.min_players + sc.max_players + 1) // 2
        for seed in (1, 2, 3, 4, 5, 6) if sc.id == "anarchy" else (1, 2):
            roles, extra = build_deck(sc.id, n, seed)
            st = EPIC.deal([f"P{k}" for k in range(n)], roles + ([extra] if extra else []), seed)
            save(f"epic-{sc.id}-{n}-{seed}", EPIC, run(EPIC, st, random.Random(seed)))
    for n in (8, 12, 16):
        for seed in (1, 2):
            for scen in ("base", "extra"):
                st = LUPUS.deal([f"P{k}" for k in range(n)], LUPUS.default_deck(n, scen), seed)
                save(f"lupus-{scen}-{n}-{seed}", LUPUS, run(LUPUS, st, random.Random(seed)))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
