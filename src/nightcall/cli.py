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

import nightcall
import nightcall.commands

app = typer.Typer(
    name="nightcall",
    help="A game master for One Night Ultimate Werewolf, Epic Battle and Lupus in Tabula.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"nightcall {nightcall.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
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


# The optional parts and the extra that installs each (pyproject.toml).
EXTRAS = {"redis": "redis", "matplotlib": "plot", "pettingzoo": "pettingzoo"}


def main() -> None:
    try:
        app()
    except ModuleNotFoundError as exc:
        extra = EXTRAS.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        typer.echo(f"this needs {exc.name}, which is not installed: "
                   f"pip install 'nightcall[{extra}]'", err=True)
        raise SystemExit(1) from None


if __name__ == "__main__":  # pragma: no cover
    main()
