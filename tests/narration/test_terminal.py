"""The interactive commands, driven in a real terminal through pexpect."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pexpect

from .helpers import NIGHTCALL

ENV = {**os.environ, "COLUMNS": "160", "LINES": "50"}


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(NIGHTCALL, list(args), env=ENV, encoding="utf-8", timeout=20,
                         dimensions=(50, 160))


def test_narrate_live_counts_down_and_ends_with_the_vote() -> None:
    child = spawn("narrate", "onuw", "-n", "3", "--speed", "0.05", "--discussion", "1.5",
                  "--lang", "it")
    child.expect("Chiudete tutti gli occhi")
    child.expect(r"\[Lupo\] \S*Lupi, aprite gli occhi")  # (colour codes in between)
    child.expect("pausa")  # the on-screen countdown of a role's pause
    child.expect(r"\[Veggente\] \S*Veggente, apri gli occhi")
    child.expect("Avete 2 secondi")  # said exactly (1.5 s rounds to 2)
    child.expect("discussione: \\S*[12] s")  # the day timer ticking
    child.expect("Tre")
    child.expect("Votate!")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_judge_asks_question_by_question() -> None:
    child = spawn("judge", "onuw")
    child.expect("Players, in seating order")
    child.sendline("Anna, Bruno, Carla, Dario")
    for card in ("Doppelgängerin", "A♠", "K♥", "K♠"):  # a German name is fine too
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("Which role did the Doppelgänger copy")
    child.sendline("werewolf")
    child.expect("Who does each player point at")
    for target in ("Bruno", "Anna", "Anna", "Carla"):
        child.expect("→")
        child.sendline(target)
    child.expect("Dead: Anna \\(votes\\)")
    child.expect("Winners: Carla, Dario")  # Anna, a werewolf by copy, died: the village wins
    child.expect("The check, step by step")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_judge_epic_asks_for_tokens_and_artifacts() -> None:
    from .helpers import need_ruleset

    need_ruleset("epic")
    child = spawn("judge", "epic")
    child.expect("Players")
    child.sendline("Ann, Ben, Cid")
    for card in ("werewolf", "Seer", "robber"):
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("symbol token")
    for token in ("", "bounty", ""):
        child.expect(r"  \w+: ")
        child.sendline(token)
    child.expect("Artifacts")
    for artifact in ("brand of the villager", "", ""):
        child.expect(r"  \w+: ")
        child.sendline(artifact)
    child.expect("Who does each player point at")
    for target in ("Ben", "Ann", "Ann"):
        child.expect("→")
        child.sendline(target)
    # Ann's werewolf card is branded a villager: no monster among the players, and she died.
    child.expect("Dead: Ann")
    child.expect("The check, step by step")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_judge_refuses_each_bad_answer_at_once_and_asks_it_again() -> None:
    """Issue 19: one typo in a name or card must not mean retyping the whole table."""
    child = spawn("judge", "onuw")
    child.expect("Players")
    child.sendline("A, B, a")
    child.expect("A is there twice")  # "a" and "A": names are compared as read
    child.expect("Players")
    child.sendline("A, B")
    child.expect("That is 2 players; this game is for 3 to 10")
    child.expect("Players")
    child.sendline("A, B, C")
    child.expect("  A: ")
    child.sendline("werewolf")
    child.expect("  B: ")
    child.sendline("unicorn")
    child.expect("'unicorn' is not a card of this game")
    child.expect("  B: ")  # the same player again, nobody else
    child.sendline("A♣")
    child.expect("  C: ")
    child.sendline("Lupo")  # a third Werewolf, in Italian
    child.expect("The box has 2 × Werewolf, and A, B holds it already")
    child.expect("  C: ")
    child.sendline("seer")
    child.expect("Who does each player point at")
    child.expect("A →")
    child.sendline("Zed")
    child.expect("'Zed' is not at this table: type one of A, B, C")
    child.expect("A →")
    child.sendline("A")
    child.expect("A cannot point at themselves")
    child.expect("A →")
    child.sendline("3")  # a seat number: C
    child.expect("B →")
    child.sendline("c")
    child.expect("C →")
    child.sendline("")
    child.expect(r"Dead: C \(votes\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_judge_a_refused_table_is_mended_not_retyped() -> None:
    """Two Bounty tokens on the table: the whole check refuses, says why, and asks whose
    answers to change; the rest of the table is kept."""
    from .helpers import need_ruleset

    need_ruleset("epic")
    child = spawn("judge", "epic")
    child.expect("Players")
    child.sendline("Ann, Ben, Cid")
    for card in ("werewolf", "Seer", "robber"):
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("symbol token")
    child.expect("  Ann: ")
    child.sendline("panik")
    child.expect("'panik' is not a symbol token")
    for token in ("bounty", "bounty", ""):
        child.expect(r"  \w+: ")
        child.sendline(token)
    child.expect("Artifacts")
    for _ in range(3):
        child.expect(r"  \w+: ")
        child.sendline("")
    child.expect("Who does each player point at")
    for target in ("Ben", "Ann", "Ann"):
        child.expect("→")
        child.sendline(target)
    child.expect("This table cannot be judged: there are only 1 bounty")
    child.expect("Whose answers do you want to change")
    child.sendline("Ben")
    child.expect("  Ben: ")
    child.sendline("seer")
    child.expect("Ben's symbol token")
    child.sendline("")
    child.expect("The artifact on Ben's card")
    child.sendline("")
    child.expect("Ben →")
    child.sendline("Ann")
    child.expect("Dead: Ann")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_judge_speaks_italian() -> None:
    child = spawn("judge", "onuw", "--lang", "it")
    child.expect("I giocatori, nell'ordine in cui siedono")
    child.sendline("Anna, Bruno, Carla")
    for card in ("Lupo", "Veggente", "Ladro"):
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("Chi indica ogni giocatore")
    for target in ("Bruno", "Anna", "Anna"):
        child.expect("→")
        child.sendline(target)
    child.expect(r"Morti: Anna \(voti\)")
    child.expect("Vincitori: Bruno, Carla")
    child.expect("La verifica, passo per passo")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_one_game_in_a_terminal() -> None:
    child = spawn("play", "onuw", "-n", "4", "--seed", "3", "--name", "Zoe")
    child.expect("you are Zoe")
    child.expect("You look at your card: you are the")
    turns = 0
    while True:
        i = child.expect([r"Your choice \(1-\d+, q to quit\)", "You (win|lose)",
                          "Say something before you vote"])
        if i == 1:
            break
        if i == 2:
            child.sendline("")  # vote without a claim
            continue
        turns += 1
        if turns == 1:
            child.sendline("99")  # not on the menu: explained, asked again
            child.expect("'99' is not on the menu")
            child.expect(r"Your choice")
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert turns >= 1  # at least the vote


def test_play_shows_the_talk_lets_the_human_claim_then_vote() -> None:
    """Issue 19: the bots' claims are shown, the human can claim (a wrong key is
    explained and asked again), and the vote comes after the talk."""
    child = spawn("play", "onuw", "-n", "5", "--name", "Zoe")
    child.expect(r"Seed (\d+) \(the same game again: --seed \d+\)")  # from the clock
    seed = child.match.group(1)
    while child.expect([r"Your choice \(1-\d+", "Say something before you vote"]) == 0:
        child.sendline("1")  # the night, if Zoe's card has a move
    before = child.before
    assert before.count("says: “") >= 4  # the four bots spoke before the vote
    child.sendline("4")
    child.expect("'4' is not 1, 2, 3 or Enter")
    child.sendline("1")
    child.expect("Which role")
    child.sendline("x")
    child.expect("'x' is not on the menu")
    child.sendline("1")
    child.expect("You say: “I am the")
    child.expect("Say something before you vote")
    child.sendline("3")
    child.expect("The first card you swapped")
    child.sendline("2")
    child.expect("The second card you swapped")
    child.sendline("2")
    child.expect("You say: “I swapped")
    child.expect("Say something before you vote")
    child.sendline("")
    child.expect(r"Your choice \(1-5")
    child.sendline("1")
    child.expect("You (win|lose)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert seed.isdigit()


def play_to_the_end(child: pexpect.spawn, choice: str, end: str, talk: str) -> str:
    """Answer 1 to every menu and vote without a claim until the game ends; what the
    terminal showed. The command must exit with 0."""
    seen = ""
    while True:
        i = child.expect([choice, end, talk])
        seen += child.before + child.after
        if i == 1:
            break
        child.sendline("" if i == 2 else "1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return seen


def test_play_calls_two_werewolves_in_the_plural_and_says_the_end_once() -> None:
    """Issue #13 (noticed in session 5): with two Werewolves in the deck ``play`` said
    "Night: the Werewolf is called.", and "No Werewolf died" twice at the end."""
    deck = ("werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager")
    child = spawn("play", "onuw", "-n", "4", "--seed", "8", "--name", "Zoe",
                  *(arg for role in deck for arg in ("--roles", role)))
    child.expect("Night: the Werewolves are called.")
    seen = child.before + child.after + play_to_the_end(
        child, r"Your choice \(1-\d+, q to quit\)", "You (win|lose)",
        "Say something before you vote")
    assert "the Werewolf is called" not in seen
    assert seen.count("No Werewolf died") <= 1 and seen.count("A Werewolf died") <= 1


def test_play_in_italian() -> None:
    child = spawn("play", "onuw", "-n", "3", "--seed", "5", "--lang", "it")
    child.expect("Ruoli in gioco: ")
    child.expect("Guardi la tua carta: sei")
    play_to_the_end(child, r"La tua scelta \(1-\d+, q per uscire\)", "Hai (vinto|perso)",
                    "Vuoi dire qualcosa prima di votare")


def test_narrate_lupus_runs_the_masters_loop_to_the_end() -> None:
    from .helpers import need_ruleset

    need_ruleset("lupus")
    names = ["Ada", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus"]
    cards = ["A♠", "2♥", "K♥", "3♥", "A♣", "4♥", "5♥"]  # two werewolves, Seer, villagers
    child = spawn("narrate", "lupus", "-n", "7", "--speed", "0.01", "--discussion", "0.2",
                  "--no-speech")
    child.expect("The 7 players, clockwise")
    child.sendline(", ".join(names))
    for card in cards:
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("Night 1")  # the Master's screen marks each night
    answered = 0
    patterns = [r"Whom did the werewolves point at\?", r"Whom did \w+ \(Seer\) point at\?",
                r"Whom does \w+ accuse\?", r"Whom does \w+ point at to execute\?",
                "press Enter", "the (humans|werewolves) win", pexpect.EOF]
    while True:
        i = child.expect(patterns)
        if i in (5, 6):
            break
        child.sendline("" if i == 4 else "1")
        answered += 1
        assert answered < 120
    assert i == 5
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_narrate_lupus_a_wrong_deal_is_asked_again_and_a_closed_terminal_resumes(
    tmp_path: Path,
) -> None:
    """Issue 19: a wrong deal ended in a traceback with everything typed lost. Now each
    card is checked as it is typed; and after the terminal closes mid-night, --resume
    picks the game up at the open call with every answer kept."""
    from .helpers import need_ruleset

    need_ruleset("lupus")
    save = tmp_path / "game.json"
    args = ("--speed", "0.01", "--discussion", "0.2", "--no-speech", "--save", str(save))
    child = spawn("narrate", "lupus", "-n", "7", *args)
    child.expect("The 7 players, clockwise")
    child.sendline("Ada, Ben, Cleo")
    child.expect(r"Give 7 different names separated by commas \(got 3\)")
    child.sendline("Ada, Ben, Cleo, Dan, Eva, Finn, ada")
    child.expect(r"\(Ada is there twice\)")
    child.sendline("Ada, Ben, Cleo, Dan, Eva, Finn, Gus")
    for card, refusal in (("A♠", None), ("K♠", "There is no Bodyguard in this deck"),
                          ("2♥", None), ("A♥", None), ("A♣", "The deck has 2 × Werewolf, "
                                                        "already dealt to Ada, Cleo"),
                          ("K♥", None), ("seer", "The deck has 1 × Seer"), ("3♥", None),
                          ("4♥", None), ("5♥", None)):
        child.expect(r"  \w+: ")
        child.sendline(card)
        if refusal:
            child.expect(refusal)
    child.expect("The game is saved after every answer in")
    child.expect("Night 1")
    child.expect(r"Whom did the werewolves point at\?")
    child.sendline("Ben")
    child.expect(r"Whom did Dan \(Seer\) point at\?")
    child.close(force=True)  # the terminal closes before the Seer's answer
    doc = json.loads(save.read_text(encoding="utf-8"))
    assert doc["players"] == ["Ada", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus"]
    assert doc["master"]["moves"] == [[0, {"kind": "kill", "a": 1}],
                                      [2, {"kind": "kill", "a": 1}]]

    child = spawn("narrate", "lupus", "--resume", *args)
    child.expect("resumed: night 1")
    child.expect("Seer, wake up")  # the open call, said again
    child.expect(r"Whom did Dan \(Seer\) point at\?")
    child.sendline("Ada")
    child.expect(r"Seer points at Ada: a werewolf")
    child.expect("During the night Ben died")  # the werewolves' answer was kept
    child.expect(r"Whom does Cleo accuse\?")
    child.sendcontrol("c")
    child.expect("Stopped. The game is saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_narrate_lupus_a_new_game_keeps_the_saved_one(tmp_path: Path) -> None:
    from .helpers import need_ruleset

    need_ruleset("lupus")
    save = tmp_path / "game.json"
    save.write_text('{"old": "game"}', encoding="utf-8")
    child = spawn("narrate", "lupus", "-n", "7", "--speed", "0.01", "--no-speech",
                  "--save", str(save))
    child.expect("The 7 players")
    child.sendline("A, B, C, D, E, F, G")
    for card in ("A♠", "A♣", "K♥", "2♥", "3♥", "4♥", "5♥"):
        child.expect(r"  \w: ")
        child.sendline(card)
    child.expect("The game saved there before is kept in")
    child.expect("Whom did the werewolves")
    child.close(force=True)
    assert (tmp_path / "game.previous.json").read_text(encoding="utf-8") == '{"old": "game"}'
    assert json.loads(save.read_text(encoding="utf-8"))["players"][0] == "A"


def test_narrate_lupus_resume_without_a_saved_game_says_so(tmp_path: Path) -> None:
    child = spawn("narrate", "lupus", "--resume", "--save", str(tmp_path / "none.json"))
    child.expect("no saved game at")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_narrate_space_pauses_and_resumes_the_countdown() -> None:
    child = spawn("narrate", "onuw", "-n", "3", "--no-speech", "--night-only",
                  "--speed", "0.4")
    child.expect("space: pause")
    child.expect(r"Werewolves, open your eyes")
    child.expect("⏳")
    child.send(" ")
    child.expect("paused — press space to go on")
    # While paused, nothing moves on: the next line does not come.
    assert child.expect(["Seer, open your eyes", pexpect.TIMEOUT], timeout=6) == 1
    child.send(" ")
    child.expect("Seer, open your eyes", timeout=20)
    child.sendcontrol("c")
    child.expect("Stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_judge_the_copy_the_artifact_and_the_mending_are_asked_again() -> None:
    child = spawn("judge", "onuw")
    child.expect("Players")
    child.sendline("A, B, C")
    for card in ("Doppelgänger", "seer", "robber"):
        child.expect(r"  \w: ")
        child.sendline(card)
    child.expect("Which role did the Doppelgänger copy")
    child.sendline("Doppelgängerin")
    child.expect("copies another player's card, never a Doppelgänger")
    child.expect("Which role did the Doppelgänger copy")
    child.sendline("unicorn")
    child.expect("'unicorn' is not a card of this game")
    child.expect("Which role did the Doppelgänger copy")
    child.sendline("Lupo")
    child.expect("Who does each player point at")
    for target in ("B", "A", "A"):
        child.expect("→")
        child.sendline(target)
    child.expect(r"Dead: A \(votes\)")  # a werewolf by copy
    child.expect("Winners: B, C")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    from .helpers import need_ruleset

    need_ruleset("epic")
    child = spawn("judge", "epic")
    child.expect("Players")
    child.sendline("Ann, Ben, Cid")
    for card in ("werewolf", "seer", "robber"):
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("symbol token")
    for token in ("bounty", "bounty", ""):
        child.expect(r"  \w+: ")
        child.sendline(token)
    child.expect("Artifacts")
    child.expect("  Ann: ")
    child.sendline("sword")
    child.expect("'sword' is not an artifact")
    for artifact in ("", "", ""):
        child.expect(r"  \w+: ")
        child.sendline(artifact)
    child.expect("Who does each player point at")
    for target in ("Ben", "Ann", "Ann"):
        child.expect("→")
        child.sendline(target)
    child.expect("Whose answers do you want to change")
    child.sendline("Dora")
    child.expect("'Dora' is not at this table")
    child.expect("Whose answers do you want to change")
    child.sendline("")  # give up: refused, exit 2, no traceback
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "Traceback" not in (child.before or "")


def test_narrate_lupus_every_question_is_asked_again_after_a_wrong_answer(
    tmp_path: Path,
) -> None:
    from .helpers import need_ruleset

    need_ruleset("lupus")
    child = spawn("narrate", "lupus", "-n", "7", "--speed", "0.01", "--discussion", "0.1",
                  "--no-speech", "--save", str(tmp_path / "g.json"))
    child.expect("The 7 players")
    child.sendline("Ada, Ben, Cleo, Dan, Eva, Finn, Gus")
    for card in ("A♠", "A♣", "K♥", "2♥", "3♥", "4♥", "5♥"):
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect(r"Whom did the werewolves point at\?")
    child.sendline("Ada")  # a werewolf: not on the menu
    child.expect("'Ada' is not one of the 5 choices")
    child.sendline("dan")  # names are read in any case
    child.expect(r"Whom did Cleo \(Seer\) point at\?")
    child.sendline("99")
    child.expect("'99' is not one of the 6 choices")
    child.sendline("Ben")
    child.expect("Seer points at Ben: a werewolf")
    child.expect("During the night Dan died")
    child.expect(r"Whom does Eva accuse\?")
    child.sendline("Eva")
    child.expect("'Eva' is not one of the")
    child.sendline("Ben")
    child.expect("Eva accuses Ben")
    for _ in range(6):
        child.expect(r"Whom does \w+ accuse\?")
        child.sendline("Ben" if child.match.group(0).split()[2] != "Ben" else "Ada")
    child.expect("The suspects are")
    child.expect("press Enter when both have spoken")
    child.sendline("")
    child.expect("On my count")
    child.expect("One.")
    child.expect("Two.")
    child.expect("Three.")
    child.expect(r"Whom does \w+ point at to execute\?")
    child.sendline("Zed")
    child.expect("'Zed' is not one of the 3 choices")
    child.sendcontrol("c")
    child.expect("Stopped. The game is saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
