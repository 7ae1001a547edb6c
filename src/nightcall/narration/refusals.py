"""The rules' refusals and warnings in the reader's language.

The rules stay free of languages: a refusal is raised, and a warning returned, as an
English sentence. Where the sentence is a :class:`Said`, it also carries a locale key
and its values, so a command run with ``--lang it`` or a page in German says it in
that language (locale key ``refusal.<key>``). Values named ``role`` or ``roles`` are
role ids, ``token``/``tokens`` and ``artifact``/``artifacts`` token and artifact ids,
each named in the reader's language, as are ``scenario``/``scenarios`` (scenario ids);
``game`` is a ruleset id.
"""

from __future__ import annotations

from nightcall.engine.errors import Said
from nightcall.narration.locale import Locale

__all__ = ["Said", "in_words", "said"]


def said(loc: Locale, what: BaseException | str) -> str:
    """``what`` (an error or a warning) in ``loc``'s language, or as it is when it has
    no key (or the language lacks the line)."""
    text = _sentence(what)
    if not isinstance(text, Said) or loc.lang == "en":
        # English is the rules' own sentence (the en lines are the translators' source)
        return str(what)
    return in_words(loc, text)


def _sentence(what: BaseException | str) -> object:
    """The sentence an error carries (its first argument), or the warning itself."""
    return what.args[0] if isinstance(what, BaseException) and what.args else what


def in_words(loc: Locale, text: Said) -> str:
    """A refusal's line (``refusal.<key>``) in ``loc``, English included; the sentence
    as it is when the language lacks the line."""
    key = f"refusal.{text.key}"
    if key not in loc.lines:
        return str(text)
    game = str(text.values.get("game", text.key.split(".")[0]))
    # (a reason inside the sentence, a record step's, is said in the language too)
    values = {k: said(loc, v) if isinstance(v, Said) else v for k, v in text.values.items()}
    for name, kind in (("role", "role"), ("roles", "role"), ("token", "token"),
                       ("tokens", "token"), ("artifact", "artifact"),
                       ("artifacts", "artifact"), ("scenario", "scenario"),
                       ("scenarios", "scenario")):
        value = values.get(name)
        if isinstance(value, str):
            values[name] = _named(loc, game, kind, value)
        elif isinstance(value, list | tuple):
            values[name] = ", ".join(_named(loc, game, kind, v) for v in value)
    return loc.line(key, **values)


def _named(loc: Locale, game: str, kind: str, value: str) -> str:
    """A role, token or artifact id by its name in ``loc`` (a token's and an artifact's
    as the game's account says them); the id as it is when the game has no such name."""
    if kind == "role":
        return loc.role(game, value)
    if kind == "scenario":
        return loc.scenario(game, value, value)
    return loc.lines.get(f"account.{game}.{kind}.{value}", value)


def refused_in(lang: str, key: str, english: str, what: BaseException | str) -> str:
    """"Deck refused: <the reason>" (``refusal.<key>``) in ``lang``, the reason too."""
    from nightcall.narration.locale import LANGUAGES, load

    if lang not in LANGUAGES:
        return f"{english}: {what}"
    loc = load(lang)
    reason = said(loc, what)
    if lang in LOWER_AFTER_COLON and _starts_with_a_word(loc, what):
        reason = reason[:1].lower() + reason[1:]
    return loc.line(f"refusal.{key}", reason=reason)


# After "cannot narrate:" English and Italian go on in lowercase; German keeps a whole
# sentence's capital after a colon.
LOWER_AFTER_COLON = frozenset({"en", "it"})


def _starts_with_a_word(loc: Locale, what: BaseException | str) -> bool:
    """Whether ``what`` is one of our sentences whose line starts with an ordinary word
    ("Il file ...", "Give --players"), not a value put in front nor a name ("Lupus in
    Tabula", "Renfield")."""
    from nightcall.engine.ruleset import get_ruleset, ruleset_ids

    text = _sentence(what)
    line = loc.lines.get(f"refusal.{text.key}", "") if isinstance(text, Said) else ""
    if not (len(line) > 1 and line[0].isupper() and (line[1].islower() or line[1] in "'’")):
        return False
    names = [get_ruleset(r).title for r in ruleset_ids()]
    names += [name for roles in loc.roles.values() for name in roles.values()]
    return not any(line.startswith(name) for name in names)


def said_in(lang: str, what: BaseException | str) -> str:
    """:func:`said` for a language code; as it is when the language is unknown (the
    error may be about the language itself)."""
    from nightcall.narration.locale import LANGUAGES, load

    return said(load(lang), what) if lang in LANGUAGES else str(what)
