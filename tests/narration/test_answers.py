"""A number typed at a menu: read the one way by play, judge, the Master and table mode."""

from __future__ import annotations

from typing import Any

import pytest

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration import tablemode
from nightcall.narration.answers import menu_number

from .helpers import need_ruleset


@pytest.mark.parametrize(("raw", "low", "high", "n"), [
    ("3", 1, 3, 3), (" 2 ", 1, 3, 2), ("0", 0, 3, 0), ("0", 1, 3, None), ("4", 1, 3, None),
    ("", 1, 3, None), ("x", 1, 3, None), ("-1", 0, 3, None), ("+1", 1, 3, None),
    ("²", 1, 3, None), ("1²", 1, 30, None), ("1.0", 1, 3, None), ("1_0", 1, 30, None),
])
def test_only_a_whole_number_on_the_menu_is_read(
    raw: str, low: int, high: int, n: int | None,
) -> None:
    assert menu_number(raw, low, high) == n


def test_table_modes_master_refuses_a_superscript_digit_in_words() -> None:
    """The web Master's menu read "²" as a number and stopped on a ValueError."""
    need_ruleset("lupus")
    deck = get_ruleset("lupus").default_deck(9)
    request: dict[str, Any] = {"ruleset": "lupus", "lang": "it", "deck": deck,
                               "names": [f"P{i}" for i in range(1, 10)], "cards": deck,
                               "answers": []}
    waiting = tablemode.master(request)["waiting"]
    while waiting["kind"] != "choice":  # "go on" until the first "whom did ... point at?"
        request["answers"].append("")
        waiting = tablemode.master(request)["waiting"]
    request["answers"].append("²")
    with pytest.raises(tablemode.TableModeError, match="«²» non è una delle"):
        tablemode.master(request)
    request["answers"][-1] = "1"
    assert tablemode.master(request)["answers"] == len(request["answers"])
