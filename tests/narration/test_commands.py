"""``deck``, ``narrate --json/--print`` and ``judge``, end to end through the real command."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .helpers import cli, need_ruleset, run_cli


def test_deck_default_for_six_with_cards_to_pull() -> None:
    done = cli("deck", "onuw", "--players", "6", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert len(out["roles"]) == 9
    assert out["roles"].count("werewolf") == 2
    assert sorted(out["cards_to_pull"][:2]) == ["A♠", "A♣"]
    assert len(set(out["cards_to_pull"])) == 9  # nine different physical cards
    assert out["night_calls"][0] == "werewolf"


def test_deck_warns_about_the_insomniac_alone() -> None:
    code, out, err = run_cli("deck", "onuw", "-n", "3", "--roles", "A♠ A♣ K♥ Q♠ 2x villager")
    assert code == 0, err
    assert "Insomniac" in out and "warning" in out
    assert "Q♠" in out


def test_deck_in_italian_names() -> None:
    code, out, _ = run_cli("deck", "onuw", "-n", "3", "--lang", "it")
    assert code == 0
    assert "Lupo" in out and "Veggente" in out and "Combinaguai" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "3", "--roles", "werewolf,wizard"],
         "'wizard' is not a card of this game (roles: Doppelgänger, Werewolf"),
        (["-n", "4", "--roles", "werewolf,seer,robber"], "4 players need 7 cards"),
        (["-n", "3", "--roles", "3x werewolf,seer,robber,villager"], "at most two Werewolves"),
        (["-n", "12"], "3 to 10 players"),
    ],
)
def test_deck_refusals_say_why(args: list[str], message: str) -> None:
    code, _, err = run_cli("deck", "onuw", *args)
    assert code == 2
    assert message in " ".join(err.split())


def test_unknown_ruleset_is_refused() -> None:
    code, _, err = run_cli("deck", "chess", "-n", "4")
    assert code == 2
    assert "unknown ruleset 'chess'" in err


def test_narrate_json_is_the_whole_script_with_waits() -> None:
    done = cli("narrate", "onuw", "-n", "5", "--roles",
               "doppelganger werewolf werewolf minion seer robber insomniac villager",
               "--json", "--lang", "de")
    assert done.returncode == 0, done.stderr
    steps = json.loads(done.stdout)
    assert all(set(s) >= {"role", "text", "wait"} for s in steps)
    roles = list(dict.fromkeys(s["role"] for s in steps if s["role"]))
    assert roles == ["doppelganger", "werewolf", "minion", "seer", "robber", "insomniac",
                     "doppelganger_insomniac"]
    # First the roles in play, said aloud (rulebook "Setup"), then the night.
    assert steps[0]["text"] == ("Diese Karten sind heute Nacht im Spiel: Doppelgängerin, "
                                "Werwolf, Werwolf, Günstling, Seherin, Räuber, Schlaflose, "
                                "Dorfbewohner.")
    assert steps[1]["text"].startswith("Die Nacht")
    assert any("Günstling" in s["text"] for s in steps if s["role"] == "doppelganger")
    assert steps[-1]["text"].startswith("Abstimmen")
    assert sum(s["wait"] for s in steps) > 300  # the discussion is in it


def test_narrate_print_with_speed_and_discussion() -> None:
    code, out, err = run_cli("narrate", "onuw", "-n", "3", "--print", "--speed", "fast",
                             "--discussion", "60")
    assert code == 0, err
    lines = out.splitlines()
    assert "[7 s]" in out  # ten seconds, fast
    assert any("1 minute " in line and "[60 s]" in line for line in lines)


def test_narrate_refuses_bad_speed_and_options() -> None:
    code, _, err = run_cli("narrate", "onuw", "-n", "3", "--json", "--speed", "warp")
    assert code == 2 and "unknown speed 'warp'" in err
    code, _, err = run_cli("narrate", "onuw", "-n", "3", "--json", "--option", "lone_wolf")
    assert code == 2 and "name=value" in err
    code, _, err = run_cli("narrate", "onuw", "-n", "3", "--json", "--option", "moon=true")
    assert code == 2 and "moon" in err


def test_narrate_live_without_waiting_shows_every_line() -> None:
    code, out, err = run_cli("narrate", "onuw", "-n", "3", "--no-wait", "--no-speech")
    assert code == 0, err
    assert "[Werewolf] Werewolves, open your eyes" in out
    said = " ".join(out.split())
    assert said.endswith("everyone knows who dies. Who won? `nightcall judge onuw` asks what "
                         "lies in front of each player and who pointed at whom, and works it out.")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_narrate_writes_wav_files_with_espeak(tmp_path: Path) -> None:
    done = cli("narrate", "onuw", "-n", "3", "--lang", "it", "--night-only",
               "--wav-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    wavs = sorted(tmp_path.glob("*.wav"))
    steps = json.loads(cli("narrate", "onuw", "-n", "3", "--night-only", "--json").stdout)
    assert len(wavs) == len(steps)
    head = wavs[0].read_bytes()[:12]
    assert head[:4] == b"RIFF" and head[8:12] == b"WAVE"
    assert all(w.stat().st_size > 2000 for w in wavs)


def test_judge_json_from_stdin() -> None:
    t = {"players": ["Anna", "Bruno", "Carla"], "cards": {"Anna": "K♠", "Bruno": "A♠",
                                                          "Carla": "seer"},
         "votes": {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna"}}
    done = cli("judge", "onuw", "--file", "-", "--json", stdin=json.dumps(t))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["dead"] == ["Anna", "Bruno"]  # the Hunter takes Bruno, the Werewolf
    assert out["winners"] == ["Anna", "Carla"]


def test_judge_text_explains_step_by_step(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"players": ["A", "B", "C"], "cards": {"A": "tanner",
                    "B": "werewolf", "C": "seer"}, "votes": {"A": "B", "B": "A", "C": "A"}}))
    done = cli("judge", "onuw", "-f", str(path))
    assert done.returncode == 0, done.stderr
    assert "Dead: A (voted out)" in done.stdout
    assert "Winners: A" in done.stdout
    assert "  1. " in done.stdout and "Tanner" in done.stdout


@pytest.mark.parametrize(("ruleset", "cards", "refused"), [
    ("onuw", ["seer", "Seherin", "werewolf"], "A and B"),  # one Seer in the box
    ("onuw", ["K♥", "seer", "werewolf"], "A and B"),       # K♥ is the Seer's playing card
    ("onuw", ["villager", "villager", "werewolf"], None),
    ("epic", ["seer", "seer", "werewolf"], None),       # one may be the Mimic's copy
    ("epic", ["seer", "seer", "seer"], "A, B and C"),
])
def test_judge_refuses_a_table_file_with_cards_the_box_lacks(
        ruleset: str, cards: list[str], refused: str | None) -> None:
    """The questions refused a second Seer but a file did not, until session 15."""
    table = {"players": ["A", "B", "C"], "cards": dict(zip("ABC", cards, strict=True)),
             "votes": {"A": "B", "B": "A", "C": "A"}}
    code, out, err = run_cli("judge", ruleset, "-f", "-", "--json", stdin=json.dumps(table))
    if refused is None:
        assert code == 0, err
        assert json.loads(out)["dead"] == ["A"]
    else:
        assert code == 2 and not out
        assert f"The box has only 1 × Seer, but {refused} hold one" in " ".join(err.split())


def test_judge_refuses_bad_json_and_lupus() -> None:
    code, _, err = run_cli("judge", "onuw", "-f", "-", stdin="{nope")
    assert code == 2 and "not valid JSON" in err
    code, _, err = run_cli("judge", "lupus", "-f", "-", stdin="{}")
    assert code == 2 and "narrate lupus" in " ".join(err.split())


def test_epic_script_from_a_scenario() -> None:
    need_ruleset("epic")
    code, out, err = run_cli("narrate", "epic", "-n", "5", "--roles",
                             "vampire the_count renfield venus dream_wolf werewolf seer robber",
                             "--json")
    assert code == 0, err
    steps = json.loads(out)
    calls = list(dict.fromkeys(s["role"] for s in steps if s["role"]))
    assert calls[:6] == ["vampires", "the_count", "renfield", "venus", "tokens", "lovers"]
    assert "werewolves_dream_wolf" in calls
    # 5 s to act, then the 1.5 s gap after "close your eyes" (issue 19)
    assert [s["wait"] for s in steps if s["role"] == "seer"] == [5.0, 1.5]


def test_judge_epic_with_tokens_artifacts_and_names() -> None:
    need_ruleset("epic")
    t = {"players": ["Anna", "Bruno", "Carla", "Dario"],
         "cards": {"Anna": "Sight Wolf", "Bruno": "vampire", "Carla": "Seherin",
                   "Dario": "hunter"},
         "tokens": {"Carla": "Love", "Dario": "love"},
         "artifacts": {"Bruno": "Claw of the Werewolf"},
         "votes": {"Anna": "Carla", "Bruno": "Carla", "Carla": "Anna", "Dario": "Anna"}}
    code, out, err = run_cli("judge", "epic", "-f", "-", "--json", stdin=json.dumps(t))
    assert code == 0, err
    result = json.loads(out)
    assert result["dead"] == ["Anna", "Carla", "Dario"]
    assert result["causes"]["Dario"] == "lovers"  # Carla's lover follows her
    assert result["teams"] == ["village"]


def test_judge_names_in_other_languages_for_onuw() -> None:
    t = {"players": ["A", "B", "C"], "cards": {"A": "Veggente", "B": "Werwolf", "C": "Ladro"},
         "votes": {"A": "B", "C": "B"}}
    code, out, err = run_cli("judge", "onuw", "-f", "-", "--json", stdin=json.dumps(t))
    assert code == 0, err
    assert json.loads(out)["dead"] == ["B"]


def test_epic_deck_names_the_alpha_wolfs_extra_card() -> None:
    need_ruleset("epic")
    code, out, err = run_cli("deck", "epic", "-n", "4", "--scenario", "A Fearsome Opponent",
                             "--json")
    assert code == 0, err
    result = json.loads(out)
    assert "alpha_wolf" in result["roles"]
    assert len(result["roles"]) == 4 + 3 + 1
    assert result["extra"] in ("werewolf", "sight_wolf", "dream_wolf")
    assert result["cards_to_pull"] is None  # Epic Battle has its own cards
    code, _, err = run_cli("deck", "epic", "-n", "4", "--scenario", "nope")
    assert code == 2 and "no scenario called 'nope'" in err


def test_lupus_deck_and_a_later_nights_script() -> None:
    need_ruleset("lupus")
    code, out, err = run_cli("deck", "lupus", "-n", "12", "--json")
    assert code == 0, err
    result = json.loads(out)
    # lupus-in-tabula.md, "Setup": 12 players add up to the Harlot (Q♥).
    assert sorted(result["cards_to_pull"][:3]) == ["A♠", "A♣", "K♥"]
    assert "Q♥" in result["cards_to_pull"] and "K♠" in result["cards_to_pull"]
    assert result["night_calls"] == ["harlot", "werewolf", "seer"]  # night 1
    code, out, err = run_cli("narrate", "lupus", "-n", "12", "--night", "2", "--json")
    assert code == 0, err
    calls = list(dict.fromkeys(s["role"] for s in json.loads(out) if s["role"]))
    assert calls == ["medium", "bodyguard", "harlot", "werewolf", "seer"]
    code, _, err = run_cli("narrate", "lupus", "-n", "12", "--night", "0", "--json")
    assert code == 2 and "counted from 1" in err


def test_roles_with_spaces_in_their_names_when_separated_by_commas() -> None:
    need_ruleset("epic")
    code, out, err = run_cli("deck", "epic", "-n", "3", "--json", "--roles",
                             "The Count, Vampire, Sight Wolf, Seer, Robber, Der Meister")
    assert code == 0, err
    assert json.loads(out)["roles"] == ["the_count", "vampire", "sight_wolf", "seer", "robber",
                                        "the_master"]


def test_a_role_named_with_an_article_is_known_without_it() -> None:
    """Session 15: "Graf" was "not a card of this game" at judge's prompt in German;
    a name's own article ("Der Graf", "The Count", "La Cosa") may be left off."""
    need_ruleset("epic")
    code, out, err = run_cli("deck", "epic", "-n", "3", "--json", "--roles",
                             "Count, vampire, Ding, Maestro, seer, robber")
    assert code == 0, err
    assert json.loads(out)["roles"] == ["the_count", "vampire", "the_thing", "the_master",
                                        "seer", "robber"]
    table = {"players": ["Anna", "Bruno", "Carla"],
             "cards": {"Anna": "Graf", "Bruno": "Seherin", "Carla": "Cosa"},
             "votes": {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Anna"}}
    with_article = {**table, "cards": {"Anna": "Der Graf", "Bruno": "seer",
                                       "Carla": "The Thing"}}
    code, out, err = run_cli("judge", "epic", "-f", "-", "--json", stdin=json.dumps(table))
    assert code == 0, err
    assert out == run_cli("judge", "epic", "-f", "-", "--json",
                          stdin=json.dumps(with_article))[1]
    code, _, err = run_cli("deck", "epic", "-n", "3", "--roles", "Der, vampire, seer")
    assert code == 2 and "'Der'" in err  # an article alone names no role


def test_script_json_is_what_narrate_json_prints() -> None:
    from nightcall.narration.script import script_json

    code, out, err = run_cli("narrate", "onuw", "-n", "4", "--json", "--lang", "it",
                             "--speed", "slow")
    assert code == 0, err
    deck = json.loads(run_cli("deck", "onuw", "-n", "4", "--json")[1])["roles"]
    assert json.loads(out) == script_json("onuw", deck, lang="it", speed="slow")


def test_minutes_are_said_with_the_right_unit_in_every_language() -> None:
    """Said exactly, to the second (issue 19: "30 secondi", never "0,5 minuti")."""
    from nightcall.narration.script import minutes_text

    said = {lang: [minutes_text(s, lang) for s in (30, 60, 90, 300)]
            for lang in ("en", "it", "de")}
    assert said == {
        "en": ["30 seconds", "1 minute", "1 minute and 30 seconds", "5 minutes"],
        "it": ["30 secondi", "1 minuto", "1 minuto e 30 secondi", "5 minuti"],
        "de": ["30 Sekunden", "1 Minute", "1 Minute und 30 Sekunden", "5 Minuten"],
    }
    from nightcall.server.narration import stage_line

    line = stage_line("lupus", "discussion", "de", {}, 60)
    assert line is not None and "1 Minute Diskussion" in line, line


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "is not a text file: a JSON file was expected"),
    ("it", "non è un file di testo: serve un file JSON"),
    ("de", "ist keine Textdatei: Erwartet wird eine JSON-Datei"),
])
def test_a_file_that_is_not_text_is_refused_by_judge_and_replay(
    tmp_path: Path, lang: str, words: str,
) -> None:
    """A picture given for a table or a record: ``replay`` stopped "on a bug"
    (UnicodeDecodeError) and ``judge -f`` showed Python's codec message."""
    picture = tmp_path / "table.json"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    for args in (("judge", "onuw", "-f"), ("replay",)):
        code, _out, err = run_cli(*args, str(picture), "--lang", lang)
        assert code == 2 and words in " ".join(err.split()), (args, err)
        assert "codec" not in err and "bug" not in err


