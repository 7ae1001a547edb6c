"""One arena game: the players behind the seats, and the game played with them.

When every seat is a bot, the game is the simulator's (:func:`nightcall.sim.runner.play`),
so the arena runs at the simulator's speed. When a program or the LLM player
sits at the table, the game goes through :class:`~nightcall.agents.table.Table`,
the same protocol pipeline as ``nightcall agent play``: the welcome, an
observation for each decision, refusals, and the game over.

A protocol seat has a time limit per move (its entrant's ``timeout``). A seat that
does not answer in time **passes**: it skips a night action, abstains from the
vote, stays home, makes no accusation (:func:`pass_move`); where the rules have
no such move here, a seeded random legal move is played for it. A program that
exits or keeps sending nothing usable passes for the rest of the game, and the
game is counted. LLM requests are spaced by the entrant's ``requests_per_minute``
(shared by the worker processes), and the tokens the endpoint reports are counted.
"""

from __future__ import annotations

import contextlib
import random
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, NotRequired, TypedDict

from nightcall.agents.stdio import AgentGone, AgentTimeout, LineChannel, ask_move
from nightcall.agents.table import Table
from nightcall.arena.config import Entrant, Tournament
from nightcall.arena.schedule import Game, bot_seed
from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.engine.ruleset import Ruleset, S, get_ruleset
from nightcall.protocol import Error, ErrorCode, ServerMessage
from nightcall.sim.runner import dealt_roles
from nightcall.sim.runner import play as play_bots

PASS_KINDS = ("skip", "abstain", "stay_home", "no_accusation")
MAX_ERRORS_IN_A_ROW = 50
MAX_MESSAGES_PER_MOVE = 200  # talk lines and refusals before a move, at most


def pass_move(legal: Sequence[Action], rng: random.Random) -> Action:
    """The move of a seat that passes: doing nothing where the rules allow it."""
    for action in legal:
        if action.kind in PASS_KINDS:
            return action
    return rng.choice(list(legal))


class Context:
    """What a worker process keeps between games: the LLM rate limiters, the agents' log."""

    def __init__(self, workers: int = 1, log: IO[str] | None = None) -> None:
        self.workers = workers
        self.log = log
        self.limiters: dict[str, RateLimiter] = {}

    def limiter(self, e: Entrant) -> RateLimiter | None:
        if e.requests_per_minute is None:
            return None
        if e.name not in self.limiters:
            # Each worker gets its share, so that all of them together keep to the rate.
            self.limiters[e.name] = RateLimiter(e.requests_per_minute / self.workers)
        return self.limiters[e.name]


class RateLimiter:
    """At most ``per_minute`` starts a minute, evenly spaced (a request waits its turn)."""

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.interval = 60.0 / per_minute
        self.clock = clock
        self.sleep = sleep
        self.next_start: float | None = None
        self.lock = threading.Lock()

    def wait(self) -> float:
        """Block until a request may start; return the seconds waited."""
        with self.lock:
            now = self.clock()
            start = now if self.next_start is None else max(now, self.next_start)
            self.next_start = start + self.interval
        if start > now:
            self.sleep(start - now)
        return start - now


# --- the seats -----------------------------------------------------------------------


