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


# ---- what was skipped and why: one line per reason, after the run ----
def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr)
    return reason.removeprefix("Skipped: ").strip() or "no reason given"


def _skip_summary(terminalreporter) -> None:
    """Group the skipped tests by reason: ``N skipped (files): reason``."""
    reports = [r for r in terminalreporter.stats.get("skipped", ())
               if getattr(r, "when", "") in ("setup", "call", "collect") or
               not hasattr(r, "when")]
    if not reports:
        return
    groups: dict[str, list[str]] = {}
    for r in reports:
        groups.setdefault(_skip_reason(r), []).append(r.nodeid.split("::")[0] or "?")
    terminalreporter.write_sep("-", f"{len(reports)} skipped, by reason")
    for reason, where in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        files = sorted(set(where))
        shown = ", ".join(Path(f).name for f in files[:3]) + (", ..." if len(files) > 3 else "")
        terminalreporter.write_line(f"{len(where):4d} skipped ({shown}): {reason}")


# ---- fuzz counts from pytest-xdist's workers (-n): each sends its counts to the controller ----
def pytest_sessionfinish(session):
    counts = getattr(session.config, "deducer_fuzz_counts", None)
    if counts and hasattr(session.config, "workeroutput"):  # an xdist worker
        session.config.workeroutput["deducer_fuzz_counts"] = {
            test: dict(c) for test, c in counts.items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist's controller: add a finished worker's fuzz counts to the run's."""
    from collections import Counter

    got = getattr(node, "workeroutput", {}).get("deducer_fuzz_counts")
    if not got:
        return
    config = node.config
    if getattr(config, "deducer_fuzz_counts", None) is None:
        config.deducer_fuzz_counts = {}
    for test, c in got.items():
        config.deducer_fuzz_counts.setdefault(test, Counter()).update(c)


# ---- fuzz counts (added by the bad-input helper for tests/test_fuzz.py; keep at the end) ----
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print the skipped tests grouped by reason, and how many examples each fuzz test tried
    (tests/test_fuzz.py fills the counts)."""
    _skip_summary(terminalreporter)
    counts = getattr(config, "deducer_fuzz_counts", None)
    if not counts:
        return
    terminalreporter.write_sep("-", "fuzz examples tried")
    for test in sorted(counts):
        c = counts[test]
        rest = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != "tried")
        terminalreporter.write_line(f"{test}: {c['tried']} tried" + (f" ({rest})" if rest else ""))
# ---- end of fuzz counts ----
