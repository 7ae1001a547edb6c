"""The agent's side of the protocol, for players written in Python.

:func:`play_lines` reads the game master's messages from a text stream and
answers each observation with the player's choice; it is what ``nightcall agent
llm`` runs on its stdin and stdout. A player needs two methods (:class:`Player`).
"""

from __future__ import annotations

import sys
from typing import IO, Protocol

from nightcall.engine.actions import Action
from nightcall.protocol import (
    ActionJSON,
    ActionMessage,
    Error,
    GameOver,
    Observation,
    Welcome,
    decode_server,
    encode_line,
)


class Player(Protocol):
    def start(self, welcome: Welcome) -> None:
        """The game begins: this player's seat, the names and the role ids."""

    def choose(self, observation: Observation) -> Action | None:
        """One action from ``observation.view["legal"]`` or ``observation.talk``; None
        to stay silent, which is allowed only when there is no legal move."""


def play_lines(player: Player, reader: IO[str], writer: IO[str], log: IO[str] = sys.stderr
               ) -> GameOver | None:
    """Play one game over JSON lines; return the game-over message (None if cut short)."""
    for line in reader:
        if not line.strip():
            continue
        message = decode_server(line)
        if isinstance(message, Welcome):
            player.start(message)
        elif isinstance(message, Observation):
            action = player.choose(message)
            if action is not None:
                reply = ActionMessage(ActionJSON.of(action), message.state_id)
                writer.write(encode_line(reply))
                writer.flush()
        elif isinstance(message, Error):
            print(f"refused ({message.code}): {message.message}", file=log, flush=True)
        else:
            return message
    return None
