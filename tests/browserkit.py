"""Shared set-up of the browser tests: Debian's chromium driven by Playwright.

Never `playwright install` (it downloads a browser, which fails here): the tests launch
/usr/bin/chromium (or $DEDUCER_CHROMIUM) through executable_path. A test module calls
``playwright_or_skip()`` at import; the ``browser`` fixture is registered for every test
module by conftest.py (``pytest_plugins``).
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("DEDUCER_CHROMIUM", "/usr/bin/chromium")
# the flags this machine's closed network needs (no background connections, no QUIC)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def playwright_or_skip():
    """playwright.sync_api, or skip the calling module when chromium or playwright is missing."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no chromium at {CHROMIUM} (scripts/install-browser.sh installs it, as root)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api",
                               reason="playwright not installed (run scripts/install-browser.sh)")


@pytest.fixture(scope="module")
def browser():
    """One headless chromium per test module."""
    sync_api = playwright_or_skip()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
