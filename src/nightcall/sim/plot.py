"""Win-rate charts (matplotlib, Agg): teams (and "nobody wins") and dealt roles, each bar
with its 95% interval, in the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from nightcall.sim.tally import Rate, WinRates


@dataclass(frozen=True)
class PlotTexts:
    """Every word the chart shows, already in the reader's language."""

    title: str  # which game, deck, bots, games and seed: a chart must say what it measured
    by_team: str
    by_role: str
    axis: str  # the y axis, which also says what the error bars are
    nobody: str
    teams: dict[str, str] = field(default_factory=dict)  # team id -> name
    roles: dict[str, str] = field(default_factory=dict)  # role id -> name
    percent: Callable[[float], str] = "{:.0%}".format


def win_rate_figure(win_rates: WinRates, texts: PlotTexts) -> Figure:
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    teams: list[tuple[str, Rate]] = [
        (texts.teams.get(t, t), r) for t, r in win_rates["teams"].items()]
    if "nobody" in win_rates:
        teams.append((texts.nobody, win_rates["nobody"]))
    roles: list[tuple[str, Rate]] = sorted(
        ((texts.roles.get(k, k), r) for k, r in win_rates["roles"].items()),
        key=lambda item: item[0].casefold())
    fig = Figure(figsize=(11, 5.2), layout="constrained")  # (room for a long suptitle)
    grid = fig.add_gridspec(1, 2, width_ratios=[max(2, len(teams)), max(2, len(roles))])
    for spot, data, label in ((grid[0], teams, texts.by_team), (grid[1], roles, texts.by_role)):
        ax = fig.add_subplot(spot)
        names = [name for name, _ in data]
        rates = [r["rate"] for _, r in data]
        errors = [[r["rate"] - r["low"] for _, r in data], [r["high"] - r["rate"] for _, r in data]]
        bars = ax.bar(names, rates, yerr=errors, capsize=3, color="#5a7fa8",
                      error_kw={"ecolor": "#222222"})
        if data and data[-1][0] == texts.nobody and label == texts.by_team:
            bars[-1].set_color("#b0b0b0")  # not a team: grey, so no one reads it as one
        for bar, (_, r) in zip(bars, data, strict=True):
            ax.annotate(texts.percent(r["rate"]), (bar.get_x() + bar.get_width() / 2, r["high"]),
                        xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
        ax.set_ylim(0, 1.08)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: texts.percent(y)))
        ax.set_ylabel(texts.axis)
        ax.set_title(label)
        ax.tick_params(axis="x", rotation=40)
        for tick in ax.get_xticklabels():
            tick.set_horizontalalignment("right")
    fig.suptitle(texts.title, fontsize=10)
    return fig


def plot_win_rates(win_rates: WinRates, texts: PlotTexts, path: str | Path) -> None:
    win_rate_figure(win_rates, texts).savefig(path, dpi=90)
