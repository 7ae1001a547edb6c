"""The game master speaking JSON lines: agent programs on some seats, bots on the rest.

Each agent seat is a :class:`LineChannel` (a pair of text streams: our stdin and
stdout for ``nightcall agent stdio``, a child's pipes for ``nightcall agent play``).
The loop is the protocol of :mod:`nightcall.protocol`: a ``welcome`` to every
agent, then, whenever a seat has something to do, its ``observation`` and one
answer, until the ``game_over``. Bad lines get an ``error`` and the observation
again; the game does not move until a good answer arrives, unless the channel
has a ``timeout``: then a seat that does not answer in time gets a random legal
move played for it, and a ``timeout`` error saying which.
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Protocol

from nightcall.agents.table import Table
from nightcall.bots.random_bot import RandomBot
from nightcall.engine.actions import Action
from nightcall.protocol import (
    Error,
    ErrorCode,
    Hello,
    ProtocolError,
    ServerMessage,
    decode_agent,
    encode_line,
)

MAX_ERRORS_IN_A_ROW = 50
MAX_LINE = 1 << 20


class AgentGone(Exception):
    """An agent closed its stream or kept sending nothing usable; the game cannot go on."""


class AgentTimeout(Exception):
    """No line from the agent within the channel's timeout."""


class Bot(Protocol):
    def choose(self, view: dict[str, object]) -> Action | None: ...


class LineChannel:
    """One agent's two text streams, a message per line."""

    def __init__(
        self, reader: IO[str], writer: IO[str], name: str = "agent",
        timeout: float | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.name = name
        self.timeout = timeout
        self._lines: queue.Queue[str] | None = None

    def send(self, message: ServerMessage) -> None:
        try:
            self.writer.write(encode_line(message))
            self.writer.flush()
        except (BrokenPipeError, ValueError) as exc:  # ValueError: closed file
            raise AgentGone(f"{self.name} stopped reading: {exc}") from None

    def receive(self) -> str:
        if self.timeout is None:
            line = self.reader.readline(MAX_LINE)
        else:
            # A blocking readline cannot be given a deadline: a thread reads, we wait.
            if self._lines is None:
                self._lines = queue.Queue()
                threading.Thread(target=self._pump, daemon=True).start()
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise AgentTimeout(f"no answer within {self.timeout:g}s") from None
        if not line:
            raise AgentGone(f"{self.name} closed its output before the game was over")
        return line

    def _pump(self) -> None:
        assert self._lines is not None
        try:
            while line := self.reader.readline(MAX_LINE):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put("")  # end of stream


def bot_seed(seed: int, seat: int) -> int:
    """Each bot gets its own stream of choices, fixed by the game seed."""
    return seed * 1009 + seat


def run_game(
    table: Table,
    agents: Mapping[int, LineChannel],
    bots: Mapping[int, Bot] | None = None,
    seed: int = 0,
) -> None:
    """Play ``table`` to the end: agents on their seats, a random bot on every other seat."""
    robots: dict[int, Bot] = dict(bots or {})
    for seat in range(len(table.names)):
        if seat not in agents and seat not in robots:
            robots[seat] = RandomBot(bot_seed(seed, seat))
    # Who plays for an agent that does not answer in time.
    stand_ins = {seat: RandomBot(bot_seed(seed, seat)) for seat in agents}
    for seat, channel in agents.items():
        channel.send(table.welcome(seat))
    while not table.is_over():
        waiting = table.to_act()
        if not waiting:
            raise RuntimeError(f"{table.ruleset.id}: not over, yet nobody has anything to do")
        seat = min(waiting)
        if seat in agents:
            try:
                ask_move(table, seat, agents[seat])
            except AgentTimeout as exc:
                _play_for(table, seat, agents[seat], stand_ins[seat], str(exc))
        else:
            action = robots[seat].choose(table.ruleset.view(table.state, seat))
            if action is None:
                raise RuntimeError(f"the bot on seat {seat} found no legal action")
            table.play(seat, action)
    for seat, channel in agents.items():
        channel.send(table.game_over(seat))


def ask_move(table: Table, seat: int, channel: LineChannel, move_timeout: float | None = None,
             max_messages: int | None = None) -> None:
    """Get one accepted move from an agent; talk is answered with a fresh observation.
    ``move_timeout``: seconds for the whole move (the channel's timeout shrinks as it
    talks); ``max_messages``: how many lines it may send before the move at most."""
    deadline = None if move_timeout is None else time.monotonic() + move_timeout
    errors = messages = 0
    send_observation = True
    while not table.is_over() and seat in table.to_act():
        if send_observation:
            channel.send(table.observe(seat))
        if deadline is not None:
            channel.timeout = max(0.0, deadline - time.monotonic())
        line = channel.receive()
        messages += 1
        try:
            message = decode_agent(line)
        except ProtocolError as exc:
            exc.error.state_id = table.state_id(seat)
            refused: Error = exc.error
        else:
            error = table.submit(seat, message)
            if error is None:
                # A hello needs no new observation; anything applied does.
                send_observation = not isinstance(message, Hello)
                errors = 0
                if max_messages is None or messages < max_messages:
                    continue
                raise AgentGone(f"{channel.name} sent {messages} messages for one move")
            refused = error
        errors += 1
        if errors >= MAX_ERRORS_IN_A_ROW:
            raise AgentGone(f"{channel.name} sent {errors} refused messages in a row")
        channel.send(refused)
        send_observation = True


def _play_for(table: Table, seat: int, channel: LineChannel, bot: Bot, why: str) -> None:
    """A seat that did not answer in time: a random legal move is played for it."""
    view = table.ruleset.view(table.state, seat)
    action = bot.choose(view)
    if action is None:
        raise RuntimeError(f"seat {seat} has no legal action to play for it")
    state_id = table.state_id(seat)
    table.play(seat, action)
    channel.send(Error(ErrorCode.TIMEOUT, f"{why}: {action} was played for you", state_id))


def spawn(
    command: Sequence[str], name: str, timeout: float | None = None
) -> tuple[subprocess.Popen[str], LineChannel]:
    """Start an agent program and talk to it over its stdin and stdout."""
    proc = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    return proc, LineChannel(proc.stdout, proc.stdin, name, timeout)
