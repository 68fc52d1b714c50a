"""Comments and docstrings cite only what the repository holds: no design notes or seed
documents from outside it, no file paths outside it, docs/ files that exist, and module
paths (``deducer.x.y``) that still exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*(ROOT / "deducer").rglob("*.py"), *(ROOT / "rules").rglob("*.yaml")])

#: what a file of the package must never cite: outside notes and paths out of the tree
OUTSIDE = re.compile(r"DESIGN\.md|\bseed\s+0\d\d\b|\.\./shared|/work/|/home/|/tmp/",
                     re.IGNORECASE)
DOCS = re.compile(r"\bdocs/[\w./-]+\.md\b")
DOTTED = re.compile(r"\bdeducer(?:\.[A-Za-z_]\w*)+")


def outside_citations(text: str) -> list[str]:
    return [f"line {n}: {m.group(0)}" for n, line in enumerate(text.splitlines(), 1)
            for m in OUTSIDE.finditer(line)]


def missing_docs(text: str) -> list[str]:
    return sorted({m.group(0) for m in DOCS.finditer(text) if not (ROOT / m.group(0)).exists()})


def dead_paths(text: str) -> list[str]:
    """``deducer.a.b.c`` names whose module part does not import, or whose rest is not an
    attribute of it (an old module path)."""
    dead = set()
    for m in DOTTED.finditer(text):
        parts = m.group(0).split(".")
        obj = None
        for k in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:k]))
            except ImportError:
                continue
            break
        for name in parts[k:]:
            obj = getattr(obj, name, None)
        if obj is None:
            dead.add(m.group(0))
    return sorted(dead)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_cites_only_what_the_repository_holds(path):
    text = path.read_text(encoding="utf-8")
    assert outside_citations(text) == [], f"{path.relative_to(ROOT)} cites outside files"
    assert missing_docs(text) == [], f"{path.relative_to(ROOT)} cites missing docs"
    if path.suffix == ".py":
        assert dead_paths(text) == [], f"{path.relative_to(ROOT)} names old module paths"


def test_the_checks_can_fail():
    assert outside_citations("x = 1  # see DESIGN.md §4\n# seed 002 §1.2\n") == [
        "line 1: DESIGN.md", "line 2: seed 002"]
    assert outside_citations("# ../shared/corpus\n") == ["line 1: ../shared"]
    assert missing_docs("see docs/no-such-page.md and docs/json-contract.md") == [
        "docs/no-such-page.md"]
    assert dead_paths(":mod:`deducer.search`, :func:`deducer.solver.search.solve`") == [
        "deducer.search"]
