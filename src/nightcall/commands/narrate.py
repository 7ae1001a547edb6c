"""``nightcall narrate RULESET``: the narrator for a real table, aloud or on screen.

``--json`` and ``--print`` give the script without waiting; otherwise each line
is shown, spoken through espeak-ng when it is installed, and its pause counted
down. For Lupus in Tabula the live mode is the Master's loop, night after night.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from nightcall.commands._options import DeckOpt, LangOpt, RulesetArg, ScenarioOpt
from nightcall.engine.errors import Said

if TYPE_CHECKING:  # imported where used: ``nightcall --help`` stays quick
    from rich.console import Console

    from nightcall.engine.ruleset import Ruleset
    from nightcall.narration.locale import Locale
    from nightcall.narration.runner import PauseKey, Speaker
    from nightcall.narration.script import Step
    from nightcall.narration.timing import Timing

EXIT_REFUSED = 2
S = TypeVar("S")


def _parse_options(items: list[str] | None) -> dict[str, str | bool]:
    """``--option lone_wolf=false`` -> ``{"lone_wolf": False}``."""
    out: dict[str, str | bool] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(Said(f"--option {item!r}: write it as name=value, e.g. "
                                  "lone_wolf=false", "narrate.option_form", option=item))
        low = value.strip().lower()
        if low in ("true", "yes", "on", "1"):
            out[key] = True
        elif low in ("false", "no", "off", "0"):
            out[key] = False
        else:
            out[key] = value
    return out


def _speaker(console: Console, voice_name: str, locale: Locale) -> Speaker | None:
    """espeak-ng as a speaker, or None (with a note) when it cannot be heard."""
    from nightcall.narration import speech as voice

    if not voice.available():
        console.print(f"[dim]{locale.line('ui.no_espeak')}[/]", highlight=False)
        return None
    state = {"on": True}

    def speak(text: str) -> None:
        if state["on"] and not voice.speak(text, voice_name):
            state["on"] = False
            console.print(f"[dim]{locale.line('ui.no_audio')}[/]", highlight=False)

    return speak


def narrate(
    ctx: typer.Context,
    ruleset_id: RulesetArg,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="How many players.")
    ] = None,
    scenario: ScenarioOpt = None,
    roles: DeckOpt = None,
    lang: LangOpt = "en",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the script as JSON steps, without waiting.")
    ] = False,
    as_text: Annotated[
        bool, typer.Option("--print", help="Print the script as text, without waiting.")
    ] = False,
    speed: Annotated[
        str, typer.Option(help="slow (new tables), normal, fast (experienced), or a factor.")
    ] = "normal",
    discussion: Annotated[
        float | None, typer.Option(help="Seconds of discussion (default: the rulebook's).")
    ] = None,
    night: Annotated[
        int, typer.Option(help="Which night (Lupus only: 1, 2, ...; One Night has one).")
    ] = 1,
    option: Annotated[
        list[str] | None, typer.Option(help="A ruleset option, e.g. lone_wolf=false.")
    ] = None,
    wait: Annotated[
        bool, typer.Option("--wait/--no-wait", help="Pause between lines (off: for trying out).")
    ] = True,
    speech: Annotated[
        bool, typer.Option("--speech/--no-speech", help="Speak through espeak-ng if installed.")
    ] = True,
    wav_dir: Annotated[
        Path | None,
        typer.Option(help="Write every line as a WAV file here instead (needs espeak-ng)."),
    ] = None,
    no_day: Annotated[
        bool, typer.Option("--night-only", help="Stop at dawn: no day timer, no vote.")
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(help="Lupus: the file the game is saved in after every answer "
                     "(default: ~/.local/state/nightcall/lupus-game.json)."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Lupus: go on with the game saved in --save.")
    ] = False,
) -> None:
    """Run the night for a real table: every role in the deck is called, and each call
    gets its pause whether its card is held, in the center or dead. The pauses follow
    the rulebook: ten seconds a role in One Night; in Epic Battle five seconds, and ten
    for the Priest and the Goblin, as its Game Master sheet says. Space pauses and resumes
    the countdown.

    Lupus in Tabula: the Master's whole game, saved after every answer (see --resume)."""
    from rich.console import Console

    from nightcall.engine.errors import NightcallError
    from nightcall.engine.ruleset import MasterChoice, get_ruleset
    from nightcall.narration import speech as voice
    from nightcall.narration.deckspec import choose_deck
    from nightcall.narration.locale import LocaleError, load
    from nightcall.narration.refusals import refused_in, said_in
    from nightcall.narration.runner import PauseKey, run
    from nightcall.narration.script import as_text as script_text
    from nightcall.narration.script import build_script
    from nightcall.narration.timing import timing_for

    err = Console(stderr=True)
    try:
        if night < 1:
            raise ValueError(Said(f"nights are counted from 1, not {night}",
                                  "narrate.night_from_1", night=night))
        if resume and _given_by_default(ctx, "lang"):
            lang = _saved_language(save) or lang  # a German game goes on in German
        locale = load(lang)
        ruleset = get_ruleset(ruleset_id)
        master = isinstance(ruleset, MasterChoice)  # a Master runs the game, night by night
        if ruleset.nights is not None and night > ruleset.nights:
            raise ValueError(Said(f"{ruleset.title} has one night only: --night {night} is "
                                  "for games of many nights (Lupus in Tabula)",
                                  "narrate.one_night", title=ruleset.title, night=night))
        if not master and (resume or save is not None):
            raise ValueError(Said("--save and --resume are for a game Master's many nights "
                                  "(Lupus in Tabula)", "narrate.save_master"))
        if players is None:
            if not (master and resume):
                raise ValueError(Said("give --players N (how many players are at the table)",
                                      "narrate.players"))
            players = ruleset.min_players  # the saved game knows its table
        options = _parse_options(option)
        if options:
            ruleset.options(options)  # refuses unknown names and bad values
        deck, warnings = choose_deck(ruleset, players, scenario, roles)
        timing = timing_for(ruleset.id, speed, discussion)
        steps = build_script(ruleset.id, deck, night=night, lang=lang, timing=timing,
                             options=options, day=not no_day)
    except (NightcallError, LocaleError, ValueError) as exc:
        err.print(refused_in(lang, "cannot_narrate", "cannot narrate", exc), style="bold red",
                  highlight=False, markup=False)
        raise typer.Exit(EXIT_REFUSED) from None

    if as_json:
        typer.echo(json.dumps([s.to_json() for s in steps], ensure_ascii=False, indent=2))
        return
    if as_text:
        typer.echo(script_text(steps))
        return

    console = Console()
    for warning in warnings:
        console.print(locale.line("deck.warning", text=said_in(lang, warning)),
                      style="yellow", highlight=False, markup=False)
    if wav_dir is not None:
        if not voice.available():
            err.print(locale.line("refusal.no_espeak"), style="bold red", highlight=False,
                      markup=False)
            raise typer.Exit(EXIT_REFUSED)
        try:
            wav_dir.mkdir(parents=True, exist_ok=True)
            for i, step in enumerate(steps, 1):
                voice.synthesize(step.text, locale.voice, wav_dir / f"{i:03d}-{step.key}.wav")
        except (OSError, subprocess.CalledProcessError) as exc:
            err.print(locale.line("refusal.cannot_write_wav", path=str(wav_dir),
                                  reason=str(exc)), style="bold red", highlight=False,
                      markup=False)
            raise typer.Exit(EXIT_REFUSED) from None
        console.print(locale.line("narrate.wav_written", n=len(steps), path=str(wav_dir)),
                      highlight=False)
        return
    speak = _speaker(console, locale.voice, locale) if speech else None
    keys = PauseKey()
    if master:
        _run_master(console, err, ruleset, deck, locale, timing, speak, wait, keys, save,
                    resume)
        return

    def label(step: Step) -> str:
        if "discussion" in step.key:
            return locale.line("ui.discussion")
        if step.key.startswith("count.") or ".vote." in step.key:
            return locale.line("ui.vote")
        return locale.line("ui.pause")

    if wait and keys.fd is not None:
        console.print(f"[dim]{locale.line('ui.pause_hint').strip()}[/]", highlight=False)
    try:
        run(steps, console, lambda r: locale.role(ruleset.id, r), label, speak=speak,
            wait=wait, keys=keys, paused_text=locale.line("ui.paused"),
            phases=(locale.line("ui.night"), locale.line("ui.day")))
    except KeyboardInterrupt:
        err.print(locale.line("ui.stopped"), highlight=False)
        raise typer.Exit(130) from None
    # What the table does next: the who-has-won check, from the cards and the votes.
    judge = f"nightcall judge {ruleset.id}" + ("" if lang == "en" else f" --lang {lang}")
    console.print(locale.line("narrate.then_judge", command=judge), highlight=False,
                  markup=False)


