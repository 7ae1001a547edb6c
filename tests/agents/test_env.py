"""The dependency-free AEC environment: PettingZoo's loop, masks, seeds and secrets."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from nightcall.agents.action_space import action_space
from nightcall.agents.env import NightcallEnv
from nightcall.engine.errors import IllegalAction
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import get_ruleset


def play(env: NightcallEnv, seed: int, policy_seed: int = 0) -> list[tuple[str, Any]]:
    """A whole game with random masked choices; the transcript of (agent, observation)."""
    env.reset(seed=seed)
    rng = random.Random(policy_seed)
    transcript: list[tuple[str, Any]] = []
    for agent in env.agent_iter(10_000):
        obs, _, terminated, truncated, _ = env.last()
        transcript.append((agent, json.dumps(obs, sort_keys=True)))
        if terminated or truncated:
            env.step(None)
            continue
        assert obs is not None
        choices = [i for i, bit in enumerate(obs["action_mask"]) if bit]
        assert choices, f"{agent} was selected with an empty mask"
        env.step(rng.choice(choices))
    assert not env.agents, "the game did not end"
    return transcript


def test_same_seed_same_observations_different_seed_different_game() -> None:
    a = play(NightcallEnv("onuw", 6), seed=42)
    b = play(NightcallEnv("onuw", 6), seed=42)
    assert a == b
    c = play(NightcallEnv("onuw", 6), seed=43)
    assert a != c


@pytest.mark.parametrize("players", range(3, 11))
def test_every_game_ends_with_each_agent_rewarded_by_the_outcome(players: int) -> None:
    env = NightcallEnv("onuw", players)
    for seed in range(5):
        env.reset(seed=seed)
        rewards: dict[str, float] = {}
        rng = random.Random(seed)
        for agent in env.agent_iter(10_000):
            obs, reward, terminated, _, _ = env.last()
            if terminated:
                rewards[agent] = reward
                env.step(None)
            else:
                assert obs is not None
                env.step(rng.choice([i for i, b in enumerate(obs["action_mask"]) if b]))
        outcome = env.ruleset.outcome(env.state)
        assert outcome is not None
        expected = {f"player_{s}": 1.0 if s in outcome.winners else -1.0
                    for s in range(players)}
        assert rewards == expected


def test_observation_is_exactly_the_view_plus_the_mask() -> None:
    env = NightcallEnv("onuw", 5)
    env.reset(seed=7)
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert set(obs) == {"observation", "action_mask"}
        assert obs["observation"] == env.ruleset.view(env.state, seat)


def test_observations_never_show_what_a_seat_may_not_know() -> None:
    # Before the reveal, the only card a seat sees is its own deal, what it looked
    # at, and its fellow night roles' seats; never the master's full deal.
    env = NightcallEnv("onuw", 7, roles=[
        "doppelganger", "werewolf", "werewolf", "minion", "mason", "mason", "seer",
        "robber", "troublemaker", "insomniac",
    ])
    for seed in range(10):
        env.reset(seed=seed)
        rng = random.Random(seed)
        full_deal = env.ruleset.view(env.state, MASTER)["events"][0]
        assert "cards" in full_deal
        for _agent in env.agent_iter(10_000):
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            assert obs is not None
            for seat, other in enumerate(env.possible_agents):
                view = env.observe(other)["observation"]
                if view["phase"] == "over":
                    continue
                for event in view["events"]:
                    assert "cards" not in event, f"{other} sees the whole deal"
                    if event["kind"] == "deal":
                        assert event["seat"] == seat, f"{other} sees another seat's deal"
                    if event["kind"] == "saw" and "seat" in event and event["seat"] != seat:
                        # Only a Doppelgänger, Seer or Robber looks, and only at their call.
                        assert env.state.start[seat] in ("doppelganger", "seer", "robber")
            env.step(rng.choice([i for i, b in enumerate(obs["action_mask"]) if b]))


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = NightcallEnv("onuw", 5)
    env.reset(seed=1)
    agent = env.agent_selection
    obs = env.observe(agent)
    before = json.dumps(env.ruleset.view(env.state, MASTER), sort_keys=True)
    illegal = obs["action_mask"].index(0)
    with pytest.raises(IllegalAction, match=r"not one of player_\d's legal actions now"):
        env.step(illegal)
    with pytest.raises(IllegalAction, match="numbered 0"):
        env.step(len(env.actions))
    with pytest.raises(IllegalAction, match="must choose an action"):
        env.step(None)
    assert json.dumps(env.ruleset.view(env.state, MASTER), sort_keys=True) == before
    assert env.agent_selection == agent


def test_the_vote_is_stored_until_the_last_seat_votes() -> None:
    env = NightcallEnv("onuw", 4)
    env.reset(seed=9)
    rng = random.Random(0)
    while env.ruleset.view(env.state, None)["phase"] == "night":
        obs = env.observe(env.agent_selection)
        env.step(rng.choice([i for i, b in enumerate(obs["action_mask"]) if b]))
    abstain = env.actions.index(next(a for a in env.actions if a.kind == "abstain"))
    seen = []
    for _ in range(4):
        seen.append(env.agent_selection)
        public = env.ruleset.view(env.state, None)
        assert "votes" not in [e["kind"] for e in public["events"]], "a vote leaked early"
        env.step(abstain)
    assert sorted(seen) == env.possible_agents
    assert all(env.terminations.values())


def test_talk_adds_claims_to_the_action_space_and_limits_them() -> None:
    quiet = NightcallEnv("onuw", 5)
    chatty = NightcallEnv("onuw", 5, talk=True, max_talk=2)
    assert len(chatty.actions) > len(quiet.actions)
    claim_ids = {i for i, a in enumerate(chatty.actions) if a.kind.startswith("claim")}
    chatty.reset(seed=4)
    said: dict[str, int] = {}
    claims_made = 0
    for agent in chatty.agent_iter(10_000):
        obs, _, terminated, _, _ = chatty.last()
        if terminated:
            chatty.step(None)
            continue
        assert obs is not None
        legal = [i for i, b in enumerate(obs["action_mask"]) if b]
        talk = [i for i in legal if i in claim_ids]
        if said.get(agent, 0) >= 2:
            assert not talk, f"{agent} may claim more than max_talk times"
        if talk:
            said[agent] = said.get(agent, 0) + 1
            claims_made += 1
            chatty.step(talk[0])
        else:
            chatty.step(legal[0])
    assert claims_made == 2 * 5
    claims = [e for e in chatty.ruleset.view(chatty.state, None)["events"] if e["kind"] == "claim"]
    assert len(claims) == claims_made
    # Turns go round the table: the first claims come from different seats.
    assert len({c["seat"] for c in claims[:5]}) == 5


@pytest.mark.parametrize("players", range(3, 11))
def test_action_space_holds_every_legal_action_and_claim(players: int) -> None:
    ruleset = get_ruleset("onuw")
    space = action_space(ruleset, players, talk=True)
    assert len(set(space.actions)) == len(space)
    env = NightcallEnv("onuw", players, talk=True, max_talk=1)
    for seed in range(20):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter(10_000):
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            seat = env.seat(agent)
            for action in ruleset.legal_actions(env.state, seat):
                assert action in space
            for action in ruleset.legal_claims(env.state, seat):  # type: ignore[attr-defined]
                assert action in space
            assert obs is not None
            env.step(rng.choice([i for i, b in enumerate(obs["action_mask"]) if b]))


def test_unknown_ruleset_space_is_a_clear_error() -> None:
    class Fake:
        id = "chess"

    with pytest.raises(ValueError, match="no action space is known for ruleset 'chess'"):
        action_space(Fake(), 4)


def test_render_ansi_is_the_masters_account() -> None:
    env = NightcallEnv("onuw", 5, render_mode="ansi")
    play(env, seed=3)
    text = env.render()
    outcome = env.ruleset.outcome(env.state)
    assert text is not None and outcome is not None
    assert outcome.explanation[-1] in text
    assert NightcallEnv("onuw", 5).render() is None
