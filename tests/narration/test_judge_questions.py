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

from .helpers import need_ruleset, run_cli


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
        "Die Schachtel hat 2 × Liebes-Marker, und Ann und Ben haben sie schon: gib einen "
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
               "cards": {"Ann": "werewolf", "Ben": "werewolf", "Cid": "curator"},
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
                       "cards": {"Ann": "werewolf", "Ben": "seer", "Cid": "curator"},
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


def test_a_second_count_is_refused_the_epic_box_has_one() -> None:
    """"conte" and "il conte" were both taken (a Mimic might have copied the Count):
    every card is now typed as the card that lies there, so the box counts it, as One
    Night's third Werewolf (``copies_allowed``, the ruleset's box)."""
    q = questions("it")
    q.table["cards"] = {"Anna": "conte"}
    assert refusal(q.card("Bruno"), "il conte") == (
        "Il Conte: la scatola ne ha 1, e ce l'ha già Anna. Riscrivi la carta.")
    assert q.card("Anna")("il conte") == "il conte"  # Anna's own answer, typed again
    assert q.card("Bruno")("imitatore") == "imitatore"  # the Mimic is asked its copy later


def test_a_third_werewolf_names_the_holders_with_and() -> None:
    module = judge_module("onuw")
    assert module is not None
    for lang, said in (("it", "Lupo: la scatola ne ha 2, e ce l'hanno già Anna e Bruno."),
                       ("de", "Die Schachtel hat 2 × Werwolf, und Anna und Bruno haben "
                              "schon eine"),
                       ("en", "The box has 2 × Werewolf, and Anna and Bruno hold one")):
        q = _Questions("onuw", lang, module)
        q.table["cards"] = {"Anna": "werewolf", "Bruno": "werewolf"}
        assert refusal(q.card("Carla"), "werewolf").startswith(said)


def _asked(q: _Questions, typed: str) -> str:
    with CliRunner().isolation(input=typed) as streams:
        q.ask_all()
        return streams[0].getvalue().decode()


@pytest.mark.parametrize(("cards", "asked"), [
    (("seer", "werewolf", "robber"), False),
    (("seer", "werewolf", "curator"), True),
    (("witch", "werewolf", "robber"), True),  # she may have put the Curator's card in the middle
    (("alpha wolf", "werewolf", "robber"), True),  # so may the Alpha Wolf
    (("mimic", "werewolf", "robber"), True),  # the Mimic copied the Curator (below)
])
def test_the_curators_artifact_is_asked_only_when_one_can_lie_on_the_table(
        cards: tuple[str, ...], asked: bool) -> None:
    """The Curator wakes last (11) and only when dealt to a player; only the Alpha Wolf
    and the Witch move a player's card into the middle before, so without one of the
    three at the end no artifact lies anywhere (docs/rulings.md)."""
    q = questions()
    copy = "curator\n" if "mimic" in cards else ""
    out = _asked(q, "Ann, Ben, Cid\n" + "\n".join(cards) + "\n" + copy + "\n\n\n"
                 + ("\n" if asked else "") + "Ben\nAnn\nAnn\n")
    assert ("The artifact the Curator placed" in out) is asked, out
    assert q.table["votes"] == {"Ann": "Ben", "Ben": "Ann", "Cid": "Ann"}


def test_the_epic_verdict_in_italian_agrees_with_any_name() -> None:
    """Anna, a Vampire, is killed by Bruno, the Hunter: the lines said "È morto il
    vampiro Anna", "muore anche Anna, il giocatore che indica" and "Morti: Anna"."""
    need_ruleset("epic")
    table = ('{"players": ["Anna", "Bruno", "Carla"], "cards": {"Anna": "vampire", '
             '"Bruno": "hunter", "Carla": "villager"}, '
             '"votes": {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Bruno"}}')
    code, out, err = run_cli("judge", "epic", "--lang", "it", "--file", "-", stdin=table)
    assert code == 0, err
    lines = [line.strip() for line in out.splitlines()]
    assert lines[:2] == ["Chi muore: Bruno (voto del villaggio), Anna (colpo del Cacciatore)",
                         "Chi vince: Bruno, Carla"]
    assert "3. Bruno era il Cacciatore e indica Anna: muore anche Anna." in lines
    assert "4. Muore Anna, che è un vampiro: vince il Villaggio." in lines
    code, out, err = run_cli("judge", "epic", "--lang", "de", "--file", "-", stdin=table)
    assert "4. Ein Vampir ist gestorben (Anna): Das Dorf gewinnt." in out
