"""Nothing outside rulesets/ names a ruleset id (issue #13): a caller asks the ruleset
what it has (a declared field, a capability class), never checks which one it is.

The Python source is read with ``ast``: a string constant whose whole value is an id,
or an id followed by "/", ":" or "." (a label such as "epic/anarchy", a locale key
such as "lupus.day"), is a hit; docstrings are prose and examples, not code, and are
left out. The web's scripts and styles are searched for a quoted id.

The exceptions are listed with their reason; each one must still hold a hit, so the
list shrinks as files are cleaned (docs/architecture.md, "Still naming a ruleset").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from nightcall.engine.ruleset import BUILTIN

SRC = Path(__file__).resolve().parents[2] / "src" / "nightcall"
IDS = tuple(BUILTIN)
NAMING = re.compile(rf"(?:{'|'.join(IDS)})(?:[/:.].*)?", re.DOTALL)
QUOTED = re.compile(rf"""["'`](?:{'|'.join(IDS)})["'`]""")

# path under src/nightcall -> why it may name an id this session
EXCEPTIONS = {
    "engine/ruleset.py": "BUILTIN: the built-in entry points for a source tree run "
                         "without metadata (a test keeps them equal to pyproject.toml)",
}
# Whole folders whose files hold data keyed by id (the glossary's sections are the
# rulesets' own role names) or belong to one ruleset by nature.
DATA = ("rulesets/", "narration/locales/")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                      | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def python_hits(source: str) -> list[tuple[int, str]]:
    """(line, string) of every string constant in ``source`` that names an id."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip and NAMING.fullmatch(node.value)]


def web_hits(source: str) -> list[tuple[int, str]]:
    return [(i, m.group()) for i, line in enumerate(source.splitlines(), 1)
            for m in QUOTED.finditer(line)]


def hits_by_file() -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(SRC.rglob("*")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(DATA) or not path.is_file():
            continue
        if path.suffix == ".py":
            hits = python_hits(path.read_text(encoding="utf-8"))
        elif path.suffix in (".js", ".css", ".html"):
            hits = web_hits(path.read_text(encoding="utf-8"))
        else:
            continue
        if hits:
            found[rel] = hits
    return found


def test_no_file_outside_rulesets_names_a_ruleset_id() -> None:
    found = hits_by_file()
    unexpected = {rel: hits for rel, hits in found.items() if rel not in EXCEPTIONS}
    assert unexpected == {}, "ask the ruleset (a declared field or capability) instead"


def test_every_exception_is_still_needed() -> None:
    found = hits_by_file()
    stale = [rel for rel in EXCEPTIONS if rel not in found]
    assert stale == [], "cleaned: take these out of EXCEPTIONS and docs/architecture.md"


@pytest.mark.parametrize("code", [
    'if ruleset.id == "lupus":\n    pass\n',
    'DEFAULT = "onuw"\n',
    'label = f"epic/{sid}"\n',
    'key = "lupus.day.accuse"\n',
    'def f(r="epic"):\n    return r\n',
])
def test_the_check_sees_an_id_in_code(code: str) -> None:
    assert python_hits(code)


@pytest.mark.parametrize("code", [
    '"""A module about onuw, epic and lupus."""\n',
    'def f():\n    """Call it as f("onuw")."""\n',
    'path = "nightcall.rulesets.onuw.game:ONUW"\n',
    'word = "epicure"\n',
])
def test_the_check_leaves_prose_and_import_paths_alone(code: str) -> None:
    assert not python_hits(code)


def test_the_web_check_sees_a_quoted_id() -> None:
    assert web_hits('$("#x").hidden = r.id !== "lupus";')
    assert not web_hits("// the lupus page")


def test_the_default_ruleset_is_the_first_entry_point_everywhere() -> None:
    """Where no ruleset is named (a new room, the agent environment, a tournament, the
    scenarios command) the default comes from the registry, not from a literal id."""
    import msgspec

    from nightcall.agents.env import NightcallEnv
    from nightcall.arena.config import build
    from nightcall.engine.ruleset import all_rulesets, default_ruleset_id
    from nightcall.server.messages import CreateRoom

    first = default_ruleset_id()
    assert first == next(iter(BUILTIN)) and first in all_rulesets()
    assert msgspec.json.decode(b"{}", type=CreateRoom).ruleset == first
    assert NightcallEnv().ruleset.id == first
    assert build({}, {}, ["random", "reasoning"]).ruleset == first
