"""What a ruleset's account asks of the narrator, as a Protocol: the rulesets write their
accounts against it and never import the narration package (the layer above them).
``nightcall.narration.telling.Teller`` is the implementation, in any of its languages;
``nightcall.narration.telling.tell(ruleset, state, lang)`` hands one to
``Ruleset.account``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from nightcall.engine.outcome import Arg, Reason


class Words(Protocol):
    def __call__(self, key: str, **values: Arg) -> str:
        """The line ``account.<key>`` with its placeholders filled in; a role is a
        ``Term("role", id)``, which fills ``{card}``, ``{card_the}`` and ``{card_a}``."""

    def event(self, names: Sequence[str], event: Mapping[str, Any],
              actor: int | tuple[int, ...] | None = None,
              deck: Sequence[str] = ()) -> str | None:
        """The master's sentence for one event of the log (``{"kind": ..., **data}``),
        ``actor`` the seat who did or learned it, ``deck`` the cards in play; None for
        one with nothing to tell."""

    def has(self, key: str) -> bool:
        """Whether there is a line ``account.<key>``."""

    def role(self, role: str) -> str:
        """The role's name, in the language."""

    def explain(self, reasons: Iterable[Reason]) -> list[str]:
        """The judges' reasons as sentences, one per reason."""
