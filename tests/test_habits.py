"""Habits that keep deducer/ easy to carry on (issue 53, point 5): modules and functions of a
readable size, imports where a reader looks for them, and a map (docs/architecture.md) that
names every module. Each list of exceptions below may only shrink: a test fails when an
item is added without being listed, and also when a listed item no longer needs to be
(so the lists stay true)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "deducer"
MODULE_LINES = 600
FUNCTION_LINES = 80


def _sources() -> dict[str, ast.Module]:
    return {str(p.relative_to(PKG)): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(PKG.rglob("*.py"))}


# ---- sizes -------------------------------------------------------------------------------
#: modules over MODULE_LINES lines, and why each is still one module
BIG_MODULES: dict[str, str] = {
}

#: functions over FUNCTION_LINES lines (``module:Class.function``), and why
LONG_FUNCTIONS = {
    # splitting it would turn the per-node closures into calls on every node
    "solver/island.py:island_solutions": "the search's hot loop, kept flat for speed",
}


def _functions(tree: ast.Module, prefix: str = ""):
    """(qualified name, lines) of every function, nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            yield name, node.end_lineno - node.lineno + 1  # type: ignore[operator]
            yield from _functions(node, name + ".")  # type: ignore[arg-type]
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")  # type: ignore[arg-type]


def big_modules() -> set[str]:
    return {rel for rel in _sources()
            if len((PKG / rel).read_text(encoding="utf-8").splitlines()) > MODULE_LINES}


def long_functions() -> set[str]:
    return {f"{rel}:{name}" for rel, tree in _sources().items()
            for name, lines in _functions(tree) if lines > FUNCTION_LINES}


def test_no_module_grows_past_600_lines():
    over = big_modules()
    assert sorted(over - set(BIG_MODULES)) == [], "split it by idea, or list it with a reason"
    assert sorted(set(BIG_MODULES) - over) == [], "now within the limit: take it off the list"


def test_no_function_grows_past_80_lines():
    over = long_functions()
    assert sorted(over - set(LONG_FUNCTIONS)) == [], "split it, or list it with a reason"
    assert sorted(set(LONG_FUNCTIONS) - over) == [], "now within the limit: take it off the list"


def test_the_size_check_sees_a_long_function():
    body = "\n".join(f"    x{k} = {k}" for k in range(FUNCTION_LINES))
    tree = ast.parse(f"class A:\n  def f(self):\n{body}\n    def g():\n        pass\n")
    assert dict(_functions(tree)) == {"A.f": FUNCTION_LINES + 3, "A.f.g": 2}


# ---- function-level imports ------------------------------------------------------------
#: the most imports inside functions deducer/ may hold (368 when issue 53 counted them)
MAX_LOCAL_IMPORTS = 120
#: optional or heavy third-party packages one command needs: imported where it runs, so
#: that the others neither load them nor fail without them
HEAVY = {"dask", "distributed", "cairosvg", "cairocffi", "pyarrow", "flask", "waitress",
         "werkzeug", "playwright", "pysat", "networkx", "rich"}
#: the modules a ``deducer solve`` loads (benchmarks/bench_startup.py; the rule registry's for
#: the names of replaced rules): a function-level
#: import there keeps what only some calls need (the explain engine, the generator, json,
#: tempfile, the SAT solver) out of every solve's start-up (at most 2.5x ``python -c pass``)
START_UP = ("__init__.py", "api/", "clock.py", "errors.py", "app/cli.py", "app/backstop.py",
            "app/commands/solve.py", "puzzle/", "solver/", "render/text.py",
            "engine/registry.py", "engine/ruleyaml.py", "engine/rulecheck.py",
            "engine/rule.py", "engine/ladder.py")
#: function-level imports with none of the reasons above, by module: the modules other
#: points of issue 53 are rewriting (may only shrink)
UNREASONED = {"rules/chains/links.py": 1, "render/html.py": 1}


def local_imports() -> list[tuple[str, int, str]]:
    """(module, line, reason) of every import inside a function; reason "" for none."""
    out = []
    for rel, tree in _sources().items():
        parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}

        def visit(node, in_function: bool, rel=rel, parents=parents):
            for ch in ast.iter_child_nodes(node):
                if isinstance(ch, ast.Import | ast.ImportFrom) and in_function:
                    out.append((rel, ch.lineno, _reason(rel, ch, parents)))
                visit(ch, in_function or isinstance(ch, ast.FunctionDef | ast.AsyncFunctionDef))

        visit(tree, False)
    return out


def _reason(rel: str, node: ast.Import | ast.ImportFrom, parents: dict) -> str:
    names = ([a.name for a in node.names] if isinstance(node, ast.Import)
             else [node.module or ""] if not node.level else [])
    if any(n.split(".")[0] in HEAVY for n in names):
        return "heavy"
    parent = parents.get(node)
    if isinstance(parent, ast.Try) and node in parent.body:
        return "optional"  # the except clause says what happens without it
    if rel.startswith(START_UP):
        return "start-up"
    return ""


def test_imports_live_at_module_level():
    found = local_imports()
    assert len(found) <= MAX_LOCAL_IMPORTS, f"{len(found)} imports inside functions"
    unreasoned: dict[str, int] = {}
    for rel, _line, reason in found:
        if not reason:
            unreasoned[rel] = unreasoned.get(rel, 0) + 1
    grown = {m: n for m, n in unreasoned.items() if n > UNREASONED.get(m, 0)}
    assert grown == {}, "move them to the module's top, or give the reason in the list above"
    stale = {m: n for m, n in UNREASONED.items() if unreasoned.get(m, 0) < n}
    assert stale == {}, f"fewer now: lower the list to {unreasoned}"


def test_the_import_count_sees_an_import_in_a_function():
    tree = ast.parse("import os\ndef f():\n    import json\n    try:\n        import yaml\n"
                     "    except ImportError:\n        pass\n    import rich\n")
    parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    f = tree.body[1]
    got = [_reason("generator/x.py", n, parents)
           for n in sorted((n for n in ast.walk(f) if isinstance(n, ast.Import)),
                           key=lambda n: n.lineno)]
    assert got == ["", "optional", "heavy"]


# ---- the map -------------------------------------------------------------------------------
def map_rows() -> dict[str, str]:
    """docs/architecture.md's layer table: the row of each layer (``puzzle/``, ``api/``)."""
    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `([a-z_]+)(?:/|\.py)` \|", line)
        if m:
            rows[m[1]] = line
    return rows


def unmapped(rows: dict[str, str]) -> list[str]:
    """Modules of deducer/ their layer's row does not name (as ``name.py`` or `` `name` ``)."""
    out = []
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(PKG)
        if p.name in ("__init__.py", "__main__.py"):
            continue
        row = rows.get(rel.parts[0].removesuffix(".py"), "")
        named = bool(row) if len(rel.parts) == 1 else (
            f"{p.stem}.py" in row or f"`{p.stem}`" in row)
        if not named:
            out.append(str(rel))
    return out


def test_docs_architecture_names_every_module():
    assert unmapped(map_rows()) == []


def test_the_map_check_sees_a_missing_module():
    rows = map_rows()
    rows["solver"] = rows["solver"].replace("`oracle.py`", "the oracle")
    assert unmapped(rows) == ["solver/oracle.py"]
