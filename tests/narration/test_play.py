"""``play``: the human sees their seat's view and nothing else."""

from __future__ import annotations

import re
from typing import Any

import pytest

from nightcall.commands.play import play_game
from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.locale import LocaleError
from nightcall.narration.seat import Renderer
from nightcall.narration.telling import explained
from nightcall.rulesets.onuw.deck import recommended
from nightcall.rulesets.onuw.game import ONUW

from .helpers import need_ruleset


@pytest.mark.parametrize(("players", "seed", "me"), [(3, 1, 0), (5, 4, 2), (7, 9, 6)])
def test_the_human_is_shown_exactly_their_views_events(players: int, seed: int, me: int) -> None:
    names = [f"P{i}" for i in range(players)]
    deck = recommended(players, add=["doppelganger", "minion", "insomniac", "hunter"])
    state = ONUW.deal(names, deck, seed)
    render = Renderer(names, me, "onuw", deck=deck)
    shown: list[str] = []
    menus: list[list[dict[str, Any]]] = []

    def ask(legal: list[dict[str, Any]]) -> dict[str, Any]:
        assert legal == ONUW.view(state, me)["legal"]  # the menu is the view's legal list
        menus.append(legal)
        return legal[-1]

    outcome = play_game(ONUW, state, me, ask, shown.append, render, seed)
    assert ONUW.is_over(state)
    assert menus  # at least the vote
    mine = [render.event(e) for e in ONUW.view(state, me)["events"]]
    assert shown == [t for t in mine if t]
    # Facts only other seats (or the master) know were never shown.
    others = {render.event(e) for s in range(players) if s != me
              for e in ONUW.view(state, s)["events"]} - set(mine)
    assert not others & set(shown)
    assert outcome["winners"] == ONUW.view(state, None)["outcome"]["winners"]


@pytest.mark.parametrize(("rid", "players", "seed"), [("epic", 5, 1), ("epic", 7, 3),
                                                    ("lupus", 9, 2), ("lupus", 12, 5)])
def test_other_rulesets_play_through_with_readable_events(
    rid: str, players: int, seed: int
) -> None:
    need_ruleset(rid)
    ruleset = get_ruleset(rid)
    names = [f"P{i}" for i in range(players)]
    deck = ruleset.default_deck(players)
    state = ruleset.deal(names, deck, seed)
    render = Renderer(names, 0, rid, deck=deck)
    shown: list[str] = []
    play_game(ruleset, state, 0, lambda legal: legal[0], shown.append, render, seed)
    assert ruleset.is_over(state)
    mine = [render.event(e) for e in ruleset.view(state, 0)["events"]]
    # every event's sentence, and (Lupus) once the line that says what a ghost does
    ghost = render.t("ghost")
    assert [t for t in shown if t != ghost] == [t for t in mine if t]
    assert shown.count(ghost) <= (1 if rid == "lupus" else 0)
    # Every event kind these rulesets produce has its own sentence (no raw fallback).
    raw = [line for line in shown if re.match(r"^[a-z_]+: \w+=", line)]
    assert not raw, raw
    for s in range(players):
        for action in ruleset.legal_actions(state, s):
            assert not re.match(r"^[a-z_]+ \d", render.action(action.to_json()))


def test_renderer_names_actions_for_the_menu() -> None:
    r = Renderer(["Ann", "Bob", "Cy"], 0, "onuw")
    assert r.action({"kind": "vote", "a": 1}) == "Point at Bob"
    assert r.action({"kind": "swap_two", "a": 1, "b": 2}) == "Swap the cards of Bob and Cy"
    assert r.action({"kind": "look_center", "a": 0, "b": 2}) == "Look at center cards 1 and 3"
    assert r.action({"kind": "tap", "a": 2}) == "Tap Cy's shoulder"
    assert r.action({"kind": "dance", "a": 2}) == "dance 2"  # unknown kinds stay readable
    # An event with no template is an error, never raw data on the screen (issue #13).
    with pytest.raises(LocaleError, match="dance"):
        r.event({"kind": "dance", "with": 2})
    assert r.event({"kind": "saw", "seat": 1, "card": "seer"}) == "You see Bob's card: the Seer."


