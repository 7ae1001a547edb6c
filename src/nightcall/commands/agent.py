"""``nightcall agent ...``: let programs take seats through the agent protocol.

- ``agent stdio RULESET --players N --seat K``: this process is the game master;
  the program on the other end of our stdin/stdout plays seat K, bots the rest.
- ``agent play RULESET --players N --agent "K=COMMAND"``: start agent programs
  and play them against each other and bots.
- ``agent llm --url URL --model M``: an agent program that asks an
  OpenAI-compatible endpoint what to do (use it as a COMMAND above).
- ``agent schema``: the JSON Schema of every protocol message.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from nightcall.commands._options import RulesetArg, command_options

if TYPE_CHECKING:
    from nightcall.agents.table import Table

EXIT_BAD_SETUP = 2
EXIT_AGENT_GONE = 3

agent_app = typer.Typer(
    help="Let programs play seats over JSON lines (the agent protocol).",
    no_args_is_help=True,
)

Players = Annotated[
    int | None,
    typer.Option("--players", "-n", help="Number of seats (default: 5, or the ruleset's least)."),
]
Seed = Annotated[int, typer.Option("--seed", help="Seed of the deal and of the bots.")]
Roles = Annotated[
    str | None, typer.Option("--roles", help="The deck: role ids, names or playing cards "
                             "(see `nightcall deck`; default: the ruleset's).")
]
Scenario = Annotated[str | None, typer.Option("--scenario", help="A scenario's deck.")]
Masks = Annotated[
    bool, typer.Option("--mask", help="Send the action space and a legal-action mask.")
]
Timeout = Annotated[
    float | None,
    typer.Option("--timeout", help="Seconds an agent may think; then a random move is played."),
]
RecordTo = Annotated[
    Path | None, typer.Option("--record", help="Write the game record here at the end.")
]


def _table(
    ruleset: str, players: int | None, seed: int, roles: str | None, scenario: str | None,
    masks: bool,
) -> Table:
    from nightcall.agents.table import Table
    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import get_ruleset
    from nightcall.narration.deckspec import parse_roles

    try:
        # Role ids, names in any language or playing cards, as `nightcall deck` reads them.
        deck = parse_roles(get_ruleset(ruleset), [roles]) if roles else None
        if players is None:
            players = max(5, get_ruleset(ruleset).min_players)
        return Table.deal(ruleset, players, seed, roles=deck, scenario=scenario, masks=masks)
    except NightcallError as exc:
        typer.echo(f"nightcall agent: {exc}", err=True)
        raise typer.Exit(EXIT_BAD_SETUP) from None


@agent_app.command("stdio", **command_options())
def stdio(
    ruleset: RulesetArg,
    players: Players = None,
    seat: Annotated[int, typer.Option("--seat", help="The seat the stdio agent plays.")] = 0,
    seed: Seed = 0,
    roles: Roles = None,
    scenario: Scenario = None,
    mask: Masks = False,
    record: RecordTo = None,
    timeout: Timeout = None,
) -> None:
    """Play one seat over this process's stdin/stdout; random bots play the others."""
    from nightcall.agents.stdio import AgentGone, LineChannel, run_game

    table = _table(ruleset, players, seed, roles, scenario, mask)
    if not 0 <= seat < len(table.names):
        typer.echo(f"nightcall agent: there is no seat {seat} among {len(table.names)}", err=True)
        raise typer.Exit(EXIT_BAD_SETUP)
    try:
        channel = LineChannel(sys.stdin, sys.stdout, "the stdio agent", timeout)
        run_game(table, {seat: channel}, seed=seed)
    except AgentGone as exc:
        typer.echo(f"nightcall agent: {exc}", err=True)
        raise typer.Exit(EXIT_AGENT_GONE) from None
    _write_record(table, record)


