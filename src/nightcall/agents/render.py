"""Observations and actions as plain sentences, for language models and people.

Rendering reads only what the protocol carries (the view, the welcome's names
and role ids), so it can never show more than the seat may know. Kinds it does
not know (a new ruleset's) stay JSON, which is still readable; a known kind of the
wrong shape raises rather than hide the mismatch.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from nightcall.engine.actions import Action


class Names:
    """How to name seats, center cards and roles in sentences."""

    def __init__(self, players: Sequence[str], role_ids: Sequence[str], me: int) -> None:
        self.players = list(players)
        self.role_ids = list(role_ids)
        self.me = me

    def seat(self, s: Any) -> str:
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

    def role(self, r: Any) -> str:
        if isinstance(r, int):
            return self.role_ids[r] if 0 <= r < len(self.role_ids) else f"role {r}"
        return str(r)

    def seats(self, seats: Any) -> str:
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
    """One event as a sentence. A kind with no sentence here (another ruleset's) stays
    JSON; a known kind of the wrong shape is a bug and raises (every kind of every
    ruleset has its sentence: tests/engine/test_event_sentences.py)."""
    text = _event_sentence(event, names)
    return text if text is not None else json.dumps(event, ensure_ascii=False)


def _event_sentence(event: dict[str, Any], names: Names) -> str | None:
    kind = event.get("kind")
    s = names.seat
    if kind == "deal" and "seat" in event:
        return f"You were dealt the {event['card']}."
    if kind == "call":
        night = f" (night {event['night']})" if "night" in event else ""
        return f"The {event.get('role') or event['call']} was called{night}."
    if kind in ("wolves", "masons", "freemasons"):
        who = {"wolves": "werewolves"}.get(kind, kind)
        return f"The {who} opened their eyes: {names.seats(event['seats'])}."
    if kind == "thumbs":  # One Night: the werewolves' thumbs; Epic: who moved something
        return f"Thumbs up: {names.seats(event['seats'])}."
    if kind == "saw" and "seat" in event:
        return f"You saw that {s(event['seat'])}'s card is the {event['card']}."
    if kind == "saw" and "center" in event:
        return f"You saw that center card {event['center'] + 1} is the {event['card']}."
    if kind == "became":
        return f"You became the {event['role']}."
    if kind == "swapped" and event.get("extra"):
        return f"You swapped the spare werewolf card with {s(event['seats'][0])}'s card."
    if kind == "swapped" and "seats" in event and "center" in event:
        return (f"You swapped center card {event['center'] + 1} "
                f"with {s(event['seats'][0])}'s card.")
    if kind == "swapped" and "seats" in event:
        a, b = event["seats"]
        return f"You swapped the cards of {s(a)} and {s(b)}."
    if kind == "swapped" and "center" in event:
        return f"You swapped your card with center card {event['center'] + 1}."
    if kind == "dawn":
        if "dead" in event:
            return f"Dawn after night {event['night']}. Found dead: {names.seats(event['dead'])}."
        return "Day broke: time to talk and vote."
    if kind == "claim":
        return _claim_sentence(event, names)
    if kind == "votes":
        pairs = [
            (v[0], v[1]) if isinstance(v, list) else (i, v)
            for i, v in enumerate(event["votes"])
        ]
        return "Votes: " + "; ".join(
            f"{s(voter)} -> {'nobody' if target is None else s(target)}"
            for voter, target in pairs
        ) + "."
    if kind == "died":
        deaths = event["deaths"]
        if not deaths:
            return "Nobody died."
        return "Died: " + ", ".join(f"{s(seat)} ({cause})" for seat, cause in deaths) + "."
    if kind == "reveal" and "roles" in event:  # Epic: and what each card counts as
        counts = event["roles"]
        n = len(names.players)
        return "Cards revealed: " + ", ".join(
            f"{s(i)}: {c}" + (f" (counts as {counts[i]})" if counts[i] != c else "")
            for i, c in enumerate(event["cards"][:n])) + "."
    if kind == "reveal":
        cards = event["cards"]
        n = len(names.players)
        seats = ", ".join(f"{s(i)}: {c}" for i, c in enumerate(cards[:n]))
        center = f"; center: {', '.join(cards[n:])}" if cards[n:] else ""
        return f"Cards revealed: {seats}{center}."
    if kind == "over":
        return "The game is over."
    return _epic_sentence(event, names) or _lupus_sentence(event, names)


def _epic_sentence(event: dict[str, Any], names: Names) -> str | None:
    kind = event.get("kind")
    s = names.seat
    if kind in ("vampires", "lovers"):
        text = f"The {kind} opened their eyes: {names.seats(event['seats'])}."
        if "bitten" in event:
            bitten = event["bitten"]
            text += f" They gave the Vampire token to {'nobody' if bitten is None else s(bitten)}."
        return text
    if kind == "bitten":
        return f"The vampires gave {s(event['seat'])} the Vampire token."
    if kind == "gave_token":
        to = names.seats(event["seats"]) if "seats" in event else s(event["seat"])
        return f"{to} got the {event['token'].replace('_', ' ')} token."
    if kind in ("token", "saw_token"):
        return f"{s(event['seat'])}'s token is the {event['token'].replace('_', ' ')} token."
    if kind == "swapped_tokens":
        a, b = event["seats"]
        return f"You swapped the tokens of {s(a)} and {s(b)}."
    if kind == "tapped":
        if "by" in event:
            return f"{s(event['by'])} tapped your shoulder."
        return f"You tapped {s(event['seat'])}'s shoulder."
    if kind == "concealed":
        return f"You turned {s(event['seat'])}'s card face down again."
    if kind == "placed_artifact":
        return f"You placed an artifact on {s(event['seat'])}'s card."
    if kind == "revealed":
        shown = ", ".join(f"{s(int(seat))}: {card}" for seat, card in event["cards"].items())
        return f"Face up on the table: {shown}."
    if kind == "artifact":
        return (f"An artifact lies on your card: {event['artifact'].replace('_', ' ')}. "
                f"{event['instruction']}")
    return None


def _claim_sentence(event: dict[str, Any], names: Names) -> str:
    speaker = event["seat"]
    who = names.seat(speaker)
    if "saw" in event:
        seen = names.quoted(event["saw"], speaker)
        return f'{who} said: "I saw that {seen} is the {event["role"]}."'
    if "swapped" in event:
        a, b = (names.quoted(p, speaker) for p in event["swapped"])
        return f'{who} said: "I swapped {a} and {b}."'
    return f'{who} said: "I am the {event["role"]}."'


def _lupus_sentence(event: dict[str, Any], names: Names) -> str | None:
    kind = event.get("kind")
    s = names.seat
    if kind == "night":
        return f"Night {event['night']} fell."
    if kind == "accusation":
        return f"Accusations, in this order: {names.seats(event['order'])}."
    if kind == "accuse":
        target = event["target"]
        return f"{s(event['seat'])} accused {'nobody' if target is None else s(target)}."
    if kind == "suspects":
        return f"Suspects: {names.seats(event['seats'])}."
    if kind == "executed":
        return f"{s(event['seat'])} was executed on day {event['day']}."
    if kind == "last":
        return f"The last to die is {s(event['seat'])}."
    if kind == "victim":
        return f"The werewolves chose {s(event['seat'])} as their victim."
    if kind == "wolf_pick":
        return f"{s(event['seat'])} pointed at {s(event['target'])}."
    if kind == "seen":
        what = "a werewolf" if event["werewolf"] else "not a werewolf"
        return f"You saw that {s(event['seat'])} is {what}."
    if kind == "medium":
        what = "a werewolf" if event["werewolf"] else "not a werewolf"
        return f"You learned that {s(event['seat'])} was {what}."
    if kind in ("protect", "mark"):
        verb = "protected" if kind == "protect" else "marked"
        return f"You {verb} {s(event['seat'])}."
    if kind == "imitate":
        becomes = event["becomes"]
        return f"You imitated {s(event['seat'])}: " + (
            f"from the next night you are the {becomes}." if becomes
            else "you stay a plain human.")
    if kind == "visit":
        seat = event["seat"]
        return "You stayed home." if seat is None else f"You visited {s(seat)}."
    return None


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
    lines += [f"- {describe_event(e, names)}" for e in view.get("events", ())]
    return lines
