"""What the table-side commands share: a command class that lists its options when one
typed is unknown (click only suggests a close match, and often none), and the options
they declare alike (one help text each)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand

RulesetArg = Annotated[str, typer.Argument(metavar="RULESET", help="onuw, epic or lupus.")]
ScenarioOpt = Annotated[str | None, typer.Option(help="A scenario (Epic Battle).")]
DeckOpt = Annotated[
    list[str] | None,
    typer.Option(help="The deck: role ids, names or playing cards (see `nightcall deck`)."),
]
LangOpt = Annotated[str, typer.Option(help="en, it or de.")]


class ListsOptions(TyperCommand):
    """A command that answers an unknown option with the list of the options it has."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except Exception as exc:
            # typer bundles its own click: match its NoSuchOption by name, and keep the
            # exception (its type is the one typer knows how to print), with more words.
            if type(exc).__name__ != "NoSuchOption":
                raise
            names = sorted({opt for p in self.get_params(ctx) for opt in p.opts
                            if opt.startswith("--") and opt != "--help"})
            close = getattr(exc, "possibilities", None)
            hint = f" Did you mean {' or '.join(close)}?" if close else ""
            exc.message = (  # type: ignore[attr-defined]
                f"No such option: {getattr(exc, 'option_name', '?')}.{hint} The options of "
                f"`nightcall {ctx.info_name}` are: {', '.join(names)}.")
            exc.possibilities = None  # type: ignore[attr-defined]
            raise


def command_options() -> dict[str, Any]:
    """Keyword arguments for ``app.command`` that give a command this behaviour."""
    return {"cls": ListsOptions}
