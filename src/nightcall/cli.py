"""The ``nightcall`` command.

Each sub-command lives in its own module of :mod:`nightcall.commands` and
exposes ``register(app)``; this file only finds and registers them, so that
adding a command never means editing a shared list. Command modules import
heavy dependencies inside their functions, to keep start-up fast.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

import nightcall.commands

app = typer.Typer(
    name="nightcall",
    help="A game master for One Night Ultimate Werewolf, Epic Battle and Lupus in Tabula.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """A game master for One Night Ultimate Werewolf, Epic Battle and Lupus in Tabula."""


def _register_all() -> None:
    for info in sorted(pkgutil.iter_modules(nightcall.commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"nightcall.commands.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_all()


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
