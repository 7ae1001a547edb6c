"""Print pip constraints that pin every runtime dependency to its declared lower bound.

CI installs nightcall with these constraints and runs the server tests, so a lower
bound in pyproject.toml that is too low fails there rather than on a user's machine:

    python tools/min_constraints.py [EXTRA ...] > min.txt
    pip install -c min.txt -e ".[EXTRA,dev]"
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*>=\s*([^,;\s]+)")


def lower_bounds(extras: list[str]) -> list[str]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    pins = []
    for requirement in wanted:
        match = REQUIREMENT.match(requirement)
        if match is None:
            if not requirement.startswith("nightcall["):
                raise SystemExit(f"no lower bound in {requirement!r}: write one as NAME>=X")
            continue
        pins.append(f"{match.group(1)}=={match.group(3)}")
    return pins


if __name__ == "__main__":
    print("\n".join(lower_bounds(sys.argv[1:])))