def test_a_shared_role_is_known_by_its_name_in_the_other_games() -> None:
    """Session 25: an Italian table types "lupo mannaro" (Lupus' name for the werewolf)
    for One Night's "Lupo" and "contadino" for its "Villico"; both were refused."""
    code, out, err = run_cli("deck", "onuw", "-n", "3", "--json", "--roles",
                             "lupo mannaro, Lupo Mannaro, veggente, ladro, contadino, villico")
    assert code == 0, err
    assert json.loads(out)["roles"] == ["werewolf", "werewolf", "seer", "robber", "villager",
                                        "villager"]
    t = {"players": ["A", "B", "C"],
         "cards": {"A": "Contadino", "B": "lupo mannaro", "C": "Ladro"},
         "votes": {"A": "B", "C": "B"}}
    code, out, err = run_cli("judge", "onuw", "-f", "-", "--json", stdin=json.dumps(t))
    assert code == 0, err
    assert json.loads(out)["dead"] == ["B"]
    # a name another game gives a role this game lacks is still refused
    code, _, err = run_cli("deck", "onuw", "-n", "3", "--roles", "werewolf, seer, robber, "
                           "villager, villager, Criceto Mannaro")
    assert code == 2 and "'Criceto' is not a card of this game" in err


def test_a_scenario_is_named_and_found_in_the_table_language() -> None:
    """Session 25: the 31 Epic scenarios had only their English names in an Italian or
    German deck, and `--scenario "Einbruch der Nacht"` was refused."""
    need_ruleset("epic")
    code, out, err = run_cli("deck", "epic", "-n", "5", "--scenario", "einbruch der nacht",
                             "--lang", "de")
    assert code == 0, err
    assert "Szenario „Einbruch der Nacht“" in " ".join(out.split())
    # the part after the colon is enough, as in English ("blood moon")
    for typed, lang in (("Blutmond", "de"), ("luna di sangue", "it"), ("blood moon", "en")):
        code, out, err = run_cli("deck", "epic", "-n", "5", "--scenario", typed, "--json",
                                 "--lang", lang)
        assert code == 0, err
        assert json.loads(out)["scenario"] == "epic_battle_blood_moon"
    code, out, err = run_cli("narrate", "epic", "-n", "5", "--scenario", "Il calar della notte",
                             "--json", "--lang", "it")
    assert code == 0, err
    code, _, err = run_cli("deck", "epic", "-n", "5", "--scenario", "Mondfinsternis")
    assert code == 2 and "no scenario called 'Mondfinsternis'" in err
    # refused in the reader's language, the scenarios by their names in it
    code, _, err = run_cli("deck", "epic", "-n", "5", "--scenario", "Nightfal", "--lang", "de")
    said = " ".join(err.split())
    assert code == 2 and "meintest du „Einbruch der Nacht“?" in said, said
    assert "Die Szenarien: Die erste Nacht, Das Grauen erwacht, " in said
    assert "nightfall" not in said and "the_first_night" not in said


