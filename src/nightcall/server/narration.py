"""The words the host screen shows and speaks at each moment of the game.

They come from the narrator (:mod:`nightcall.narration`): its script for the
deck gives each night call its lines, in the room's language, and its locale
gives the day's lines. Whatever the narrator lacks (or while it is absent)
falls back to a plain English sentence, so the game never waits on words.
Only public facts go in: the call, the stage, and the public view.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

log = logging.getLogger("nightcall.server")

def _locale(language: str) -> Any:
    from nightcall.narration.locale import LocaleError, load

    try:
        return load(language)
    except LocaleError:  # a language the narrator lacks: English words below
        log.warning("no narration in %r: the host shows plain English", language)
        return None


# The rulesets' own lines that the pages read (the role help, a side's win line).
PAGE_KEYS = ("help.", "win.")
# The narrator's words for a death's cause, shared or a ruleset's own.
CAUSE = re.compile(r"judge\.(?:\w+\.)?cause\.(\w+)")


@cache
def page_words(language: str) -> bytes | None:
    """The pages' word table for ``language`` (web/locales/<lang>.json) with the role
    help of every ruleset, kept in the ruleset's own locales, and the words for a
    death's cause (``cause.<id>``: the narrator's ``judge.[<ruleset>.]cause.<id>``, the
    same words as the accounts and ``nightcall judge``); None for a language the pages
    do not have."""
    import json

    from nightcall.narration.locale import LANGUAGES, load, ruleset_lines
    from nightcall.server.pages import web_dir

    if language not in LANGUAGES:
        return None
    table = json.loads((web_dir() / "locales" / f"{language}.json").read_text(encoding="utf-8"))
    own = {k: v for k, v in ruleset_lines(language).items() if k.startswith(PAGE_KEYS)}
    own.update({"cause." + m[1]: v for k, v in load(language).lines.items()
                if (m := CAUSE.fullmatch(k))})
    if clash := sorted(set(own) & set(table)):
        raise ValueError(f"the pages and a ruleset both define {clash[:3]}")
    return json.dumps({**table, **own}, ensure_ascii=False).encode()


def role_name(ruleset: str, role: str, language: str) -> str:
    loc = _locale(language)
    if loc is not None:
        name = loc.roles.get(ruleset, {}).get(role)
        if name:
            return str(name)
    return role.replace("_", " ").title().replace("Doppelganger", "Doppelgänger")


def scenario_name(ruleset: str, scenario: str, default: str, language: str) -> str:
    loc = _locale(language)
    return default if loc is None else str(loc.scenario(ruleset, scenario, default))


def _line(language: str, key: str, **values: Any) -> str | None:
    loc = _locale(language)
    if loc is None or key not in loc.lines:
        return None
    from nightcall.narration.locale import LocaleError

    try:
        return str(loc.line(key, **values))
    except LocaleError:  # a line that needs a value the server does not have
        log.warning("narration line %r could not be filled", key, exc_info=True)
        return None


# Where the narrator's script says "point" (or "show me", "watch me"), the players of a
# room choose on their phones: the host screen says that instead. Each such line is the
# ruleset's own, beside the table's: "<key>.phones" in its locale files. The table
# narrator (``nightcall narrate``, the /table page) keeps the script's words.
PHONES = ".phones"


@cache
def on_phones(language: str) -> dict[str, str]:
    """The room's own lines in ``language``, by the narrator's key they replace."""
    from nightcall.narration.locale import LANGUAGES, ruleset_lines

    if language not in LANGUAGES:
        return {}
    return {key.removesuffix(PHONES): text for key, text in ruleset_lines(language).items()
            if key.endswith(PHONES)}


def _phone_line(language: str, key: str, **values: Any) -> str | None:
    """The room's own line for ``key`` (players choose on their phones), else the
    narrator's."""
    text = on_phones(language).get(key)
    return text.format(**values) if text is not None else _line(language, key, **values)


