"""The interactive commands, driven in a real terminal through pexpect."""

from __future__ import annotations

import os

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
    child.expect("Avete 0,5 minuti")  # rounded to the half minute
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


def test_judge_interactive_refuses_a_bad_card() -> None:
    child = spawn("judge", "onuw")
    child.expect("Players")
    child.sendline("A, B, C")
    for card in ("werewolf", "unicorn", "seer"):
        child.expect(r"  \w+: ")
        child.sendline(card)
    child.expect("Who does each player point at")
    for _ in range(3):
        child.expect("→")
        child.sendline("")
    child.expect("'unicorn' is not a One Night role")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_play_one_game_in_a_terminal() -> None:
    child = spawn("play", "onuw", "-n", "4", "--seed", "3", "--name", "Zoe")
    child.expect("you are Zoe")
    child.expect("You look at your card: you are the")
    turns = 0
    while True:
        i = child.expect([r"Your choice \(1-\d+, q to quit\)", "You (win|lose)"])
        if i == 1:
            break
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
