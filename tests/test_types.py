"""The package's type hints hold: mypy over deducer/, with the config in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import mypy.api

ROOT = Path(__file__).resolve().parents[1]


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