def test_reasoning_bots_fill_the_other_seats_and_talk_at_dawn() -> None:
    """Issue #7: bots sit in the empty seats of the terminal game; the One Night reasoning
    bots make their claims at dawn, which the human then sees."""
    names = ["You", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    state = ONUW.deal(names, ONUW.recommended_deck(5), 11)
    shown: list[str] = []
    render = Renderer(names, 0, "onuw")
    outcome = play_game(ONUW, state, 0, lambda legal: legal[0], shown.append, render, 11,
                        "reasoning")
    assert ONUW.is_over(state) and explained(outcome)["explanation"]
    claims = [e for e in ONUW.view(state, 0)["events"] if e["kind"] == "claim"]
    assert {e["seat"] for e in claims} == {1, 2, 3, 4}


def test_the_human_is_addressed_as_you() -> None:
    """Issue 19: "You accuse", not "You accuses"; the same for every sentence about you."""
    r = Renderer(["Ann", "Bob", "Cy"], 0, "lupus")
    assert r.event({"kind": "accuse", "seat": 0, "target": 1}) == "You accuse Bob."
    assert r.event({"kind": "accuse", "seat": 1, "target": 0}) == "Bob accuses you."
    assert r.event({"kind": "executed", "seat": 0}) == "You are executed."
    assert r.event({"kind": "wolf_pick", "seat": 0, "target": 2}) == "You point at Cy."
    r = Renderer(["Ann", "Bob", "Cy"], 0, "onuw")
    assert r.event({"kind": "claim", "seat": 0, "role": "seer"}) == "You say: “I am the Seer.”"
    assert r.event({"kind": "claim", "seat": 2, "saw": 4, "role": "werewolf"}) == \
        "Cy says: “I saw center card 2: the Werewolf.”"
    assert r.event({"kind": "claim", "seat": 1, "swapped": [0, 2]}) == \
        "Bob says: “I swapped your card and Cy's card.”"


def test_the_renderer_speaks_italian_and_german() -> None:
    it = Renderer(["Ann", "Bob", "Cy"], 0, "onuw", "it")
    it_lupus = Renderer(["Ann", "Bob", "Cy"], 0, "lupus", "it")
    assert it_lupus.event({"kind": "accuse", "seat": 0, "target": 1}) == "Accusi Bob."
    assert it.event({"kind": "saw", "seat": 1, "card": "seer"}) == \
        "Vedi la carta di Bob: Veggente."
    assert it.action({"kind": "vote", "a": 2}) == "Indica Cy"
    de = Renderer(["Ann", "Bob", "Cy"], 1, "onuw", "de")
    assert de.event({"kind": "claim", "seat": 1, "role": "seer"}) == "Du sagst: „Ich bin Seherin.“"
    assert de.action({"kind": "abstain"}) == "Auf niemanden zeigen"
    # "you" as an object takes its case: "auf dich", "accusa te", never "auf du".
    assert de.event({"kind": "votes", "votes": [1, 2, 1]}) == \
        "Die Abstimmung: Ann zeigt auf dich, du zeigst auf Cy, Cy zeigt auf dich."
    assert it_lupus.event({"kind": "accuse", "seat": 2, "target": 0}) == "Cy accusa te."
    assert it.event({"kind": "votes", "votes": [1, 0, None]}) == \
        "Il voto: tu indichi Bob, Bob indica te."
    # Pointing at nobody is a sentence of its own: "non indica nessuno", "auf niemanden".
    de_lupus = Renderer(["Ann", "Bob", "Cy"], 1, "lupus", "de")
    votes = {"kind": "votes", "votes": [[0, None], [1, None], [2, 0]]}
    said = it_lupus.event({**votes, "votes": [[1, None], [0, None], [2, 0]]})
    assert said == "Il voto: Bob non indica nessuno, tu non indichi nessuno, Cy indica te."
    said = de_lupus.event(votes)
    assert said == "Die Abstimmung: Ann zeigt auf niemanden, du zeigst auf niemanden, " \
        "Cy zeigt auf Ann."


def test_the_human_votes_after_the_bots_talk_and_may_claim_first() -> None:
    names = ["You", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    state = ONUW.deal(names, ONUW.recommended_deck(5), 11)
    shown: list[str] = []
    render = Renderer(names, 0, "onuw")
    seen_at_vote: list[int] = []

    def ask(legal: list[dict[str, Any]]) -> dict[str, Any]:
        if legal[0]["kind"] == "vote":
            seen_at_vote.append(sum("says:" in line for line in shown))
        return legal[0]

    said: list[str] = []

    def claim(options: Any) -> Any:
        if said:
            return None
        said.append("once")
        return next(a for a in options if a.kind == "claim")

    play_game(ONUW, state, 0, ask, shown.append, render, 11, "reasoning", claim=claim)
    claims = [e for e in ONUW.view(state, 0)["events"] if e["kind"] == "claim"]
    assert {e["seat"] for e in claims} == {0, 1, 2, 3, 4}
    # Every bot had spoken (and been shown) before the human was asked to vote.
    assert seen_at_vote and seen_at_vote[0] >= 5
    assert any(line.startswith("You say: “I am the") for line in shown)


def test_a_claim_once_made_is_not_offered_again() -> None:
    """Session 25: `play` let a person say "I am the Villager" as often as they liked,
    each a new line on the table; the menus now offer only what was not said yet."""
    names = ["You", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    state = ONUW.deal(names, ONUW.recommended_deck(5), 11)
    offered: list[list[Any]] = []

    def claim(options: Any) -> Any:
        offered.append(list(options))
        return next((a for a in options if a.kind == "claim"), None) \
            if len(offered) <= 3 else None

    play_game(ONUW, state, 0, lambda legal: legal[0], lambda line: None,
              Renderer(names, 0, "onuw"), 11, "reasoning", claim=claim)
    mine = [e["role"] for e in ONUW.view(state, 0)["events"]
            if e["kind"] == "claim" and e["seat"] == 0 and "saw" not in e]
    assert len(mine) == 3 and len(set(mine)) == 3, mine  # three different roles
    first = offered[0][0]
    assert first in offered[0] and all(first not in later for later in offered[1:])


def typed(monkeypatch: pytest.MonkeyPatch, *answers: str) -> None:
    """The person at the terminal types ``answers``, one per prompt."""
    import typer

    left = list(answers)
    monkeypatch.setattr(typer, "prompt", lambda *a, **k: left.pop(0))


@pytest.mark.parametrize(("lang", "back", "quit_"), [
    ("en", "or 0 to go back", "or q to quit"),
    ("it", "oppure 0 per tornare indietro", "oppure q per uscire"),
    ("de", "oder 0, um zurückzugehen", "oder q zum Beenden"),
])
def test_a_menus_refusal_says_what_that_menu_takes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    lang: str, back: str, quit_: str,
) -> None:
    """A claim's menu has 0 (back) and the move's menu has q (quit): the refusal names
    each menu's own answers (the Italian one said "da 1 a 3" where 0 was valid too)."""
    from nightcall.commands.play import _choose, _menu

    render = Renderer(["You", "Bot 2", "Bot 3"], 0, "onuw", lang)
    typed(monkeypatch, "9", "0")
    assert _menu(["a", "b", "c"], "?", render) is None  # 0 is back
    out = capsys.readouterr().out
    assert back in out and "1" in out and "3" in out and quit_ not in out
    legal = ONUW.view(ONUW.deal(["You", "Bot 2", "Bot 3"], recommended(3), 1), 0)["legal"]
    typed(monkeypatch, "0", "1")
    _choose(legal, render)
    out = capsys.readouterr().out
    assert quit_ in out and back not in out


@pytest.mark.parametrize("odd", ["²", "³", "1²", "٣٣"])
def test_a_digit_that_is_no_number_on_the_menu_is_asked_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], odd: str,
) -> None:
    """"²" passes str.isdigit but not int(): it stopped ``play`` on a ValueError."""
    from nightcall.commands.play import _choose, _menu

    render = Renderer(["You", "Bot 2", "Bot 3"], 0, "onuw")
    typed(monkeypatch, odd, "2")
    assert _menu(["a", "b", "c"], "?", render) == 1
    assert f"'{odd}' is not on the menu" in capsys.readouterr().out
    legal = ONUW.view(ONUW.deal(["You", "Bot 2", "Bot 3"], recommended(3), 1), 0)["legal"]
    typed(monkeypatch, odd, "1")
    assert _choose(legal, render) == legal[0]
    assert f"'{odd}' is not on the menu" in capsys.readouterr().out


