"""One game in progress, seen through the agent protocol.

A :class:`Table` holds a ruleset and its state and turns them into protocol
messages: ``observe(seat)`` builds a seat's observation from ``Ruleset.view``
alone, and ``submit(seat, msg)`` is the one pipeline an agent's message goes
through, whatever the transport (stdio here, the websocket in the web app):
refuse if over, stale, or not this seat's business, otherwise apply. A refused
message changes nothing.

A seat's ``state_id`` is the version of *its own choices*: it goes up by one each
time that seat is shown moves or a phase that differ from the last it was shown
(``protocol.choices_key``, the web app's rule too). A global count of actions would
tell a seat how many secret night actions others took before its turn (and so which
roles are in the center); a version of the seat's own choices tells it nothing it
could not count itself, and talk, which changes nobody's choices, leaves it alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nightcall.agents.action_space import ActionSpace, action_space
from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.engine.ruleset import Ruleset, S, Talk, get_ruleset
from nightcall.narration.telling import explained
from nightcall.protocol import (
    PROTOCOL_VERSION,
    SAID_AGAIN,
    ActionJSON,
    ActionMessage,
    AgentMessage,
    Error,
    ErrorCode,
    GameOver,
    Hello,
    Observation,
    Welcome,
    choices_key,
    said_again,
)


def seat_names(players: int) -> list[str]:
    return [f"player_{i}" for i in range(players)]


def legal_talk(ruleset: Ruleset[S], state: S, seat: int) -> Sequence[Action]:
    """What ``seat`` may say now, for rulesets that have talk (One Night's claims)."""
    return ruleset.legal_claims(state, seat) if isinstance(ruleset, Talk) else ()



def agent_view(ruleset: Ruleset[Any], state: Any, seat: int) -> dict[str, Any]:
    """``ruleset.view`` for ``seat`` as agents get it: at the end the outcome's reasons
    come with their English sentences too (``explanation``, as records print them)."""
    view = ruleset.view(state, seat)
    if "outcome" in view:
        view["outcome"] = explained(view["outcome"])
    return view

class Table:
    def __init__(self, ruleset: Ruleset[Any], state: object, *, masks: bool = False) -> None:
        self.ruleset = ruleset
        self.state = state
        self.moves = 0  # actions applied, for the game master only
        self._shown: dict[int, tuple[str, object]] = {}  # the choices each seat last saw
        self._version: dict[int, int] = {}
        self._last: dict[int, Action] = {}  # each seat's previous move (a repeated claim)
        public = ruleset.view(state, None)
        self.names: list[str] = list(public["players"])
        self.space: ActionSpace | None = (
            action_space(ruleset, len(self.names)) if masks else None
        )
        self.agent_names: dict[int, str] = {}  # what each seat's agent said in its hello

    @classmethod
    def deal(
        cls,
        ruleset_id: str,
        players: int | Sequence[str],
        seed: int,
        *,
        roles: Sequence[str] | None = None,
        scenario: str | None = None,
        options: Mapping[str, object] | None = None,
        masks: bool = False,
    ) -> Table:
        """A new game: ``players`` is a count (seats named player_0...) or the names."""
        ruleset = get_ruleset(ruleset_id)
        names = seat_names(players) if isinstance(players, int) else list(players)
        deck = list(roles) if roles else ruleset.default_deck(len(names), scenario)
        return cls(ruleset, ruleset.deal(names, deck, seed, options), masks=masks)

    # --- reading --------------------------------------------------------------
    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def to_act(self) -> tuple[int, ...]:
        """Seats with a move to make now (secret: for the game master only)."""
        return tuple(self.ruleset.waiting_for(self.state))

    def talk(self, seat: int) -> list[Action]:
        return list(legal_talk(self.ruleset, self.state, seat))

    def welcome(self, seat: int) -> Welcome:
        space = None if self.space is None else [ActionJSON.of(a) for a in self.space.actions]
        return Welcome(
            self.ruleset.id, seat, list(self.names), PROTOCOL_VERSION,
            role_ids=list(self.ruleset.role_ids), action_space=space,
        )

    def state_id(self, seat: int) -> int:
        """The version of ``seat``'s choices now (one more than shown, if they changed)."""
        version = self._version.get(seat, 0)
        if self._shown.get(seat) != choices_key(agent_view(self.ruleset, self.state, seat)):
            version += 1
        return version

    def _show(self, seat: int) -> tuple[dict[str, Any], int]:
        view = agent_view(self.ruleset, self.state, seat)
        key = choices_key(view)
        if self._shown.get(seat) != key:
            self._shown[seat] = key
            self._version[seat] = self._version.get(seat, 0) + 1
        return view, self._version[seat]

    def observe(self, seat: int) -> Observation:
        view, state_id = self._show(seat)
        mask = None
        if self.space is not None:
            mask = self.space.mask(Action.from_json(a) for a in view.get("legal") or ())
        talk = [ActionJSON.of(a) for a in self.talk(seat)]
        return Observation(seat, state_id, view, talk, mask)

    def won(self, seat: int) -> bool:
        outcome = self.ruleset.outcome(self.state)
        return outcome is not None and seat in outcome.winners

    def game_over(self, seat: int) -> GameOver:
        view, state_id = self._show(seat)
        return GameOver(seat, state_id, view, self.won(seat))

    # --- acting ---------------------------------------------------------------
    def play(self, seat: int, action: Action) -> None:
        """Apply a move or a line of talk; raise IllegalAction and change nothing if refused."""
        self.ruleset.apply(self.state, seat, action)
        self.moves += 1
        self._last[seat] = action

    def submit(self, seat: int, message: AgentMessage) -> Error | None:
        """Run one agent message through the pipeline; return the error to send, if any."""
        if isinstance(message, Hello):
            self.agent_names[seat] = message.name
            return None
        assert isinstance(message, ActionMessage)
        action = message.action.to_action()
        now = self.state_id(seat)
        if self.is_over():
            return Error(ErrorCode.GAME_OVER, f"{action}: the game is over", now)
        if message.state_id is not None and message.state_id != now:
            return Error(
                ErrorCode.STALE_STATE,
                f"{action} answers state {message.state_id}, but your view is at state "
                f"{now}: answer the latest observation",
                now,
            )
        if not self.ruleset.legal_actions(self.state, seat) and not self.talk(seat):
            return Error(
                ErrorCode.NOT_YOUR_TURN, f"{action}: this seat has nothing to do now", now
            )
        if said_again(self.ruleset, action, self._last.get(seat)):
            return Error(ErrorCode.ILLEGAL_ACTION, SAID_AGAIN, now)
        try:
            self.play(seat, action)
        except IllegalAction as exc:
            return Error(ErrorCode.ILLEGAL_ACTION, str(exc), now)
        return None
