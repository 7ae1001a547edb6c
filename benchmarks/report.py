"""How the benchmarks that measure a few named figures print them (run as scripts from
this folder, they import it as ``report``)."""

from __future__ import annotations

import json
from typing import Any


def print_figures(out: dict[str, Any], as_json: bool) -> None:
    """The figures as one JSON object (--json), or one ``name: value`` line each."""
    if as_json:
        print(json.dumps(out, indent=2))
        return
    for key, value in out.items():
        print(f"{key}: {value}")
