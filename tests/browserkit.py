"""Shared set-up of the browser tests: Debian's chromium driven by Playwright.

Never `playwright install` (it downloads a browser, which fails here): the tests launch
/usr/bin/chromium (or $DEDUCER_CHROMIUM) through executable_path. A test module calls
``playwright_or_skip()`` at import; the ``browser`` fixture is registered for every test
module by conftest.py (``pytest_plugins``). ``play_server`` runs `deducer play`'s own
server on a folder; ``opened`` (or ``open_page``) is a fresh page (its own context: empty
localStorage) at a size of ``SIZES`` that fails the test on a script error; the ``laptop``
and ``phone`` fixtures are such a page on the test module's own ``server`` fixture.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


#: the screens the tests play on: a laptop (mouse and keyboard) and a phone held upright
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
SIZES = {"laptop": LAPTOP, "phone": PHONE}
#: the play page once its scripts have opened the start puzzle
READY = "body[data-ready='1']"
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


@contextmanager
def play_puzzle(folder: Path, name: str) -> Iterator[str]:
    """play_server on ``folder`` given a copy of the bundled ``puzzles/<name>`` to start on."""
    (folder / name).write_text((PUZZLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    with play_server(folder, folder / name) as url:
        yield url


@contextmanager
def play_server(root: Path, start: Path | str, port: int = 0) -> Iterator[str]:
    """The server `deducer play` runs (waitress) on ``root``, opening ``start`` (a file or a
    link), on 127.0.0.1:``port`` (0: a free one) in a thread: its address while the block
    runs."""
    from deducer.app.play.server import create_app, make_server, stop_server

    srv = make_server(create_app(root, str(start)), port)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.effective_port}/"
    finally:
        stop_server(srv)
        thread.join(5)


def open_page(browser, url: str, *, ready: str = READY, **context):
    """(context, page): ``url`` opened in a fresh context (``context`` is new_context's
    options) once ``ready`` is on the page. ``page.errors`` collects its script errors and
    console errors, but for the 4xx answers the page itself asks for and reports."""
    ctx = browser.new_context(**context)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error"
          and "server responded with a status of 4" not in m.text else None)
    pg.errors = errors
    pg.goto(url)
    pg.wait_for_selector(ready)
    return ctx, pg


@contextmanager
def opened(browser, url: str, **options) -> Iterator:
    """open_page's page for the block; then its context closed, and the test fails if the
    page had an error."""
    ctx, pg = open_page(browser, url, **options)
    try:
        yield pg
    finally:
        ctx.close()
    assert not pg.errors, pg.errors


@pytest.fixture()
def laptop(browser, server):
    """A fresh page at laptop size on the test module's ``server`` (its address)."""
    with opened(browser, server, **LAPTOP, accept_downloads=True) as pg:
        yield pg


@pytest.fixture()
def phone(browser, server):
    """A fresh page on a 390x844 touch screen (a phone held upright) on the module's
    ``server``."""
    with opened(browser, server, **PHONE, accept_downloads=True) as pg:
        yield pg
