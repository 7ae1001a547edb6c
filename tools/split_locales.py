"""Move a ruleset's own narration lines out of the shared locale files into the
ruleset's folder: ``RID.*``, ``account.RID.*``, ``why.RID.*`` and ``refusal.RID.*`` from
src/nightcall/narration/locales/<lang>.json to src/nightcall/rulesets/RID/locales/<lang>.json
(kept in their order; lines already there stay). The shared files are edited line by
line, so the rest of them (blank lines, order) is unchanged. Running it again moves
nothing; run it after merging a branch that added ruleset lines to the shared files.

    python tools/split_locales.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from nightcall.engine.ruleset import all_rulesets
from nightcall.narration.locale import LANGUAGES, LOCALES_DIR, ruleset_locales_dir

ENTRY = re.compile(r'^    "([^"]+)": ')


def owner(key: str, ids: set[str]) -> str | None:
    parts = key.split(".")
    first = parts[1] if parts[0] in ("account", "why", "refusal") and len(parts) > 1 else parts[0]
    return first if first in ids and len(parts) > 1 else None


def main() -> None:
    rulesets = all_rulesets()
    ids = set(rulesets)
    for lang in LANGUAGES:
        shared = LOCALES_DIR / f"{lang}.json"
        lines = json.loads(shared.read_text(encoding="utf-8"))["lines"]
        moved: dict[str, dict[str, str]] = {rid: {} for rid in ids}
        for key, text in lines.items():
            rid = owner(key, ids)
            if rid is not None:
                moved[rid][key] = text
        for rid, own in moved.items():
            if not own:
                continue
            path = ruleset_locales_dir(rulesets[rid]) / f"{lang}.json"
            path.parent.mkdir(exist_ok=True)
            old = json.loads(path.read_text(encoding="utf-8"))["lines"] if path.exists() else {}
            data = {"lines": {**old, **own}}
            path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        kept = [row for row in shared.read_text(encoding="utf-8").split("\n")
                if not ((m := ENTRY.match(row)) and owner(m.group(1), ids))]
        text = "\n".join(kept)
        # The last entry of "lines" loses its comma; blank lines left twice become one.
        text = re.sub(r",(\s*\n  \})", r"\1", text)
        text = re.sub(r"\n\n\n+", "\n\n", text)
        json.loads(text)  # still JSON
        shared.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
