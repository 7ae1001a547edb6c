"""The words of a game's account (the end-of-game timeline and ``nightcall replay``),
in any of the narrator's languages: the ``account.*`` lines of the locale files."""

from __future__ import annotations

from collections.abc import Sequence

from nightcall.narration.locale import Locale, load


class Teller:
    """One ruleset's account sentences in one language."""

    def __init__(self, ruleset: str, lang: str = "en") -> None:
        self.ruleset = ruleset
        self.loc: Locale = load(lang)

    def __call__(self, key: str, **values: object) -> str:
        return self.loc.line(f"account.{key}", **values)

    def has(self, key: str) -> bool:
        return f"account.{key}" in self.loc.lines

    def role(self, role: str) -> str:
        return self.loc.role(self.ruleset, role)

    def commas(self, names: Sequence[str]) -> str:
        """``A, B, C``, or the word for nobody."""
        return ", ".join(names) or self("nobody")

    def listing(self, names: Sequence[str]) -> str:
        """``A, B and C``, or the word for nobody."""
        if len(names) <= 1:
            return "".join(names) or self("nobody")
        return self("and", rest=", ".join(names[:-1]), last=names[-1])
