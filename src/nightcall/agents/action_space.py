"""A fixed, numbered list of every action of a game, so legal moves can travel as a mask.

Learning code wants the same action numbers in every state of a game: the space
is enumerated once per (ruleset, player count) and ``mask(legal)`` marks the
legal ones with 1. A ruleset declares its enumeration as an import path in
``Ruleset.action_space``: a function ``(players, talk) -> actions`` (the built-in
rulesets' enumerations are below, written from their documented action kinds).
An action outside the space is a bug in the enumeration, and
:meth:`ActionSpace.mask` says so rather than dropping it silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from nightcall.engine.actions import Action
from nightcall.engine.ruleset import Rules, load

CENTER = 3  # center cards in One Night


class ActionSpace:
    """Actions numbered 0..len-1; ``index`` maps an action back to its number."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(dict.fromkeys(actions))
        self.index: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, i: int) -> Action:
        return self.actions[i]

    def __contains__(self, action: object) -> bool:
        return action in self.index

    def mask(self, legal: Iterable[Action]) -> list[int]:
        out = [0] * len(self.actions)
        for action in legal:
            i = self.index.get(action)
            if i is None:
                raise ValueError(
                    f"legal action {action} is not in the action space of this game: "
                    "the enumeration in nightcall.agents.action_space misses it"
                )
            out[i] = 1
        return out


def onuw_actions(players: int, talk: bool) -> list[Action]:
    """Every One Night move (night.py and day.py action kinds), then every claim."""
    n = players
    seats = range(n)
    center = range(CENTER)
    out = [Action("copy", x) for x in seats]
    out += [Action("look", x) for x in seats]
    out += [Action("look_center", i) for i in center]
    out += [Action("look_center", a, b) for a, b in combinations(center, 2)]
    out += [Action("swap", x) for x in seats]
    out += [Action("swap_two", a, b) for a, b in combinations(seats, 2)]
    out += [Action("take_center", i) for i in center]
    out.append(Action("skip"))
    out += [Action("vote", x) for x in seats]
    out.append(Action("abstain"))
    if talk:
        from nightcall.rulesets.onuw.roles import ROLE_IDS

        roles = range(len(ROLE_IDS))
        positions = range(n + CENTER)
        out += [Action("claim", r) for r in roles]
        out += [Action("claim_saw", p, r) for p in positions for r in roles]
        out += [Action("claim_swap", a, b) for a, b in combinations(positions, 2)]
    return out


def _by_shape(
    players: int, none: Sequence[str], seat: Sequence[str], seat_pairs: Sequence[str] = (),
    center: Sequence[str] = (), center_pairs: Sequence[str] = (), centers: int = CENTER,
) -> list[Action]:
    """Every action of the given kinds: no argument, one seat, two seats, one or two
    center cards. Pairs are taken in both orders, so the space never depends on
    the order a ruleset writes them in."""
    seats = range(players)
    cards = range(centers)
    out = [Action(k) for k in none]
    out += [Action(k, x) for k in seat for x in seats]
    out += [Action(k, a, b) for k in seat_pairs for a in seats for b in seats if a != b]
    out += [Action(k, i) for k in center for i in cards]
    out += [Action(k, a, b) for k in center_pairs for a in cards for b in cards if a != b]
    return out


def epic_actions(players: int, talk: bool) -> list[Action]:
    """Epic Battle's kinds (rulesets/epic/night.py and day.py); it has no talk actions.
    Center indices run to 3 to cover the extra card laid beside the center."""
    return _by_shape(
        players,
        none=("skip", "abstain"),
        seat=("token", "look", "look_token", "swap", "swap_center", "tap", "reveal",
              "artifact", "vote"),
        seat_pairs=("token_two", "swap_two", "swap_tokens"),
        center=("copy_center", "look_center"),
        center_pairs=("look_center",),
        centers=CENTER + 1,
    )


def lupus_actions(players: int, talk: bool) -> list[Action]:
    """Lupus in Tabula's kinds (rulesets/lupus/night.py and day.py); no talk actions."""
    return _by_shape(
        players,
        none=("stay_home", "no_accusation", "abstain"),
        seat=("protect", "visit", "kill", "see", "mark", "imitate", "accuse", "execute"),
    )


Enumerator = Callable[[int, bool], Sequence[Action]]


def action_space(ruleset: Rules, players: int, talk: bool = False) -> ActionSpace:
    """The action space of ``ruleset`` for ``players`` seats; with ``talk``, claims too."""
    if ruleset.action_space is None:
        raise ValueError(
            f"no action space is known for ruleset {ruleset.id!r}: declare one in its "
            "action_space field (an import path of a (players, talk) -> actions function)"
        )
    enumerate_: Enumerator = load(ruleset.action_space)
    return ActionSpace(enumerate_(players, talk))
