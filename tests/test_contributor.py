"""What the next contributor meets first (issue 36): bare ``pytest`` works from the
repository's root, and the docs name only helpers and modules that exist."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_bare_pytest_collects_from_the_root():
    # `python -P` puts neither the current directory nor a script's on sys.path: exactly
    # what the bare `pytest` command gets (only `python -m pytest` adds the current one)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-P", "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
         "tests/test_contributor.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "test_bare_pytest_collects_from_the_root" in out.stdout


# ---- the rule guide's helper list is the View protocol's ----------------------------------
HELPER_DOCS = ("docs/rule-authors-guide.md", "docs/rule-contract.md")


def _listed(doc: str) -> list[str]:
    """The helpers a doc lists between its ``<!-- view-helpers -->`` marks, as dotted
    paths without arguments (``context.cache(name)`` -> ``context.cache``)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    m = re.search(r"<!-- view-helpers -->(.*?)<!-- /view-helpers -->", text, re.S)
    assert m, f"{doc} has no <!-- view-helpers --> ... <!-- /view-helpers --> marks"
    return [re.sub(r"\(.*\)$", "", tok) for tok in re.findall(r"`([^`]+)`", m.group(1))]


def _member_type(name: str):
    """What the View protocol's member ``name`` gives: an attribute's type, a method's
    return type."""
    from deducer.rules.api import View

    hints = typing.get_type_hints(View)
    if name in hints:
        return hints[name]
    attr = vars(View)[name]
    func = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
    return typing.get_type_hints(func).get("return")


def _has(cls, name: str) -> bool:
    return hasattr(cls, name) or name in typing.get_type_hints(cls)


@pytest.mark.parametrize("doc", HELPER_DOCS)
def test_the_docs_list_only_helpers_the_view_has(doc):
    members = _view_members()
    for path in _listed(doc):
        head, *rest = path.split(".")
        assert head in members, f"{doc} lists {path!r}: View has no {head!r}"
        owner = _member_type(head)
        for part in rest:
            assert owner is not None and _has(owner, part), \
                f"{doc} lists {path!r}: {getattr(owner, '__name__', owner)} has no {part!r}"
            owner = None  # one level deep is all the lists use


def _view_members() -> set[str]:
    from deducer.rules.api import View

    return {n for n in vars(View) if not n.startswith("_")} | set(
        typing.get_type_hints(View))


@pytest.mark.parametrize("doc", HELPER_DOCS)
def test_every_helper_of_the_view_is_documented(doc):
    named = {path.split(".")[0] for path in _listed(doc)}
    missing = sorted(_view_members() - named)
    assert missing == [], f"{doc} does not list View's {missing} (add them between the marks)"


def test_the_engines_view_has_every_protocol_member():
    # the docs are held to the protocol; the protocol must be what rules really get
    from deducer.engine.state import View as EngineView

    missing = [n for n in _view_members() if not hasattr(EngineView, n)
               and n not in ("puzzle", "layout", "context")]
    assert missing == []
    from deducer.engine.state import Context, State

    view = EngineView(State(_four()), Context(_four()))
    for n in ("puzzle", "layout", "context"):
        assert hasattr(view, n)


def _four():
    from deducer.puzzle import formats

    return formats.load(ROOT / "puzzles" / "seed002-four.txt")


def test_the_marks_see_a_removed_helper(tmp_path, monkeypatch):
    # the check above must be able to fail: a list naming context.graph (gone) is caught
    fake = tmp_path / "docs"
    fake.mkdir()
    (fake / "x.md").write_text("<!-- view-helpers --> `mask(i)`, `context.graph` "
                               "<!-- /view-helpers -->", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert _listed("docs/x.md") == ["mask", "context.graph"]
    with pytest.raises(AssertionError, match="context.graph"):
        test_the_docs_list_only_helpers_the_view_has("docs/x.md")


# ---- no doc names a module, file or name that is gone ---------------------------------------
DOCS = sorted([*ROOT.glob("docs/*.md"), ROOT / "README.md", *ROOT.glob("reports/*.md")])
PATH = re.compile(r"(?<![\w/.-])((?:deducer|tests|scripts|benchmarks|rules|docs|puzzles)/"
                  r"[\w/-]+\.(?:py|md|yaml|txt|sh))\b")
DOTTED = re.compile(r"`(deducer(?:\.\w+)+)")


def _exists(dotted: str) -> bool:
    """Does ``deducer.a.b.c`` name a module, or something a module holds?"""
    import importlib

    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        try:
            for name in parts[k:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_name_only_what_exists(doc):
    """A file path (``deducer/engine/walk.py``) or a dotted name (```deducer.rules.api```)
    in the docs must still exist: the layers were renamed once (deducer/explain/,
    deducer.solve.search) and the docs kept the old names."""
    text = doc.read_text(encoding="utf-8")
    gone = sorted({p for p in PATH.findall(text) if not (ROOT / p).exists()}
                  | {d for d in DOTTED.findall(text) if not _exists(d)})
    assert gone == [], f"{doc.name} names what is gone: {gone}"


def test_the_doc_check_sees_an_old_name():
    assert not _exists("deducer.explain.engine") and not _exists("deducer.solve.search")
    assert _exists("deducer.engine.walk.Engine") and _exists("deducer.explain")
    assert PATH.findall("see deducer/explain/engine.py and docs/api.md.") == [
        "deducer/explain/engine.py", "docs/api.md"]


def test_the_architecture_page_names_every_layer():
    from tests.test_layers import ORDER

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)(?:\.py|/)` \|", text, re.M)
    assert rows == ORDER, "docs/architecture.md's table lists the layers of test_layers.ORDER"
