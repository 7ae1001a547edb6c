"""Timing settings, the live runner's countdown, and espeak-ng."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from nightcall.narration import speech
from nightcall.narration.runner import run
from nightcall.narration.script import build_script
from nightcall.narration.timing import speed_factor, timing_for
from nightcall.rulesets.onuw.deck import recommended


def test_speed_names_and_factors() -> None:
    assert speed_factor("slow") > speed_factor("normal") > speed_factor("fast")
    assert speed_factor("1.25") == 1.25
    for bad in ("warp", "0", "-1", "11"):
        with pytest.raises(ValueError):
            speed_factor(bad)


def test_rulebook_defaults() -> None:
    assert timing_for("onuw").action == 10  # "silently count to ten"
    assert timing_for("epic").for_call("seer") == 5  # "wait about 5 seconds"
    assert timing_for("epic").for_call("goblin") == 10
    assert timing_for("lupus").discussion == 180  # "about three minutes"
    assert timing_for("onuw", "fast", discussion=90).discussion == 90
    with pytest.raises(ValueError):
        timing_for("onuw", discussion=-5)


def test_runner_counts_each_pause_down_with_the_given_clock() -> None:
    steps = build_script("onuw", recommended(3), timing=timing_for("onuw", discussion=61.5))
    slept: list[float] = []
    spoken: list[str] = []
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False)
    shown = run(steps, console, lambda r: r.title(), "pause", speak=spoken.append,
                sleep=slept.append)
    assert shown == len(steps) == len(spoken)
    assert spoken == [s.text for s in steps]
    assert sum(slept) == pytest.approx(sum(s.wait for s in steps))
    assert max(slept) <= 1.0  # a tick a second
    # the last tick of the 61.5 s discussion, and of each 1.5 s gap after "close your eyes"
    assert slept.count(0.5) == 1 + sum(1 for s in steps if s.wait == 1.5)
    assert "[Werewolf] Werewolves, open your eyes" in out.getvalue()


def test_runner_without_waiting_never_sleeps() -> None:
    steps = build_script("onuw", recommended(3))
    slept: list[float] = []
    console = Console(file=io.StringIO())
    run(steps, console, str, "pause", sleep=slept.append, wait=False)
    assert slept == []


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_espeak_writes_a_wav_in_each_language(tmp_path: Path, lang: str) -> None:
    steps = build_script("onuw", recommended(3), lang=lang)
    path = speech.synthesize(steps[1].text, lang, tmp_path / "line.wav")
    data = path.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    assert len(data) > 10_000  # a real sentence, not an empty header


def test_speech_reports_a_missing_espeak(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speech.shutil, "which", lambda _: None)
    assert not speech.available()
    with pytest.raises(FileNotFoundError, match="espeak-ng is not installed"):
        speech.synthesize("hello", "en", Path("/nonexistent.wav"))
