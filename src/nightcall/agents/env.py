"""A PettingZoo-style AEC environment with no dependency beyond nightcall itself.

Agents are ``player_0``..``player_{n-1}`` (seat i). The loop is PettingZoo's::

    env = NightcallEnv("onuw", players=5)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else pick(obs["action_mask"])
        env.step(action)

``observe(agent)`` is ``{"observation": view, "action_mask": [0/1, ...]}`` where
``view`` is exactly ``Ruleset.view(state, seat)`` and the mask refers to the fixed
:class:`~nightcall.agents.action_space.ActionSpace` (``env.actions``); an action
is its index there. Who acts next follows ``Ruleset.waiting_for``; the vote is a
simultaneous secret choice, so each seat's vote is stored by the engine and
resolved when the last one arrives. With ``talk=True`` the action space also
holds the claims, and a seat may make up to ``max_talk`` claims on its day turns
before it votes; turns go round the table so that claims interleave.

An illegal action raises :class:`~nightcall.engine.errors.IllegalAction` and
changes nothing. At the end every agent is terminated with reward +1 (won) or -1.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from nightcall.agents.action_space import ActionSpace, action_space
from nightcall.agents.table import agent_view, legal_talk, seat_names
from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.engine.ruleset import default_ruleset_id, get_ruleset

Observation = dict[str, Any]


class NightcallEnv:
    metadata: ClassVar[dict[str, Any]] = {
        "name": "nightcall_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

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
        render_mode: str | None = None,
    ) -> None:
        # No ruleset named: the first one installed (engine.ruleset.default_ruleset_id).
        self.ruleset = get_ruleset(ruleset or default_ruleset_id())
        # Five seats by default, or the ruleset's least (Lupus starts at 7).
        players = max(5, self.ruleset.min_players) if players is None else players
        self.players = players
        self.deck = list(roles) if roles else self.ruleset.default_deck(players, scenario)
        self.ruleset.validate_deck(players, self.deck, options)
        self.game_options = dict(options or {})
        self.talk = talk
        self.max_talk = max_talk
        self.said: dict[str, int] = {}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.space: ActionSpace = action_space(self.ruleset, players, talk)
        self.possible_agents: list[str] = seat_names(players)
        self.agents: list[str] = []
        self.state: object = None
        self.seed: int | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = ""

    # --- the AEC protocol -----------------------------------------------------
    @property
    def actions(self) -> tuple[Action, ...]:
        return self.space.actions

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; the same seed deals the same game and the same observations."""
        self.seed = random.randrange(2**32) if seed is None else seed
        self.state = self.ruleset.deal(
            self.possible_agents, self.deck, self.seed, self.game_options
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.said = dict.fromkeys(self.agents, 0)
        self.agent_selection = self._next_agent(after=-1)

    def legal(self, agent: str) -> list[Action]:
        """The actions ``agent`` may take now: moves, and claims when talk is on."""
        seat = self.seat(agent)
        moves = list(self.ruleset.legal_actions(self.state, seat))
        if self.talk and moves and self.said[agent] < self.max_talk:
            moves += legal_talk(self.ruleset, self.state, seat)
        return moves

    def observe(self, agent: str) -> Observation:
        if self.state is None:
            raise RuntimeError("call reset(seed) before observe()")
        seat = self.seat(agent)
        return {
            "observation": agent_view(self.ruleset, self.state, seat),
            "action_mask": self.space.mask(self.legal(agent)),
        }

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: int | None) -> None:
        if self.state is None:
            raise RuntimeError("call reset(seed) before step()")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._remove_finished(agent, action)
            return
        if action is None:
            raise IllegalAction("None", f"{agent} is still playing and must choose an action")
        index = int(action)  # numpy integers too
        if not 0 <= index < len(self.space):
            raise IllegalAction(
                str(action), f"actions are numbered 0..{len(self.space) - 1} in this game"
            )
        chosen = self.space[index]
        legal = self.legal(agent)
        if chosen not in legal:
            shown = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
            raise IllegalAction(str(chosen), f"not one of {agent}'s legal actions now: {shown}")
        seat = self.seat(agent)
        is_move = chosen in self.ruleset.legal_actions(self.state, seat)
        self.ruleset.apply(self.state, seat, chosen)
        self._cumulative_rewards[agent] = 0.0
        if not is_move:
            self.said[agent] += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.ruleset.is_over(self.state):
            self._finish()
        else:
            self.agent_selection = self._next_agent(after=seat)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from nightcall.narration.telling import tell

        return "\n".join(tell(self.ruleset, self.state))

    def close(self) -> None:
        """Nothing to release."""

    # --- helpers --------------------------------------------------------------
    def _next_agent(self, after: int) -> str:
        """The next seat clockwise after ``after`` that has something to do."""
        waiting = sorted(self.ruleset.waiting_for(self.state))
        if not waiting:
            raise RuntimeError(
                f"{self.ruleset.id}: the game is not over but no seat has anything to do"
            )
        seat = next((s for s in waiting if s > after), waiting[0])
        return self.possible_agents[seat]

    def _finish(self) -> None:
        outcome = self.ruleset.outcome(self.state)
        winners = set(outcome.winners) if outcome is not None else set()
        for agent in self.agents:
            self.rewards[agent] = 1.0 if self.seat(agent) in winners else -1.0
            self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def _accumulate_rewards(self) -> None:
        for agent, reward in self.rewards.items():
            self._cumulative_rewards[agent] += reward

    def _remove_finished(self, agent: str, action: int | None) -> None:
        if action is not None:
            raise IllegalAction(str(action), f"{agent} is done: the only valid action is None")
        for table in (
            self.rewards, self._cumulative_rewards, self.terminations, self.truncations,
            self.infos,
        ):
            del table[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
