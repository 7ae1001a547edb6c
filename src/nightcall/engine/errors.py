"""Errors the engine raises. Each message says what was tried and why it was refused."""

from __future__ import annotations

# How alike a typed name and a known one must be (difflib's ratio) for a refusal to ask
# "did you mean ...?": "Sehrin" for "Seherin" is 0.92, "Lupp" for "Lupo" 0.75.
NEAR = 0.75


class Said(str):
    """An English sentence of the rules that also carries a locale key and its values,
    so a front end can say it in its reader's language (narration/refusals.py). The
    rules stay free of languages: this is only the sentence's name and its facts."""

    key: str
    values: dict[str, object]

    def __new__(cls, text: str, key: str = "", **values: object) -> Said:
        self = super().__new__(cls, text)
        self.key = key
        self.values = values
        return self


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
        # (a Said message stays one, so a front end can say it in its reader's language)
        text = f"{where}: {message}"
        if step is not None:
            super().__init__(Said(text, "record.at_step", step=step, reason=message))
        elif isinstance(message, Said):
            super().__init__(Said(text, message.key, **message.values))
        else:
            super().__init__(text)
        self.step = step
        self.detail = message
