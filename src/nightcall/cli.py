"""The ``nightcall`` command.

Each sub-command lives in its own module of :mod:`nightcall.commands` and
exposes ``register(app)``; this file only finds and registers them, so that
adding a command never means editing a shared list. The command's name is its
module's name.

Start-up is kept short (issue 21: any ``--help`` under 0.15 s): command modules
import heavy dependencies inside their functions; help is plain text (Typer's
rich help alone imports ~80 ms of modules); and ``nightcall CMD ...`` builds
only CMD, so no other command's module or options are touched.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from functools import cache
from typing import Any, NoReturn

import typer
import typer.main

import nightcall
import nightcall.commands

HELP = "A game master for One Night Ultimate Werewolf, Epic Battle and Lupus in Tabula."
SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
}


def command_names() -> list[str]:
    """Every command, by its module's name (no module is imported)."""
    return sorted(info.name for info in pkgutil.iter_modules(nightcall.commands.__path__)
                  if not info.name.startswith("_"))


def _register(target: typer.Typer, name: str) -> None:
    module = importlib.import_module(f"nightcall.commands.{name}")
    register = getattr(module, "register", None)
    if register is not None:
        register(target)


@cache
def full_app() -> typer.Typer:
    """The whole command, every sub-command registered (``nightcall --help`` lists them)."""
    whole = typer.Typer(name="nightcall", help=HELP, no_args_is_help=True, **SETTINGS)
    whole.callback()(_root)
    for name in command_names():
        _register(whole, name)
    return whole


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"nightcall {nightcall.__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """A game master for One Night Ultimate Werewolf, Epic Battle and Lupus in Tabula."""


def __getattr__(name: str) -> typer.Typer:
    # ``from nightcall.cli import app`` (tests, CliRunner) builds the whole command on
    # first use, so that ``nightcall CMD`` (main below) need not import every module.
    if name == "app":
        return full_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The optional parts and the extra that installs each (pyproject.toml).
EXTRAS = {"redis": "redis", "matplotlib": "plot", "pettingzoo": "pettingzoo"}


def main() -> None:
    try:
        run(sys.argv[1:])
    except ModuleNotFoundError as exc:
        extra = EXTRAS.get((exc.name or "").partition(".")[0])
        if extra is None:
            _bug(exc)
        typer.echo(f"this needs {exc.name}, which is not installed: "
                   f"pip install 'nightcall[{extra}]'", err=True)
        raise SystemExit(1) from None
    except Exception as exc:
        _bug(exc)


def _bug(exc: Exception) -> NoReturn:
    """A bug of ours: one line to report instead of a traceback (unless debugging)."""
    if os.environ.get("NIGHTCALL_DEBUG"):
        raise exc
    typer.echo(f"nightcall stopped on a bug ({type(exc).__name__}: {exc}). Please report it "
               "with the command you ran; NIGHTCALL_DEBUG=1 shows where it happened.",
               err=True)
    raise SystemExit(70) from None


def run(args: list[str]) -> None:
    """Run ``nightcall ARGS``."""
    if not args or args[0] not in command_names():
        full_app()()  # the list of commands, or click's error for an unknown one
        return
    name = args[0]
    one = typer.Typer(**SETTINGS)
    _register(one, name)
    # A lone command comes back as itself, a command group (``agent``) inside a group.
    command: Any = typer.main.get_command(one)
    command = getattr(command, "commands", {}).get(name, command)
    path, rest = ["nightcall", name], args[1:]
    # Down to ``agent play`` too, past groups that have no options or callback of their own:
    # a group's unused --help flag costs Typer ~70 ms of imports to parse.
    while (rest and rest[0] in getattr(command, "commands", {})
           and command.callback is None and not command.params):
        command = command.commands[rest[0]]
        path.append(rest.pop(0))
    command.main(args=rest, prog_name=" ".join(path))


if __name__ == "__main__":  # pragma: no cover
    main()
