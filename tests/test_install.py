"""Installs into fresh virtual environments, marked ``slow`` (``-m "not slow"`` leaves them out;
the default run and CI include them).

* A plain (non-editable) ``pip install .`` works from any folder: ``rules test`` finds the
  bundled puzzles and the core ladder inside the wheel, ``render`` draws (``--svg``, and
  the ``--pdf`` booklet where the system has libcairo), and the web pages' static files
  are installed (the HTML walkthrough holds their text).
* A fresh clone in a fresh virtual environment runs the README's two commands: the install
  and explain command as written, then the test command with its pytest part limited to the
  ``smoke`` marker (the full suite is this very run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
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


def _env(venv: Path | None = None) -> dict:
    """The environment of a new user's shell: nothing of this test run leaks in (no corpus,
    no pytest or xdist variables), and ``venv``'s commands come first on PATH."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "DEDUCER_CORPUS")
           and not k.startswith(("PYTEST_", "DEDUCER_"))}
    env["PYTHONNOUSERSITE"] = "1"
    if venv is not None:
        env["VIRTUAL_ENV"] = str(venv)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _lend_dependencies(venv: Path) -> None:
    """Make the running environment's installed packages importable in ``venv`` (a path
    file: a plain folder on sys.path, after venv's own site-packages, whose own path files
    are not run, so this checkout's editable install stays invisible). The dependencies
    then come from the environment the suite runs in, whether that is a virtual environment
    or not, without downloading them again."""
    here = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    py = venv / "bin" / "python"
    theirs = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                             "['purelib'])"], capture_output=True, text=True, check=True)
    site = Path(theirs.stdout.strip())
    (site / "_deducer_test_lent.pth").write_text("".join(f"{p}\n" for p in sorted(here)))


def test_plain_install_in_a_fresh_venv_runs_rules_test_and_render(tmp_path):
    src, venv, elsewhere = tmp_path / "src", tmp_path / "venv", tmp_path / "elsewhere"
    _copy_project(src)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    _lend_dependencies(venv)
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
    # the web pages' static files are in the wheel, and the HTML walkthrough (one file that
    # opens offline) carries their text: its style, the chain walker and its player
    for folder in ("render/static", "app/play/static"):
        shipped = {f.name for f in (installed.parent / folder).iterdir()}
        assert shipped == {f.name for f in (ROOT / "deducer" / folder).iterdir()
                           if f.is_file()}, folder
    r = subprocess.run([deducer, "explain", "k2.j", "--html", "k2.html"],
                       capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    page = (elsewhere / "k2.html").read_text(encoding="utf-8")
    for name in ("walkthrough.css", "chainstep.js", "walkthrough.js"):
        assert (ROOT / "deducer" / "render" / "static" / name).read_text() in page, name
    # the printable booklet needs cairosvg over the system's libcairo2
    cairo = subprocess.run([str(py), "-c", "import cairosvg"], capture_output=True, env=env)
    if cairo.returncode != 0:
        pytest.skip("libcairo2 missing: render --pdf not tried (scripts/install-browser.sh "
                    "installs it, as root)")
    r = subprocess.run([deducer, "render", "--pdf", "book.pdf", "k2.j", "--walkthroughs"],
                       capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (elsewhere / "book.pdf").read_bytes().startswith(b"%PDF")


def readme_commands() -> tuple[str, str]:
    """The README's two commands: install-and-explain, and the test command."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S)
    lines = [ln.strip() for b in blocks for ln in b.splitlines() if ln.strip()]
    install = next(ln for ln in lines if "pip install" in ln and "deducer " in ln)
    test = next(ln for ln in lines if "pip install" in ln and "pytest" in ln)
    return install, test


def test_readme_commands_name_what_ci_runs():
    install, test = readme_commands()
    assert "pytest" not in install and "explain" in install
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci, ".ci/run must run the README's test command as written"


def test_a_fresh_clone_runs_the_readme_commands_in_a_fresh_venv(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed: no clone to make")
    top = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != ROOT.resolve():
        pytest.skip("not a git checkout: no clone to make")
    clone, venv = tmp_path / "clone", tmp_path / "venv"
    # the committed tree, as a new user gets it
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)],
                   check=True, timeout=300, capture_output=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = _env(venv)
    install, test = readme_commands()

    def sh(command: str, timeout: int) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", "-c", command], cwd=clone, env=env, timeout=timeout,
                              capture_output=True, text=True)

    r = sh(install, 900)
    assert r.returncode == 0, (install, r.stdout[-2000:], r.stderr[-2000:])
    assert "rating:" in r.stdout  # the explained walkthrough ends with its rating
    parts = [p.strip() for p in test.split("&&")]
    assert parts[-1].startswith("python -m pytest"), test
    setup = " && ".join(parts[:-1])
    r = sh(setup, 1200)  # as a user who may not be root: what needs root says so and goes on
    assert r.returncode == 0, (setup, r.stdout[-2000:], r.stderr[-2000:])
    pytest_part = parts[-1] + " -m smoke -p no:cacheprovider"
    r = sh(pytest_part, 900)
    assert r.returncode == 0, (pytest_part, r.stdout[-3000:], r.stderr[-2000:])
    assert re.search(r"\b\d+ passed\b", r.stdout), r.stdout[-2000:]