@agent_app.command("play", **command_options())
def play(
    ruleset: RulesetArg,
    agent: Annotated[
        list[str],
        typer.Option("--agent", help='"SEAT=COMMAND": a program playing SEAT (repeatable).'),
    ],
    players: Players = None,
    seed: Seed = 0,
    roles: Roles = None,
    scenario: Scenario = None,
    mask: Masks = False,
    record: RecordTo = None,
    timeout: Timeout = None,
) -> None:
    """Start agent programs on their seats and play one game; print the outcome."""
    import json

    from nightcall.agents.stdio import AgentGone, run_game, spawn

    table = _table(ruleset, players, seed, roles, scenario, mask)
    commands: dict[int, list[str]] = {}
    for spec in agent:
        seat_text, sep, command = spec.partition("=")
        if not sep or not seat_text.strip().isdigit() or not command.strip():
            typer.echo(f"nightcall agent: --agent {spec!r} is not SEAT=COMMAND", err=True)
            raise typer.Exit(EXIT_BAD_SETUP)
        seat_no = int(seat_text)
        if seat_no >= len(table.names):
            typer.echo(f"nightcall agent: there is no seat {seat_no}: the seats are 0 to "
                       f"{len(table.names) - 1}", err=True)
            raise typer.Exit(EXIT_BAD_SETUP)
        if seat_no in commands:
            typer.echo(f"nightcall agent: seat {seat_no} is given two programs", err=True)
            raise typer.Exit(EXIT_BAD_SETUP)
        commands[seat_no] = shlex.split(command)
    procs = {}
    for s, cmd in commands.items():
        try:
            procs[s] = spawn(cmd, f"the agent on seat {s}", timeout)
        except OSError as exc:
            typer.echo(f"nightcall agent: cannot start {shlex.join(cmd)!r}: {exc.strerror}",
                       err=True)
            for proc, channel in procs.values():
                channel.writer.close()
                proc.kill()
            raise typer.Exit(EXIT_BAD_SETUP) from None
    try:
        run_game(table, {s: ch for s, (_, ch) in procs.items()}, seed=seed)
    except AgentGone as exc:
        typer.echo(f"nightcall agent: {exc}", err=True)
        raise typer.Exit(EXIT_AGENT_GONE) from None
    finally:
        for proc, channel in procs.values():
            channel.writer.close()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # the agent ignored the end of the game
                proc.kill()
    _write_record(table, record)
    from nightcall.narration.telling import explained

    # The outcome as `nightcall replay --json` prints it: the check in English sentences.
    outcome = explained(table.ruleset.outcome_json(table.state))
    typer.echo(json.dumps(outcome, ensure_ascii=False, indent=2))


def _write_record(table: Table, path: Path | None) -> None:
    if path is not None:
        import json

        record = table.ruleset.to_record(table.state)
        path.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


@agent_app.command("llm", **command_options())
def llm(
    url: Annotated[str, typer.Option(
        "--url", envvar="NIGHTCALL_LLM_URL", help="Base URL, e.g. http://127.0.0.1:8080/v1"
    )],
    model: Annotated[str, typer.Option(
        "--model", envvar="NIGHTCALL_LLM_MODEL", help="The model name the endpoint knows."
    )],
    api_key_env: Annotated[
        str, typer.Option("--api-key-env", help="Environment variable holding the API key.")
    ] = "OPENAI_API_KEY",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random fallback.")] = 0,
    max_talk: Annotated[int, typer.Option("--max-talk", help="Claims per game at most.")] = 2,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per request.")] = 60.0,
) -> None:
    """Be an agent program on stdin/stdout whose choices come from a chat model."""
    import os

    from nightcall.agents.client import play_lines
    from nightcall.agents.llm import LLMPlayer

    player = LLMPlayer(
        url, model, api_key=os.environ.get(api_key_env) or None, seed=seed,
        max_talk=max_talk, timeout=timeout,
    )
    over = play_lines(player, sys.stdin, sys.stdout)
    if over is None:
        typer.echo("nightcall agent llm: the game master stopped before the end", err=True)
        raise typer.Exit(EXIT_AGENT_GONE)
    typer.echo(f"llm player: game over, won={over.won}, random fallbacks={player.fallbacks}",
               err=True)


@agent_app.command("schema", **command_options())
def schema(
    out: Annotated[
        Path | None, typer.Option("--out", help="Write to this file instead of stdout.")
    ] = None,
) -> None:
    """Print the JSON Schema of every agent protocol message (generated from the code)."""
    import json

    from nightcall.protocol import schema as make_schema

    text = json.dumps(make_schema(), indent=2, ensure_ascii=False) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")


def register(app: typer.Typer) -> None:
    app.add_typer(agent_app, name="agent")
