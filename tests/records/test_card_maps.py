"""Every playing card of each 52-card mapping, read back card by card (issue 14).

Source: the card tables of one-night-ultimate-werewolf.md ("Setup": "the aces are the
Werewolves, numbers are the Villagers and every other role has a face card of its
own") and lupus-in-tabula.md ("The cards", and the extra roles' cards: Owl (Q♣),
Freemasons (J♥ J♦), Werehamster (★), Mythomaniac (Q♦)). The tables are read from the
rulebook files themselves, so the test does not repeat the code's own map.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nightcall.engine.cards import RANKS, SUITS
from nightcall.engine.errors import RecordError
from nightcall.engine.ruleset import Ruleset
from nightcall.rulesets.lupus.game import LUPUS
from nightcall.rulesets.onuw.game import ONUW

RULES = Path("/work/shared/rules")  # as tests/narration/helpers.py
ALL_52 = [rank + suit for suit in SUITS for rank in RANKS]
ROLE_WORDS = {"masons": "mason", "freemasons": "freemason", "doppelgänger": "doppelganger"}


def role_id(word: str) -> str:
    w = word.strip().lower()
    return ROLE_WORDS.get(w, w.replace(" ", "_"))


def expand(cell: str) -> list[str]:
    """"A♠ A♣" -> both cards; "2-10" -> the 36 number cards."""
    if cell.strip() == "2-10":
        return [rank + suit for suit in SUITS for rank in RANKS[1:10]]
    return cell.split()


def table_of(path: Path, extras: bool) -> dict[str, str]:
    """Card -> role id, from the rulebook's card tables (and the extra roles' table)."""
    text = path.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2:
            continue
        if re.fullmatch(r"((?:[AKQJ]|10|[2-9])[♠♥♦♣] ?)+|2-10", cells[0]):
            for card in expand(cells[0]):
                out.setdefault(card, role_id(cells[1]))
        elif extras:
            extra = re.fullmatch(r"([A-Za-z]+) \(([^)]+)\)", cells[0])
            if extra:
                for card in extra.group(2).split():
                    out.setdefault("JOKER" if card == "★" else card,
                                   role_id(extra.group(1)))
    return out


ONUW_TABLE = table_of(RULES / "one-night-ultimate-werewolf.md", extras=False)
LUPUS_TABLE = table_of(RULES / "lupus-in-tabula.md", extras=True)


def test_the_tables_read_from_the_rulebooks_are_whole() -> None:
    # One Night: 2 aces, 36 numbers and 11 face cards; Lupus: 3 aces, 36 numbers, 9
    # face cards and the joker.
    assert len(ONUW_TABLE) == 2 + 36 + 11 and ONUW_TABLE["10♣"] == "villager"
    assert len(LUPUS_TABLE) == 3 + 36 + 9 + 1 and LUPUS_TABLE["10♣"] == "villager"
    assert set(ONUW_TABLE.values()) == set(ONUW.role_ids)
    assert set(LUPUS_TABLE.values()) == set(LUPUS.role_ids)


@pytest.mark.parametrize(("ruleset", "table"), [(ONUW, ONUW_TABLE), (LUPUS, LUPUS_TABLE)],
                         ids=["onuw", "lupus"])
def test_every_card_reads_as_the_rulebook_says(ruleset: Ruleset, table: dict[str, str]) -> None:
    for card in [*ALL_52, "JOKER"]:
        if card in table:
            assert ruleset.card_to_role(card, "card") == table[card], card
        else:
            with pytest.raises(RecordError, match="is not a"):
                ruleset.card_to_role(card, "card")


@pytest.mark.parametrize(("ruleset", "table"), [(ONUW, ONUW_TABLE), (LUPUS, LUPUS_TABLE)],
                         ids=["onuw", "lupus"])
def test_every_role_reads_back_as_exactly_its_cards(ruleset: Ruleset,
                                                   table: dict[str, str]) -> None:
    card_map = ruleset.card_map
    assert card_map is not None
    for role in ruleset.role_ids:
        cards = card_map.cards_of(role)
        assert sorted(cards) == sorted(c for c, r in table.items() if r == role), role
        for card in cards:  # and each card of the role reads back as the role
            assert card_map.role_of(card) == role, card


def test_a_one_night_record_dealt_in_playing_cards_replays_card_by_card() -> None:
    # Every mapped card dealt in turn to Anna, beside a Werewolf and a Villager; a Mason
    # comes with the other Mason in the center ("Always use both Masons").
    for card, role in ONUW_TABLE.items():
        partner = {"J♥": "J♦", "J♦": "J♥"}.get(card, "4♦")
        rec = {"ruleset": "onuw", "players": ["Anna", "Bruno", "Carla"],
               "cards": {"Anna": card, "Bruno": "A♣" if card == "A♠" else "A♠",
                         "Carla": "3♠" if card != "3♠" else "9♥"},
               "center": [partner, "6♦", "5♣"], "options": {"lone_wolf": False},
               "steps": [COMPULSORY.get(role, {"call": role, "player": "Anna"})
                         if role not in ("villager", "hunter", "tanner") else {"text": card}]}
        st = ONUW.replay(rec)
        assert st.start[0] == role, card
        if role != "drunk":  # the Drunk's card went to the center
            assert ONUW.outcome_json(st)["final"]["cards"]["Anna"] == role, card


COMPULSORY = {"drunk": {"call": "drunk", "player": "Anna", "center": [1]},
              "doppelganger": {"call": "doppelganger", "player": "Anna", "look": "Carla"},
              "werewolf": {"call": "werewolf", "player": "Anna"}}


def test_a_lupus_record_dealt_in_playing_cards_replays_card_by_card() -> None:
    names = [f"P{i}" for i in range(16)]
    cards = ["A♠", "A♣", "A♥", "K♥", "K♠", "Q♥", "Q♠", "J♠", "Q♣", "J♥", "J♦", "JOKER",
             "Q♦", "2♠", "10♣", "7♥"]
    st = LUPUS.replay({"ruleset": "lupus", "players": names,
                       "cards": dict(zip(names, cards, strict=True)), "steps": []})
    assert list(st.start) == [LUPUS_TABLE[c] for c in cards]
