"""The AEC environment as a real ``pettingzoo.AECEnv`` (the ``pettingzoo`` extra).

A thin wrapper over :class:`~nightcall.agents.env.NightcallEnv`: the game, the
turns and the rewards are the core environment's; this module only gives them
gymnasium spaces. The view is a JSON object of varying size, so the observation
carries it as UTF-8 JSON bytes, zero-padded to ``obs_bytes``
(``json.loads(bytes(obs["observation"]).rstrip(b"\\0"))`` reads it back), next to
the ``action_mask``; an action is an index of ``Discrete(len(env.actions))``.
Passes ``pettingzoo.test.api_test``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, SupportsInt

import gymnasium  # type: ignore[import-not-found, unused-ignore]
import numpy as np  # type: ignore[import-not-found, unused-ignore]
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from nightcall.agents.env import NightcallEnv

# Room for the longest view we know: a 23-player Lupus game runs to about 22 KB.
DEFAULT_OBS_BYTES = 1 << 16


def env(**kwargs: Any) -> NightcallAECEnv:
    """PettingZoo's customary constructor: ``env(ruleset="onuw", players=5)``."""
    return NightcallAECEnv(**kwargs)


class NightcallAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    metadata: ClassVar[dict[str, Any]] = dict(NightcallEnv.metadata)

    def __init__(
        self,
        ruleset: str | None = None,
        players: int | None = None,
        *,
        roles: Sequence[str] | None = None,
        scenario: str | None = None,
        options: Mapping[str, object] | None = None,
        talk: bool = False,
        max_talk: int = 3,
        obs_bytes: int = DEFAULT_OBS_BYTES,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.core = NightcallEnv(
            ruleset, players, roles=roles, scenario=scenario, options=options,
            talk=talk, max_talk=max_talk, render_mode=render_mode,
        )
        self.render_mode = render_mode
        self.obs_bytes = obs_bytes
        self.possible_agents = list(self.core.possible_agents)
        n_actions = len(self.core.actions)
        # One space object per agent, returned as is every time (api_test checks identity).
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(0, 255, (obs_bytes,), np.uint8),
                "action_mask": gymnasium.spaces.Box(0, 1, (n_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(n_actions) for a in self.possible_agents
        }

    # The bookkeeping lives in the core environment; these read it through.
    agents = property(lambda self: self.core.agents)
    rewards = property(lambda self: self.core.rewards)
    _cumulative_rewards = property(lambda self: self.core._cumulative_rewards)
    terminations = property(lambda self: self.core.terminations)
    truncations = property(lambda self: self.core.truncations)
    infos = property(lambda self: self.core.infos)
    agent_selection = property(lambda self: self.core.agent_selection)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.core.reset(seed, options)

    def observe(self, agent: str) -> dict[str, Any]:
        raw = self.core.observe(agent)
        data = json.dumps(raw["observation"], separators=(",", ":")).encode("utf-8")
        if len(data) > self.obs_bytes:
            raise ValueError(
                f"the view of {agent} is {len(data)} bytes, more than obs_bytes={self.obs_bytes}: "
                "make the environment with a larger obs_bytes"
            )
        packed = np.zeros(self.obs_bytes, np.uint8)
        packed[: len(data)] = np.frombuffer(data, np.uint8)
        return {"observation": packed, "action_mask": np.array(raw["action_mask"], np.int8)}

    def step(self, action: SupportsInt | None) -> None:
        self.core.step(None if action is None else int(action))

    def render(self) -> str | None:
        return self.core.render()

    def close(self) -> None:
        self.core.close()


def decode_view(observation: Any) -> dict[str, Any]:
    """The view dict back from a packed observation (``obs["observation"]``)."""
    data = bytes(observation).rstrip(b"\0")
    view: dict[str, Any] = json.loads(data)
    return view
