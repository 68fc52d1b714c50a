"""The play page's "Why not?" (static/why.js) in a real headless Chromium: a button per
pencil mark of the selected cell, and the answer in the hint box with its cells lit."""

from __future__ import annotations

from pathlib import Path

import pytest
from browserkit import play_puzzle, playwright_or_skip

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

sync_api = playwright_or_skip()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with play_puzzle(tmp_path_factory.mktemp("play"), "seed000-k2.j") as url:
        yield url


def test_why_not_a_pencil_mark(laptop):
    pg = laptop
    assert pg.locator("#why-group button").count() == 0  # no marks: nothing to ask
    pg.locator("#board .sq[data-r='3'][data-c='2']").click()  # r4c3 (its digit is 7)
    pg.keyboard.press("Shift+Digit4")
    pg.keyboard.press("Shift+Digit7")
    buttons = pg.locator("#why-group button.why-digit")
    # the buttons follow each key as it is let go: wait for the second
    pg.wait_for_function("() => document.querySelectorAll('#why-group .why-digit').length == 2")
    assert buttons.all_inner_texts() == ["4", "7"]
    pg.locator("#why-group button.why-digit", has_text="4").click()
    pg.wait_for_function("() => !document.body.classList.contains('busy')")
    pg.wait_for_selector("#hint-box:not([hidden])")
    assert pg.inner_text("#hint-level") == "Why not 4 in r4c3?"
    text = pg.inner_text("#hint-text")
    # issue 51: r1c3↓ 34/5's unique combination writes r3c3 = 4 itself, after r3c1→ 7/3's
    assert text.startswith("Why 4 cannot go in r4c3: 2 steps")
    assert "r3c3, which is then 4" in text
    lit = pg.locator("#board .sq.hintcell")
    assert lit.count() >= 2  # the cells of the steps, r4c3 among them
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "why-not.png"))
    pg.locator("#why-group button.why-digit", has_text="7").click()
    pg.wait_for_function("() => document.getElementById('hint-text').textContent"
                         ".includes('solution digit')")
    assert pg.inner_text("#hint-level") == "Why not 7 in r4c3?"
