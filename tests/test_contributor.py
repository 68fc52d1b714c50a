"""What the next contributor meets first (issue 36): bare ``pytest`` works from the
repository's root, and the docs name only helpers and modules that exist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
