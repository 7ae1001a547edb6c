"""Issue 19: "Everything the Master sees ... follows --lang". Each table-side command
(deck, narrate, judge, simulate, replay, play) run with wrong input in Italian and in
German says what is wrong in that language, from the locale files: the rules'
refusals, the record's, the options' and click's usage errors. Never English, never a
traceback."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from nightcall.narration.locale import load

from .helpers import run_cli

RECORDS = Path(__file__).resolve().parents[1] / "records"


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("refusals")
    (folder / "not.json").write_text("this is no JSON\n", encoding="utf-8")
    record = json.loads((RECORDS / "onuw-example-round.json").read_text(encoding="utf-8"))
    bad = copy.deepcopy(record)
    bad["steps"][1]["look"] = "Zoe"  # nobody of that name is seated
    (folder / "bad-step.json").write_text(json.dumps(bad), encoding="utf-8")
    out = {"missing": str(folder / "missing.json"), "not_json": str(folder / "not.json"),
           "bad_step": str(folder / "bad-step.json"), "no_folder": str(folder / "no" / "p.png")}
    # A night step for a role that never wakes, one not in the deck, one of no game.
    for name, call in (("never", "hunter"), ("not_in_deck", "drunk"), ("no_role", "zorro")):
        wrong = copy.deepcopy(record)
        wrong["steps"][0]["call"] = call
        (folder / f"{name}.json").write_text(json.dumps(wrong), encoding="utf-8")
        out[name] = str(folder / f"{name}.json")
    lupus = json.loads((RECORDS / "lupus-example-round.json").read_text(encoding="utf-8"))
    for name, change in (("lupus_bodyguard", {"bodyguard": "Carla"}),  # not in the deck
                         ("lupus_call", None)):  # a one-night style call step
        wrong = copy.deepcopy(lupus)
        wrong["steps"][0] = {**wrong["steps"][0], **change} if change else {
            "call": "seer", "player": "Elena"}
        (folder / f"{name}.json").write_text(json.dumps(wrong), encoding="utf-8")
        out[name] = str(folder / f"{name}.json")
    for name, table in TABLES.items():
        (folder / f"{name}.json").write_text(json.dumps(table), encoding="utf-8")
        out[name] = str(folder / f"{name}.json")
    epic = json.loads((RECORDS / "epic-three-parties.json").read_text(encoding="utf-8"))
    for name, call in (("epic_sleeper", "bodyguard"), ("epic_no_call", "zorro")):
        wrong = copy.deepcopy(epic)
        wrong["steps"][0]["call"] = call
        (folder / f"{name}.json").write_text(json.dumps(wrong), encoding="utf-8")
        out[name] = str(folder / f"{name}.json")
    return out


# Every built-in game, as a usage error without one lists them (commands/_options.py).
GAMES = ("onuw (One Night Ultimate Werewolf), epic (One Night Ultimate Werewolf: Epic Battle), "
         "lupus (Lupus in Tabula)")
# Wrong tables for `nightcall judge -f`, each refused for one reason.
SEATED = ["Anna", "Bruno", "Carla"]
TABLE = {"players": SEATED, "cards": {"Anna": "werewolf", "Bruno": "seer", "Carla": "robber"},
         "votes": {"Anna": "Bruno"}}
TABLES: dict[str, Any] = {
    "t_list": ["Anna", "Bruno"],
    "t_no_players": {**TABLE, "players": []},
    "t_empty_name": {**TABLE, "players": ["Anna", " ", "Carla"]},
    "t_cards": {**TABLE, "cards": ["werewolf", "seer", "robber"]},
    "t_card_type": {**TABLE, "cards": {**TABLE["cards"], "Bruno": 7}},
    "t_center_card_type": {**TABLE, "center": ["villager", 3, "mason"]},
    "t_copy_type": {**TABLE, "cards": {**TABLE["cards"], "Anna": "doppelganger"},
                    "doppelganger": 5},
    "t_center": {**TABLE, "center": ["villager"]},
    "t_votes": {**TABLE, "votes": ["Bruno"]},
    "e_players": {**TABLE, "players": ["Anna", 3, "Carla"]},
    "e_votes": {**TABLE, "votes": "Bruno"},
    "e_tokens": {**TABLE, "tokens": ["love"]},
    "e_center_list": {**TABLE, "center": "villager"},
    "e_center_card": {**TABLE, "center": ["villager", "zorro"]},
    "e_token": {**TABLE, "tokens": {"Anna": "gold"}},
    "e_bounty": {**TABLE, "tokens": {"Anna": "bounty", "Bruno": "Bounty"}},
    "e_artifact": {**TABLE, "artifacts": {"Anna": "sword"}},
    "e_artifacts": {**TABLE, "artifacts": {"Anna": "mask_of_silence",
                                            "Carla": "cloak_of_shame"}},
}
# Epic Battle's symbol tokens and artifacts, in the rules' order.
TOKENS = ["certainty", "love", "bat", "bounty", "panic", "plague", "vampire", "traitor"]
ARTIFACTS = ["claw_of_the_werewolf", "bite_of_the_vampire", "brand_of_the_villager",
             "club_of_the_tanner", "mask_of_silence", "cloak_of_shame"]
# Every bot a command line may name, as the refusal lists them.
BOTS = "random, reasoning, reasoning:easy, reasoning:normal, reasoning:hard"
# (the command line, the locale key said and its values, English words it must not say)
CASES: list[tuple[tuple[str, ...], str, dict[str, Any], str]] = [
    (("deck", "onuw", "-n", "99"), "refusal.deck.players",
     {"title": "One Night", "low": 3, "high": 10, "n": 99}, "players, not 99"),
    # Epic without a scenario: the game's range, not that of a scenario nobody chose.
    (("deck", "epic", "-n", "12"), "refusal.deck.players",
     {"title": "Epic Battle", "low": 3, "high": 10, "n": 12}, "players, not 12"),
    (("deck", "epic", "-n", "8", "--scenario", "the-first-night"),
     "refusal.epic.scenario_players", {"scenario": "the_first_night", "low": 3, "high": 5,
                                       "n": 8},
     "players, not 8"),
    (("deck", "onuw", "-n", "5", "--scenario", "x"), "refusal.deck.no_scenarios",
     {"title": "One Night"}, "has no scenarios"),
    (("deck", "nope", "-n", "5"), "refusal.ruleset.unknown",
     {"name": "nope", "known": "onuw, epic, lupus"}, "unknown ruleset"),
    (("deck", "onuw", "-n", "3", "--roles", "A♠ A♠ K♥ J♣ Q♣ 2♠"), "refusal.deck.card_twice",
     {"card": "A♠", "cards": "A♠ A♣"}, "is given twice"),
    (("narrate", "onuw", "-n", "5", "--night", "2"), "refusal.narrate.one_night",
     {"title": "One Night Ultimate Werewolf", "night": 2}, "has one night only"),
    (("narrate", "onuw", "-n", "5", "--night", "0"), "refusal.narrate.night_from_1",
     {"night": 0}, "counted from"),
    (("narrate", "onuw", "-n", "5", "--speed", "warp"), "refusal.timing.speed",
     {"speed": "warp"}, "unknown speed"),
    (("narrate", "onuw", "-n", "5", "--discussion", "-3"), "refusal.timing.discussion",
     {"seconds": "-3"}, "cannot last"),
    (("narrate", "onuw", "-n", "5", "--option", "x"), "refusal.narrate.option_form",
     {"option": "x"}, "write it as"),
    (("narrate", "onuw"), "refusal.narrate.players", {}, "how many players"),
    (("judge", "nope"), "refusal.judge.no_check", {"name": "nope", "known": "onuw, epic"},
     "end-of-game check"),
    (("judge", "onuw", "--file", "{missing}"), "refusal.file.missing",
     {"path": "{missing}"}, "there is no file"),
    (("judge", "onuw", "--file", "{not_json}"), "refusal.file.not_json",
     {"path": "{not_json}", "line": 1}, "not valid JSON"),
    (("simulate", "onuw", "-n", "5", "--bots", "nope"), "refusal.bots.unknown",
     {"name": "nope", "bots": BOTS}, "unknown bot"),
    (("simulate", "onuw", "-n", "5", "--plot", "{no_folder}"), "refusal.simulate.plot_folder",
     {"plot": "{no_folder}", "folder": "{no_folder_dir}"}, "does not exist"),
    (("simulate", "onuw", "-n", "5", "--vampires", "random"), "refusal.simulate.vampires",
     {}, "where vampires play"),
    (("simulate", "onuw"), "refusal.simulate.players", {}, "give --players"),
    (("play", "onuw", "-n", "5", "--seat", "77"), "refusal.play.seat",
     {"high": 5, "seat": 77}, "must be between"),
    (("play", "onuw", "-n", "5", "--bots", "nope"), "refusal.bots.unknown",
     {"name": "nope", "bots": BOTS}, "unknown bot"),
    (("replay", "{missing}"), "refusal.file.missing", {"path": "{missing}"},
     "there is no file"),
    (("replay", "{not_json}"), "refusal.file.not_json", {"path": "{not_json}", "line": 1},
     "not valid JSON"),
    (("replay", "{bad_step}"), "refusal.record.not_seated", {"field": "look", "name": "Zoe"},
     "is not seated"),
    (("replay", "{never}"), "refusal.onuw.record.never_called", {"role": "hunter"},
     "is never called"),
    (("replay", "{not_in_deck}"), "refusal.onuw.record.not_in_deck", {"role": "drunk"},
     "not in the deck"),
    (("replay", "{no_role}"), "refusal.onuw.record.not_a_role", {"call": "zorro"},
     "is not a One Night role"),
    (("replay", "{lupus_bodyguard}"), "refusal.lupus.record.not_in_deck",
     {"field": "bodyguard", "role": "bodyguard"}, "the role is not in this deck"),
    (("replay", "{lupus_call}"), "refusal.lupus.record.call_key",
     {"call": "seer", "field": "seer"}, "one step with every choice"),
    (("replay", "{epic_sleeper}"), "refusal.epic.record.sleeper", {"role": "bodyguard"},
     "sleeps through the night"),
    (("replay", "{epic_no_call}"), "refusal.epic.record.not_a_call", {"call": "zorro"},
     "is not an Epic Battle role"),
    (("play", "onuw", "-n", "5", "--bots", "reasoning:medium"), "refusal.bots.unknown",
     {"name": "reasoning:medium", "bots": BOTS}, "unknown bot"),
    # a wrong table for the who-has-won check
    (("judge", "onuw", "-f", "{t_list}"), "refusal.judge.not_object", {}, "is a JSON object"),
    (("judge", "epic", "-f", "{t_list}"), "refusal.judge.not_object", {}, "is a JSON object"),
    (("judge", "onuw", "-f", "{t_no_players}"), "refusal.record.players", {},
     "non-empty list"),
    (("judge", "onuw", "-f", "{t_empty_name}"), "refusal.record.players", {},
     "non-empty strings"),
    (("judge", "epic", "-f", "{e_players}"), "refusal.record.players", {}, "non-empty list"),
    (("judge", "onuw", "-f", "{t_cards}"), "refusal.judge.cards", {}, "in front of them"),
    (("judge", "epic", "-f", "{t_cards}"), "refusal.judge.cards", {}, "must map"),
    (("judge", "onuw", "-f", "{t_card_type}"), "refusal.judge.card_type",
     {"where": ("refusal.record.card_of", {"name": "Bruno"}), "card": "7"},
     "a card must be"),
    (("judge", "onuw", "-f", "{t_center_card_type}"), "refusal.judge.card_type",
     {"where": ("refusal.record.center_card", {"n": 2}), "card": "3"}, "a card must be"),
    (("judge", "onuw", "-f", "{t_copy_type}"), "refusal.judge.card_type",
     {"where": ("refusal.judge.copied", {}), "card": "5"}, "a card must be"),
    (("judge", "onuw", "-f", "{t_center}"), "refusal.judge.center", {"n": 3},
     "is optional"),
    (("judge", "onuw", "-f", "{t_votes}"), "refusal.judge.votes", {}, "must map"),
    (("judge", "epic", "-f", "{e_votes}"), "refusal.judge.votes", {}, "must map"),
    (("judge", "epic", "-f", "{e_tokens}"), "refusal.judge.by_name", {"field": "tokens"},
     "must map"),
    (("judge", "epic", "-f", "{e_center_list}"), "refusal.judge.center_list", {},
     "must list"),
    (("judge", "epic", "-f", "{e_center_card}"), "refusal.epic.center_card",
     {"n": 2, "card": "zorro"}, "is not an Epic Battle role"),
    (("judge", "epic", "-f", "{e_token}"), "refusal.epic.not_a_token",
     {"name": "Anna", "got": "gold", "tokens": TOKENS}, "is not a symbol token"),
    (("judge", "epic", "-f", "{e_bounty}"), "refusal.epic.token_limit",
     {"limit": 1, "token": "bounty", "n": 2}, "the box has 1 bounty token,"),
    (("judge", "epic", "-f", "{e_artifact}"), "refusal.epic.not_an_artifact",
     {"name": "Anna", "got": "sword", "artifacts": ARTIFACTS}, "is not one of"),
    (("judge", "epic", "-f", "{e_artifacts}"), "refusal.epic.one_artifact",
     {"n": 2}, "the Curator places one"),
    (("narrate", "onuw", "-n", "5", "--option", "foo=bar"), "refusal.options.unknown",
     {"title": "One Night Ultimate Werewolf", "names": "foo", "known": "lone_wolf"},
     "has no option"),
    (("narrate", "lupus", "-n", "8", "--option", "foo=bar"), "refusal.options.none",
     {"title": "Lupus in Tabula", "names": "foo"}, "has no options"),
    (("narrate", "onuw", "-n", "5", "--option", "lone_wolf=maybe"), "refusal.options.bool",
     {"option": "lone_wolf"}, "must be true or false"),
    (("deck", "onuw", "-n", "3", "--roles", ""), "refusal.roles.none", {}, "lists no roles"),
    (("deck", "onuw", "-n", "3", "--roles", "werewolf 2x"), "refusal.roles.pending",
     {"count": 2}, "ends with a count"),
    (("deck", "onuw", "-n", "3", "--roles", "40x villager"), "refusal.roles.count",
     {"item": "villager", "count": 40}, "can be repeated"),
    (("narrate", "onuw", "-n", "5", "--speed", "0"), "refusal.timing.speed_range",
     {"speed": "0"}, "at most 10"),
    (("play", "onuw", "-n", "5", "--name", "  "), "refusal.play.blank_name", {}, "is empty"),
    (("replay", "{folder}"), "refusal.file.folder", {"path": "{folder}"}, "is a folder"),
    # click's usage errors
    (("deck", "onuw"), "cli.missing_option", {"option": "--players / -n"}, "Missing option"),
    (("simulate", "onuw", "-n", "5", "--games", "0"), "cli.want_int_from",
     {"option": "--games / -g", "value": "0", "low": 1}, "Invalid value"),
    (("deck", "onuw", "-n", "x"), "cli.want_int", {"option": "--players / -n", "value": "x"},
     "Invalid value"),
    (("replay",), "cli.missing_argument", {"option": "FILE"}, "Missing argument"),
    (("deck", "-n", "5"), "cli.missing_ruleset", {"games": GAMES, "command": "nightcall deck"},
     "Which game?"),
    (("narrate", "onuw", "-n", "5", "--bogus"), "cli.no_such_option",
     {"option": "--bogus", "hint": "", "command": "nightcall narrate",
      "options": "{narrate_options}"}, "No such option"),
]


def test_a_missing_game_is_answered_with_the_games_there_are() -> None:
    for command in ("deck", "play", "narrate", "simulate", "judge"):
        code, out, err = run_cli(command)
        said = flat(out + err)
        assert code == 2 and "Traceback" not in said, said
        assert f"Which game? Give one of {GAMES}, as in `nightcall {command} onuw`." in said


def filled(value: Any, files: dict[str, str]) -> Any:
    if not isinstance(value, str):
        return value
    names = {**files, "no_folder_dir": str(Path(files["no_folder"]).parent),
             "folder": str(Path(files["missing"]).parent),
             "narrate_options": ""}
    for key, path in names.items():
        value = value.replace("{" + key + "}", path)
    return value


@pytest.mark.parametrize("lang", ["it", "de"])
@pytest.mark.parametrize(("args", "key", "values", "english"), CASES,
                         ids=[" ".join(c[0]) for c in CASES])
def test_a_wrong_input_is_refused_in_the_language_asked(
        files: dict[str, str], lang: str, args: tuple[str, ...], key: str,
        values: dict[str, Any], english: str) -> None:
    line = [filled(a, files) for a in args]
    code, out, err = run_cli(*line, "--lang", lang)
    said = flat(out + err)
    assert code == 2, (code, said)
    assert "Traceback" not in said
    assert english not in said, said
    loc = load(lang)
    given = {k: filled(v, files) for k, v in values.items()}
    if "role" in given:  # (a role is named in the reader's language)
        given["role"] = loc.role(key.split(".")[1], given["role"])
    for name, kind in (("token", "token"), ("tokens", "token"), ("artifact", "artifact"),
                       ("artifacts", "artifact")):
        if name in given:  # (so are Epic Battle's tokens and artifacts)
            ids = [given[name]] if isinstance(given[name], str) else given[name]
            given[name] = ", ".join(loc.lines[f"account.epic.{kind}.{i}"] for i in ids)
    if "scenario" in given:  # (and a scenario, by its name in that language)
        given["scenario"] = loc.scenario("epic", given["scenario"], "")
    if "where" in given:  # (which card, said as its own line)
        given["where"] = loc.line(given["where"][0], **given["where"][1])
    expected = loc.line(key, **given)
    if key == "cli.no_such_option":
        expected = expected.split(" `")[0]  # (the options listed are the command's)
        assert "--lang" in said
    # (after "Impossibile narrare:" a line's own first word goes on in lowercase)
    lowered = expected[:1].lower() + expected[1:] if lang == "it" else expected
    assert flat(expected) in said or f": {flat(lowered)}" in said, (expected, said)


def test_after_a_colon_italian_goes_on_in_lowercase_and_german_keeps_the_capital() -> None:
    # ("Impossibile narrare: Indica --players N" read as two sentences glued together)
    _, _, err = run_cli("narrate", "onuw", "--lang", "it")
    assert "Impossibile narrare: indica --players N: quanti giocatori" in flat(err)
    _, _, err = run_cli("narrate", "onuw", "-n", "5", "--option", "lone_wolf=x", "--lang", "it")
    assert "Impossibile narrare: l'opzione 'lone_wolf' vale true o false." in flat(err)
    _, _, err = run_cli("narrate", "onuw", "--lang", "de")
    assert "Erzählen nicht möglich: Gib --players N an" in flat(err)
    # a name put in front keeps its capital: "Lupus in Tabula non ha opzioni"
    _, _, err = run_cli("narrate", "lupus", "-n", "8", "--option", "a=b", "--lang", "it")
    assert "Impossibile narrare: Lupus in Tabula non ha opzioni (indicate: a)." in flat(err)
    _, _, err = run_cli("play", "lupus", "-n", "3")  # (a line that starts with a title)
    assert "cannot start: Lupus in Tabula is for 7 to 23 players" in flat(err)


def test_a_game_is_named_in_any_case() -> None:
    code, out, _ = run_cli("deck", "ONUW", "-n", "5")
    assert code == 0 and out.startswith("One Night Ultimate Werewolf for 5 players")


def test_a_refusal_names_roles_in_the_language_asked() -> None:
    code, out, err = run_cli("deck", "onuw", "-n", "5", "--roles", "Zorro", "--lang", "de")
    said = flat(out + err)
    assert code == 2 and "„Zorro“" in said
    assert "Seherin" in said and "Unruhestifterin" in said and "seer" not in said


def test_a_refusal_names_tokens_and_artifacts_in_the_language_asked(
        files: dict[str, str]) -> None:
    code, out, err = run_cli("judge", "epic", "-f", files["e_token"], "--lang", "de")
    said = flat(out + err)
    assert code == 2 and "„gold“" in said
    assert "Kopfgeld-Marker" in said and "bounty" not in said
    code, out, err = run_cli("judge", "epic", "-f", files["e_artifact"], "--lang", "it")
    said = flat(out + err)
    assert code == 2 and "«sword»" in said
    assert "Artiglio del Lupo Mannaro" in said and "claw" not in said


def test_a_bad_number_says_what_was_typed_in_english_too() -> None:
    # (click's own words were "Input should be greater than or equal to 1")
    for args, said_back in ((("simulate", "onuw", "-n", "5", "--workers", "0"),
                             "--workers / -w takes a whole number from 1 up, not '0'."),
                            (("deck", "onuw", "-n", "x"),
                             "--players / -n takes a whole number, not 'x'.")):
        code, out, err = run_cli(*args)
        said = flat(out + err)
        assert code == 2 and "Traceback" not in said, said
        assert said_back in said, said


def test_english_refusals_stay_the_rules_own_sentences() -> None:
    code, _, err = run_cli("narrate", "onuw", "-n", "5", "--night", "0")
    assert code == 2 and "nights are counted from 1, not 0" in flat(err)
    code, _, err = run_cli("deck", "onuw")
    assert code == 2 and "Missing option" in flat(err)


@pytest.mark.parametrize("command", [("replay", str(RECORDS / "onuw-example-round.json")),
                                     ("simulate", "onuw", "-n", "5", "--games", "1"),
                                     ("narrate", "onuw", "-n", "5")])
def test_an_unknown_language_is_refused_by_what_the_command_could_not_do(
        command: tuple[str, ...]) -> None:
    """``replay --lang dee`` said "illegal record" of a good record until session 15."""
    code, out, err = run_cli(*command, "--lang", "dee")
    said = flat(out + err)
    assert code == 2 and "Traceback" not in said
    assert "unknown language 'dee': choose one of en, it, de" in said
    assert "record" not in said, said
    assert said.startswith(f"cannot {command[0]}: ")
