"""The one renderer: an event (as a view carries it) becomes a sentence, in a language,
for one viewer, from the ``event.*`` templates of the locale files.

Which template: ``event.<kind>.<field>.<field>...`` names the fields a template
needs, and the one chosen is the template needing the most of the fields the event
carries (a field that is absent, None, False or empty does not count):
``{"kind": "seen", "seat": 1, "werewolf": true}`` is told by ``event.lupus.seen.seat.werewolf``
and, with ``werewolf`` false, by ``event.lupus.seen.seat``. The ruleset's own templates
(``event.<ruleset>.<kind>...``, in ``rulesets/<id>/locales``) come first, then the
shared ones (``narration/locales``). A template may end in a variant, preferred when
it applies:

- ``.you`` when the viewer is the event's subject (its ``seat``, or the one seat of
  ``seats``): "You accuse Bob." against "Ann accuses Bob.";
- ``.with`` when the viewer is one of several ``seats`` ("You, Bob and Cy are the
  Werewolves." against "The Werewolves are: Bob, Cy.");
- ``.many`` when the deck holds more than one card of the event's ``role``:
  "the Werewolves are called";
- ``.one`` when ``seats`` (or ``dead``) holds one seat ("P3 wakes as the only
  Werewolf", "Dawn 2: Ann died");
- ``.master`` in the master's account (``master=True``: third person, ``{actor}`` for
  the seat who did or learned it), and ``.own`` there when the subject is the actor
  ("Ann takes the Love token" against "Ann gives Bob the Love token", "Ann looks at
  her own card") or one of several ``seats``, told first ("Ann swaps cards with Bob").

A template may carry several variants (``.one.master``). In the master's account its own
templates come first; then the template needing the most fields wins, then the one with
the most variants.

A bookkeeping kind (its struct in the ruleset's shapes.py says ``quiet = True``: the
master's notes, the end marker) has no sentence. No template at all, or two that fit
equally, is a :class:`LocaleError`, never raw data: tests/engine/test_event_sentences.py
renders every kind of every ruleset in every language.

A placeholder is a field, or a field and a form: ``{seat}`` (a name, or "you"),
``{seat_obj}``/``{seat_dat}`` (the cases of "you"), ``{seat_card}``, ``{seat_token}``,
``{seats}`` ("A, B, C"), ``{seats_and}``/``{seats_and_obj}`` ("A, B and you"),
``{seats_others}`` (the viewer left out), ``{seats_with_you}``
("you, B and C"), ``{seats_cards}`` ("your card and B's card"), ``{card}``,
``{role_plural}``, ``{card_the}``/``{role_a}`` (a role's name with its article,
"the Seer", "an Owl", "the Count" for "The Count": the glossary's forms),
``{role_into}`` (the role someone becomes: "a Werewolf", "un Lupo", "zum Werwolf"), ``{center}``,
``{saw_said}`` (a position in the speaker's own words), ... (see :meth:`Renderer._value`).
The forms are the same for every ruleset.
"""

from __future__ import annotations

import logging
import string
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeAlias

from nightcall.engine.ruleset import get_ruleset
from nightcall.engine.shapes import event_kinds, shapes_of
from nightcall.narration.locale import Locale, LocaleError, load, placeholders

log = logging.getLogger(__name__)

# Who did or learned an event, for the master's account: a seat, the seats of a group,
# or None ("someone").
Actor: TypeAlias = "int | tuple[int, ...] | None"

# Fields that hold one seat, and fields that hold a list of seats.
PERSON = frozenset({"seat", "by", "target", "bitten", "owl", "last"})
PEOPLE = frozenset({"seats", "dead", "order", "dream_wolves"})
# Fields that hold a role id.
ROLE = frozenset({"card", "role", "becomes", "copy"})


VARIANTS = ("you", "with", "many", "one", "own", "master")


@cache
def _templates(lang: str, stem: str) -> dict[tuple[tuple[str, ...], frozenset[str]], str]:
    """The templates ``<stem>[.<field>...][.<variant>...]`` of a language, by the fields
    they need and their variants."""
    out: dict[tuple[tuple[str, ...], frozenset[str]], str] = {}
    for key in load(lang).lines:
        if key != stem and not key.startswith(stem + "."):
            continue
        parts = key[len(stem) + 1:].split(".") if key != stem else []
        variants = set()
        while parts and parts[-1] in VARIANTS:
            variants.add(parts.pop())
        out[(tuple(parts), frozenset(variants))] = key
    return out


