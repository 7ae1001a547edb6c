"""Reading a deck from the command line: role ids, role names or playing cards.

``--roles werewolf,werewolf,seer`` or ``--roles "A♠ A♣ K♥"`` or ``--roles 3xvillager``;
the same role may be named in any language's locale ("Veggente", "Seherin").
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence

from nightcall.engine.errors import NEAR, DeckError, Said
from nightcall.engine.ruleset import Rules
from nightcall.narration.locale import LANGUAGES, load

_REPEAT = re.compile(r"^(\d+)\s*[x*×]\s*(.+)$|^(.+?)\s*[x*×]\s*(\d+)$", re.IGNORECASE)
_COUNT_ALONE = re.compile(r"^(\d+)\s*[x*×]?$", re.IGNORECASE)


def normal(text: str) -> str:
    """A typed name as :func:`role_lookup`'s keys are written ("Sight-Wolf " ->
    "sight_wolf"); token and artifact names are read the same way."""
    return text.strip().lower().replace(" ", "_").replace("-", "_")



# The article a role's name may start with ("The Count", "Il Conte", "Der Graf"): a
# player who types "Graf" or "count" means that role.
_ARTICLES = ("the_", "il_", "lo_", "la_", "der_", "die_", "das_")


def role_lookup(ruleset: Rules) -> dict[str, str]:
    """Every accepted spelling of each role of ``ruleset`` -> role id: its id, its name
    in each language, and that name without its leading article. A role the games share
    is also known by its name in the other games ("Lupo Mannaro", the Lupus name, for
    One Night's "Lupo"), after this game's own names."""
    table = {rid: rid for rid in ruleset.role_ids}
    bare: dict[str, str] = {}
    for lang in LANGUAGES:
        names = load(lang).roles
        games = [ruleset.id, *sorted(g for g in names if g != ruleset.id)]
        for rid, name in ((r, n) for g in games for r, n in names.get(g, {}).items()):
            if rid in ruleset.role_ids:
                key = normal(name)
                table.setdefault(key, rid)
                article = next((a for a in _ARTICLES if key.startswith(a)), "")
                if article:
                    bare.setdefault(key[len(article):], rid)
    return {**bare, **table}  # (a role's own name wins over another's without article)


def nearest_role(ruleset: Rules, typed: str, among: Iterable[str] | None = None,
                 lookup: dict[str, str] | None = None) -> str | None:
    """The id of the role whose name (in any language, or its id) is nearest to
    ``typed``, a name nightcall does not know; None when no name is near (:data:`NEAR`).
    ``among``: only these roles (the ones the answer may be)."""
    lookup = role_lookup(ruleset) if lookup is None else lookup
    allowed = None if among is None else set(among)
    names = [k for k, rid in lookup.items() if allowed is None or rid in allowed]
    part = normal(typed)
    found = difflib.get_close_matches(part, names, n=1, cutoff=NEAR)
    if found:
        return lookup[found[0]]
    # A piece of one role's names and of no other's ("Wolf" for "Werwolf" in Lupus).
    ids = {lookup[k] for k in names if part in k} if len(part) >= 4 else set()
    return ids.pop() if len(ids) == 1 else None


def not_a_role(ruleset: Rules, typed: str, where: str = "",
               lookup: dict[str, str] | None = None) -> Said:
    """The refusal of ``typed``, neither a role of ``ruleset`` nor a playing card: the
    roles it has, and the nearest role's name where one is near ("did you mean ...?")."""
    from nightcall.narration.refusals import in_words

    near = nearest_role(ruleset, typed, lookup=lookup) or ""
    key = "judge.not_a_card_near" if near else "judge.not_a_card"
    values = {"card": typed, "roles": list(ruleset.role_ids), "game": ruleset.id, "role": near}
    # (the English sentence is the English line: the roles by name, not by id)
    return Said(where + in_words(load("en"), Said("", key, **values)), key, **values)


def split_items(values: Iterable[str], is_name: Callable[[str], bool] = bool) -> list[str]:
    """``["a,b", "c d"]`` -> ``["a", "b", "c", "d"]``. A comma-separated entry that is a
    whole name ("The Count", "2x Sight Wolf") stays one item."""
    out: list[str] = []
    for value in values:
        for chunk in value.replace(";", ",").split(","):
            chunk = chunk.strip()
            if " " in chunk and is_name(chunk):
                out.append(chunk)
            else:
                out.extend(part for part in chunk.split() if part)
    return out


def parse_roles(ruleset: Rules, values: Sequence[str]) -> list[str]:
    """The deck as role ids, or DeckError naming the entry that is not a role."""
    return parse_deck(ruleset, values)[0]


def parse_deck(ruleset: Rules, values: Sequence[str]) -> tuple[list[str], list[str | None]]:
    """The deck as role ids, and for each the playing card typed for it (None where a
    role was named). A 52-card deck has each card once: a card typed twice is refused,
    never quietly read as another card of the same role."""
    from nightcall.engine.cards import parse_playing_card

    lookup = role_lookup(ruleset)
    given: list[str | None] = []

    def is_name(chunk: str) -> bool:
        m = _REPEAT.match(chunk)
        return normal(m.group(2) or m.group(3) if m else chunk) in lookup

    deck: list[str] = []
    pending = 0  # a count written apart from its role: "2x villager"
    for item in split_items(values, is_name):
        count = 1
        alone = _COUNT_ALONE.match(item)
        if alone:
            pending = int(alone.group(1))
            continue
        m = _REPEAT.match(item)
        if m:
            count = int(m.group(1) or m.group(4))
            item = m.group(2) or m.group(3)
        elif pending:
            count = pending
        pending = 0
        role = lookup.get(normal(item))
        card = None
        if role is None and ruleset.card_map is not None:
            role = ruleset.card_map.role_of(item)
            card = parse_playing_card(item) if role is not None else None
        if card is not None and role is not None and (card in given or count > 1):
            cards = " ".join(_cards_of(ruleset, role))
            raise DeckError(Said(f"{card} is given twice: a 52-card deck has one {card} "
                                 f"(the cards of this role: {cards})", "deck.card_twice",
                                 card=card, cards=cards))
        if role is None:
            raise DeckError(not_a_role(ruleset, item, lookup=lookup))
        if not 1 <= count <= 30:
            raise DeckError(Said(f"{item!r}: a role can be repeated 1 to 30 times, not {count}",
                                 "roles.count", item=item, count=count))
        deck.extend([role] * count)
        given.extend([card] * count)
    if pending:
        raise DeckError(Said(f"--roles ends with a count ({pending}x) and no role after it",
                             "roles.pending", count=pending))
    if not deck:
        raise DeckError(Said("--roles lists no roles", "roles.none"))
    return deck, given


def _cards_of(ruleset: Rules, role: str) -> list[str]:
    cards = ruleset.card_map.cards_of(role) if ruleset.card_map is not None else []
    return cards[:6] + (["..."] if len(cards) > 6 else [])


def cards_to_pull(ruleset: Rules, deck: Sequence[str],
                  given: Sequence[str | None] | None = None) -> list[str] | None:
    """The playing card to pull for each role of ``deck``: the one typed for it where
    one was, otherwise the first of the role's cards nobody typed (None: the ruleset has
    no 52-card mapping)."""
    card_map = ruleset.card_map
    if card_map is None:
        return None
    typed = list(given or [None] * len(deck))
    taken = {c for c in typed if c is not None}
    out: list[str] = []
    for role, card in zip(deck, typed, strict=True):
        if card is None:
            card = next((c for c in card_map.cards_of(role) if c not in taken), None)
            if card is None:
                raise DeckError(Said(f"a 52-card deck has no more cards for {role}",
                                     "deck.no_more_cards", game=ruleset.id, role=role))
            taken.add(card)
        out.append(card)
    return out


def scenario_asked(ruleset: Rules, typed: str | None) -> str | None:
    """``--scenario`` as the ruleset reads it: a scenario's name in any language is its id
    ("Einbruch der Nacht" -> "nightfall"), with or without the part before a colon
    ("Blutmond" for "Epische Schlacht: Blutmond"); anything else is passed on as typed,
    for the ruleset to find or refuse."""
    if typed is None:
        return None
    for lang in LANGUAGES:
        loc = load(lang)
        for item in ruleset.scenarios():
            sid = str(item["id"])
            name = loc.scenario(ruleset.id, sid, sid)
            if normal(typed) in (normal(name), normal(name.rpartition(": ")[2])):
                return sid
    return typed


def choose_deck(
    ruleset: Rules, players: int, scenario: str | None, roles: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """The deck (from ``--roles``, a scenario or the default) and the rules' warnings."""
    deck, _, warnings = choose_deck_cards(ruleset, players, scenario, roles)
    return deck, warnings


def choose_deck_cards(
    ruleset: Rules, players: int, scenario: str | None, roles: Sequence[str] | None
) -> tuple[list[str], list[str | None], list[str]]:
    """:func:`choose_deck`, with the playing card typed for each role (or None)."""
    if roles:
        if scenario:
            raise DeckError(Said("give either --scenario or --roles, not both",
                                 "deck.scenario_and_roles"))
        deck, given = parse_deck(ruleset, roles)
    else:
        deck = ruleset.default_deck(players, scenario_asked(ruleset, scenario))
        given = [None] * len(deck)
    warnings = ruleset.validate_deck(players, deck)
    return deck, given, warnings
