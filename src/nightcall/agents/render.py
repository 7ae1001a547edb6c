"""Observations and actions as plain sentences, for language models and people.

Rendering reads only what the protocol carries (the view, the welcome's ruleset,
names and role ids), so it can never show more than the seat may know. The events'
sentences are the one renderer's (nightcall.narration.render), the same templates as
``nightcall play`` in English; an event with no template raises, never shows raw data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from nightcall.engine.actions import Action
from nightcall.narration.render import Renderer


class Names:
    """How to name seats, center cards and roles in sentences."""

    def __init__(self, players: Sequence[str], role_ids: Sequence[str], me: int,
                 ruleset: str = "") -> None:
        self.players = list(players)
        self.role_ids = list(role_ids)
        self.me = me
        # The events' sentences; without a ruleset only the shared templates are known.
        self.renderer = Renderer(ruleset, self.players, me, "en")

    def seat(self, s: object) -> str:
        if not isinstance(s, int) or not 0 <= s < len(self.players):
            return f"seat {s}"
        return "you" if s == self.me else self.players[s]

    def position(self, p: int) -> str:
        """A claim position: a seat, or n+i for center card i."""
        n = len(self.players)
        return self.seat(p) if p < n else f"center card {p - n + 1}"

    def quoted(self, p: int, speaker: int) -> str:
        """A position inside someone's words: names, and "my card" for the speaker's own."""
        n = len(self.players)
        if p == speaker:
            return "my card"
        if 0 <= p < n:
            return self.players[p]
        return f"center card {p - n + 1}" if p >= n else f"seat {p}"

    def role(self, r: object) -> str:
        if isinstance(r, int):
            return self.role_ids[r] if 0 <= r < len(self.role_ids) else f"role {r}"
        return str(r)

    def seats(self, seats: Iterable[object] | None) -> str:
        return ", ".join(self.seat(s) for s in seats) if seats else "nobody"


def describe_action(action: Action, names: Names) -> str:
    k, a, b = action
    s = names.seat
    texts: dict[str, Callable[[], str]] = {
        "vote": lambda: f"vote for {s(a)}",
        "abstain": lambda: "vote for nobody",
        "skip": lambda: "do nothing",
        "copy": lambda: f"look at {s(a)}'s card and become that role",
        "look": lambda: f"look at {s(a)}'s card",
        "look_center": lambda: (
            f"look at center card {a + 1}" if b < 0
            else f"look at center cards {a + 1} and {b + 1}"
        ),
        "swap": lambda: f"swap your card with {s(a)}'s card and look at your new card",
        "swap_two": lambda: f"swap the cards of {s(a)} and {s(b)}",
        "take_center": lambda: f"swap your card with center card {a + 1} without looking",
        "claim": lambda: f'say "I am the {names.role(a)}"',
        "claim_saw": lambda: (
            f'say "I saw that {names.quoted(a, names.me)} is the {names.role(b)}"'
        ),
        "claim_swap": lambda: (
            f'say "I swapped {names.quoted(a, names.me)} and {names.quoted(b, names.me)}"'
        ),
        "copy_center": lambda: f"look at center card {a + 1} and become that role",
        # Lupus in Tabula
        "accuse": lambda: f"accuse {s(a)}",
        "no_accusation": lambda: "accuse nobody",
        "execute": lambda: f"vote to execute {s(a)}",
        "protect": lambda: f"protect {s(a)} tonight",
        "visit": lambda: f"spend the night at {s(a)}'s house",
        "stay_home": lambda: "stay home tonight",
        "kill": lambda: f"choose {s(a)} as the werewolves' victim",
        "see": lambda: f"learn whether {s(a)} is a werewolf",
        "mark": lambda: f"mark {s(a)} for the next accusation",
        "imitate": lambda: f"imitate {s(a)}'s role",
    }
    text = texts.get(k)
    if text is not None:
        return text()
    # Other kinds (Epic Battle's tokens, taps, ...) point at seats: name them.
    words = k.replace("_", " ")
    targets = [s(x) for x in (a, b) if x != -1]
    return f"{words}: {' and '.join(targets)}" if targets else words


def describe_event(event: dict[str, Any], names: Names) -> str:
    """One event as a sentence, the one renderer's (nightcall.narration.render) in
    English; "" for a bookkeeping event. An event with no template raises LocaleError
    (every kind of every ruleset has one: tests/engine/test_event_sentences.py)."""
    return names.renderer.event(event) or ""


def describe_view(view: dict[str, Any], names: Names) -> list[str]:
    """The situation as sentences: who you are, what you know, what is going on."""
    lines = [
        f"You are {names.players[names.me]} (seat {names.me}) at a table of "
        f"{', '.join(names.players)}.",
        f"Phase: {view.get('phase')}.",
    ]
    if view.get("roles_in_play"):
        lines.append(f"Cards in play: {', '.join(view['roles_in_play'])}.")
    if view.get("voted"):
        lines.append(f"Already voted: {', '.join(view['voted'])}.")
    lines.append("What you know so far:")
    lines += [f"- {text}" for e in view.get("events", ()) if (text := describe_event(e, names))]
    return lines