@pytest.mark.parametrize(("lang", "typed_", "ambiguous"), [
    ("en", "Bot 3", "'bot' fits more than one (1, 2): type the number of the one you mean."),
    ("de", "bot 3", "„bot“ passt auf mehrere Einträge (1, 2): gib die Nummer des gemeinten ein."),
])
def test_a_menu_takes_what_an_item_says(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    lang: str, typed_: str, ambiguous: str,
) -> None:
    """Players type the name they mean ("Bot 3", "Räuber") rather than its number: the
    menu finds it; words that fit several items are refused with their numbers."""
    from nightcall.commands.play import _choose, _menu

    render = Renderer(["You", "Bot 2", "Bot 3"], 0, "onuw", lang)
    legal: list[Any] = [{"kind": "vote", "a": 1}, {"kind": "vote", "a": 2}]
    typed(monkeypatch, "bot", typed_)
    assert _choose(legal, render) == {"kind": "vote", "a": 2}
    assert ambiguous in capsys.readouterr().out
    roles = [render.role(r) for r in ("robber", "seer", "werewolf")]
    typed(monkeypatch, "Rauber" if lang == "en" else "rauber", "0")
    got = _menu(roles, "?", render)
    assert (got == 0) == (lang == "de")  # "Räuber" is German; the English menu says Robber


def test_without_a_name_the_account_names_the_seat_in_the_third_person() -> None:
    """The verdict's account names every player as a third person; the default name used
    to be "Du" and read "Du hat die meisten Stimmen" (and "The vote kills You"). The
    player is now "Spieler 1" there, and the game's own lines still say "du"."""
    from typer.testing import CliRunner

    from nightcall.cli import app

    done = CliRunner().invoke(app, ["play", "onuw", "-n", "3", "--seed", "3", "--lang", "de"],
                              input="1\n\n1\n")
    assert done.exit_code == 0, done.output
    account = done.output.split("Alle Karten aufgedeckt")[1]
    assert "Spieler 1 hat die meisten Stimmen (2) und stirbt." in account
    assert "Du hat" not in account and "Du verlierst." in account
    assert "Du – Werwolf" in account  # (the reveal, a line of the game, says "du")
