"""The who-has-won check for a real One Night table: final cards and votes in, outcome out.

``table`` is what the players see once every card is turned over::

    {"players": ["Anna", "Bruno", ...],
     "cards": {"Anna": "werewolf", "Bruno": "K♥", ...},   # final cards: role ids or playing cards
     "center": ["villager", "A♣", "seer"],                # optional
     "votes": {"Anna": "Bruno", ...},                     # a player left out did not point
     "doppelganger": "werewolf"}                          # optional: what the Doppelgänger copied

The check itself is onuw/day.py's ``resolve`` (deaths, Hunter, who won), run on
a state built from the table, so a real table and a played game are judged by
the very same code.
"""

from __future__ import annotations

from collections.abc import Mapping

from nightcall.engine.errors import DeckError, NightcallError, Said
from nightcall.engine.outcome import Outcome
from nightcall.rulesets.onuw import day
from nightcall.rulesets.onuw.roles import CARD_MAP, DOPPELGANGER, ROLE_IDS
from nightcall.rulesets.onuw.state import ABSTAIN, DAY, OneNightState


class TableError(NightcallError):
    """A table description that cannot be judged; the message says which entry and why."""


def read_card(value: object, where: str) -> str:
    """A role id, a display name in any case, or a playing card, as a role id."""
    if not isinstance(value, str) or not value.strip():
        raise TableError(Said(f"{where}: a card must be a role or a playing card, got {value!r}",
                              "judge.card_type", where=where, card=repr(value)))
    text = value.strip()
    key = text.lower().replace(" ", "_").replace("ä", "a")
    if key in ROLE_IDS:
        return key
    role = CARD_MAP.role_of(text)
    if role is not None:
        return role
    raise TableError(Said(
        f"{where}: {value!r} is not a One Night role ({', '.join(ROLE_IDS)}) or a playing card",
        "judge.not_a_card", card=str(value), roles=list(ROLE_IDS), game="onuw"))


def _players(table: Mapping[str, object]) -> tuple[str, ...]:
    players = table.get("players")
    if not isinstance(players, list) or not players:
        raise TableError(Said("'players' must be a non-empty list of names", "record.players"))
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise TableError(Said("player names must be non-empty strings", "record.players"))
    if len(set(players)) != len(players):
        raise TableError(Said("two players have the same name", "judge.same_name"))
    if not 3 <= len(players) <= 10:
        raise TableError(Said(f"One Night is for 3 to 10 players, the table has "
                              f"{len(players)}", "deck.players", title="One Night", low=3,
                              high=10, n=len(players)))
    return tuple(players)


def build_state(table: Mapping[str, object]) -> OneNightState:
    """A day-phase state holding the table's final cards and votes (nothing of the night)."""
    if not isinstance(table, Mapping):
        raise TableError(Said("a table is a JSON object with 'players', 'cards' and 'votes'",
                              "judge.not_object"))
    names = _players(table)
    cards = table.get("cards")
    if not isinstance(cards, Mapping):
        raise TableError(Said("'cards' must map every player to the card in front of them",
                              "judge.cards"))
    missing = [p for p in names if p not in cards]
    if missing:
        raise TableError(Said(f"no final card given for {', '.join(missing)}",
                              "judge.no_card", names=", ".join(missing)))
    strangers = [str(p) for p in cards if p not in names]
    if strangers:
        raise TableError(Said(f"cards given for people not seated: {', '.join(strangers)}",
                              "judge.strangers", names=", ".join(strangers)))
    final = [read_card(cards[p], Said(f"card of {p}", "record.card_of", name=p)) for p in names]
    center_raw = table.get("center", [])
    if not isinstance(center_raw, list) or len(center_raw) not in (0, 3):
        raise TableError(Said("'center' is optional, and when given lists the 3 center cards",
                              "judge.center", n=3))
    center = [read_card(c, Said(f"center card {i}", "record.center_card", n=i))
              for i, c in enumerate(center_raw, 1)]
    copy_raw = table.get("doppelganger")
    copy = None if copy_raw in (None, "") else \
        read_card(copy_raw, Said("doppelganger", "judge.copied"))
    if copy == DOPPELGANGER:
        raise TableError(Said("the Doppelgänger copies another player's card, not a "
                              "Doppelgänger", "judge.copy_self"))
    if copy is not None and DOPPELGANGER not in final + center:
        raise TableError(Said(
            "'doppelganger' says what the Doppelgänger copied, but no card is the Doppelgänger",
            "judge.no_doppelganger"))
    cards_all = final + center
    st = OneNightState(names, cards_all, {"lone_wolf": True}, (), tuple(sorted(cards_all)))
    st.copy = copy
    st.phase = DAY
    st.votes = _votes(table.get("votes", {}), names)
    st.pending = 0
    return st


def _votes(raw: object, names: tuple[str, ...]) -> list[int]:
    if not isinstance(raw, Mapping):
        raise TableError(Said("'votes' must map each player to the player they point at",
                              "judge.votes"))
    votes = [ABSTAIN] * len(names)
    for voter, target in raw.items():
        if voter not in names:
            raise TableError(Said(f"votes: {voter!r} is not seated at this table",
                                  "judge.voter_not_seated", name=str(voter)))
        if target is None or target == "":
            continue
        if target not in names:
            raise TableError(Said(f"votes: {voter} points at {target!r}, who is not seated here",
                                  "judge.target_not_seated", name=str(voter),
                                  target=str(target)))
        if target == voter:
            raise TableError(Said(f"votes: {voter} points at themselves; point at another "
                                  "player", "judge.self_vote", name=str(voter)))
        votes[names.index(voter)] = names.index(target)
    return votes


# What `nightcall judge` asks at this table (commands/judge.py): what the Doppelgänger
# copied; no symbol tokens or artifacts; every card can be someone's at the end.
ASKS_COPY = True
ASKS_TOKENS = False
NOT_A_FINAL_CARD: frozenset[str] = frozenset()
# (the Doppelgänger is typed as its card, and asked what it copied)
PLAYED_AS_ANOTHER: dict[str, frozenset[str] | None] = {}
ASKS_ARTIFACT_WITH: frozenset[str] = frozenset()  # (no artifacts in One Night)


def copies_allowed(role: str) -> int | None:
    """How many players can hold ``role`` at the end (None: no limit), from the box."""
    from nightcall.rulesets.onuw.roles import SINGLE

    return 1 if role in SINGLE else 2 if role in ("werewolf", "mason") else None


def judge(table: Mapping[str, object]) -> Outcome:
    """Deaths, winners and the check as sentences, for a real table's end of game."""
    st = build_state(table)
    try:
        day.resolve(st)
    except DeckError as exc:  # pragma: no cover - resolve raises nothing on a valid state
        raise TableError(*exc.args) from None  # (a Said stays one)
    assert st.outcome is not None
    return st.outcome
