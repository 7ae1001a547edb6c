"""Errors the engine raises. Each message says what was tried and why it was refused."""

from __future__ import annotations


class NightcallError(Exception):
    """Base class of every error nightcall raises on purpose."""


class IllegalAction(NightcallError):
    """An action that the rules do not allow now. The state is left unchanged."""

    def __init__(self, tried: str, reason: str) -> None:
        super().__init__(f"illegal action {tried}: {reason}")
        self.tried = tried
        self.reason = reason


class DeckError(NightcallError):
    """A deck (or seating) that the ruleset does not allow."""


class RecordError(NightcallError):
    """A game record that cannot be replayed. ``step`` is the 0-based index of the
    offending step, or None when the problem is in the header (players, deal, options)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        where = "record" if step is None else f"step {step}"
        super().__init__(f"{where}: {message}")
        self.step = step
        self.detail = message