@cache
def _choose(lang: str, ruleset: str, kind: str, present: frozenset[str],
            applies: frozenset[str], quiet: bool) -> str | None:
    """The key of the template for an event of ``kind`` with the fields ``present`` and
    the variants that ``apply`` (the same for every such event: chosen once)."""
    for prefix in (f"event.{ruleset}.", "event."):
        templates = _templates(lang, prefix + kind)
        # the master's own wording first, then the template needing the most
        # fields, then the one with the most variants that apply
        fitting = [(("master" in variants), len(fields), len(variants), key)
                   for (fields, variants), key in templates.items()
                   if set(fields) <= present and variants <= applies]
        if fitting:
            best = max(fitting)
            if sum(1 for f in fitting if f[:3] == best[:3]) > 1:
                raise LocaleError(f"two templates fit a {kind!r} event equally: "
                                  f"{sorted(f[3] for f in fitting if f[:3] == best[:3])}")
            return best[3]
    if quiet:  # the master's notes the account does not tell
        return None
    raise LocaleError(f"the {lang} locale has no template for a {kind!r} event "
                      f"(event.{ruleset}.{kind}.* or event.{kind}.*)")


@cache
def _placeholders(template: str) -> tuple[str, ...]:
    return tuple(sorted(placeholders(template)))


@cache
def quiet_kinds(ruleset: str) -> frozenset[str]:
    """The ruleset's bookkeeping kinds, told with no sentence (``quiet`` in its shapes)."""
    if not ruleset:
        return frozenset()
    rules = get_ruleset(ruleset)
    if not type(rules).__module__.rpartition(".")[0]:  # a one-module ruleset: no shapes.py
        return frozenset()
    events, _ = shapes_of(rules)
    return frozenset(kind for kind, cls in event_kinds(events).items() if cls.quiet)


# What a sentence (or a quoted one) starts after.
_SENTENCE_END = frozenset(".!?„“«\"")


@cache
def _starts(template: str) -> frozenset[str]:
    """The placeholders a sentence of ``template`` starts with: their value is
    capitalised there ("you", "du", "tu" and lists starting with them; a player's name
    stays as its player typed it)."""
    out, text = set(), ""
    for literal, name, _, _ in string.Formatter().parse(template):
        text += literal
        if name:
            before = text.rstrip(" ")
            if not before or before[-1] in _SENTENCE_END:
                out.add(name)
            text += "x"
    return frozenset(out)


def _present(value: object) -> bool:
    return value is not None and value is not False and value != [] and value != {}


