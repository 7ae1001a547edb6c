"""Win-rate charts (matplotlib, Agg): teams and dealt roles, with 95% intervals."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nightcall.sim.tally import WinRates


def plot_win_rates(win_rates: WinRates, title: str, path: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    teams = win_rates["teams"]
    roles = win_rates["roles"]
    fig, (ax_t, ax_r) = plt.subplots(
        1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1, max(2, len(roles)) / 2]}
    )
    for ax, data, label in ((ax_t, teams, "team"), (ax_r, roles, "dealt role")):
        names = list(data)
        rates = [data[k]["rate"] for k in names]
        low = [data[k]["rate"] - data[k]["low"] for k in names]
        high = [data[k]["high"] - data[k]["rate"] for k in names]
        ax.bar(names, rates, yerr=[low, high], capsize=3, color="#5a7fa8")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate")
        ax.set_title(f"by {label}")
        ax.tick_params(axis="x", rotation=45)
        for tick in ax.get_xticklabels():
            tick.set_horizontalalignment("right")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
