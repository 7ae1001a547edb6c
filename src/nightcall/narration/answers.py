"""What a person typed at a numbered menu or prompt, read the one way everywhere."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence


def typed(question: str, default: str | None = None) -> str:
    """One line typed at a terminal question: "Who? ", "Anna → " or "Anna: ", never
    "Who?:". With ``default`` a bare Enter answers it, unshown."""
    import typer

    suffix = " " if question.rstrip().endswith(("?", ":", "→")) else ": "
    if default is None:
        return str(typer.prompt(question, prompt_suffix=suffix))
    return str(typer.prompt(question, default=default, show_default=False, prompt_suffix=suffix))


def menu_number(raw: str, low: int, high: int) -> int | None:
    """The number ``raw`` names, if it is a whole number from ``low`` to ``high``; else None.

    (``str.isdigit`` alone lets "²" through, which ``int`` then refuses with a ValueError:
    that crashed ``play`` and put Python's own words in front of the judge's user.)
    """
    raw = raw.strip()
    if not raw.isdigit():
        return None
    try:
        n = int(raw)
    except ValueError:
        return None
    return n if low <= n <= high else None


def fold(text: str) -> str:
    """``text`` as menus compare it: no case, no accents ("Räuber" -> "rauber"), one
    space between words."""
    # (NFD, not NFKD: "²" stays itself rather than turning into a menu's "2")
    plain = unicodedata.normalize("NFD", text.casefold())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


def menu_matches(raw: str, labels: Sequence[str]) -> list[int]:
    """The items (from 1) a typed answer names by its words rather than its number: the
    label typed whole, else every label holding the typed words whole ("bot 5" in
    "Point at Bot 5", "rauber" in "Räuber"). One item: that choice; more: ambiguous."""
    typed = fold(raw)
    if not any(c.isalpha() for c in typed):  # a number is read as a number only
        return []
    folded = [fold(label) for label in labels]
    whole = [i for i, label in enumerate(folded, 1) if label == typed]
    if whole:
        return whole
    words = re.compile(rf"(?<!\w){re.escape(typed)}(?!\w)")
    return [i for i, label in enumerate(folded, 1) if words.search(label)]


def menu_choice(raw: str, labels: Sequence[str], low: int = 1) -> int | list[int]:
    """What ``raw`` picks from the menu ``labels``: the item's number (from 1; 0 too
    where ``low`` is 0, a way back), by its number or by its words; else the items its
    words fit, to refuse with (several: say which; none: not on the menu)."""
    n = menu_number(raw, low, len(labels))
    if n is not None:
        return n
    found = menu_matches(raw, labels)
    return found[0] if len(found) == 1 else found
