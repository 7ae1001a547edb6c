"""A number typed at a menu: read the one way by play, judge, the Master and table mode;
and an item typed by its words instead ("bot 5", "rauber" for "Räuber")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration import tablemode
from nightcall.narration.answers import menu_matches, menu_number

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


VOTE = ["Point at Bot 2", "Point at Bot 3", "Point at Bot 12", "Point at nobody"]
ROLES = ["Räuber", "Seherin", "Sehender Wolf", "Werwolf", "Das Ding"]


@pytest.mark.parametrize(("raw", "labels", "found"), [
    ("bot 2", VOTE, [1]), ("  BOT   12 ", VOTE, [3]), ("nobody", VOTE, [4]),
    ("bot 1", VOTE, []),  # (not "Bot 12": words are matched whole)
    ("bot", VOTE, [1, 2, 3]), ("point at", VOTE, [1, 2, 3, 4]),  # ambiguous
    ("rauber", ROLES, [1]), ("RÄUBER", ROLES, [1]), ("wolf", ROLES, [3]),
    ("das ding", ROLES, [5]), ("seher", ROLES, []), ("räuberin", ROLES, []),
    ("2", VOTE, []), ("²", VOTE, []), ("", VOTE, []), ("  ", VOTE, []),  # numbers are numbers
])
def test_an_item_is_named_by_its_words_whole(raw: str, labels: list[str],
                                             found: list[int]) -> None:
    assert menu_matches(raw, labels) == found


def test_a_whole_label_wins_over_the_labels_that_hold_it() -> None:
    assert menu_matches("wolf", ["Wolf", "Sight Wolf"]) == [1]


@given(hs.lists(hs.text(min_size=1, max_size=12), min_size=1, max_size=8, unique=True),
       hs.data())
def test_typing_a_label_whole_names_it_or_its_twins(labels: list[str], data: hs.DataObject
                                                    ) -> None:
    """A label typed as it is always finds it, with only the labels that read the same
    once case and accents are set aside; a lone found item is the one meant."""
    i = data.draw(hs.integers(0, len(labels) - 1))
    found = menu_matches(labels[i], labels)
    if not any(c.isalpha() for c in labels[i]):
        assert found == []
        return
    assert i + 1 in found
    assert all(1 <= k <= len(labels) for k in found)
    if len(found) == 1:
        assert found == [i + 1]
