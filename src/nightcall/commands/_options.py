"""What the table-side commands share: a command class that lists its options when one
typed is unknown (click only suggests a close match, and often none), says every usage
error (a missing option, a value of the wrong kind) in the --lang given, and declares the
options they share alike (one help text each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, TypedDict

import typer
from typer.core import TyperCommand

# (typed in any case: "ONUW" is onuw)
RulesetArg = Annotated[str, typer.Argument(metavar="RULESET", help="onuw, epic or lupus.",
                                           callback=lambda name: name.strip().lower())]
ScenarioOpt = Annotated[str | None, typer.Option(help="A scenario (Epic Battle).")]
DeckOpt = Annotated[
    list[str] | None,
    typer.Option(help="The deck: role ids, names or playing cards (see `nightcall deck`)."),
]
LangOpt = Annotated[str, typer.Option(help="en, it or de.")]


def _is(exc: BaseException, name: str) -> bool:
    # typer bundles its own click: its exceptions are matched by class name.
    return any(c.__name__ == name for c in type(exc).__mro__)


def _value_after(options: Sequence[str], args: Sequence[str]) -> str:
    """What was typed for one of ``options`` ("--lang it" or "--lang=it"), or ''."""
    for i, arg in enumerate(args):
        for opt in options:
            if arg == opt and i + 1 < len(args):
                return args[i + 1]
            if arg.startswith(opt + "="):
                return arg.partition("=")[2]
    return ""


def _lang_of(args: Sequence[str]) -> str:
    """The --lang typed on the command line (the usage error came before any parsing)."""
    return _value_after(["--lang"], args) or "en"


def _typed(args: Sequence[str], param: Any) -> str:
    """What was typed for ``param`` (the value after its option), or ''."""
    return _value_after(list(getattr(param, "opts", []) or []), args)


def _option_name(param: Any) -> str:
    opts = [o for o in getattr(param, "opts", []) or [] if o.startswith("--")]
    if getattr(param, "param_type_name", "") == "argument" or not opts:
        return str(getattr(param, "metavar", None) or str(getattr(param, "name", "?")).upper())
    return " / ".join(opts + [o for o in param.opts if not o.startswith("--")])


def _kind(param: Any) -> str:
    """The name of the Python type a parameter takes ("int", "float", "str" ...)."""
    try:
        kind = param.bare_type()
    except Exception:  # (not a typer parameter)
        return ""
    return str(getattr(kind, "__name__", kind))


def _bad_number(loc: Any, value: str, param: Any) -> str:
    """A number option given something else, or out of its range."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    option = _option_name(param)
    if _kind(param) == "float":
        return str(loc.line("cli.want_number", option=option, value=value))
    if low is not None and high is not None:
        return str(loc.line("cli.want_int_range", option=option, value=value, low=low,
                            high=high))
    if low is not None:
        return str(loc.line("cli.want_int_from", option=option, value=value, low=low))
    return str(loc.line("cli.want_int", option=option, value=value))


def _localized(exc: Any, ctx: Any, args: Sequence[str], lang: str) -> str | None:
    """The usage error's message in ``lang`` (None: keep click's English)."""
    from nightcall.narration.locale import LANGUAGES, load

    param = getattr(exc, "param", None)
    if _is(exc, "MissingParameter") and param is not None and _option_name(param) == "RULESET":
        from nightcall.engine.ruleset import all_rulesets

        # (the game left out: say which there are, in every language English included)
        games = ", ".join(f"{rid} ({rs.title})" for rid, rs in all_rulesets().items())
        return load(lang if lang in LANGUAGES else "en").line(
            "cli.missing_ruleset", games=games, command=ctx.command_path)
    loc = load(lang if lang in LANGUAGES else "en")
    bad = _is(exc, "BadParameter") and not _is(exc, "MissingParameter") and param is not None
    if bad and _kind(param) in ("int", "float"):
        # (in English too: click's "Input should be greater than or equal to 1" does
        # not say what was typed)
        return _bad_number(loc, _typed(args, param), param)
    if lang not in LANGUAGES or lang == "en":
        return None
    if _is(exc, "NoSuchOption"):
        return None  # (worded in parse_args, where the options are known)
    if _is(exc, "MissingParameter") and param is not None:
        key = "cli.missing_argument" if param.param_type_name == "argument" \
            else "cli.missing_option"
        return loc.line(key, option=_option_name(param))
    if bad:
        return loc.line("cli.bad_value", option=_option_name(param), value=_typed(args, param))
    message = str(getattr(exc, "message", ""))
    if message.startswith("Got unexpected extra argument"):
        extra = message.rpartition("(")[2].rstrip(")")
        return loc.line("cli.extra", args=extra)
    return None


