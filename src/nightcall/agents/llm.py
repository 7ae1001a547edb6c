"""A player for any OpenAI-compatible chat endpoint (``POST {url}/chat/completions``).

For every decision it sends the observation as sentences and a numbered list of
what it may do now (its moves, and during the day what it may say), and reads
the number in the reply. A reply without a usable number, or a failed request,
becomes a random legal move, and the player says so on its log: the game never
waits on a broken model. It talks through the same protocol as any agent (claims
are actions), at most ``max_talk`` times a game so that it gets to vote.
Only the standard library is used for HTTP.
"""

from __future__ import annotations

import json
import random
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import IO, Any

from nightcall.agents.render import Names, describe_action, describe_view
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import get_ruleset
from nightcall.protocol import Observation, Welcome

SYSTEM_PROMPT = (
    "You are playing a social deduction card game ({title}) as one player. "
    "Win for your team: reason from what you know, and talk to help your side. "
    "Answer with the number of exactly one of the options, then, after a dash, "
    "one short sentence saying why."
)

class LLMPlayer:
    def __init__(
        self,
        url: str,
        model: str,
        *,
        api_key: str | None = None,
        seed: int = 0,
        max_talk: int = 2,
        timeout: float = 60.0,
        temperature: float = 0.7,
        log: IO[str] = sys.stderr,
    ) -> None:
        self.endpoint = url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.rng = random.Random(seed)
        self.max_talk = max_talk
        self.timeout = timeout
        self.temperature = temperature
        self.log = log
        self.names = Names([], [], 0)
        self.ruleset = ""
        self.talked = 0
        self.last: Action | None = None  # what it sent last (a claim is not offered twice)
        self.fallbacks = 0  # decisions made at random because the reply was unusable
        # What the endpoint reported it used ("usage" in its replies), for cost accounting.
        self.requests = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def start(self, welcome: Welcome) -> None:
        self.names = Names(welcome.players, welcome.role_ids, welcome.seat, welcome.ruleset)
        self.ruleset = welcome.ruleset
        self.talked = 0
        self.last = None

    def options(self, observation: Observation) -> list[Action]:
        """Moves first, then talk while this player still has something to say (not
        the claim it has just made: the game master refuses a repeat)."""
        if self.talked >= self.max_talk:
            return list(observation.legal)
        talk = [t.to_action() for t in observation.talk]
        return observation.legal + [a for a in talk if a != self.last]

    def prompt(self, observation: Observation, options: Sequence[Action]) -> list[dict[str, str]]:
        lines = describe_view(observation.view, self.names)
        lines.append("")
        lines.append("Your options now:")
        lines += [f"{i}. {describe_action(a, self.names)}" for i, a in enumerate(options, 1)]
        title = get_ruleset(self.ruleset).title
        return [
            {"role": "system", "content": SYSTEM_PROMPT.format(title=title)},
            {"role": "user", "content": "\n".join(lines)},
        ]

    def choose(self, observation: Observation) -> Action | None:
        if not observation.legal:
            # Only talk is open (the web app's discussion): this player speaks on its
            # turns to move, which keeps it to one request per decision.
            return None
        options = self.options(observation)
        try:
            reply = self.ask(self.prompt(observation, options))
            index = parse_choice(reply, len(options))
            problem = None if index is not None else f"no option number in {reply[:200]!r}"
        except LLMUnavailable as exc:
            index, problem = None, str(exc)
        if index is None:
            # Talk is optional: a random fallback is always a move, never a claim.
            action = self.rng.choice(observation.legal)
            self.fallbacks += 1
            print(f"llm player: {problem}; playing a random legal action instead: "
                  f"{describe_action(action, self.names)}", file=self.log, flush=True)
        else:
            action = options[index]
            if action not in observation.legal:
                self.talked += 1
        self.last = action
        return action

    def ask(self, messages: list[dict[str, str]]) -> str:
        """One chat completion; the text of the first choice."""
        body = json.dumps({
            "model": self.model, "messages": messages, "temperature": self.temperature,
        }).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.endpoint, body, headers, method="POST")
        self.requests += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data: Any = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise LLMUnavailable(f"the endpoint answered HTTP {exc.code}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise LLMUnavailable(f"cannot reach {self.endpoint}: {exc}") from None
        except json.JSONDecodeError:
            raise LLMUnavailable("the endpoint did not answer JSON") from None
        self._count_usage(data)
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise LLMUnavailable("the reply has no choices[0].message.content") from None
        if not isinstance(content, str):
            raise LLMUnavailable("the reply's message content is not text")
        return content

    def _count_usage(self, data: Any) -> None:
        usage = data.get("usage") if isinstance(data, dict) else None
        if not isinstance(usage, dict):
            return
        for key, attr in (("prompt_tokens", "prompt_tokens"),
                          ("completion_tokens", "completion_tokens")):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(self, attr, getattr(self, attr) + value)


class LLMUnavailable(Exception):
    """The endpoint could not give a reply (network, HTTP status or shape)."""


def parse_choice(reply: str, count: int) -> int | None:
    """The 0-based option the reply picks: its first number in 1..count, or None."""
    for match in re.finditer(r"\d+", reply):
        number = int(match.group())
        if 1 <= number <= count:
            return number - 1
        break  # the first number is the answer; a wrong one is not rescued by later ones
    return None