@lru_cache(maxsize=512)
def _call_lines(ruleset: str, roles: tuple[str, ...], night: int, language: str
                ) -> dict[str | None, str]:
    """Per call, the script's lines that open it (not the "close your eyes" one);
    under None, the lines that open the night."""
    from nightcall.engine.errors import NightcallError
    from nightcall.narration.locale import LocaleError
    from nightcall.narration.script import build_script

    try:
        steps = build_script(ruleset, list(roles), night=night, lang=language, day=False)
    except (NightcallError, LocaleError):  # an unknown ruleset, a missing line
        log.warning("no narration script for %s in %s", ruleset, language, exc_info=True)
        return {}
    out: dict[str | None, list[str]] = {}
    seen_call = False
    for step in steps:
        if step.role is None and seen_call:
            continue  # the end of the night: said at dawn
        seen_call = seen_call or step.role is not None
        if step.key.endswith(".sleep"):
            continue
        phone = on_phones(language).get(step.key)
        out.setdefault(step.role, []).append(phone if phone is not None else step.text)
    return {k: " ".join(v) for k, v in out.items()}


def call_line(ruleset: str, call: str, language: str, roles: Sequence[str] = (),
              night: int = 1, first: bool = False) -> str:
    lines = _call_lines(ruleset, tuple(sorted(roles)), night, language)
    text = lines.get(call)
    if not text:
        if call == "doppelganger_insomniac":
            text = "Doppelgänger, if you became the Insomniac, wake up and look at your card."
        else:
            text = f"{role_name(ruleset, call, language)}, wake up."
    if first and lines.get(None):
        text = f"{lines[None]} {text}"
    return text


# Before the first call: look at your card, put the phone down. (The narrator's locales
# have no such line yet; these three are the room's only languages.)
LOOK_AT_CARD = {
    "en": "Look at your card now, then put your phone face down.",
    "it": "Guardate ora la vostra carta, poi mettete il telefono a faccia in giù.",
    "de": "Seht euch jetzt eure Karte an und legt dann das Handy umgedreht hin.",
}


def dusk_line(ruleset: str, language: str, roles: Sequence[str] = ()) -> str:
    """What the host says while everyone looks at their card: that, then the lines
    that open the night (so the first call starts with its own words only)."""
    opening = _call_lines(ruleset, tuple(sorted(roles)), 1, language).get(None, "")
    return f"{LOOK_AT_CARD.get(language, LOOK_AT_CARD['en'])} {opening}".strip()


def dusk_seconds(text: str, call_seconds: float, reading_scale: float = 1.0) -> float:
    """Time to hear the opening read out (about 2.5 words a second) and to look at a
    card (as long as a night call). ``reading_scale`` shortens the reading alone
    (``serve --dusk-scale``: test games need no time to listen)."""
    return reading_scale * len(text.split()) / 2.5 + call_seconds


def timeline(ruleset: Any, state: Any, language: str) -> list[str]:
    """The end-of-game account in the room's language, ending with the judge's
    reasoning in that language too: its last ``len(outcome["explanation"])`` lines, one
    per reason (the end screen shows those under the winners)."""
    from nightcall.narration.telling import tell

    return tell(ruleset, state, language)


def _names(view: dict[str, Any], seats: Sequence[int]) -> list[str]:
    players = view.get("players") or []
    return [players[s] for s in seats if 0 <= s < len(players)]


def _last(view: dict[str, Any], kind: str) -> dict[str, Any] | None:
    return next((e for e in reversed(view.get("events", [])) if e.get("kind") == kind), None)


