"""The layers (docs/architecture.md): the engine imports nothing above it, and the
rulesets import neither each other's internals nor anything above the engine but the
One Night family's shared module. Read from the source, imports inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "nightcall"


def imports_of(folder: Path) -> dict[str, set[str]]:
    """Every module each file of ``folder`` imports (absolute names)."""
    out: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        out[str(path.relative_to(SRC))] = names
    return out


def test_the_engine_imports_nothing_of_nightcall_above_it() -> None:
    for path, names in imports_of(SRC / "engine").items():
        above = {n for n in names if n.startswith("nightcall.")
                 and not n.startswith("nightcall.engine")}
        assert not above, f"{path} imports {sorted(above)}"


def test_the_rules_import_no_narration_server_or_commands() -> None:
    """Facts below, words above: engine/ and rulesets/ compute, the narrator writes."""
    above = ("nightcall.narration", "nightcall.server", "nightcall.commands")
    for folder in ("engine", "rulesets"):
        for path, names in imports_of(SRC / folder).items():
            bad = {n for n in names if n.startswith(above)}
            assert not bad, f"{path} imports {sorted(bad)}"


def test_a_ruleset_imports_no_other_rulesets_internals() -> None:
    rulesets = SRC / "rulesets"
    for folder in (p for p in rulesets.iterdir() if p.is_dir() and p.name != "__pycache__"):
        for path, names in imports_of(folder).items():
            others = {n for n in names if n.startswith("nightcall.rulesets.")
                      and not n.startswith(f"nightcall.rulesets.{folder.name}")
                      and n != "nightcall.rulesets.onenight"}
            assert not others, f"{path} imports {sorted(others)}"


def test_the_one_night_family_shares_one_module_and_it_stands_alone() -> None:
    shared = imports_of(SRC / "rulesets" / "onenight")
    for path, names in shared.items():
        ours = {n for n in names if n.startswith("nightcall.")}
        assert ours <= {"nightcall.engine.actions"}, path
    users = [p for p, names in imports_of(SRC / "rulesets").items()
             if "nightcall.rulesets.onenight" in names]
    assert any(p.startswith("rulesets/onuw/") for p in users)
    assert any(p.startswith("rulesets/epic/") for p in users)
