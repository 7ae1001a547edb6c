"""The optional pettingzoo extra: PettingZoo's own API and seed tests must pass.

Skipped when pettingzoo is not installed, unless NIGHTCALL_REQUIRE_PETTINGZOO is
set (CI sets it, so that these tests run there rather than skip)."""

from __future__ import annotations

import json
import os

import pytest

if os.environ.get("NIGHTCALL_REQUIRE_PETTINGZOO"):
    import pettingzoo  # noqa: F401  (fails loudly when the extra is missing)
else:
    pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from nightcall.agents.pettingzoo_env import NightcallAECEnv, decode_view, env
from nightcall.engine.ruleset import all_rulesets


# PettingZoo suggests Box observations; ours is a Dict of Boxes, as in its classic games.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(
    ("ruleset", "players", "talk"),
    [("onuw", 3, False), ("onuw", 5, False), ("onuw", 10, False), ("onuw", 6, True),
     *[(rid, max(5, r.min_players), False) for rid, r in sorted(all_rulesets().items())
       if rid != "onuw"]],
)
def test_pettingzoo_api_test_passes(ruleset: str, players: int, talk: bool) -> None:
    api_test(env(ruleset=ruleset, players=players, talk=talk), num_cycles=200)


@pytest.mark.parametrize("ruleset", sorted(all_rulesets()))
def test_pettingzoo_seed_test_passes(ruleset: str) -> None:
    players = max(5, all_rulesets()[ruleset].min_players)
    seed_test(lambda: env(ruleset=ruleset, players=players), num_cycles=100)


def test_packed_observation_decodes_to_the_view() -> None:
    e = NightcallAECEnv("onuw", 5)
    e.reset(seed=3)
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert decode_view(obs["observation"]) == e.core.ruleset.view(
            e.core.state, e.core.seat(agent)
        )
        assert obs["action_mask"].tolist() == e.core.observe(agent)["action_mask"]


def test_view_too_large_for_obs_bytes_is_a_clear_error() -> None:
    e = NightcallAECEnv("onuw", 5, obs_bytes=64)
    e.reset(seed=3)
    with pytest.raises(ValueError, match="larger obs_bytes"):
        e.observe("player_0")
    big = NightcallAECEnv("onuw", 5)
    big.reset(seed=3)
    assert len(json.dumps(big.core.observe("player_0")["observation"])) < big.obs_bytes


def test_the_longest_game_fits_the_default_observation() -> None:
    if "lupus" not in all_rulesets():
        pytest.skip("lupus is not registered")
    e = NightcallAECEnv("lupus", 23, scenario="extra")
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter(100_000):
        obs, _, terminated, _, _ = e.last()
        assert obs is not None and len(obs["observation"]) == e.obs_bytes
        if terminated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents
