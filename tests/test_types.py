"""The package's type hints hold: mypy over deducer/, with the config in pyproject.toml,
and over the rule layer with every function annotated (issue 36, one rule dialect: the
built-in rules are typed against the public kit's View, as user rules are)."""

from __future__ import annotations

import re
from pathlib import Path

import mypy.api

ROOT = Path(__file__).resolve().parents[1]
#: what the rule layer is held to beyond the package's config
STRICT = ("--disallow-untyped-defs", "--disallow-incomplete-defs")


def _mypy(*args: str) -> tuple[str, int]:
    out, err, code = mypy.api.run(["--config-file", str(ROOT / "pyproject.toml"), *args])
    return out + err, code


def test_mypy_finds_no_errors_in_the_package(monkeypatch):
    monkeypatch.chdir(ROOT)  # its cache lives beside the code (.mypy_cache, ignored by git)
    out, code = _mypy(str(ROOT / "deducer"))
    assert code == 0, out


def test_the_check_can_fail(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "bad.py"
    bad.write_text("def f(xs: list[int]) -> int:\n    return xs['a']\n", encoding="utf-8")
    out, code = _mypy(str(bad))
    assert code == 1 and "bad.py:2: error" in out


def _strict(path: str) -> tuple[str, int]:
    """`mypy --disallow-untyped-defs --disallow-incomplete-defs PATH`, the layers it imports
    checked but not held to the stricter flags (run bare without PYTHONPATH, mypy would
    report theirs too, reached through deducer/__init__'s import of the API), with a cache
    of its own so that these runs and the package's do not invalidate each other's."""
    return _mypy(*STRICT, "--follow-imports=silent", "--cache-dir",
                 str(ROOT / ".mypy_cache" / "strict-rules"), path)


def test_the_rule_layer_is_fully_typed(monkeypatch):
    monkeypatch.chdir(ROOT)
    out, code = _strict("deducer/rules")
    assert code == 0, out


def test_the_strict_check_can_fail(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "untyped_rule.py"
    bad.write_text("def my_rule(view, rid):\n    return ()\n", encoding="utf-8")
    out, code = _strict(str(bad))
    assert code == 1 and "untyped_rule.py:1: error" in out and "no-untyped-def" in out


def test_the_rule_docs_name_every_helper_of_the_view_protocol_and_no_other():
    """The helper lists of the rule guide and the contract say what the public View
    protocol offers (every member), and name no Context attribute that is gone."""
    from deducer.rules.api import View
    from deducer.rules.fixture import position

    members = {n for n in vars(View) if not n.startswith("_")} | set(View.__annotations__)
    example = ROOT / "docs" / "example-rule" / "sum-parity-position.txt"
    context = position(example.read_text(encoding="utf-8")).context
    for doc in ("rule-authors-guide.md", "rule-contract.md"):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        missing = sorted(m for m in members if not re.search(rf"`{m}[`(.]", text))
        assert missing == [], f"docs/{doc} does not list the View helpers {missing}"
        named = set(re.findall(r"`(?:view\.)?context\.(\w+)", text))
        gone = sorted(n for n in named if not hasattr(context, n))
        assert named and gone == [], f"docs/{doc} names Context attributes it lacks: {gone}"
