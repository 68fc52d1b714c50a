"""A plain (non-editable) ``pip install .`` into a fresh virtual environment works from any
folder: ``rules test`` finds the bundled puzzles and the core ladder inside the wheel, and
``render`` draws (``--svg``, and the ``--pdf`` booklet). The slow test of the suite (about
half a minute): ``-m "not slow"`` skips it, CI runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _copy_project(dest: Path) -> None:
    """The project's own files (no build output, caches or virtual environments), links kept
    as links (deducer/data/ links to rules/ and puzzles/; the wheel must carry the files)."""
    ignore = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                    ".pytest_cache", ".ruff_cache", ".venv", "venv",
                                    "reports", "benchmarks")
    shutil.copytree(ROOT, dest, symlinks=True, ignore=ignore)


def _can_build_offline() -> bool:
    """Can this Python build a wheel without fetching build requirements?"""
    probe = "import setuptools.command.bdist_wheel" if sys.version_info >= (3, 12) else \
        "import wheel.bdist_wheel"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


def _env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "DEDUCER_CORPUS")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def test_plain_install_in_a_fresh_venv_runs_rules_test_and_render(tmp_path):
    src, venv, elsewhere = tmp_path / "src", tmp_path / "venv", tmp_path / "elsewhere"
    _copy_project(src)
    # system site-packages: the dependencies are there already (fast, no download of them)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=300)
    py = venv / "bin" / "python"
    pip = [str(py), "-m", "pip", "install", "--no-deps", "--no-input", "--quiet"]
    if _can_build_offline():
        pip.append("--no-build-isolation")
    r = subprocess.run([*pip, str(src)], capture_output=True, text=True, timeout=600,
                       env=_env(), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr

    elsewhere.mkdir()
    env = _env()
    where = subprocess.run([str(py), "-c", "import deducer; print(deducer.__file__)"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, check=True)
    installed = Path(where.stdout.strip()).resolve()
    assert installed.is_relative_to(venv.resolve()), installed  # not the checkout's copy
    assert not (installed.parent / "data" / "puzzles").is_symlink()  # the files themselves

    # a rule author's file, in their own folder
    for name in ("sum_parity.yaml", "sum_parity.py"):
        shutil.copy(ROOT / "docs" / "example-rule" / name, elsewhere / name)
    deducer = str(venv / "bin" / "deducer")
    r = subprocess.run([deducer, "rules", "test", "sum_parity.yaml", "--count", "1"],
                       capture_output=True, text=True, cwd=elsewhere, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no false deductions" in r.stdout
    listed = json.loads((ROOT / "puzzles" / "expected.json").read_text())["puzzles"]
    unique = sum(1 for e in listed if e.get("solutions") == 1)
    assert f"{unique + 1} puzzles" in r.stdout  # every bundled unique puzzle, 1 generated

    shutil.copy(ROOT / "puzzles" / "seed000-k2.j", elsewhere / "k2.j")
    r = subprocess.run([deducer, "render", "k2.j", "--svg", "k2.svg", "--solution"],
                       capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (elsewhere / "k2.svg").read_text().lstrip().startswith(("<svg", "<?xml"))
    # the printable booklet (cairosvg and the system's libcairo2, as for the test extra)
    r = subprocess.run([deducer, "render", "--pdf", "book.pdf", "k2.j", "--walkthroughs"],
                       capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (elsewhere / "book.pdf").read_bytes().startswith(b"%PDF")