class Renderer:
    """Events as sentences for one viewer (a seat, or None for the public or the
    master), in ``lang``, with the names of ``players``. ``deck`` (the cards in play)
    lets a call name a role in the plural when the deck has several of it."""

    def __init__(self, ruleset: str, players: Sequence[str], viewer: int | None,
                 lang: str = "en", deck: Iterable[str] = (), master: bool = False) -> None:
        self.ruleset = ruleset
        self.master = master  # the master's account: the ``.master`` templates first
        self.players = list(players)
        self.viewer = viewer
        self.loc: Locale = load(lang)
        self.copies = Counter(deck)
        self.quiet = quiet_kinds(ruleset)
        self._by_speaker: dict[int | None, dict[tuple[str, str], Callable[[Any], str]]] = {}

    # -- the words a sentence is made of ----------------------------------------------

    def word(self, key: str, **values: object) -> str:
        return self.loc.line(f"event.word.{key}", **values)

    def role(self, role: str) -> str:
        return str(self._glossary(role)["name"])

    def plural(self, role: str) -> str:
        return str(self._glossary(role)["plural"])

    def _glossary(self, role: str) -> dict[str, str]:
        # No made-up name for a role the glossary lacks: that is a missing word. A ruleset
        # installed on its own (not in the glossary) names its roles in its own lines,
        # ``role.<ruleset>.<id>`` and ``role.<ruleset>.<id>.plural``.
        entry: dict[str, str] | None = self.loc.glossary["roles"].get(self.ruleset, {}).get(role)
        if entry is None:
            own = f"role.{self.ruleset}.{role}"
            if own in self.loc.lines and f"{own}.plural" in self.loc.lines:
                return {"name": self.loc.lines[own], "plural": self.loc.lines[f"{own}.plural"]}
            raise LocaleError(f"the {self.loc.lang} glossary has no {self.ruleset} role {role!r}")
        return entry

    def who(self, seat: int | None, case: str = "") -> str:
        """A seat's name, or "you" in the case the sentence needs ("" subject, "obj",
        "dat"); "nobody" for None."""
        if seat is None:
            return self.word("nobody")
        if seat == self.viewer:
            return self.word(f"you_{case}" if case else "you")
        return self.players[seat]

    def card_of(self, seat: int) -> str:
        if seat == self.viewer:
            return self.word("card_mine")
        return self.word("card_of", name=self.players[seat])

    def center(self, i: int) -> str:
        return self.word("center", n=i + 1)

    def position(self, p: int, speaker: int | None = None) -> str:
        """A claim's position (a seat 0..n-1, or n+i for center card i); in the
        ``speaker``'s own words their own card is "my card" (the viewer's own quote
        too: "You say: “I saw my card”")."""
        n = len(self.players)
        if p >= n:
            return self.center(p - n)
        if p == speaker:
            return self.word("card_said_mine")
        return self.card_of(p)

    def place(self, p: int) -> str:
        """A claim's position as the master says it: a name, or a center card."""
        n = len(self.players)
        return self.players[p] if p < n else self.center(p - n)

    def listing(self, items: Sequence[str]) -> str:
        """``A, B and C`` (the word for nobody when empty)."""
        if not items:
            return self.word("nobody")
        if len(items) == 1:
            return items[0]
        return self.word("and", first=", ".join(items[:-1]), second=items[-1])

    def pairs(self, cards: Sequence[str]) -> str:
        """``Ann: Seer, you: Robber`` for the seats' cards (a center beyond them is left
        to ``{cards_center}``)."""
        return ", ".join(self.word("pair", name=self.who(s), role=self.role(c))
                         for s, c in enumerate(cards[:len(self.players)]))

    def own(self, what: str, word: str) -> str:
        """A ruleset's own word: a token's or artifact's name, a group call."""
        return self.loc.line(f"account.{self.ruleset}.{what}.{word}")

    # -- events -------------------------------------------------------------------------

    def key(self, event: Mapping[str, Any], actor: Actor = None) -> str | None:
        """The template's key for ``event`` (None: a bookkeeping event, no sentence)."""
        kind = str(event["kind"])
        if kind in self.quiet and not self.master:
            return None
        present = {k for k, v in event.items() if k != "kind" and _present(v)}
        subject = self._subject(event)
        applies: set[str] = set()
        if self.master:
            applies.add("master")
        if self.viewer is not None and subject == self.viewer:
            applies.add("you")
        seats = event.get("seats")
        if actor is not None and (subject == actor or (
                isinstance(seats, list) and len(seats) > 1 and actor in seats)):
            applies.add("own")
        role = event.get("role")
        if isinstance(role, str) and self.copies[role] > 1:
            applies.add("many")
        dead = event.get("dead")
        if (isinstance(seats, list) and len(seats) == 1) or (
                isinstance(dead, list) and len(dead) == 1):
            applies.add("one")
        if isinstance(seats, list) and len(seats) > 1 and self.viewer in seats:
            applies.add("with")
        return _choose(self.loc.lang, self.ruleset, kind, frozenset(present),
                       frozenset(applies), kind in self.quiet)

    def _name_first(self, value: str) -> bool:
        """Whether ``value`` starts with a player's name ("bob", "iPhone", "bob and you")."""
        return any(value.startswith(p) and not value[len(p):len(p) + 1].isalnum()
                   for p in self.players if p)

    def event(self, event: Mapping[str, Any], actor: Actor = None) -> str | None:
        """The sentence for ``event`` (None for a bookkeeping event); ``actor`` is the
        seat who did or learned it, for the master's account ("{actor} looks at ...")."""
        key = self.key(event, actor)
        if key is None:
            return None
        template = self.loc.lines[key]
        seats = event.get("seats")
        if isinstance(seats, list) and actor in seats and _own(key):
            # "Ann swaps cards with Bob" whichever of the two she named first
            event = {**event, "seats": [actor, *(s for s in seats if s != actor)]}
        names = _placeholders(template)
        forms = self._forms(event) if names else {}  # (built once per sentence)
        values = {name: self._value(event, name, actor, forms) for name in names}
        for name in _starts(template):  # "du – Werwolf" opening a sentence: "Du – Werwolf"
            if not self._name_first(values[name]):  # (a player's name stays as typed)
                values[name] = values[name][:1].upper() + values[name][1:]
        return template.format(**values)

    def events(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """The sentences of ``events``, bookkeeping ones left out."""
        return [text for e in events if (text := self.event(e)) is not None]

    @staticmethod
    def _subject(event: Mapping[str, Any]) -> int | None:
        seat = event.get("seat")
        if isinstance(seat, int):
            return seat
        seats = event.get("seats")
        if isinstance(seats, list) and len(seats) == 1:
            return int(seats[0])
        return None

    def _value(self, event: Mapping[str, Any], name: str, actor: Actor,
               forms: dict[tuple[str, str], Callable[[Any], str]]) -> str:
        if name == "actor":
            if actor is None:
                return self.loc.line("account.someone")
            if isinstance(actor, tuple):
                return ", ".join(self.players[s] for s in actor)
            return self.players[actor]
        # The field is the longest start of the name that the event has ("dream_wolves"
        # has a "_" of its own); the rest is the form.
        field, form = name, ""
        for i in range(len(name), 0, -1):
            if name[:i] in event and (i == len(name) or name[i] == "_"):
                field, form = name[:i], name[i + 1:]
                break
        else:
            raise LocaleError(f"a {event['kind']!r} event has nothing for {{{name}}}")
        value = event[field]
        formatter = forms.get((field if field in _FIELD_FORMS else _group(field),
                                            form))
        if formatter is None:
            raise LocaleError(f"no form {form!r} of the field {field!r} ({{{name}}})")
        return formatter(value)

    def _forms(self, event: Mapping[str, Any]) -> dict[tuple[str, str], Callable[[Any], str]]:
        speaker = event.get("seat") if isinstance(event.get("seat"), int) else None
        forms = self._by_speaker.get(speaker)
        if forms is None:  # (the same for every event of a speaker: built once)
            forms = self._by_speaker[speaker] = self._forms_of(speaker)
        return forms

    def _forms_of(self, speaker: int | None) -> dict[tuple[str, str], Callable[[Any], str]]:
        n = len(self.players)
        return {
            ("person", ""): self.who,
            ("person", "obj"): lambda s: self.who(s, "obj"),
            ("person", "dat"): lambda s: self.who(s, "dat"),
            ("person", "card"): self.card_of,
            ("person", "token"): lambda s: self.word("token_mine") if s == self.viewer
            else self.word("token_of", name=self.players[s]),
            ("people", ""): lambda seats: ", ".join(self.who(s) for s in seats)
            or self.word("nobody"),
            ("people", "first"): lambda seats: self.who(seats[0]),
            ("people", "second"): lambda seats: self.who(seats[1]),
            ("people", "and"): lambda seats: self.listing([self.who(s) for s in seats]),
            ("people", "and_obj"): lambda seats: self.listing([self.who(s, "obj") for s in seats]),
            # the viewer's fellows, and the viewer first among them ("You, Bob and Cy")
            ("people", "others"): lambda seats: self.listing(
                [self.players[s] for s in seats if s != self.viewer]),
            ("people", "with_you"): lambda seats: self.listing(
                [self.word("you")] + [self.players[s] for s in seats if s != self.viewer]),
            ("people", "cards"): lambda seats: self.listing([self.card_of(s) for s in seats]),
            ("people", "first_dat"): lambda seats: self.who(seats[0], "dat"),
            ("people", "second_dat"): lambda seats: self.who(seats[1], "dat"),
            ("role", ""): self.role,
            ("role", "plural"): self.plural,
            ("role", "the"): lambda role: self.loc.said_as(self._glossary(role), "the"),
            ("role", "a"): lambda role: self.loc.said_as(self._glossary(role), "a"),
            # the one card of its kind in the deck is "the" one: "diventa l'Infetta"
            ("role", "into"): lambda role: self.loc.said_as(
                self._glossary(role), "into_one" if self.copies[role] == 1 else "into"),
            ("role", "called"): lambda role: self.own("called", role)
            if f"account.{self.ruleset}.called.{role}" in self.loc.lines else self.role(role),
            ("center", ""): self.center,
            ("center", "n"): lambda i: str(i + 1),
            # (a role called as the group calls are: "the vampires", "the Count", "il Conte")
            ("call", ""): lambda call: self.own("call", call)
            if f"account.{self.ruleset}.call.{call}" in self.loc.lines
            else self.loc.said_as(self._glossary(call), "the"),
            ("token", ""): lambda token: self.own("token", token),
            ("artifact", ""): lambda artifact: self.own("artifact", artifact),
            ("artifact", "do"): lambda artifact: self.loc.line(
                f"{self.ruleset}.artifact_do.{artifact}"),
            ("night", ""): str,
            ("day", ""): str,
            ("saw", "said"): lambda p: self.position(p, speaker),
            ("swapped", "said_first"): lambda ps: self.position(ps[0], speaker),
            ("swapped", "said_second"): lambda ps: self.position(ps[1], speaker),
            ("saw", "place"): self.place,
            ("swapped", "place_first"): lambda ps: self.place(ps[0]),
            ("swapped", "place_second"): lambda ps: self.place(ps[1]),
            ("votes", ""): self._votes,
            ("deaths", ""): lambda deaths: ", ".join(
                self.word("death", name=self.who(s), cause=self.loc.cause(c, self.ruleset))
                for s, c in deaths),
            ("deaths", "causes"): lambda deaths: "; ".join(self._why_dead(s, c) for s, c in deaths),
            ("cards", ""): lambda cards: ", ".join(
                self.word("pair", name=self.who(int(s)), role=self.role(c))
                for s, c in cards.items()) if isinstance(cards, dict) else self.pairs(cards),
            ("cards", "center"): lambda cards: ", ".join(self.role(c) for c in cards[n:]),
            ("roles", ""): self.pairs,
        }

    def _votes(self, votes: Sequence[Any]) -> str:
        # One Night: one target per seat, None for a seat that pointed at nobody (left
        # out); Lupus: [voter, target] pairs of those who voted, None for nobody.
        pairs = [(v[0], v[1], True) if isinstance(v, list | tuple) else (s, v, False)
                 for s, v in enumerate(votes)]
        pointed = [self._vote(s, v) for s, v, voted in pairs if voted or v is not None]
        return ", ".join(pointed) or self.word("nobody_points")

    def _vote(self, seat: int, target: int | None) -> str:
        # (pointing at nobody is a sentence of its own: "non indica nessuno", "niemanden")
        you = "_you" if seat == self.viewer else ""
        if target is None:
            return self.word(f"vote_nobody{you}", name=self.players[seat])
        return self.word(f"vote_pair{you}", name=self.players[seat], target=self.who(target, "obj"))

    def _why_dead(self, seat: int, cause: str) -> str:
        """The master's note on a death: the ruleset's words for the cause."""
        key = f"account.{self.ruleset}.cause.{cause}"
        if key in self.loc.lines:
            return self.loc.line(key, name=self.players[seat])
        return self.loc.line(f"account.{self.ruleset}.cause_other", name=self.players[seat],
                             cause=cause)


@cache
def _own(key: str) -> bool:
    """Whether the template ``key`` is an ``.own`` variant."""
    return "own" in key.split(".")[2:]


_FIELD_FORMS = frozenset({"center", "call", "token", "artifact", "night", "day", "saw",
                          "swapped", "votes", "deaths", "cards", "roles"})


def _group(field: str) -> str:
    if field in PERSON:
        return "person"
    if field in PEOPLE:
        return "people"
    if field in ROLE:
        return "role"
    return field


class Told:
    """One viewer's events as the web shows them (the timeline, the shared screen's
    log): the one renderer's sentence for each event of that viewer's view, None for a
    bookkeeping one. Made from the view's events and nothing else, so a sentence can
    tell no more than its event.

    Within one game state a view's events only grow, and the rulesets hand out the same
    event dicts each time (``engine.events.visible_json``): when the last event told is
    the very dict at its place, the history is the same and only the new events are
    told. Anything else (a new game in the room, a rebuilt room, an older view) is
    compared event by event and told again from the first difference."""

    def __init__(self, ruleset: str, players: Sequence[str], viewer: int | None,
                 lang: str, deck: Iterable[str] = ()) -> None:
        self.key = (tuple(players), lang)
        self.renderer = Renderer(ruleset, players, viewer, lang, deck)
        self._events: list[dict[str, Any]] = []  # the events told so far, and their
        self._said: list[str | None] = []  # sentences
        self._last: object = None  # the view's own dict of the last event told

    def __call__(self, events: Sequence[Mapping[str, Any]]) -> list[str | None]:
        n = len(self._events)
        if not (0 < n <= len(events) and events[n - 1] is self._last) \
                and list(events[:n]) != self._events:  # another history: tell it again
            pairs = zip(events, self._events, strict=False)  # (either may be longer)
            n = next((i for i, (a, b) in enumerate(pairs) if a != b), min(n, len(events)))
            del self._events[n:], self._said[n:]
        for event in events[n:]:
            self._events.append(dict(event))
            self._said.append(self.tell(event))
        if 0 < len(self._events) <= len(events):
            self._last = events[len(self._events) - 1]
        return self._said[:len(events)]

    def tell(self, event: Mapping[str, Any]) -> str | None:
        # A game in play never stops for a missing sentence: the page shows none and
        # the error is logged, never raw data (the tests that render every kind in
        # every language fail on it: tests/engine/test_event_sentences.py).
        try:
            return self.renderer.event(event)
        except LocaleError:
            log.error("no sentence for a %r event", event.get("kind"), exc_info=True)
            return None
