"""The dependency-free AEC environment: PettingZoo's loop, masks, seeds and secrets."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from nightcall.agents.action_space import action_space
from nightcall.agents.env import NightcallEnv
from nightcall.engine.errors import IllegalAction
from nightcall.engine.events import MASTER
from nightcall.engine.ruleset import all_rulesets, get_ruleset
from nightcall.narration.telling import explain

# A small table for each registered ruleset (Lupus starts at 7).
TABLES = [(rid, max(5, r.min_players)) for rid, r in sorted(all_rulesets().items())]


def turns(env: NightcallEnv, seed: int, policy_seed: int | None = None,
          steps: int = 100_000) -> Iterator[tuple[str, Any, float, bool]]:
    """A game with random masked choices (the policy seeded by ``policy_seed``, else by
    ``seed``). Each turn is yielded as (agent, observation, reward, over) before it is
    taken, so a test sees the state the choice is made in; an agent that is over steps
    with None, as PettingZoo's loop wants."""
    env.reset(seed=seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    for agent in env.agent_iter(steps):
        obs, reward, terminated, truncated, _ = env.last()
        over = terminated or truncated
        yield agent, obs, reward, over
        if over:
            env.step(None)
            continue
        assert obs is not None
        choices = [i for i, bit in enumerate(obs["action_mask"]) if bit]
        assert choices, f"{agent} was selected with an empty mask"
        env.step(rng.choice(choices))


def play(env: NightcallEnv, seed: int, policy_seed: int = 0) -> list[tuple[str, Any]]:
    """A whole game with random masked choices; the transcript of (agent, observation)."""
    transcript = [(agent, json.dumps(obs, sort_keys=True))
                  for agent, obs, _, _ in turns(env, seed, policy_seed, steps=10_000)]
    assert not env.agents, "the game did not end"
    return transcript


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_same_seed_same_observations_different_seed_different_game(
    ruleset: str, players: int
) -> None:
    a = play(NightcallEnv(ruleset, players), seed=42)
    b = play(NightcallEnv(ruleset, players), seed=42)
    assert a == b
    c = play(NightcallEnv(ruleset, players), seed=43)
    assert a != c


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_every_ruleset_plays_to_the_end_with_outcome_rewards(ruleset: str, players: int) -> None:
    env = NightcallEnv(ruleset, players)
    for seed in range(3):
        transcript = play(env, seed=seed)
        outcome = env.ruleset.outcome(env.state)
        assert outcome is not None
        finals = {agent for agent, _ in transcript[-players:]}
        assert finals == set(env.possible_agents), "every agent hears the end"


def test_every_registered_ruleset_has_an_action_space() -> None:
    for rid, ruleset in all_rulesets().items():
        space = action_space(ruleset, ruleset.min_players)
        assert len(space) > 0, rid


@pytest.mark.parametrize("players", range(3, 11))
def test_every_game_ends_with_each_agent_rewarded_by_the_outcome(players: int) -> None:
    env = NightcallEnv("onuw", players)
    for seed in range(5):
        rewards = {agent: reward for agent, _, reward, over in turns(env, seed, steps=10_000)
                   if over}
        outcome = env.ruleset.outcome(env.state)
        assert outcome is not None
        expected = {f"player_{s}": 1.0 if s in outcome.winners else -1.0
                    for s in range(players)}
        assert rewards == expected


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_observation_is_exactly_the_view_plus_the_mask(ruleset: str, players: int) -> None:
    env = NightcallEnv(ruleset, players)
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
        full_deal = env.ruleset.view(env.state, MASTER)["events"][0]
        assert "cards" in full_deal
        for _agent, _obs, _, over in turns(env, seed, steps=10_000):
            if over:
                continue
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


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_illegal_actions_raise_and_change_nothing(ruleset: str, players: int) -> None:
    env = NightcallEnv(ruleset, players)
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


def random_game(env: NightcallEnv, seed: int) -> None:
    """A game through the mask; ActionSpace.mask raises if a legal action is missing."""
    for _ in turns(env, seed):
        pass
    assert not env.agents


def test_epic_action_space_covers_every_scenario() -> None:
    scenarios = pytest.importorskip("nightcall.rulesets.epic.scenarios")
    for scenario in scenarios.SCENARIOS:
        env = NightcallEnv("epic", scenario.max_players, scenario=scenario.id)
        random_game(env, seed=1)
    for players in range(3, 11):
        env = NightcallEnv("epic", players, scenario="anarchy")
        for seed in range(3):
            random_game(env, seed)


def test_lupus_action_space_covers_both_decks() -> None:
    if "lupus" not in all_rulesets():
        pytest.skip("lupus is not registered")
    for deck in (None, "extra"):
        for players in (7, 12, 18, 23):
            random_game(NightcallEnv("lupus", players, scenario=deck), seed=players)


@pytest.mark.parametrize("players", range(3, 11))
def test_action_space_holds_every_legal_action_and_claim(players: int) -> None:
    ruleset = get_ruleset("onuw")
    space = action_space(ruleset, players, talk=True)
    assert len(set(space.actions)) == len(space)
    env = NightcallEnv("onuw", players, talk=True, max_talk=1)
    for seed in range(20):
        for agent, _, _, over in turns(env, seed, steps=10_000):
            if over:
                continue
            seat = env.seat(agent)
            for action in ruleset.legal_actions(env.state, seat):
                assert action in space
            for action in ruleset.legal_claims(env.state, seat):  # type: ignore[attr-defined]
                assert action in space


def test_unknown_ruleset_space_is_a_clear_error() -> None:
    class Fake:  # a ruleset that declares no action space
        id = "chess"
        action_space = None

    with pytest.raises(ValueError, match="no action space is known for ruleset 'chess'"):
        action_space(Fake(), 4)  # type: ignore[arg-type]


def test_render_ansi_is_the_masters_account() -> None:
    env = NightcallEnv("onuw", 5, render_mode="ansi")
    play(env, seed=3)
    text = env.render()
    outcome = env.ruleset.outcome(env.state)
    assert text is not None and outcome is not None
    assert explain(outcome.reasons)[-1] in text
    assert NightcallEnv("onuw", 5).render() is None


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_no_seat_is_shown_an_event_meant_for_others(ruleset: str, players: int) -> None:
    from nightcall.engine.events import visible_to

    env = NightcallEnv(ruleset, players)
    for seed in range(3):
        for _agent, _, _, over in turns(env, seed):
            if over:
                continue
            for seat, other in enumerate(env.possible_agents):
                shown = env.observe(other)["observation"]["events"]
                log = env.state.log
                visible = [{"kind": e.kind, **e.data} for e in log if visible_to(e, seat)]
                hidden = [{"kind": e.kind, **e.data} for e in log if not visible_to(e, seat)]
                for event in hidden:
                    if event not in visible:
                        assert event not in shown, f"{other} sees {event}"


def test_the_core_environment_needs_neither_numpy_nor_pettingzoo() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from nightcall.agents.env import NightcallEnv\n"
        "import nightcall.agents.stdio, nightcall.agents.llm, nightcall.commands.agent\n"
        "env = NightcallEnv('onuw', 4); env.reset(seed=0); env.observe(env.agent_selection)\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_default_table_is_five_or_the_rulesets_least() -> None:
    for rid, ruleset in all_rulesets().items():
        env = NightcallEnv(rid)
        assert len(env.possible_agents) == max(5, ruleset.min_players)
