"""What the table-side commands share: a command class that lists its options when one
typed is unknown (click only suggests a close match, and often none)."""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand


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


def check_bot(spec: str) -> None:
    """Refuse an unknown bot name (--bots, --village ...) in the reader's language; the
    bot itself (``make_bot``) checks the rest."""
    from nightcall.bots import BOT_NAMES
    from nightcall.engine.errors import Said

    name = spec.partition(":")[0]
    if name not in BOT_NAMES:
        raise ValueError(Said(f"unknown bot {spec!r}: use one of {', '.join(BOT_NAMES)}",
                              "bots.unknown", name=spec, bots=", ".join(BOT_NAMES)))


def command_options() -> dict[str, Any]:
    """Keyword arguments for ``app.command`` that give a command this behaviour."""
    return {"cls": ListsOptions}