class ProtocolSeat:
    """A seat behind the protocol; counts what the leaderboard reports about it."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.stats: dict[str, Any] = {"moves": 0, "timeouts": 0}

    def begin(self, table: Table) -> None: ...

    def move(self, table: Table) -> None: ...

    def end(self, table: Table) -> None: ...

    def pass_now(self, table: Table) -> Action:
        action = pass_move(table.ruleset.legal_actions(table.state, self.seat), self.rng)
        table.play(self.seat, action)
        return action


class StdioSeat(ProtocolSeat):
    """A program on its own process, for this seat of this game."""

    def __init__(self, seat: int, rng: random.Random, entrant: Entrant, log: IO[str] | None
                 ) -> None:
        super().__init__(seat, rng)
        self.entrant = entrant
        self.log = log
        self.proc: subprocess.Popen[str] | None = None
        self.channel: LineChannel | None = None
        self.gone: str | None = None

    def begin(self, table: Table) -> None:
        name = f"{self.entrant.name} (seat {self.seat})"
        try:
            self.proc = subprocess.Popen(
                list(self.entrant.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self.log if self.log is not None else subprocess.DEVNULL,
                text=True, encoding="utf-8", bufsize=1,
            )
        except OSError as exc:
            self._gone(f"cannot start {self.entrant.command[0]}: {exc.strerror}")
            return
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.channel = LineChannel(self.proc.stdout, self.proc.stdin, name,
                                   self.entrant.move_timeout)
        try:
            self.channel.send(table.welcome(self.seat))
        except AgentGone as exc:
            self._gone(str(exc))

    def _gone(self, why: str) -> None:
        self.gone = why
        self.stats["crashed"] = why

    def move(self, table: Table) -> None:
        self.stats["moves"] += 1
        if self.gone is not None or self.channel is None:
            self.pass_now(table)
            return
        try:
            ask_move(table, self.seat, self.channel, self.entrant.move_timeout,
                     MAX_MESSAGES_PER_MOVE)
        except AgentTimeout as exc:
            self.stats["timeouts"] += 1
            state_id = table.state_id(self.seat)
            action = self.pass_now(table)
            self._send(Error(ErrorCode.TIMEOUT, f"{exc}: you passed ({action})", state_id))
        except AgentGone as exc:
            self._gone(str(exc))
            self.pass_now(table)

    def _send(self, message: ServerMessage) -> None:
        try:
            assert self.channel is not None
            self.channel.send(message)
        except AgentGone as exc:
            self._gone(str(exc))

    def end(self, table: Table) -> None:
        if self.proc is None:
            return
        if self.gone is None and table.is_over():  # not when the run is being stopped
            self._send(table.game_over(self.seat))
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # it ignored the end of the game
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class LLMSeat(ProtocolSeat):
    """The LLM player (nightcall.agents.llm), in this process, fed the protocol's messages."""

    def __init__(self, seat: int, rng: random.Random, entrant: Entrant, seed: int,
                 limiter: RateLimiter | None, log: IO[str] | None) -> None:
        super().__init__(seat, rng)
        import io
        import os

        from nightcall.agents.llm import LLMPlayer

        self.entrant = entrant
        self.limiter = limiter
        self.player = LLMPlayer(
            entrant.url, entrant.model, api_key=os.environ.get(entrant.api_key_env) or None,
            seed=seed, max_talk=entrant.max_talk, timeout=entrant.move_timeout,
            log=log if log is not None else io.StringIO(),
        )
        self.stats.update(requests=0, tokens_in=0, tokens_out=0, fallbacks=0)

    def begin(self, table: Table) -> None:
        self.player.start(table.welcome(self.seat))

    def move(self, table: Table) -> None:
        self.stats["moves"] += 1
        for _ in range(self.entrant.max_talk + 1):
            observation = table.observe(self.seat)
            if self.limiter is not None:
                self.limiter.wait()
            started = time.monotonic()
            action = self.player.choose(observation)
            late = time.monotonic() - started > self.entrant.move_timeout
            self._count()
            if late or action is None:
                # Too slow (the request timed out, or came back past the limit): a pass.
                self.stats["timeouts"] += 1
                self.pass_now(table)
                return
            try:
                table.play(self.seat, action)
            except IllegalAction:  # the player picks from the legal lists; never expected
                self.pass_now(table)
                return
            if action in observation.legal:
                return
        self.pass_now(table)  # talked as much as it may without moving

    def _count(self) -> None:
        p = self.player
        self.stats.update(requests=p.requests, tokens_in=p.prompt_tokens,
                          tokens_out=p.completion_tokens, fallbacks=p.fallbacks)


