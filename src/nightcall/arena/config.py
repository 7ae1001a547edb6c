"""A tournament as data: who plays, which game, how many deals, which seed.

It comes from a TOML file (``nightcall arena tournament.toml``), from flags, or
both (flags win). Everything is checked here, before any game is played, and
every problem is an :class:`~nightcall.arena.ArenaError` with a one-line message.

An entrant is one of:

- a built-in bot: ``bot = "random"``, ``"reasoning:easy"``, ``"reasoning"``, ``"reasoning:hard"``;
- a program speaking the agent protocol on stdin/stdout (docs/agents.md):
  ``command = ["python3", "my_agent.py"]`` (one process per seat and game);
- the LLM player: ``llm = "MODEL"`` with ``url = "http://host:port/v1"``;
- a Python bot class or factory: ``python = "my_module:MyBot"``, called with
  ``(ruleset_id, seed)``, whose objects have ``choose(view)`` (and may have ``talk(view)``).
"""

from __future__ import annotations

import importlib
import math
import re
import shlex
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nightcall.arena import ArenaError
from nightcall.engine.jsontype import JSONObject

if TYPE_CHECKING:
    from nightcall.bots import Bot

KINDS = ("bot", "stdio", "llm", "python")
DEFAULT_MOVE_TIMEOUT = 30.0  # seconds a protocol entrant may think, unless it says otherwise
NAME = re.compile(r"^[A-Za-z0-9_.:+-]{1,40}$")
TOP_KEYS = {"ruleset", "players", "scenario", "deck", "games", "deals", "seed", "workers",
            "out", "entrant"}
# What each kind may set besides its own key and the name.
KIND_KEYS = {
    "bot": set(), "python": set(), "stdio": {"timeout"},
    "llm": {"url", "api_key_env", "timeout", "requests_per_minute", "price_input",
            "price_output", "max_talk"},
}
ENTRANT_KEYS = {"name", "bot", "command", "llm", "url", "api_key_env", "python", "timeout",
                "requests_per_minute", "price_input", "price_output", "max_talk"}


@dataclass(frozen=True)
class Entrant:
    """One contestant. Only ``name`` and the fields of its kind are set."""

    name: str
    kind: str
    bot: str = ""  # bot: the make_bot spec
    command: tuple[str, ...] = ()  # stdio: the program and its arguments
    model: str = ""  # llm
    url: str = ""  # llm
    api_key_env: str = "OPENAI_API_KEY"  # llm: the variable holding the key (never the key)
    python: str = ""  # python: "module:attribute"
    timeout: float | None = None  # stdio, llm: seconds per move; then the seat passes
    requests_per_minute: float | None = None  # llm
    price_input: float | None = None  # llm: cost of a million prompt tokens
    price_output: float | None = None  # llm: cost of a million completion tokens
    max_talk: int = 2  # llm: claims per game at most
    # A factory given directly (library use and tests), instead of python = "module:attr".
    factory: Callable[[str, int], Bot] | None = field(default=None, compare=False, repr=False)

    @property
    def move_timeout(self) -> float:
        return DEFAULT_MOVE_TIMEOUT if self.timeout is None else self.timeout

    @property
    def is_bot(self) -> bool:
        """Plays in-process from views, as the simulator's bots do (no protocol)."""
        return self.kind in ("bot", "python")

    def describe(self) -> str:
        if self.kind == "bot":
            return f"bot {self.bot}"
        if self.kind == "stdio":
            return f"program {shlex.join(self.command)}"
        if self.kind == "llm":
            return f"LLM {self.model} at {self.url}"
        return f"Python {self.python or getattr(self.factory, '__qualname__', 'factory')}"

    def to_json(self) -> JSONObject:
        """What identifies this entrant in a results file (no secrets: only the key's
        variable name)."""
        out: JSONObject = {"name": self.name, "kind": self.kind}
        if self.kind == "bot":
            out["bot"] = self.bot
        elif self.kind == "stdio":
            out["command"] = list(self.command)
            out["timeout"] = self.move_timeout
        elif self.kind == "llm":
            out.update(model=self.model, url=self.url, timeout=self.move_timeout,
                       max_talk=self.max_talk)
            for key in ("requests_per_minute", "price_input", "price_output"):
                if getattr(self, key) is not None:
                    out[key] = getattr(self, key)
        else:
            out["python"] = self.python or self.describe()
        return out

    def make_bot(self, ruleset_id: str, seed: int) -> Bot:
        """A fresh bot for one seat of one game (bot and python entrants)."""
        if self.kind == "bot":
            from nightcall.bots import make_bot

            return make_bot(self.bot, ruleset_id, seed)
        factory = self.factory or load_factory(self.python)
        return factory(ruleset_id, seed)