def _show_in(lang: str) -> Any:
    """``show`` for a usage error: click's, with its words in ``lang``."""
    from nightcall.narration.locale import LANGUAGES, load

    def show(self: Any, file: Any = None) -> None:
        import typer

        loc = load(lang if lang in LANGUAGES else "en")
        ctx = self.ctx
        if ctx is not None:
            usage = ctx.get_usage()
            if usage.startswith("Usage:"):
                usage = loc.line("cli.usage") + usage[len("Usage:"):]
            typer.echo(usage + "\n" + loc.line("cli.try_help", command=ctx.command_path),
                       err=True)
        typer.echo(loc.line("cli.error", message=self.format_message()), err=True)

    return show


# Words a user may type for an option named otherwise ("--no-voice" is "--no-speech"),
# which spelling alone would not find.
_SAME_AS = {"voice": "speech", "sound": "speech", "audio": "speech", "language": "lang"}
# Options a user may type for the game, which these commands take as their first word.
_GAME_WORDS = frozenset({"game", "ruleset", "rules", "edition"})


class ListsOptions(TyperCommand):
    """A command that answers an unknown option with the list of the options it has,
    and every usage error in the --lang typed."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        typed = list(args)
        try:
            return super().parse_args(ctx, args)
        except Exception as exc:
            if not _is(exc, "UsageError"):
                raise
            lang = _lang_of(typed)
            if _is(exc, "NoSuchOption"):
                self._list_options(exc, ctx, lang, typed)
            else:
                message = _localized(exc, ctx, typed, lang)
                if message is not None:
                    # (click builds some messages from their parts: the whole one, said)
                    exc.format_message = lambda: message  # type: ignore[attr-defined]
            if lang != "en":
                exc.show = _show_in(lang).__get__(exc)  # type: ignore[attr-defined]
            raise

    def _list_options(self, exc: Any, ctx: Any, lang: str, args: list[str]) -> None:
        from nightcall.narration.locale import LANGUAGES, load

        loc = load(lang if lang in LANGUAGES else "en")
        names = sorted({opt for p in self.get_params(ctx) for opt in p.opts
                        if opt.startswith("--") and opt != "--help"})
        close = getattr(exc, "possibilities", None)
        typed = str(getattr(exc, "option_name", ""))
        word = typed.removeprefix("--").removeprefix("no-")
        meant = typed.replace(word, _SAME_AS.get(word, word))
        if meant != typed and any(meant in (*p.opts, *p.secondary_opts)
                                  for p in self.get_params(ctx)):
            close = [meant]
        if word in _GAME_WORDS and "--ruleset" in names:
            close = ["--ruleset", *(c for c in close or () if c != "--ruleset")]
        hint = loc.line("cli.did_you_mean", options=f" {loc.line('cli.or')} ".join(close)) \
            if close else ""
        if word in _GAME_WORDS and any(_option_name(p) == "RULESET" for p in self.get_params(ctx)
                                       if p.param_type_name == "argument"):
            game = _value_after([typed], args)
            game = game if game and not game.startswith("-") else "RULESET"
            hint = loc.line("cli.game_first", command=f"{ctx.command_path} {game}")
        exc.message = loc.line("cli.no_such_option", option=getattr(exc, "option_name", "?"),
                               hint=hint, command=ctx.command_path, options=", ".join(names))
        exc.possibilities = None


def check_bot(spec: str) -> None:
    """Refuse a bot the command line cannot have (--bots, --village ...) in the reader's
    language, naming every spelling it can ("reasoning:hard" included)."""
    from nightcall.bots.reasoning import DIFFICULTIES
    from nightcall.engine.errors import Said

    specs = ("random", "reasoning", *(f"reasoning:{d}" for d in DIFFICULTIES))
    if spec not in specs:
        raise ValueError(Said(f"unknown bot {spec!r}: use one of {', '.join(specs)}",
                              "bots.unknown", name=spec, bots=", ".join(specs)))


class CommandOptions(TypedDict):
    cls: type[TyperCommand]


def command_options() -> CommandOptions:
    """Keyword arguments for ``app.command`` that give a command this behaviour."""
    return {"cls": ListsOptions}
