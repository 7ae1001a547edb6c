"""What the arena's tests share: a scripted LLM endpoint that answers as the arena's
scripts say (delay, reply text, usage)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from llmhelpers import Script as LLMScript
from llmhelpers import ScriptedLLM

Script = Callable[[dict[str, Any]], tuple[float, str, dict[str, int] | None]]


@pytest.fixture
def endpoint(llm_server: Callable[[LLMScript], ScriptedLLM],
             ) -> Callable[[Script], ScriptedLLM]:
    """The arena's scripts say (delay, reply text, usage): the endpoint waits that long,
    then answers with the text (and the token usage, if any)."""
    def make(script: Script) -> ScriptedLLM:
        def answer(request: dict[str, Any]) -> tuple[int, Any]:
            delay, text, usage = script(request)
            time.sleep(delay)
            reply: dict[str, Any] = {"choices": [{"message": {"role": "assistant",
                                                              "content": text}}]}
            if usage is not None:
                reply["usage"] = usage
            return 200, reply

        return llm_server(answer)

    return make


def last_option(request: dict[str, Any]) -> tuple[float, str, dict[str, int]]:
    options = re.findall(r"^(\d+)\. ", request["messages"][-1]["content"], re.M)
    return 0.0, f"{options[-1]} - that one", {"prompt_tokens": 100, "completion_tokens": 7}
