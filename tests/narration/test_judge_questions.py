"""``nightcall judge epic`` asked question by question: a token the box has no more of,
or a second artifact, is refused at the answer that breaks the rule (not after the
votes), with who holds it; a refused table is mended one player at a time.

Rulebook, Epic Battle: the box's tokens (TOKEN_SUPPLY: one Bounty, two Love, ...);
"Curator: may take a random artifact" (one Curator, one artifact a night, see
docs/rulings.md)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as hs

from nightcall.commands.judge import _Questions, judge_module
from nightcall.rulesets.epic.roles import TOKEN_SUPPLY, TOKENS, tokens_beyond_the_box

from .helpers import need_ruleset


def questions(lang: str = "en") -> _Questions:
    need_ruleset("epic")
    module = judge_module("epic")
    assert module is not None
    return _Questions("epic", lang, module)


def refusal(check: object, raw: str) -> str:
    """The sentence a check answers ``raw`` with (it must refuse)."""
    assert callable(check)
    try:
        check(raw)
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{raw!r} was taken")


def test_a_second_bounty_is_refused_at_once_naming_who_has_it() -> None:
    q = questions()
    q.table["tokens"] = {"Ann": "bounty"}
    assert refusal(q.token("Ben"), "bounty") == (
        "The box has one Bounty token, and Ann has it already: type another token "
        "(empty: Certainty).")
    assert q.token("Ben")("love") == "love"
    assert q.token("Ann")("bounty") == "bounty"  # Ann's own answer, typed again


def test_a_third_love_token_is_refused_the_box_has_two() -> None:
    q = questions("de")
    q.table["tokens"] = {"Ann": "love", "Ben": "love"}
    assert refusal(q.token("Cid"), "Liebe") == (
        "Die Schachtel hat 2 × Liebes-Marker, und Ann, Ben haben sie schon: gib einen "
        "anderen Marker ein (leer: Gewissheit).")
    assert q.token("Cid")("") == "certainty"  # twelve in the box: never short


def test_a_second_artifact_is_refused_the_curator_places_one() -> None:
    q = questions("it")
    q.table["artifacts"] = {"Ann": "claw_of_the_werewolf"}
    said = refusal(q.artifact("Ben"), "maschera del silenzio")
    assert said == ("Il Curatore mette un solo artefatto a notte, e sulla carta di Ann c'è "
                    "già: Artiglio del Lupo Mannaro. Premi Invio per nessuno.")
    assert q.artifact("Ben")("") == ""
    assert q.artifact("Ann")("mask of silence") == "mask_of_silence"  # Ann's, changed


@given(hs.lists(hs.sampled_from(TOKENS), min_size=3, max_size=10))
def test_the_answers_taken_always_fit_in_the_box(typed: list[str]) -> None:
    """Whatever a table types, player by player, what is taken the box could hold, and
    an answer is refused exactly when the box has no more of that token."""
    q = questions()
    q.table["tokens"] = {}
    for i, token in enumerate(typed):
        player = f"P{i}"
        held = list(q.table["tokens"].values()).count(token)
        try:
            q.table["tokens"][player] = q.token(player)(token)
        except ValueError:
            assert held == TOKEN_SUPPLY[token]
        else:
            assert held < TOKEN_SUPPLY[token]
    assert tokens_beyond_the_box(list(q.table["tokens"].values())) is None


def test_a_refused_table_is_mended_one_player_at_a_time() -> None:
    """The whole check refused the table: the user names a player (a name not at the
    table is asked again), retypes that player's answers, and the rest is kept."""
    q = questions()
    q.table = {"players": ["Ann", "Ben", "Cid"],
               "cards": {"Ann": "werewolf", "Ben": "werewolf", "Cid": "robber"},
               "votes": {"Ann": "Ben", "Ben": "Ann", "Cid": "Ann"},
               "tokens": {"Ann": "bounty", "Ben": "certainty", "Cid": "love"},
               "artifacts": {"Cid": "mask_of_silence"}}
    typed = "Dora\nBen\nseer\npanic\nclaw\n\nCid\n"  # (Ben's artifact refused, then none)
    with CliRunner().isolation(input=typed) as streams:
        assert q.fix("a made-up reason") is True
        out = streams[0].getvalue().decode()
    assert "This table cannot be judged: a made-up reason." in out
    assert "'Dora' is not at this table" in out
    assert "The Curator places one artifact a night, and Cid's card carries" in out
    assert q.table == {"players": ["Ann", "Ben", "Cid"],
                       "cards": {"Ann": "werewolf", "Ben": "seer", "Cid": "robber"},
                       "votes": {"Ann": "Ben", "Ben": "Cid", "Cid": "Ann"},
                       "tokens": {"Ann": "bounty", "Ben": "panic", "Cid": "love"},
                       "artifacts": {"Cid": "mask_of_silence"}}
    with CliRunner().isolation(input="\n"):
        assert q.fix("again") is False  # Enter: the user gives up


def test_a_name_typed_nearly_right_is_refused_with_the_one_meant() -> None:
    """Session 25: "Brno" was refused with the list alone; the one meant is named, never
    taken without asking (two names can be close)."""
    q = questions()
    q.table["players"] = ["Ada", "Bruno", "Carla"]
    with pytest.raises(ValueError, match=r"is not at this table.* Did you mean Bruno\?$"):
        q.seated("Brno")
    with pytest.raises(ValueError, match=r"or nothing\. Did you mean Carla\?$"):
        q.vote("Ada")("carl")
    with pytest.raises(ValueError) as far:
        q.seated("Zed")
    assert "Did you mean" not in str(far.value)
    assert q.vote("Ada")("bruno") == "Bruno"  # (a name in another case is that name)