@dataclass(frozen=True)
class Tournament:
    ruleset: str
    players: int
    deck: tuple[str, ...]
    entrants: tuple[Entrant, ...]
    deals: int
    seed: int = 0
    scenario: str | None = None

    @property
    def tables(self) -> int:
        """Tables per deal: enough for every entrant to sit at one."""
        return max(1, math.ceil(len(self.entrants) / self.players))

    @property
    def games_per_deal(self) -> int:
        """Every table plays the deal once per rotation of its seats."""
        return self.tables * self.players

    @property
    def games(self) -> int:
        return self.deals * self.games_per_deal

    @property
    def all_bots(self) -> bool:
        return all(e.is_bot for e in self.entrants)

    def to_json(self) -> JSONObject:
        """The tournament's identity: a results file belongs to exactly one of these."""
        return {
            "ruleset": self.ruleset, "players": self.players, "deck": list(self.deck),
            "scenario": self.scenario, "deals": self.deals, "seed": self.seed,
            "entrants": [e.to_json() for e in self.entrants],
        }


# --- reading -----------------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ArenaError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read {path}: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArenaError(f"{path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        known = ", ".join(sorted(TOP_KEYS))
        raise ArenaError(f"{path}: unknown key {unknown[0]!r} (known: {known})")
    return data


def entrant_from_table(raw: object, where: str) -> Entrant:
    """An entrant from a ``[[entrant]]`` table of the TOML file."""
    if not isinstance(raw, Mapping):
        raise ArenaError(f"{where}: an entrant is a table with a name and one of bot, "
                         "command, llm, python")
    unknown = sorted(set(raw) - ENTRANT_KEYS)
    if unknown:
        raise ArenaError(f"{where}: unknown key {unknown[0]!r} "
                         f"(known: {', '.join(sorted(ENTRANT_KEYS))})")
    kinds = [k for k in ("bot", "command", "llm", "python") if k in raw]
    if len(kinds) != 1:
        raise ArenaError(f"{where}: give exactly one of bot, command, llm or python")
    kind = {"command": "stdio"}.get(kinds[0], kinds[0])
    stray = sorted(set(raw) - {"name", kinds[0]} - KIND_KEYS[kind])
    if stray:
        raise ArenaError(f"{where}: {stray[0]!r} does not apply to a {kinds[0]} entrant")
    default_name = {"bot": raw.get("bot"), "llm": raw.get("llm")}.get(kind)
    name = raw.get("name", default_name)
    if not isinstance(name, str):
        raise ArenaError(f"{where}: give the entrant a name")
    fields: dict[str, Any] = {"name": name, "kind": kind}
    if kind == "bot":
        fields["bot"] = _text(raw["bot"], f"{where}: bot")
    elif kind == "stdio":
        command = raw["command"]
        if isinstance(command, str):
            command = _split(command, f"{where}: command")
        if not isinstance(command, list) or not command or not all(
                isinstance(c, str) for c in command):
            raise ArenaError(f"{where}: command is a program and its arguments, as a list "
                             "of strings or one string")
        fields["command"] = tuple(command)
    elif kind == "llm":
        fields["model"] = _text(raw["llm"], f"{where}: llm (the model name)")
        if "url" not in raw:
            raise ArenaError(f"{where}: an llm entrant needs url = \"http://HOST:PORT/v1\"")
        fields["url"] = _text(raw["url"], f"{where}: url")
        if "api_key_env" in raw:
            fields["api_key_env"] = _text(raw["api_key_env"], f"{where}: api_key_env")
    else:
        fields["python"] = _text(raw["python"], f"{where}: python")
    for key in ("timeout", "requests_per_minute", "price_input", "price_output"):
        if key in raw:
            value = raw[key]
            free = key.startswith("price")  # a price may be 0; a time or a rate may not
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or value < 0 or (value == 0 and not free)):
                what = "a number >= 0" if free else "a positive number"
                raise ArenaError(f"{where}: {key} must be {what}, got {value!r}")
            fields[key] = float(value)
    if "max_talk" in raw:
        if not isinstance(raw["max_talk"], int) or raw["max_talk"] < 0:
            raise ArenaError(f"{where}: max_talk must be a whole number >= 0")
        fields["max_talk"] = raw["max_talk"]
    return Entrant(**fields)


