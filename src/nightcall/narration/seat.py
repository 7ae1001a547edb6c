"""A seat's words in the terminal (``nightcall play``): the events of its view, as the one
renderer (nightcall.narration.render) tells them, and the numbered menu of its actions
(the ``play.act.*`` lines)."""

from __future__ import annotations

from collections.abc import Sequence

from nightcall.engine.actions import ActionJSON
from nightcall.narration.render import Renderer as EventRenderer


class Renderer(EventRenderer):
    """A view's events (the one renderer's sentences, nightcall.narration.render) and
    its actions (the menu's ``play.act.*`` lines) for one seat, in ``lang``."""

    def __init__(self, players: Sequence[str], seat: int, ruleset: str, lang: str = "en",
                 deck: Sequence[str] = ()) -> None:
        super().__init__(ruleset, players, seat, lang, deck)
        self.seat = seat
        self.n = len(players)

    def t(self, key: str, **values: object) -> str:
        return self.loc.line(f"play.{key}", **values)

    def action(self, a: ActionJSON) -> str:
        kind = a["kind"]
        x, y = a.get("a", -1), a.get("b", -1)
        p = self.players

        def act(key: str, **values: object) -> str:
            return self.loc.line(f"play.act.{key}", **values)

        if kind in ON_PLAYERS and 0 <= x < len(p) and (y == -1 or 0 <= y < len(p)):
            return act(kind, x=p[x], y=p[y] if y >= 0 else "")
        if kind == "look_center":
            return (act("look_center_two", x=x + 1, y=y + 1) if y >= 0
                    else act("look_center", x=x + 1))
        if kind in ("take_center", "copy_center"):
            return act(kind, x=x + 1)
        if kind in ON_NOBODY:
            return act(kind)
        args = " ".join(str(v) for v in (x, y) if v != -1)
        return f"{kind} {args}".strip()


# Actions on one or two players (a, b are seats), across the three rulesets
# (play.act.* says each).
ON_PLAYERS = frozenset({
    "vote", "copy", "look", "swap", "swap_two", "kill", "see", "protect", "visit", "accuse",
    "execute", "mark", "imitate", "tap", "swap_tokens", "artifact", "token", "token_two",
    "look_token", "reveal", "swap_center",
})
ON_NOBODY = frozenset({"abstain", "skip", "stay_home", "no_accusation"})
