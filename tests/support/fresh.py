"""Run a few lines in a fresh interpreter: what a first call imports is only seen from a
process that has imported nothing yet (the test process has imported everything)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def fresh_python(code: str, cwd: Path) -> list[str]:
    """The lines ``python -c code`` prints, run in ``cwd`` (which must not fail)."""
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, check=True).stdout.splitlines()
