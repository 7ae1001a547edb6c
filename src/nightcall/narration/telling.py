"""The words of a game's account (the end-of-game timeline and ``nightcall replay``),
in any of the narrator's languages: the ``account.*`` lines of the locale files, and
the ``why.*`` lines that write out the judges' reasons (:func:`explain`, and
:func:`explained`: the one place an outcome's JSON gets its ``explanation``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nightcall.engine.outcome import Arg, Reason, Term, reasons_from_json
from nightcall.engine.ruleset import Ruleset
from nightcall.narration.locale import Locale, LocaleError, load
from nightcall.narration.render import Renderer


def tell(ruleset: Ruleset[Any], state: Any, lang: str = "en") -> list[str]:
    """The ruleset's account of the game in ``lang``, the judges' reasoning included
    (the end screen's timeline, ``nightcall replay``)."""
    return ruleset.account(state, Teller(ruleset.id, lang))


class Teller:
    """One ruleset's account sentences in one language (nightcall.engine.words.Words)."""

    def __init__(self, ruleset: str, lang: str = "en") -> None:
        self.ruleset = ruleset
        self.loc: Locale = load(lang)
        self._renderers: dict[tuple[str, ...], Renderer] = {}

    def event(self, names: Sequence[str], event: Mapping[str, Any],
              actor: int | tuple[int, ...] | None = None,
              deck: Sequence[str] = ()) -> str | None:
        """The master's sentence for one event of the log: the one renderer's, with its
        ``.master`` templates (nightcall.narration.render); ``deck`` lets a call name
        a role in the plural ("the Werewolves are called")."""
        key = (*names, "", *deck)  # ("": where the names end)
        renderer = self._renderers.get(key)
        if renderer is None:
            renderer = Renderer(self.ruleset, names, None, self.loc.lang, deck, master=True)
            self._renderers[key] = renderer
        return renderer.event(event, actor)

    def __call__(self, key: str, **values: Arg) -> str:
        return self.loc.line(f"account.{key}", **_values(self.loc, self.ruleset, values))

    def has(self, key: str) -> bool:
        return f"account.{key}" in self.loc.lines

    def role(self, role: str) -> str:
        return self.loc.role(self.ruleset, role)

    def explain(self, reasons: Iterable[Reason]) -> list[str]:
        return [_sentence(self.loc, r) for r in reasons]


def explain(reasons: Iterable[Reason], lang: str = "en") -> list[str]:
    """The judges' reasons as sentences in ``lang``, one per reason."""
    loc = load(lang)
    return [_sentence(loc, r) for r in reasons]


def explained(outcome: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """An outcome's JSON (``Outcome.to_json``, a record's ``outcome_json``, a view's
    ``outcome``) with ``explanation``: its ``reasons`` as sentences in ``lang``. The
    reasons stay, so a reader can write them in another language. ValueError if the
    reasons are not in the form nightcall.engine.outcome gives."""
    return {**outcome, "explanation": explain(reasons_from_json(outcome.get("reasons", [])), lang)}


def reason_keys(reason: Reason) -> set[str]:
    """The locale lines a reason needs (its clauses' and counts' included)."""
    keys = {f"why.{reason.key}"}
    ruleset = reason.key.partition(".")[0]
    for value in reason.args.values():
        if isinstance(value, Reason):
            keys |= reason_keys(value)
        elif isinstance(value, Term) and value.kind == "count":
            keys.add(_count_key(ruleset, value))
        elif isinstance(value, Term) and value.kind == "artifact":
            keys.add(f"account.{ruleset}.artifact.{value.id}")
    return keys


def listed(loc: Locale, names: Sequence[str]) -> str:
    """``A, B and C`` in ``loc``'s language ("A, B e C", "A, B und C"); one name alone."""
    if len(names) <= 1:
        return "".join(names)
    return loc.line("account.and", rest=", ".join(names[:-1]), last=names[-1])


def _count_key(ruleset: str, term: Term) -> str:
    return f"why.{ruleset}.count.{term.id}.{'one' if term.n == 1 else 'many'}"


def _sentence(loc: Locale, reason: Reason) -> str:
    ruleset = reason.key.partition(".")[0]
    return loc.line(f"why.{reason.key}", **_values(loc, ruleset, reason.args))


def _values(loc: Locale, ruleset: str, args: Mapping[str, Arg]) -> dict[str, object]:
    """A line's values in words; a role also with its articles (``{role_the}``,
    ``{role_a}``, ``{role_into}``), so every line may say it as its grammar wants."""
    values: dict[str, object] = {k: _word(loc, ruleset, v) for k, v in args.items()}
    for k, v in args.items():
        if isinstance(v, Term) and v.kind == "role":
            values.update({f"{k}_{form}": loc.role_as(ruleset, v.id, form)
                           for form in ("the", "a", "into")})
    return values


def _word(loc: Locale, ruleset: str, value: Arg) -> str | int:
    # Reason and Term are tuples too: test them before plain tuples of names.
    if isinstance(value, Reason):
        return _sentence(loc, value)
    if isinstance(value, Term):
        if value.kind == "role":
            return loc.role(ruleset, value.id)
        if value.kind == "artifact":
            return loc.line(f"account.{ruleset}.artifact.{value.id}")
        if value.kind == "count":
            return loc.line(_count_key(ruleset, value), n=value.n)
        raise LocaleError(f"no words for a term of kind {value.kind!r}")
    if isinstance(value, tuple):
        # "A, B and C"; the judges never list nobody, so an empty list stays empty.
        return listed(loc, [str(v) for v in value])
    return value
