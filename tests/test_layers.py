"""The package's layers: every import inside deducer/ points to its own layer or one below."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "deducer"
# lowest first; a module may import from its own layer and any earlier one
ORDER = ["clock", "errors", "puzzle", "proofcheck", "solver", "engine", "rules", "assist",
         "generator", "render", "api", "app"]
RANK = {name: i for i, name in enumerate(ORDER)}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "deducer" or len(parts) < 2:
        return None
    return parts[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, me: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module) for every deducer import in the file, relative ones resolved."""
    me = me or module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("deducer")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("deducer"):
                continue
            if target == "deducer":  # from deducer import x: x names the layer
                out += [(node.lineno, f"deducer.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, target))
    return out


FILES = sorted(p for p in PKG.rglob("*.py") if layer_of(module_name(p)) in RANK)


def test_every_module_is_in_a_layer():
    top = ("__init__.py", "__main__.py")
    stray = [str(p.relative_to(PKG)) for p in PKG.rglob("*.py")
             if layer_of(module_name(p)) not in RANK and p.name not in top]
    assert stray == [], f"modules outside every layer: {stray}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_point_down(path):
    mine = RANK[layer_of(module_name(path))]
    upward = []
    for line, target in imports_of(path):
        layer = layer_of(target)
        if layer in RANK and RANK[layer] > mine:
            upward.append(f"line {line}: {target}")
    assert upward == [], f"{path.relative_to(PKG)} imports a higher layer: {upward}"


def test_the_checker_sees_an_upward_import(tmp_path):
    # the test above must be able to fail: a fake puzzle-layer module importing the engine
    fake = tmp_path / "probe.py"
    fake.write_text("from ..engine.walk import explain\n", encoding="utf-8")
    assert imports_of(fake, "deducer.puzzle.probe") == [(1, "deducer.engine.walk")]


MODULES = {module_name(p): p for p in FILES}


def module_edges(path: Path, modules=MODULES, me: str | None = None) -> set[str]:
    """The package modules a file imports, anywhere in it (inside functions too): ``from
    .pkg import name`` counts as an import of ``pkg.name`` when that is a module."""
    me = me or module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                target = ".".join(base[: len(base) - (node.level - 1)]
                                  + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in modules:
                    out.add(sub)
                elif target in modules:
                    out.add(target)
    out.discard(me)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (its strongly connected parts of two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1:
                    out.append(sorted(part))
    return out


def test_no_import_circle_within_a_layer():
    """Upward imports are refused above; within a layer, no two modules may import each
    other, directly or round a longer circle, not even from inside a function."""
    graph = {m: {t for t in module_edges(p) if layer_of(t) == layer_of(m)}
             for m, p in MODULES.items()}
    assert circles(graph) == []


def test_the_circle_finder_sees_a_circle(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    fake = tmp_path / "core.py"  # a function-level import of a sibling counts
    fake.write_text("def f():\n    from .level import find\n", encoding="utf-8")
    mods = {"deducer.generator.core": fake, "deducer.generator.level": fake}
    assert module_edges(fake, mods, "deducer.generator.core") == {"deducer.generator.level"}


# ---- no import circle anywhere: the package, the scripts, the benchmarks, the tests ----
TOP = PKG.parent
CORNERS = ("deducer", "scripts", "benchmarks", "tests")


def all_modules() -> dict[str, Path]:
    """Every Python file of the repository's corners, by dotted name from the root."""
    out = {}
    for corner in CORNERS:
        for p in sorted((TOP / corner).rglob("*.py")):
            parts = list(p.relative_to(TOP).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = p
    return out


def repo_edges(me: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """What a file imports among ``modules``. Scripts and benchmarks run as scripts, with
    their own folder on sys.path, so ``import bench_explain`` there (or ``support.corpus``
    under tests/, whose folder pytest puts first) names a module of the same corner."""
    corner = me.split(".")[0]
    aliased = dict(modules)
    for name, p in modules.items():
        if name.startswith(corner + "."):
            aliased.setdefault(name[len(corner) + 1:], p)
    back = {p: name for name, p in modules.items()}
    return {back[aliased[t]] for t in module_edges(path, aliased, me)} - {me}


def test_no_import_circle_anywhere():
    """No two modules of the repository import each other, directly or round a longer
    circle, from inside a function too: scripts and benchmarks included (a circle between
    two scripts breaks whichever runs first)."""
    modules = all_modules()
    graph = {m: repo_edges(m, p, modules) for m, p in modules.items()}
    assert circles(graph) == []


def test_the_repository_circle_finder_sees_scripts(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    from scripts.b import g\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("import a\n", encoding="utf-8")
    modules = {"scripts.a": tmp_path / "a.py", "scripts.b": tmp_path / "b.py"}
    graph = {m: repo_edges(m, p, modules) for m, p in modules.items()}
    assert graph == {"scripts.a": {"scripts.b"}, "scripts.b": {"scripts.a"}}
    assert circles(graph) == [["scripts.a", "scripts.b"]]


# ---------------------------------------------------------------------------- front door
#: the packages the application layer reaches only through deducer.api (its front door);
#: the render and puzzle layers, and the rule kit for rule authors, it may use directly
BEHIND_THE_API = ("deducer.engine", "deducer.solver", "deducer.generator", "deducer.assist",
                  "deducer.rules", "deducer.proofcheck")
RULE_KIT = "deducer.rules.api"


def behind_the_api(target: str) -> bool:
    if target == RULE_KIT or target.startswith(RULE_KIT + "."):
        return False
    return any(target == p or target.startswith(p + ".") for p in BEHIND_THE_API)


APP_FILES = [p for p in FILES if layer_of(module_name(p)) == "app"]


def test_the_app_layer_has_modules_and_commands_among_them():
    names = {module_name(p) for p in APP_FILES}
    assert "deducer.app.commands.explain" in names and "deducer.app.play.server" in names


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: str(p.relative_to(PKG)))
def test_commands_go_through_the_api(path):
    """Every command (and the play server, the batch engine, the CLI) calls deducer.api
    and hands the results to a renderer: none reaches into the engine, solver,
    generator, assist, rule or proof-checker internals, so a request is built in one
    place and a result's vocabulary derived once (issue 36, point 3)."""
    around = [f"line {line}: {target}" for line, target in imports_of(path)
              if behind_the_api(target)]
    assert around == [], f"{path.relative_to(PKG)} reaches around deducer.api: {around}"


def test_the_front_door_check_sees_an_import_around_the_api(tmp_path):
    fake = tmp_path / "probe.py"
    fake.write_text("def run(args):\n    from ...engine import registry\n"
                    "    from ...rules.api import rule\n    from ... import api\n",
                    encoding="utf-8")
    found = [t for _, t in imports_of(fake, "deducer.app.commands.probe")]
    assert found == ["deducer.engine", "deducer.rules.api", "deducer.api"]
    assert [t for t in found if behind_the_api(t)] == ["deducer.engine"]
