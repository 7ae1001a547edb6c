"""Fixtures for every test folder. (Being here also puts tests/ on the import path, so
the helper modules beside this file, such as llmhelpers, import from any folder.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings
from llmhelpers import Script, ScriptedLLM

# Property tests check results, not speed: hypothesis' 200 ms per example failed a
# judge test while browsers ran beside it (speed is benchmarks/' job).
settings.register_profile("nightcall", deadline=None)
settings.load_profile("nightcall")


@pytest.fixture
def llm_server() -> Iterator[Callable[[Script], ScriptedLLM]]:
    """Makes scripted OpenAI-compatible endpoints; each is closed at the test's end."""
    made: list[ScriptedLLM] = []

    def make(script: Script) -> ScriptedLLM:
        made.append(ScriptedLLM(script))
        return made[-1]

    yield make
    for server in made:
        server.close()
