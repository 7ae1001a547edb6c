"""How long each pause lasts: the rulebooks' defaults per ruleset, scaled by a speed setting.

Sources (see docs/rulings.md (The narrator)): One Night "Gameplay" (count to ten per
role); Epic Battle "Game Master Sheet" (about 5 s per role, 10 s for the Priest
and the Goblin, about 5 minutes of discussion); Lupus in Tabula "Gameplay"
(about three minutes of discussion). A pause depends on the role called, never
on where its card lies, so a silence tells nobody anything.

After every "close your eyes" comes ``gap``, about a second and a half, so that the
next role does not open its eyes while the last one is still closing them (and the
rustle of one call does not run into the next).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nightcall.engine.errors import Said

SPEEDS: dict[str, float] = {"slow": 1.5, "normal": 1.0, "fast": 0.7}


@dataclass(frozen=True, slots=True)
class Timing:
    action: float  # seconds a called role has to act
    discussion: float  # seconds of day discussion before the vote
    short: float = 3.0  # a breath between two lines of the same call (thumbs down, ...)
    count: float = 1.0  # one beat of the vote countdown
    per_call: dict[str, float] = field(default_factory=dict)  # rulebook exceptions
    gap: float = 1.5  # after "close your eyes", before the next call's first line

    def for_call(self, call: str) -> float:
        return self.per_call.get(call, self.action)

    def scaled(self, factor: float) -> Timing:
        """The same timing, ``factor`` times longer (countdown beats stay one second)."""
        if factor < 0:
            raise ValueError(f"a speed factor cannot be negative, got {factor}")
        return Timing(
            action=self.action * factor,
            discussion=self.discussion * factor,
            short=self.short * factor,
            count=self.count,
            per_call={k: v * factor for k, v in self.per_call.items()},
            gap=self.gap * factor,
        )


def ruleset_timing(ruleset_id: str) -> Timing:
    """The ruleset's own seconds per call and for the talk (declared on the ruleset)."""
    from nightcall.engine.ruleset import get_ruleset

    rs = get_ruleset(ruleset_id)
    return Timing(action=rs.call_seconds, discussion=rs.discussion_seconds,
                  per_call=dict(rs.call_seconds_by_call))


def speed_factor(speed: str) -> float:
    """``slow``/``normal``/``fast`` or a positive number such as ``1.25``."""
    if speed in SPEEDS:
        return SPEEDS[speed]
    try:
        factor = float(speed)
    except ValueError:
        raise ValueError(Said(
            f"unknown speed {speed!r}: use slow, normal, fast or a factor like 1.5",
            "timing.speed", speed=str(speed))) from None
    if not 0 < factor <= 10:
        raise ValueError(Said(f"a speed factor must be above 0 and at most 10, got {speed}",
                              "timing.speed_range", speed=str(speed)))
    return factor


def timing_for(
    ruleset: str, speed: str = "normal", discussion: float | None = None
) -> Timing:
    """The ruleset's timing at ``speed``; ``discussion`` (seconds) overrides the day length."""
    base = ruleset_timing(ruleset)
    if discussion is not None:
        if discussion < 0:
            raise ValueError(Said(f"the discussion cannot last {discussion} seconds",
                                  "timing.discussion", seconds=f"{discussion:g}"))
        scaled = base.scaled(speed_factor(speed))
        # An explicit day length is taken as given, not scaled.
        return Timing(scaled.action, discussion, scaled.short, scaled.count, scaled.per_call,
                      scaled.gap)
    return base.scaled(speed_factor(speed))