def _given_by_default(ctx: typer.Context, option: str) -> bool:
    """Whether the person left ``option`` out (click's record of where each value came
    from; by name, since typer may bring its own click)."""
    source = ctx.get_parameter_source(option)
    return source is not None and source.name == "DEFAULT"


def _saved_language(save: Path | None) -> str | None:
    """The language of the game saved at ``save`` (or the default place); None when
    there is none to read (resuming then says why)."""
    from nightcall.narration.master import SavedGame, default_save_path

    try:
        return SavedGame.read(save if save is not None else default_save_path()).lang
    except (ValueError, OSError):
        return None


def _run_master(console: Console, err: Console, ruleset: Ruleset[S], deck: list[str],
                locale: Locale, timing: Timing, speak: Speaker | None, wait: bool,
                keys: PauseKey, save: Path | None,
                resume: bool) -> None:
    """The Lupus Master's loop; a closed terminal or Ctrl-C leaves the game saved."""
    import time

    from nightcall.narration.master import default_save_path, resume_command, run_master
    from nightcall.narration.refusals import said

    path = save if save is not None else default_save_path()
    started = time.time()
    try:
        run_master(console, ruleset, deck, locale, timing, speak=speak, wait=wait,
                   save_path=path, resume=resume, keys=keys)
    except ValueError as exc:
        err.print(locale.line("refusal.cannot_narrate", reason=said(locale, exc)),
                  style="bold red", highlight=False, markup=False)
        raise typer.Exit(EXIT_REFUSED) from None
    except OSError as exc:
        err.print(locale.line("refusal.cannot_save", reason=str(exc)), style="bold red",
                  highlight=False, markup=False)
        raise typer.Exit(EXIT_REFUSED) from None
    except (KeyboardInterrupt, EOFError, typer.Abort):
        saved = resume or (path.exists() and path.stat().st_mtime >= started - 1)
        err.print("\n" + (locale.line("master.stopped", path=str(path),
                                       command=resume_command(ruleset.id, path)) if saved
                          else locale.line("ui.stopped")), highlight=False, markup=False)
        raise typer.Exit(130) from None


def register(app: typer.Typer) -> None:
    from nightcall.commands._options import command_options

    app.command("narrate", **command_options())(narrate)
