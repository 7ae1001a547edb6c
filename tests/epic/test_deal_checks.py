"""The deal remembers a checked deck (issue 21's speed work); what it refuses it refuses
every time, and the options a dealt game carries are the checked ones."""

from __future__ import annotations

import random

import pytest

from nightcall.engine.errors import DeckError
from nightcall.rulesets.epic.game import EPIC
from nightcall.rulesets.epic.judge import EndOfNight, identities
from nightcall.rulesets.epic.roles import ARTIFACTS, CLAW, VAMPIRES, VILLAGE

NAMES = tuple(f"P{i}" for i in range(8))
DECK = EPIC.scenario_deck("werewolf_night", 8, seed=1)  # the Alpha Wolf: an extra card


def test_a_refused_deck_is_refused_again() -> None:
    bad = ["not_a_role", *DECK[1:]]
    for _ in range(2):  # a refusal is not remembered as a verdict
        with pytest.raises(DeckError, match="not Epic Battle roles: not_a_role"):
            EPIC.deal(NAMES, bad, 1)


def test_the_extra_card_stays_beside_the_center() -> None:
    for seed in range(20):
        st = EPIC.deal(NAMES, DECK, seed)
        assert st.cards[st.extra_pos] == DECK[-1]
        assert sorted(st.cards[:-1]) == sorted(DECK[:-1])


def test_dealt_options_are_the_checked_defaults_with_the_seed() -> None:
    st = EPIC.deal(NAMES, DECK, 7)
    assert st.options == EPIC.options({"seed": 7}) == {"seed": 7, "artifacts": list(ARTIFACTS)}
    drawn = EPIC.deal(NAMES, DECK, random.Random(3))
    assert isinstance(drawn.options["seed"], int)  # drawn from the generator


def test_dealt_options_are_checked() -> None:
    with pytest.raises(DeckError, match="artifacts"):
        EPIC.deal(NAMES, DECK, 1, {"artifacts": ["crown"]})
    with pytest.raises(DeckError, match="Epic Battle has no option lone_wolf"):
        EPIC.deal(NAMES, DECK, 1, {"lone_wolf": True})
    st = EPIC.deal(NAMES, DECK, 1, {"seed": 99, "artifacts": [CLAW]})
    assert st.options == {"seed": 99, "artifacts": [CLAW]}
    assert st.artifact_pool == [CLAW]  # werewolves are in this deck: the Claw stays


def test_two_players_with_one_name_are_refused_before_shuffling() -> None:
    rng = random.Random(5)
    state = rng.getstate()
    with pytest.raises(DeckError, match="same name"):
        EPIC.deal(("Ann", "Ann", *NAMES[2:]), DECK, rng)
    assert rng.getstate() == state


def _end(roles: tuple[str, ...], tokens: tuple[str, ...]) -> EndOfNight:
    n = len(roles)
    return EndOfNight(tuple(f"P{i}" for i in range(n)), roles, tokens, (None,) * n,
                      (-1,) * n)


def test_renfield_joins_the_vampires_only_when_there_are_vampires() -> None:
    # "Renfield": he is on the vampires' team; with no vampire he plays with the village.
    certain = ("certainty",) * 3
    with_vampire = identities(_end(("renfield", "vampire", "seer"), certain))
    assert with_vampire[0].party == VAMPIRES and with_vampire[0].kind is None
    alone = identities(_end(("renfield", "seer", "villager"), certain))
    assert alone[0].party == VILLAGE
    # the Vampire mark makes a vampire of whoever holds it, and so brings Renfield in
    marked = identities(_end(("renfield", "seer", "villager"),
                             ("certainty", "vampire", "certainty")))
    assert marked[1].kind == VAMPIRES and marked[0].party == VAMPIRES