def entrant_from_flag(text: str) -> Entrant:
    """``[NAME=]SPEC``: ``random``, ``reasoning:hard``, ``bot:SPEC``, ``stdio:COMMAND``,
    ``llm:MODEL@URL``, ``python:MODULE:ATTR``."""
    name, sep, rest = text.partition("=")
    if not sep or not NAME.match(name):
        name, rest = "", text
    spec = rest.strip()
    prefix, _, body = spec.partition(":")
    where = f"--entrant {text!r}"
    raw: dict[str, str]
    if prefix in ("stdio", "cmd"):
        raw = {"command": body}
        words = _split(body, where)
        name = name or (Path(words[0]).stem if words else "")
    elif prefix == "llm":
        model, at, url = body.rpartition("@")
        if not at or not model or not url:
            raise ArenaError(f"{where}: an LLM entrant is llm:MODEL@URL")
        raw = {"llm": model, "url": url}
    elif prefix == "python":
        raw = {"python": body}
        name = name or body.rpartition(":")[2]
    else:
        raw = {"bot": body if prefix == "bot" else spec}
    if name:
        raw["name"] = name
    return entrant_from_table(raw, where)


def _split(command: str, where: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError as exc:  # an unclosed quote
        raise ArenaError(f"{where}: {exc}") from None


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ArenaError(f"{where} must be a non-empty string")
    return value.strip()


def load_factory(spec: str) -> Callable[[str, int], Bot]:
    """``module:attribute``, imported from the current directory too (as ``python -m`` does)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ArenaError(f"python entrant {spec!r}: write it as module:attribute")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure is the user's module's; say which
        raise ArenaError(f"python entrant {spec!r}: cannot import {module_name}: {exc}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise ArenaError(f"python entrant {spec!r}: {module_name} has no callable {attr!r}")
    return factory  # type: ignore[no-any-return]


# --- putting it together -----------------------------------------------------------


def build(
    data: Mapping[str, object],
    flags: Mapping[str, object],
    flag_entrants: Sequence[str] = (),
    where: str = "the tournament",
) -> Tournament:
    """The tournament from the TOML data and the flags (a flag given wins), all checked."""
    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import all_rulesets, default_ruleset_id, get_ruleset

    def get(key: str, default: object = None) -> object:
        value = flags.get(key)
        return data.get(key, default) if value is None else value

    ruleset_id = get("ruleset", default_ruleset_id())
    if not isinstance(ruleset_id, str):
        raise ArenaError(f"{where}: ruleset must be a ruleset's id, a string "
                         f"(installed: {', '.join(all_rulesets())})")
    try:
        rs = get_ruleset(ruleset_id)
    except (NightcallError, KeyError, ValueError) as exc:
        raise ArenaError(str(exc).strip("'\"")) from None
    entrants: list[Entrant]
    if flag_entrants:
        entrants = [entrant_from_flag(t) for t in flag_entrants]
    else:
        raw = data.get("entrant", [])
        if not isinstance(raw, list):
            raise ArenaError(f"{where}: entrants are [[entrant]] tables")
        entrants = [entrant_from_table(e, f"{where}, entrant {i + 1}") for i, e in enumerate(raw)]
    if len(entrants) < 2:
        raise ArenaError(f"{where}: a tournament needs at least two entrants "
                         "([[entrant]] tables or --entrant)")
    seen: set[str] = set()
    for e in entrants:
        if not NAME.match(e.name):
            raise ArenaError(f"entrant name {e.name!r}: use 1-40 letters, digits or _.:+-")
        if e.name in seen:
            raise ArenaError(f"two entrants are called {e.name!r}: give each its own name")
        seen.add(e.name)
    checked = [_check_entrant(e, rs.id) for e in entrants]

    players = get("players")
    scenario = get("scenario")
    if scenario is not None and not isinstance(scenario, str):
        raise ArenaError(f"{where}: scenario must be a scenario's name, a string")
    from nightcall.narration.deckspec import parse_roles, scenario_asked

    scenario = scenario_asked(rs, scenario)  # (a name in any language: its id)
    deck_raw = get("deck")
    if isinstance(deck_raw, str):
        deck_raw = [deck_raw]
    if deck_raw is not None and (not isinstance(deck_raw, list) or not all(
            isinstance(r, str) for r in deck_raw)):
        raise ArenaError(f"{where}: deck is a list of roles (names or ids)")
    if players is None:
        players = max(5, rs.min_players)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ArenaError(f"{where}: players must be a whole number")
    try:
        if deck_raw:
            # (as deck and simulate read --roles: names in any language, "2x", cards)
            deck = parse_roles(rs, deck_raw)
            rs.validate_deck(players, deck)
        else:
            deck = rs.default_deck(players, scenario)
    except NightcallError as exc:
        raise ArenaError(f"the deck for {players} players: {exc}") from None

    seed = get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArenaError(f"{where}: seed must be a whole number")
    per_deal = max(1, math.ceil(len(entrants) / players)) * players
    # Flags win over the file as a pair: --games in the command replaces deals in the file.
    source = flags if flags.get("deals") is not None or flags.get("games") is not None else data
    if source.get("deals") is not None and source.get("games") is not None:
        raise ArenaError(f"{where}: give deals or games, not both")
    deals = _at_least_one(source.get("deals"), f"{where}: deals")
    games = _at_least_one(source.get("games"), f"{where}: games")
    if deals is None:
        # Whole deals only: a deal is played in every seating, or not at all.
        deals = math.ceil((games or 100 * per_deal) / per_deal)
    return Tournament(rs.id, players, tuple(deck), tuple(checked), deals, seed,
                      scenario if not deck_raw else None)


def _at_least_one(value: object, where: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 1):
        raise ArenaError(f"{where} must be a whole number >= 1")
    return value


def _check_entrant(e: Entrant, ruleset_id: str) -> Entrant:
    if e.kind == "bot":
        from nightcall.bots import make_bot

        try:
            make_bot(e.bot, ruleset_id, 0)
        except ValueError:
            from nightcall.bots.reasoning import DIFFICULTIES

            bots = ", ".join(("random", "reasoning", *(f"reasoning:{d}" for d in DIFFICULTIES)))
            raise ArenaError(f"entrant {e.name!r}: there is no bot {e.bot!r}; an entrant is "
                             f"a bot ({bots}), stdio:COMMAND, llm:MODEL@URL or "
                             "python:MODULE:ATTRIBUTE") from None
    elif e.kind == "stdio":
        import shutil

        program = e.command[0]
        if shutil.which(program) is None and not Path(program).is_file():
            raise ArenaError(f"entrant {e.name!r}: no program {program!r} "
                             "(not on PATH, not a file)")
    elif e.kind == "llm":
        if not e.url.startswith(("http://", "https://")):
            raise ArenaError(f"entrant {e.name!r}: url must start with http:// or https://")
    elif e.kind == "python" and e.factory is None:
        load_factory(e.python)
    return e


