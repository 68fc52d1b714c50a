"""Shared fixtures: where the bundled puzzles and the shared corpus are (skip when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.corpus import corpus_root

# No per-example deadlines anywhere: CI machines are shared and noisy, and a slow example
# is not a failure (hangs are caught by explicit budgets where they matter).
settings.register_profile("deducer", deadline=None)
settings.load_profile("deducer")

#: the `browser` fixture of the browser tests (walkthrough page and play mode)
pytest_plugins = ["browserkit"]

ROOT = Path(__file__).resolve().parents[1]
PUZZLES_DIR = ROOT / "puzzles"


def require_corpus() -> Path:
    """The corpus directory; skips the calling test when it is absent."""
    root = corpus_root()
    if root is None:
        pytest.skip("shared puzzle corpus not found (set DEDUCER_CORPUS)")
    return root


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The shared corpus (``$DEDUCER_CORPUS`` or ``../shared/corpus``); skip if absent."""
    return require_corpus()


@pytest.fixture(scope="session")
def puzzles_dir() -> Path:
    """The bundled puzzles of the repository (``puzzles/``); skip if absent."""
    if not PUZZLES_DIR.is_dir():
        pytest.skip("bundled puzzles/ directory not found")
    return PUZZLES_DIR


# ---- fuzz counts (added by the bad-input helper for tests/test_fuzz.py; keep at the end) ----
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print how many examples each fuzz test tried (tests/test_fuzz.py fills the counts)."""
    counts = getattr(config, "deducer_fuzz_counts", None)
    if not counts:
        return
    terminalreporter.write_sep("-", "fuzz examples tried")
    for test in sorted(counts):
        c = counts[test]
        rest = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != "tried")
        terminalreporter.write_line(f"{test}: {c['tried']} tried" + (f" ({rest})" if rest else ""))
# ---- end of fuzz counts ----
