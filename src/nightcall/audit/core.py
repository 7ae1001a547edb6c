"""The audit's driver: deal a game, let random bots play every seat, and after the deal
and after every applied action check the view of every seat and of a spectator against
the ruleset's knowledge model."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from nightcall.bots.random_bot import RandomBot
from nightcall.engine.actions import Action
from nightcall.engine.errors import DeckError, IllegalAction
from nightcall.engine.ruleset import MasterChoice, Rules, Talk, get_ruleset, load

# Who looks: a seat, or None for a spectator (the host screen shows the same).
Viewer = int | None


@dataclass(frozen=True)
class Finding:
    """One failed check: ``kind`` is "leak" (the viewer got something it may not know)
    or "missing" (it did not get something the rules tell it)."""

    kind: str
    ruleset: str
    game: str  # how to replay it: players, deck, seed
    step: int  # actions applied before this view (0: right after the deal)
    viewer: Viewer
    what: str

    def __str__(self) -> str:
        who = "spectator" if self.viewer is None else f"seat {self.viewer}"
        where = f"{self.ruleset} [{self.game}] step {self.step} {who}"
        return f"{self.kind.upper()} {where}: {self.what}"


class Model(Protocol):
    """A ruleset's knowledge model (see the package docstring)."""

    over: bool

    def snapshot(self, state: Any) -> Any:
        """What the model needs of the master state before an action."""
        ...

    def step(self, seat: int, action: Action, before: Any, state: Any) -> None:
        """An action was applied (``before`` is the snapshot taken just before)."""
        ...

    def master_step(self, name: str, before: Any, state: Any) -> None:
        """A move of the game master (Lupus: naming the last to die)."""
        ...

    def check(self, viewer: Viewer, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Problems in ``view``, as (kind, description)."""
        ...


ModelFactory = Callable[[Any], Model]
S = TypeVar("S")


def model_for(ruleset_id: str) -> ModelFactory:
    """The knowledge model the ruleset declares (``Ruleset.audit_model``)."""
    path = get_ruleset(ruleset_id).audit_model
    if path is None:
        raise ValueError(f"ruleset {ruleset_id!r} declares no knowledge model to audit with")
    factory: ModelFactory = load(path)
    return factory


@dataclass
class GameConfig:
    ruleset: str
    players: int
    roles: list[str]
    seed: int
    label: str = ""

    def describe(self) -> str:
        return f"{self.label or self.ruleset} p={self.players} seed={self.seed}"


@dataclass
class AuditResult:
    games: int = 0
    messages: int = 0
    actions: int = 0
    findings: list[Finding] = field(default_factory=list)
    per_ruleset: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def leaks(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "leak"]

    def merge(self, other: AuditResult) -> None:
        self.games += other.games
        self.messages += other.messages
        self.actions += other.actions
        self.findings.extend(other.findings)
        self.per_ruleset.update(other.per_ruleset)
        self.seconds += other.seconds


MAX_FINDINGS_PER_GAME = 20
MAX_STEPS = 5000


def audit_game(cfg: GameConfig, talk: float = 0.15) -> AuditResult:
    """Play one game with random bots and check every view after every step.

    ``talk`` is the chance that, during the day, a random seat makes a claim first
    (One Night's talk is public and must reach everyone as said)."""
    rs = get_ruleset(cfg.ruleset)
    names = [f"P{i}" for i in range(cfg.players)]
    state = rs.deal(names, cfg.roles, cfg.seed)
    model = model_for(cfg.ruleset)(state)
    rng = random.Random(cfg.seed ^ 0x5EED)
    bots = {s: RandomBot(cfg.seed * 7919 + s) for s in range(cfg.players)}
    viewers: list[Viewer] = [*range(cfg.players), None]
    out = AuditResult(games=1)
    out.per_ruleset[cfg.ruleset] += 1
    step = 0

    def check_all() -> None:
        for v in viewers:
            view = rs.view(state, v)
            out.messages += 1
            for kind, what in model.check(v, view):
                if len(out.findings) < MAX_FINDINGS_PER_GAME:
                    out.findings.append(
                        Finding(kind, cfg.ruleset, cfg.describe(), step, v, what)
                    )

    start = time.perf_counter()
    check_all()
    while not rs.is_over(state) and step < MAX_STEPS:
        if isinstance(rs, Talk) and rng.random() < talk:
            seat = rng.randrange(cfg.players)
            options = rs.legal_claims(state, seat)
            if options:
                before = model.snapshot(state)
                claim = rng.choice(list(options))
                try:
                    rs.apply(state, seat, claim)
                except IllegalAction:  # too many claims from this seat: fine, talk on
                    pass
                else:
                    step += 1
                    model.step(seat, claim, before, state)
                    check_all()
                    continue
        if isinstance(rs, MasterChoice) and _master_move(rs, state, rng, model):
            step += 1
            check_all()
            continue
        waiting = rs.waiting_for(state)
        if not waiting:
            out.findings.append(Finding("missing", cfg.ruleset, cfg.describe(), step, None,
                                        "the game is stuck: nobody to act and not over"))
            break
        seat = rng.choice(list(waiting))
        action = bots[seat].choose(rs.view(state, seat))
        if action is None:
            out.findings.append(Finding("missing", cfg.ruleset, cfg.describe(), step, seat,
                                        "a waited-for seat has no legal move in its view"))
            break
        before = model.snapshot(state)
        rs.apply(state, seat, action)
        step += 1
        out.actions += 1
        model.step(seat, action, before, state)
        check_all()
    out.seconds = time.perf_counter() - start
    return out


def _master_move(rs: MasterChoice[S], state: S, rng: random.Random, model: Model) -> bool:
    """Now and then the Master names the first of two dawn deaths as the last to die."""
    dead = rs.dawn_deaths(state)
    if (rs.may_choose_last(state) and len(dead) > 1
            and rs.last_to_die(state) == dead[-1] and rng.random() < 0.5):
        before = model.snapshot(state)
        rs.choose_last(state, dead[0])
        model.master_step("last", before, state)
        return True
    return False


# --- which games to play ---------------------------------------------------------------


# A ruleset's deck mix (``Ruleset.audit_games``, declared beside its knowledge model in
# audit/<id>.py): (the ruleset, rng) -> the games to play, endless.
Configs = Callable[[Rules, random.Random], Iterator[GameConfig]]


def default_configs(ruleset_id: str, rng: random.Random) -> Iterator[GameConfig]:
    """For a ruleset that declares no deck mix: its default deck at every player count
    it has one for, in turn."""
    rs = get_ruleset(ruleset_id)
    sizes = []
    for n in range(rs.min_players, rs.max_players + 1):
        try:
            rs.default_deck(n)
        except DeckError:
            continue
        sizes.append(n)
    if not sizes:
        raise ValueError(f"ruleset {ruleset_id!r} has no default deck to audit")
    while True:
        players = rng.choice(sizes)
        yield GameConfig(ruleset_id, players, rs.default_deck(players),
                         rng.randrange(2**31), ruleset_id)


def configs_for(ruleset_id: str, rng: random.Random) -> Iterator[GameConfig]:
    """The games the audit plays for a ruleset (its declared ``audit_games``)."""
    path = get_ruleset(ruleset_id).audit_games
    if path is None:
        return default_configs(ruleset_id, rng)
    configs: Configs = load(path)
    return configs(get_ruleset(ruleset_id), rng)


def run_audit(
    games: dict[str, int], seed: int = 0,
    progress: Callable[[AuditResult], None] | None = None,
) -> AuditResult:
    """Play ``games[ruleset]`` games of each ruleset and check them all."""
    total = AuditResult()
    for ruleset_id, count in games.items():
        configs = configs_for(ruleset_id, random.Random(f"{seed}:{ruleset_id}"))
        total.merge(audit_configs(itertools.islice(configs, count), progress))
    return total


def audit_configs(
    configs: Iterable[GameConfig], progress: Callable[[AuditResult], None] | None = None
) -> AuditResult:
    total = AuditResult()
    for cfg in configs:
        total.merge(audit_game(cfg))
        if progress is not None:
            progress(total)
    return total