@pytest.mark.parametrize("text", ["[]", "null", '"a record"', "3"])
def test_json_that_is_not_an_object_is_an_illegal_record_for_replay(
    tmp_path: Path, text: str,
) -> None:
    """``replay`` of a JSON file holding a list or a string stopped "on a bug"
    (exit 70): the header check ran outside the refusals."""
    record = tmp_path / "game.json"
    record.write_text(text)
    code, out, err = run_cli("replay", str(record), "--lang", "de")
    assert (code, out) == (2, "")
    assert " ".join(err.split()) == \
        "Ungültige Aufzeichnung: Eine Spielaufzeichnung ist ein JSON-Objekt."


def test_replay_of_a_record_cut_short_says_where_it_stops(tmp_path: Path) -> None:
    """The text account of an unfinished game ended on its last step with no word on
    the outcome (``--json`` had it): it now ends as the outcome's explanation does."""
    records = Path(__file__).resolve().parents[1] / "records"
    code, out, _ = run_cli("replay", str(records / "lupus-example-round.json"), "--lang", "it")
    lines = out.strip().splitlines()
    assert code == 0 and lines[-2:] == [
        "La registrazione si ferma prima delle accuse del giorno 2.",
        "Vivi: 1 lupo mannaro e 5 umani; nessuno schieramento ha ancora vinto."]
    record = json.loads((records / "onuw-example-round.json").read_text(encoding="utf-8"))
    record["steps"] = record["steps"][:4]  # the night only
    (tmp_path / "cut.json").write_text(json.dumps(record), encoding="utf-8")
    code, out, _ = run_cli("replay", str(tmp_path / "cut.json"))
    assert code == 0 and out.strip().splitlines()[-1] == "The vote has not happened yet."
    code, out, _ = run_cli("replay", str(records / "onuw-example-round.json"))
    assert code == 0 and "has not happened" not in out and "stops before" not in out
