"""The package's layers: every import inside deducer/ points to its own layer or one below."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "deducer"
# lowest first; a module may import from its own layer and any earlier one
ORDER = ["errors", "puzzle", "solve", "explain", "rules", "generate", "render", "api", "app"]
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
    fake.write_text("from ..explain.engine import explain\n", encoding="utf-8")
    assert imports_of(fake, "deducer.puzzle.probe") == [(1, "deducer.explain.engine")]
