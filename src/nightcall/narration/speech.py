"""Speech at the edge: espeak-ng when installed, with the locale's voice."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ESPEAK = "espeak-ng"


def available() -> bool:
    return shutil.which(ESPEAK) is not None


def _command(voice: str, rate: int) -> list[str]:
    exe = shutil.which(ESPEAK)
    if exe is None:
        raise FileNotFoundError(f"{ESPEAK} is not installed (apt install espeak-ng)")
    return [exe, "-v", voice, "-s", str(rate)]


# What espeak-ng prints (exit status 0 all the same) when there is no sound card.
_NO_AUDIO = ("Unknown PCM", "cannot find card", "audio open error")


def speak(text: str, voice: str, rate: int = 150) -> bool:
    """Say ``text`` aloud and return when done; False if there was no audio device."""
    done = subprocess.run([*_command(voice, rate), text], capture_output=True, text=True)
    return done.returncode == 0 and not any(m in done.stderr for m in _NO_AUDIO)


def synthesize(text: str, voice: str, path: Path, rate: int = 150) -> Path:
    """Write ``text`` spoken with ``voice`` to a WAV file (for the host screen, or tests)."""
    subprocess.run([*_command(voice, rate), "-w", str(path), text], check=True,
                   capture_output=True)
    return path
