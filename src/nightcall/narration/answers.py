"""What a person typed at a numbered menu or prompt, read the one way everywhere."""

from __future__ import annotations


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
