"""Issue 19, "The terminal commands, as forgiving as the page": each deck, simulate and
narrate item, through the real command."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.script import build_script, duration_text
from nightcall.narration.timing import timing_for

from .helpers import cli, need_ruleset, run_cli


def flat(text: str) -> str:
    """The words of an output, whatever the line breaks and the boxes drawn around it."""
    return " ".join(text.replace("│", " ").split())


# --- deck -------------------------------------------------------------------------------
def test_deck_lupus_shows_night_one_and_the_order_from_night_two() -> None:
    need_ruleset("lupus")
    code, out, err = run_cli("deck", "lupus", "-n", "12")
    assert code == 0, err
    assert "Night 1: Harlot, Werewolf, Seer" in out
    assert "From night 2: Medium, Bodyguard, Harlot, Werewolf, Seer" in out
    data = json.loads(run_cli("deck", "lupus", "-n", "12", "--json")[1])
    assert data["night_calls"] == ["harlot", "werewolf", "seer"]
    assert data["night_calls_from_night_2"][:2] == ["medium", "bodyguard"]


def test_deck_epic_names_its_scenario_and_needs_the_box() -> None:
    need_ruleset("epic")
    code, out, err = run_cli("deck", "epic", "-n", "5")
    assert code == 0, err
    assert "scenario “The First Night”" in flat(out)  # the default is named too
    assert "Play with the cards of the One Night Ultimate Werewolf: Epic Battle box" in flat(out)
    assert "no 52-card mapping" in flat(out)
    assert "Pull from a 52-card deck" not in out
    data = json.loads(run_cli("deck", "epic", "-n", "7", "--json")[1])
    assert data["scenario_name"] == "Hours of Despair" and data["box_cards"] is True
    assert data["cards_to_pull"] is None


@pytest.mark.parametrize(("scenario", "players", "rulebook", "change"), [
    ("a_fearsome_opponent", 3, '"3 players: Alpha Wolf, Witch, Ghost Hunter, Bodyguard, '
     'Villager"', "nightcall adds a second Villager"),
    ("election_day", 4, '"Election Day (medium, 3-6 players)"', "for 3–5 players"),
])
def test_deck_flags_the_adjustments_to_a_scenario(
    scenario: str, players: int, rulebook: str, change: str
) -> None:
    need_ruleset("epic")
    code, out, err = run_cli("deck", "epic", "-n", str(players), "--scenario", scenario)
    assert code == 0, err
    assert f"note: the rulebook says {rulebook}" in flat(out)
    assert change in flat(out)
    # The rulebook's line is quoted as it stands in the rulebook.
    rules = Path("/work/shared/rules/epic-battle-rulebook.txt")
    if rules.exists():
        assert rulebook.strip('"') in rules.read_text(encoding="utf-8")
    # A scenario taken as the rulebook lists it has no note.
    assert "note:" not in run_cli("deck", "epic", "-n", "5", "--scenario", "nightfall")[1]
    # In Italian and German the rulebook is quoted as printed; what nightcall does is
    # said in the language asked for.
    for lang, note in (("it", "nota: il regolamento dice"), ("de", "Hinweis: Das Regelbuch sagt")):
        said = flat(run_cli("deck", "epic", "-n", str(players), "--scenario", scenario,
                            "--lang", lang)[1])
        assert f"{note} {rulebook}" in said
        assert change not in said and "nightcall adds" not in said and " players" not in \
            said.replace(rulebook, "")


def test_deck_refuses_a_playing_card_given_twice() -> None:
    code, _, err = run_cli("deck", "onuw", "-n", "3", "--roles", "A♠ A♠ K♥ J♣ Q♣ 2♥")
    assert code == 2
    assert "A♠ is given twice: a 52-card deck has one A♠" in flat(err)


def test_deck_uses_the_villager_cards_given() -> None:
    code, out, err = run_cli("deck", "onuw", "-n", "4", "--roles",
                             "A♠ A♣ K♥ J♣ Q♣ 7♥ 9♦")
    assert code == 0, err
    assert "Pull from a 52-card deck: A♠ A♣ K♥ J♣ Q♣ 7♥ 9♦" in out
    assert "2 × Villager   (7♥ 9♦)" in out
    # Mixed: a card typed for one Villager, a name for the other.
    pull = json.loads(run_cli("deck", "onuw", "-n", "4", "--roles",
                              "A♠ A♣ K♥ J♣ Q♣ 2♠ villager", "--json")[1])["cards_to_pull"]
    assert pull[-2:] == ["2♠", "3♠"] and len(set(pull)) == 7


def test_an_unknown_option_lists_the_options() -> None:
    for command in ("deck", "narrate", "simulate", "play", "judge"):
        code, _, err = run_cli(command, "onuw", "--bogus")
        assert code == 2
        text = flat(err)
        assert f"The options of `nightcall {command}` are:" in text, text
        assert "--lang" in text
    assert "Did you mean --roles?" in flat(run_cli("deck", "onuw", "--role", "x")[2])
    # another word for the same thing, which spelling alone would not find (session 25:
    # --no-voice was answered "Did you mean --no-wait?")
    assert "Did you mean --no-speech?" in flat(run_cli("narrate", "onuw", "--no-voice")[2])
    assert "Did you mean --lang?" in flat(run_cli("deck", "onuw", "--language", "it")[2])


def test_the_game_typed_as_an_option_is_shown_where_it_goes() -> None:
    # (session 26: "play --game lupus" was answered "Did you mean --name?")
    said = flat(run_cli("play", "--game", "lupus", "-n", "9")[2])
    assert "The game is the first word, with no option before it: `nightcall play lupus`." \
        in said and "--name" not in said.partition("The options")[0]
    assert "`nightcall simulate epic`" in flat(run_cli("simulate", "--ruleset=epic")[2])
    assert "`nightcall deck RULESET`" in flat(run_cli("deck", "--game", "-n", "5")[2])
    assert "`nightcall agent play onuw`" in flat(run_cli("agent", "play", "--game", "onuw")[2])
    assert "Das Spiel steht direkt nach dem Befehl, ohne Option davor: `nightcall deck lupus`" \
        in flat(run_cli("deck", "--edition", "lupus", "--lang", "de")[2])
    # arena names its game with --ruleset: that comes first among the options meant
    assert "Did you mean --ruleset or --games?" in flat(run_cli("arena", "--game", "onuw")[2])


def test_serve_and_arena_refuse_options_as_the_others_do() -> None:
    said = flat(run_cli("serve", "--prot", "8000")[2])
    assert "Did you mean --port" in said and "The options of `nightcall serve` are:" in said
    assert "--port takes a whole number, not 'abc'." in flat(run_cli("serve", "--port", "abc")[2])
    assert "The options of `nightcall arena` are:" in flat(run_cli("arena", "--gams", "3")[2])


def test_the_same_options_across_the_commands() -> None:
    """--lang, --roles, --players and --bots mean the same everywhere they apply."""
    for command, options in {"deck": ("--lang", "--roles", "--players", "--scenario"),
                             "narrate": ("--lang", "--roles", "--players", "--scenario"),
                             "play": ("--lang", "--roles", "--players", "--scenario", "--bots",
                                      "--seed"),
                             "simulate": ("--lang", "--roles", "--players", "--scenario",
                                          "--bots", "--seed"),
                             "judge": ("--lang",), "scenarios": ("--lang", "--players")}.items():
        _, out, _ = run_cli(command, "--help")
        for option in options:
            assert option in out, (command, option)
        assert "RULESET" in out


# --- simulate ---------------------------------------------------------------------------
def test_simulate_refuses_a_plot_in_a_missing_folder_before_playing(tmp_path: Path) -> None:
    start = time.monotonic()
    code, _, err = run_cli("simulate", "onuw", "-n", "5", "--games", "100000", "-w", "1",
                           "--plot", str(tmp_path / "nowhere" / "rates.png"))
    assert code == 2
    assert "does not exist" in flat(err)
    assert time.monotonic() - start < 5  # refused before 100,000 games


def test_simulate_says_where_the_plot_went(tmp_path: Path) -> None:
    plot = tmp_path / "rates.png"
    code, out, err = run_cli("simulate", "onuw", "-n", "3", "--games", "30", "-w", "1",
                             "--bots", "random", "--plot", str(plot))
    assert code == 0, err
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Plot written to {plot.resolve()}" in flat(out)


def test_simulate_reads_playing_cards_and_shows_role_names() -> None:
    done = cli("simulate", "onuw", "-n", "3", "--roles", "A♠ A♣ K♥ J♣ Q♣ 2♥", "--games",
               "40", "-w", "1")
    assert done.returncode == 0, done.stderr
    out = flat(done.stdout)
    assert "Deck: 2 × Werewolf, Seer, Robber, Troublemaker, Villager" in out
    assert "Troublemaker" in out and "troublemaker " not in out
    assert "Nobody wins" in out


def test_simulate_names_the_scenario_and_defaults_to_reasoning_bots() -> None:
    need_ruleset("epic")
    code, out, err = run_cli("simulate", "epic", "-n", "5", "--scenario", "nightfall",
                             "--games", "20", "-w", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["scenario"] == "Nightfall"
    assert data["village"] == data["wolves"] == data["vampires"] == "reasoning"
    assert "The Count" in data["names"]


def test_simulate_nobody_row_makes_the_rates_add_up() -> None:
    code, out, err = run_cli("simulate", "onuw", "-n", "5", "--games", "300", "-w", "1",
                             "--bots", "random", "--json")
    assert code == 0, err
    data = json.loads(out)
    rates = data["win_rates"]
    wins = sum(r["wins"] for r in rates["teams"].values()) + rates["nobody"]["wins"]
    assert wins >= data["games"]  # every game is a team's win or a "nobody wins"
    assert rates["nobody"]["rate"] == rates["nobody"]["wins"] / data["games"]


def test_simulate_vampire_bots_for_epic() -> None:
    need_ruleset("epic")
    from nightcall.sim.runner import Setup

    setup = Setup("epic", 5, (), "random", "random", vampires="reasoning")
    assert setup.bot_spec("the_count") == setup.bot_spec("vampire") == "reasoning"
    assert setup.bot_spec("werewolf") == setup.bot_spec("seer") == "random"
    code, out, err = run_cli("simulate", "epic", "-n", "5", "--scenario", "nightfall",
                             "--games", "20", "-w", "1", "--bots", "random",
                             "--vampires", "reasoning", "--json")
    assert code == 0, err
    assert json.loads(out)["vampires"] == "reasoning"
    code, _, err = run_cli("simulate", "onuw", "-n", "5", "--vampires", "random")
    assert code == 2 and "--vampires is for Epic Battle" in err


# --- narrate ----------------------------------------------------------------------------
@pytest.mark.parametrize(("seconds", "said"), [
    (30, {"en": "30 seconds", "it": "30 secondi", "de": "30 Sekunden"}),
    (90, {"en": "1 minute and 30 seconds", "it": "1 minuto e 30 secondi",
          "de": "1 Minute und 30 Sekunden"}),
    (300, {"en": "5 minutes", "it": "5 minuti", "de": "5 Minuten"}),
    (61, {"en": "1 minute and 1 second", "it": "1 minuto e 1 secondo",
          "de": "1 Minute und 1 Sekunde"}),
])
def test_narrate_says_the_discussion_length_exactly(seconds: int, said: dict[str, str]) -> None:
    for lang, words in said.items():
        assert duration_text(seconds, lang) == words
        code, out, err = run_cli("narrate", "onuw", "-n", "3", "--print", "--lang", lang,
                                 "--discussion", str(seconds))
        assert code == 0, err
        assert words in out and "0,5" not in out and "0.5" not in out


@pytest.mark.parametrize("rid", ["onuw", "epic"])
def test_narrate_refuses_a_second_night_outside_lupus(rid: str) -> None:
    need_ruleset(rid)
    code, _, err = run_cli("narrate", rid, "-n", "5", "--night", "2", "--print")
    assert code == 2
    assert "has one night only" in flat(err)


def test_narrate_help_tells_the_epic_pauses() -> None:
    _, out, _ = run_cli("narrate", "--help")
    text = flat(out)
    assert "the same pause for each" not in text
    assert "ten for the Priest and the Goblin" in text
    assert timing_for("epic").for_call("priest") == 10 and timing_for("epic").action == 5


@pytest.mark.parametrize("rid", ["onuw", "epic", "lupus"])
def test_a_gap_follows_every_close_your_eyes(rid: str) -> None:
    """About a second and a half between a call's last line and the next call's first,
    so the next role does not open its eyes while the last one is closing them."""
    need_ruleset(rid)
    ruleset = get_ruleset(rid)
    deck = ruleset.default_deck(9 if rid == "lupus" else 5)
    steps = build_script(rid, deck, night=2 if rid == "lupus" else 1)
    calls = [s.role for s in steps]
    ends = [i for i in range(len(steps) - 1)
            if steps[i].role is not None and calls[i + 1] != calls[i]]
    assert ends
    for i in ends:
        assert steps[i].wait >= 1.5, steps[i]
    fast = build_script(rid, deck, timing=timing_for(rid, "fast"))
    assert min(s.wait for s in fast if s.key.endswith(".sleep")) == pytest.approx(1.05)


def test_the_lupus_execution_is_counted() -> None:
    """"On my count" is followed by a count: one, two, three."""
    need_ruleset("lupus")
    import io

    from rich.console import Console

    from nightcall.narration.locale import load
    from nightcall.narration.master import run_master

    from .test_master_lupus import Table

    lupus = get_ruleset("lupus")
    spoken: list[str] = []
    run_master(Console(file=io.StringIO(), width=200), lupus, lupus.default_deck(9),
               load("en"), timing_for("lupus"), speak=spoken.append, wait=False,
               ask=Table().ask)
    en = load("en")
    i = spoken.index(en.line("lupus.day.execute"))
    assert "On my count" in spoken[i]
    assert spoken[i + 1:i + 4] == ["One.", "Two.", "Three."]