def stage_line(ruleset: str, stage: str, language: str, view: dict[str, Any] | None = None,
               discussion_seconds: float = 300.0) -> str:
    """The line for a stage of the day (or the lobby, or the end), from public facts."""
    view = view or {}
    lang = language
    parts: list[str | None] = []
    if stage == "discussion":
        # The end of the night as the script says it in a room (the cards on the table
        # are not nudged: the phones hold them), then who died, where a night kills.
        from nightcall.narration.lines import script_of

        script = script_of(ruleset)
        deck = frozenset(view.get("roles_in_play") or ())
        parts += [_line(lang, line.key) for line in script.closing
                  if not line.table_only and line.applies(deck, dict(script.options))]
        parts.append(_dawn(ruleset, view, lang))
        minutes = _minutes(discussion_seconds, lang)
        parts.append(_line(lang, f"{ruleset}.day.discussion", minutes=minutes))
    elif stage == "vote":
        parts += [_phone_line(lang, f"{ruleset}.vote.ready"),
                  _phone_line(lang, f"{ruleset}.vote.now")]
    elif stage == "accuse":
        order = _names(view, (_last(view, "accusation") or {}).get("order", []))
        if order:
            parts.append(_phone_line(lang, f"{ruleset}.day.accuse", name=order[0]))
    elif stage == "defense":
        suspects = _names(view, (_last(view, "suspects") or {}).get("seats", []))
        if len(suspects) == 2:
            parts.append(_line(lang, f"{ruleset}.day.suspects", first=suspects[0],
                               second=suspects[1]))
        parts.append(_line(lang, f"{ruleset}.day.defense"))
    elif stage == "execute":
        parts.append(_phone_line(lang, f"{ruleset}.day.execute"))
    elif stage == "lobby":
        parts.append(_line(lang, "host.lobby"))
    elif stage == "over":
        outcome = view.get("outcome") or {}
        loc = _locale(lang)
        if outcome and loc is not None:  # a game with a master's closing line
            from nightcall.narration.lines import end_key

            key = end_key(ruleset, outcome.get("teams", []), loc.lines)
            parts.append(_line(lang, key) if key is not None else None)
        if outcome:  # who won, as the judge's last line says it (no secret by now)
            winners = [str(w) for w in outcome.get("winners", [])]
            parts.append(_line(lang, "why.winners", names=_listing(lang, winners))
                         if winners else _line(lang, "why.nobody_wins"))
    text = " ".join(p for p in parts if p)
    return text or FALLBACK.get(stage, "")


def _listing(lang: str, names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _line(lang, "account.and", rest=", ".join(names[:-1]), last=names[-1]) \
        or ", ".join(names)


def _dawn(ruleset: str, view: dict[str, Any], lang: str) -> str | None:
    """Who died in the night just ended (the ruleset's ``<id>.dawn.*`` lines), from the
    view's last dawn event; None for a game whose dawn names nobody."""
    dawn = _last(view, "dawn")
    if dawn is None or "dead" not in dawn:
        return None
    dead = _names(view, dawn["dead"])
    if not dead:
        return _line(lang, f"{ruleset}.dawn.none")
    if len(dead) == 1:
        return _line(lang, f"{ruleset}.dawn.one", name=dead[0])
    # The host may have named another of the dead as the last to die since the dawn.
    events = view.get("events", [])
    after = len(events) - events[::-1].index(dawn) if dawn in events else len(events)
    chosen = next((e for e in reversed(events[after:]) if e.get("kind") == "last"), None)
    seat = chosen["seat"] if chosen is not None else dawn.get("last")
    last = _names(view, [seat])[0] if seat is not None else dead[-1]
    return _line(lang, f"{ruleset}.dawn.two", first=dead[0], second=dead[1], last=last)


def _minutes(seconds: float, lang: str) -> str:
    """The discussion's length with its unit, as the narrator says it."""
    from nightcall.narration.locale import LocaleError
    from nightcall.narration.script import minutes_text

    try:
        return minutes_text(seconds, lang)
    except LocaleError:  # a language the narrator lacks
        return f"{max(1, round(seconds / 30)) / 2:g} minutes"


FALLBACK = {
    "night": "Everyone, close your eyes.",
    "discussion": "Everyone, wake up! Talk: who is a werewolf?",
    "vote": "Time to vote: point at a player on your phone.",
    "accuse": "Accusations, in seat order.",
    "defense": "Suspects, defend yourselves.",
    "execute": "Execute one of the Suspects.",
    "day": "Day.",
    "over": "The game is over.",
    "lobby": "Scan the code to take a seat.",
}
