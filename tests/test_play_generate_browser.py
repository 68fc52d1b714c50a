"""The play page's "New puzzle" says it is still looking while the server searches (issue
55: an Extreme 10x10 puzzle can take most of the server's minute). The server's answer is
held back by the test (a route), so no puzzle is searched for."""

from __future__ import annotations

import json

import pytest
from browserkit import play_puzzle, playwright_or_skip

sync_api = playwright_or_skip()


@pytest.fixture()
def server(tmp_path):
    with play_puzzle(tmp_path, "seed002-four.txt") as url:
        yield url


def test_new_puzzle_says_it_is_still_looking_then_shows_the_puzzle(laptop):
    pg = laptop
    held: list = []
    pg.route("**/api/generate", lambda route: held.append(route))
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
