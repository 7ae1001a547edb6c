"""A deck in, the narrator's script out: every line in order, with the pause after it.

The calls come from ``ruleset.night_calls(deck, night)``, so each ruleset's wake
order lives in one place (the ruleset) and every role in the deck is called,
held, in the center or dead alike. The script depends on the deck, options,
language and timing only, never on the deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from nightcall.engine.jsontype import JSONObject
from nightcall.engine.ruleset import Rules, get_ruleset
from nightcall.narration import lines as L
from nightcall.narration.locale import Locale, load
from nightcall.narration.timing import Timing, timing_for

NIGHT = "night"
DAY = "day"


@dataclass(frozen=True, slots=True)
class Step:
    role: str | None  # the call this line belongs to, None for the opening, dawn and day
    key: str  # the locale key the text came from
    text: str
    wait: float  # seconds of silence after the line
    phase: str = NIGHT
    fallback: bool = False  # True when the call had no lines of its own (generic wording)

    def to_json(self) -> JSONObject:
        return {
            "role": self.role,
            "key": self.key,
            "text": self.text,
            "wait": round(self.wait, 2),
            "phase": self.phase,
        }


def duration_text(seconds: float, lang: str) -> str:
    """A length of time said exactly, with its units: "30 seconds", "1 minuto",
    "2 Minuten und 30 Sekunden" (to the second; never "0,5 minuti", which a voice reads
    as "zero point five")."""
    loc = load(lang)
    total = max(1, round(seconds))
    mins, secs = divmod(total, 60)

    def unit(n: int, name: str) -> str:
        return loc.line(f"unit.{name}" if n == 1 else f"unit.{name}s", n=n)

    if not mins:
        return unit(secs, "second")
    if not secs:
        return unit(mins, "minute")
    return loc.line("unit.and", first=unit(mins, "minute"), second=unit(secs, "second"))


# The older name, still used by the web host screen.
minutes_text = duration_text


def _wait(kind: str, call: str | None, timing: Timing) -> float:
    if kind == L.ACTION:
        return timing.for_call(call or "")  # the ruleset's call id: "priest", "goblin", ...
    if kind == L.SHORT:
        return timing.short
    if kind == L.COUNT:
        return timing.count
    if kind == L.DISCUSSION:
        return timing.discussion
    return 0.0


def build_script(
    ruleset_id: str,
    roles: Sequence[str],
    *,
    night: int = 1,
    lang: str = "en",
    timing: Timing | None = None,
    options: Mapping[str, object] | None = None,
    day: bool = True,
) -> list[Step]:
    """The whole night (and, with ``day``, the day timer and the vote countdown)."""
    ruleset = get_ruleset(ruleset_id)
    script = L.script_of(ruleset_id)
    locale = load(lang)
    timing = timing or timing_for(ruleset_id)
    opts: dict[str, object] = {**script.options, **(options or {})}
    deck = frozenset(roles)
    aliases = script.aliases
    values = {
        "minutes": duration_text(timing.discussion, lang),
        # Every card named, repeats included, so the count needs no plural forms.
        "roles": ", ".join(locale.role_inside(ruleset_id, r) for r in sorted_deck(ruleset, roles)),
    }

    steps: list[Step] = []

    def emit(part: Sequence[L.Line], call: str | None, phase: str, fallback: bool = False,
             **extra: str) -> None:
        for line in part:
            if line.applies(deck, opts):
                text = locale.line(line.key, **values, **extra)
                steps.append(
                    Step(call, line.key, text, _wait(line.wait, call, timing), phase, fallback)
                )

    emit(script.opening, None, NIGHT)
    for call in ruleset.night_calls(list(roles), night):
        known = aliases.get(call, call)
        before = len(steps)
        if known in script.calls:
            emit(script.calls[known], call, NIGHT)
        else:
            emit(L.GENERIC, call, NIGHT, True, role=role_name(locale, ruleset_id, call))
        if len(steps) > before and steps[-1].wait < timing.gap:
            # "close your eyes", then a breath before the next role opens its eyes
            steps[-1] = replace(steps[-1], wait=timing.gap)
    emit(script.closing, None, NIGHT)
    if day:
        emit(script.day, None, DAY)
    return steps


def sorted_deck(ruleset: Rules, roles: Sequence[str]) -> list[str]:
    """The deck in the ruleset's own role order (not the order it was typed in)."""
    order = {r: i for i, r in enumerate(ruleset.role_ids)}
    return sorted(roles, key=lambda r: order.get(r, len(order)))


def role_name(locale: Locale, ruleset_id: str, call: str) -> str:
    return locale.role(ruleset_id, call)


def as_text(steps: Sequence[Step]) -> str:
    """The script to read aloud from paper: one line each, pauses in brackets."""
    out = []
    for step in steps:
        pause = f"   [{step.wait:g} s]" if step.wait else ""
        out.append(f"{step.text}{pause}")
    return "\n".join(out)


def script_json(
    ruleset_id: str,
    roles: Sequence[str],
    *,
    night: int = 1,
    lang: str = "en",
    speed: str = "normal",
    discussion: float | None = None,
    options: Mapping[str, object] | None = None,
) -> list[JSONObject]:
    """The script as plain JSON steps (what ``narrate --json`` prints), for other front
    ends such as the host screen."""
    timing = timing_for(ruleset_id, speed, discussion)
    steps = build_script(ruleset_id, roles, night=night, lang=lang, timing=timing,
                         options=options)
    return [s.to_json() for s in steps]