# --- a game ------------------------------------------------------------------------


class GameResult(TypedDict):
    """One game's line in a results file (docs/arena.md): which game of the schedule,
    the entrant in each seat, the roles dealt, the winning seats and teams, and what the
    protocol seats did (by seat, as a string: JSON keys are strings)."""

    game: int
    deal: int
    table: int
    rotation: int
    entrants: list[int]
    dealt: list[str]
    winners: list[int]
    teams: list[str]
    seats: NotRequired[dict[str, dict[str, object]]]


def play_game(t: Tournament, g: Game, ctx: Context,
              rs: Ruleset[Any] | None = None) -> GameResult:
    """Play game ``g`` of ``t``; return its result line."""
    rs = rs or get_ruleset(t.ruleset)
    n = t.players
    state = rs.deal(g.names, t.deck, g.deal_seed)
    dealt = dealt_roles(rs, state, n)
    entrants = t.entrants
    stats: dict[str, dict[str, object]] = {}
    if t.all_bots:
        play_bots(rs, state, [entrants[e].make_bot(rs.id, bot_seed(g, s))
                              for s, e in enumerate(g.entrants)])
    else:
        stats = _play_with_protocol(t, g, ctx, rs, state)
    outcome = rs.outcome(state)
    assert outcome is not None
    result = GameResult(game=g.index, deal=g.deal, table=g.table, rotation=g.rotation,
                        entrants=list(g.entrants), dealt=dealt,
                        winners=list(outcome.winners), teams=list(outcome.teams))
    if stats:
        result["seats"] = stats
    return result


def _play_with_protocol(t: Tournament, g: Game, ctx: Context, rs: Ruleset[S], state: S
                        ) -> dict[str, dict[str, object]]:
    table = Table(rs, state)
    bots: dict[int, Any] = {}  # (Bots; the ones that talk have .talk, bots/)
    agents: dict[int, ProtocolSeat] = {}
    for s, e_index in enumerate(g.entrants):
        e = t.entrants[e_index]
        seed = bot_seed(g, s)
        if e.is_bot:
            bots[s] = e.make_bot(rs.id, seed)
        elif e.kind == "stdio":
            agents[s] = StdioSeat(s, random.Random(seed), e, ctx.log)
        else:
            agents[s] = LLMSeat(s, random.Random(seed), e, seed, ctx.limiter(e), ctx.log)
    try:
        for seat in agents.values():
            seat.begin(table)
        _loop(rs, table, bots, agents)
    finally:
        for seat in agents.values():
            seat.end(table)
    return {str(s): seat.stats for s, seat in agents.items()}


def _loop(rs: Ruleset[Any], table: Table, bots: dict[int, Any],
          agents: dict[int, ProtocolSeat]) -> None:
    """The simulator's loop (every waiting seat in turn, the bots' claims at dawn), with
    protocol seats asked through the protocol."""
    state = table.state
    talkers = [s for s, b in sorted(bots.items()) if hasattr(b, "talk")]
    last_phase = None
    for _ in range(20_000):
        if rs.is_over(state):
            return
        moved = False
        for seat in rs.waiting_for(state):
            if not rs.legal_actions(state, seat):
                continue  # no longer wanted (another move emptied it)
            phase = rs.view(state, seat).get("phase")
            if talkers and phase != last_phase and phase == "day":
                for s in talkers:
                    for claim in bots[s].talk(rs.view(state, s)):
                        table.play(s, claim)
            last_phase = phase
            if seat in agents:
                agents[seat].move(table)
            else:
                action = bots[seat].choose(rs.view(state, seat))
                if action is None:
                    raise RuntimeError(f"the bot on seat {seat} found no legal action")
                table.play(seat, action)
            moved = True
        if not moved:
            raise RuntimeError("the game waits for seats that have nothing to do")
    raise RuntimeError("no end after 20,000 rounds of moves")
