"""Bots: they act through the same views and actions as humans, never the full state.

Every bot has ``choose(view) -> Action | None`` (a move from ``view["legal"]``, or
None when it has nothing to do). Bots that talk also have ``talk(view) -> list[Action]``:
the claims they make at dawn, applied like any other action. Build one with
:func:`make_bot`::

    bot = make_bot("reasoning", "onuw", seed=7, difficulty="hard")
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol, runtime_checkable

from nightcall.engine.actions import Action

BOT_NAMES = ("random", "reasoning")


class Bot(Protocol):
    name: str

    def choose(self, view: Mapping[str, Any]) -> Action | None: ...


@runtime_checkable
class TalkingBot(Bot, Protocol):
    """A bot that also tells the table its claims at dawn (rulesets with ``Talk``).
    ``hears_claims``: whether its own moves weigh what others claimed."""

    hears_claims: bool

    def talk(self, view: Mapping[str, Any]) -> list[Action]: ...


def reasoning_rulesets() -> tuple[str, ...]:
    """The rulesets that declare a reasoning bot."""
    from nightcall.engine.ruleset import all_rulesets

    return tuple(rid for rid, rs in all_rulesets().items() if rs.reasoning_bot is not None)


@cache
def _reasoning_bot(ruleset_id: str) -> Any:
    """The class of the ruleset's reasoning bot, None if it has none (looked up once:
    a simulation builds a bot per seat and game)."""
    from nightcall.engine.ruleset import get_ruleset, load

    path = get_ruleset(ruleset_id).reasoning_bot
    return None if path is None else load(path)


def make_bot(name: str, ruleset_id: str, seed: int | None = 0, difficulty: str = "normal") -> Bot:
    """A bot by name ("random" or "reasoning"; "reasoning:hard" also sets the difficulty)."""
    if ":" in name:
        name, difficulty = name.split(":", 1)
    if name == "random":
        from nightcall.bots.random_bot import RandomBot

        return RandomBot(seed)
    if name == "reasoning":
        factory = _reasoning_bot(ruleset_id)
        if factory is not None:
            bot: Bot = factory(seed, difficulty)
            return bot
        raise ValueError(
            f"no reasoning bot for {ruleset_id!r} yet (have: {', '.join(reasoning_rulesets())}); "
            "use 'random'"
        )
    raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "make_bot", "reasoning_rulesets"]
