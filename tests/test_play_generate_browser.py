"""The play page's "New puzzle" says it is still looking while the server searches (issue
55: an Extreme 10x10 puzzle can take most of the server's minute). The server's answer is
held back by the test (a route), so no puzzle is searched for."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from browserkit import playwright_or_skip

ROOT = Path(__file__).resolve().parents[1]
sync_api = playwright_or_skip()


@pytest.fixture()
def server(tmp_path):
    from deducer.app.play.server import create_app, make_server, stop_server

    (tmp_path / "four.txt").write_text((ROOT / "puzzles" / "seed002-four.txt").read_text())
    srv = make_server(create_app(tmp_path, str(tmp_path / "four.txt")), 0)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.effective_port}/"
    stop_server(srv)
    thread.join(5)


def test_new_puzzle_says_it_is_still_looking_then_shows_the_puzzle(browser, server):
    ctx = browser.new_context(viewport={"width": 1200, "height": 760})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    held: list = []
    pg.route("**/api/generate", lambda route: held.append(route))
    pg.goto(server)
    pg.wait_for_selector("#board .sq.w")
    pg.select_option("#gen-level", "Extreme")
    pg.click("#btn-generate")
    pg.wait_for_selector('#message:has-text("still looking")', timeout=20000)
    text = pg.text_content("#message")
    assert text.startswith("Generating a puzzle… still looking (") and " s;" in text
    assert held, "the request was made"
    # the answer arrives (asked, to be quick, for a small Easy one): the message goes and
    # the new puzzle is on the board
    held[0].continue_(post_data=json.dumps({"size": "6x6", "level": "Easy", "seed": 1}))
    pg.wait_for_selector('#message:not(:has-text("still looking"))', timeout=120000)
    assert "still looking" not in pg.text_content("#message")
    pg.wait_for_function("() => document.querySelectorAll('#board .sq.w').length > 4")
    assert not errors
    ctx.close()
