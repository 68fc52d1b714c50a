"""``deducer play`` in a real headless Chromium (Debian's, driven by Playwright).

The real server runs in a thread on a free 127.0.0.1 port. Skipped only when
/usr/bin/chromium or the playwright package is missing (scripts/install-browser.sh
installs both; never ``playwright install``). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browserkit import opened, play_server, playwright_or_skip

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ROOT = Path(__file__).resolve().parents[1]
FOUR = (ROOT / "puzzles" / "seed002-four.txt").read_text(encoding="utf-8")
TWO = "\\|4\\|4\\\n\\4||\n\\4||\n"

sync_api = playwright_or_skip()
from deducer.puzzle import formats  # noqa: E402

# what the page shows in every white cell: digit, visible pencil marks, classes
STATE_JS = """() => {
  const out = {};
  document.querySelectorAll('#board .sq.w').forEach(e => {
    const marks = [...e.querySelectorAll('.m')].map(m => m.textContent).join('');
    const visible = getComputedStyle(e.querySelector('.marks')).visibility !== 'hidden';
    out[e.dataset.r + ',' + e.dataset.c] = {
      digit: e.querySelector('.d').textContent, marks: marks, marksShown: visible,
      cls: e.className.split(' ').filter(c => !['sq', 'w'].includes(c)).sort().join(' ')};
  });
  return out;
}"""


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("playroot")
    (d / "four.txt").write_text(FOUR, encoding="utf-8")
    (d / "two.txt").write_text(TWO, encoding="utf-8")
    (d / "big.txt").write_text(formats.dumps(big_puzzle(31, 46), "pipe"), encoding="utf-8")
    (d / "k.j").write_text((ROOT / "puzzles" / "seed000-k.j").read_text(), encoding="utf-8")
    # what a project folder holds beside puzzles, with puzzle-like extensions
    (d / "expected.json").write_text('{"k.j": {"status": "multiple"}}', encoding="utf-8")
    (d / "deducer.egg-info").mkdir()
    (d / "deducer.egg-info" / "SOURCES.txt").write_text("README.md\ndeducer/api.py\n")
    return d


def big_puzzle(rows: int, cols: int):
    """A rows x cols board (the size of janko 960) without the corpus: 4x4 blocks of
    white cells between black lines, digits (r + 2c) mod 9 + 1 (distinct in every run),
    the clues their sums."""
    from deducer.puzzle.model import Puzzle, Square

    def digit(r, c):
        return (r + 2 * c) % 9 + 1

    def white(r, c):
        return r < rows and c < cols and r % 5 and c % 5

    squares = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if white(r, c):
                row.append(Square(True))
                continue
            across = down = None
            if white(r, c + 1):
                across = sum(digit(r, x) for x in range(c + 1, c + 5) if white(r, x))
            if white(r + 1, c):
                down = sum(digit(y, c) for y in range(r + 1, r + 5) if white(y, c))
            row.append(Square(False, down, across))
        squares.append(tuple(row))
    return Puzzle(tuple(squares)).validate()


@pytest.fixture(scope="module")
def server(root):
    with play_server(root, root / "four.txt") as url:
        yield url


@pytest.fixture()
def page(browser, server):
    """A fresh page (empty localStorage) on the server, with page errors collected."""
    with opened(browser, server, viewport={"width": 1200, "height": 760},
                accept_downloads=True) as pg:
        yield pg


def state(pg) -> dict:
    return pg.evaluate(STATE_JS)


def wait_idle(pg) -> None:
    pg.wait_for_function("() => !document.body.classList.contains('busy')")


def message(pg) -> str:
    wait_idle(pg)
    return pg.inner_text("#message")


def cell(pg, r: int, c: int):
    return pg.locator(f"#board .sq[data-r='{r}'][data-c='{c}']")


def test_play_to_the_end_by_keyboard_with_undo_redo_marks_and_check(page, server):
    pg = page
    s = state(pg)
    assert set(s) == {"1,1", "1,2", "2,1", "2,2"}
    assert "sel" in s["1,1"]["cls"]  # the first white cell starts selected
    pg.locator("#board").focus()
    # a wrong digit, then two pencil marks under it (Shift+digit by event.code)
    pg.keyboard.press("4")
    pg.keyboard.press("Shift+Digit2")
    pg.keyboard.press("Shift+Digit4")
    s = state(pg)["1,1"]
    assert s["digit"] == "4" and s["marks"] == "24" and not s["marksShown"]
    # check: the wrong entry is highlighted
    pg.click("#btn-check")
    assert "wrong" in message(pg).lower()
    assert "wrong" in state(pg)["1,1"]["cls"].split()
    # undo three times (keyboard and button), redo them all
    pg.locator("#board").focus()
    pg.keyboard.press("Control+z")
    assert state(pg)["1,1"]["marks"] == "2"
    pg.click("#btn-undo")
    assert state(pg)["1,1"] == {**state(pg)["1,1"], "digit": "4", "marks": ""}
    pg.locator("#board").focus()
    pg.keyboard.press("Control+z")
    assert state(pg)["1,1"]["digit"] == ""
    assert pg.is_disabled("#btn-undo")
    pg.keyboard.press("Control+y")
    pg.click("#btn-redo")
    pg.locator("#board").focus()
    pg.keyboard.press("Control+Shift+z")
    s = state(pg)["1,1"]
    assert s["digit"] == "4" and s["marks"] == "24"
    assert pg.is_disabled("#btn-redo")
    # Delete clears the entry and the marks underneath show again
    pg.keyboard.press("Delete")
    s = state(pg)["1,1"]
    assert s["digit"] == "" and s["marks"] == "24" and s["marksShown"]
    # Shift+Numpad digit toggles a mark too
    pg.keyboard.press("Shift+Numpad4")
    assert state(pg)["1,1"]["marks"] == "2"
    # the rest by keyboard, moving with the arrow keys
    pg.keyboard.press("2")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("7")
    pg.keyboard.press("ArrowRight")  # no white cell further right: stays
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("Backspace")  # nothing to clear: harmless
    pg.keyboard.press("9")
    pg.keyboard.press("ArrowLeft")
    pg.keyboard.press("3")
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    s = state(pg)
    assert {k: v["digit"] for k, v in s.items()} == {"1,1": "2", "1,2": "7", "2,1": "3",
                                                     "2,2": "9"}
    assert not any("wrong" in v["cls"].split() for v in s.values())
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "play-solved.png"))
    # progress and history survive a reload
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    s = state(pg)
    assert {k: v["digit"] for k, v in s.items()} == {"1,1": "2", "1,2": "7", "2,1": "3",
                                                     "2,2": "9"}
    assert "restored" in message(pg)
    pg.click("#btn-undo")
    assert state(pg)["2,1"]["digit"] == ""


def test_hints_of_each_tier_and_apply(page):
    pg = page
    pg.click("#hint-vague")
    wait_idle(pg)
    assert pg.inner_text("#hint-level") == "Hint (vague)"
    assert pg.inner_text("#hint-text").startswith("Look for")
    assert pg.locator("#board .hintrun, #board .hintcell").count() == 0
    pg.click("#hint-concrete")
    wait_idle(pg)
    # no pencil marks: the hint leads to the next digit (r3c2), from r1c3↓ 16/2 on
    assert "r1c3↓ 16/2" in pg.inner_text("#hint-text")
    assert "hintcell" in state(pg)["2,1"]["cls"].split()
    assert pg.locator("#board .sq.clue.hintclue[data-r='0'][data-c='2']").count() == 1
    pg.click("#hint-full")
    wait_idle(pg)
    text = pg.inner_text("#hint-text")
    assert "7+9" in text and text.splitlines()[0].startswith("1. ")  # one line per step
    assert "Looking for" not in pg.inner_text("#message")  # no busy note left behind
    pg.click("#hint-apply")
    wait_idle(pg)
    s = state(pg)
    assert s["2,1"]["digit"] == "3" and s["1,2"]["marks"] == ""  # the digit, no stray marks
    # the picture: pencil marks, a wrong entry found by Check, the full hint
    cell(pg, 2, 1).click()
    pg.keyboard.press("5")
    pg.keyboard.press("Shift+Digit3")
    pg.keyboard.press("Shift+Digit5")
    cell(pg, 1, 1).click()
    pg.keyboard.press("Shift+Digit2")
    pg.keyboard.press("Shift+Digit4")
    pg.click("#btn-check")
    assert "1 wrong entry" in message(pg)
    pg.click("#hint-full")
    wait_idle(pg)
    assert "wrong" in state(pg)["2,1"]["cls"].split()
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "play.png"))
    for _ in range(5):  # the marks, the entry and its two marks; then the applied hint
        pg.click("#btn-undo")
    assert state(pg)["2,1"] == {**state(pg)["2,1"], "digit": "3", "marks": ""}
    pg.click("#btn-undo")
    assert state(pg)["2,1"]["digit"] == ""
    # a hint on a wrong entry points at it
    cell(pg, 1, 1).click()
    pg.keyboard.press("5")
    pg.click("#hint-concrete")
    wait_idle(pg)
    assert "r2c2" in pg.inner_text("#hint-text")
    assert "wrong" in state(pg)["1,1"]["cls"].split()
    pg.click("#hint-apply")
    wait_idle(pg)
    assert state(pg)["1,1"]["digit"] == ""


def test_auto_marks_solve_and_clear(page):
    pg = page
    pg.click("#btn-marks")
    wait_idle(pg)
    s = state(pg)
    # what a player pencils in from the runs' combinations, not the solution
    assert {k: v["marks"] for k, v in s.items()} == {"1,1": "1234", "1,2": "79",
                                                     "2,1": "34", "2,2": "79"}
    pg.click("#btn-solve")
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    assert [v["digit"] for v in state(pg).values()] == ["2", "7", "3", "9"]
    pg.click("#btn-clear")
    s = state(pg)
    assert all(v["digit"] == "" and v["marks"] == "" for v in s.values())
    pg.click("#btn-undo")
    assert [v["digit"] for v in state(pg).values()] == ["2", "7", "3", "9"]


def test_save_download_and_reopen(page, root):
    pg = page
    cell(pg, 1, 1).click()
    pg.keyboard.press("2")
    pg.keyboard.press("Shift+Digit1")
    cell(pg, 2, 2).click()
    pg.keyboard.press("Shift+Digit7")
    pg.keyboard.press("Shift+Digit9")
    # save into the server's folder
    target = root / "saved.txt"
    if target.exists():
        target.unlink()
    pg.fill("#save-path", "saved.txt")
    pg.click("#btn-save")
    assert "Saved saved.txt" in message(pg)
    assert target.read_text() == "\\|5\\|16\\\n\\|2(1)|\n\\12||(7,9)\n"
    # saving again asks first; refusing keeps the file, accepting overwrites it
    cell(pg, 1, 2).click()
    pg.keyboard.press("7")
    pg.once("dialog", lambda d: d.dismiss())
    pg.click("#btn-save")
    assert "Not saved" in message(pg)
    assert "7" not in target.read_text().split("\n")[1]
    pg.once("dialog", lambda d: d.accept())
    pg.click("#btn-save")
    assert "Saved" in message(pg)
    assert target.read_text().split("\n")[1] == "\\|2(1)|7"
    # download as JSON
    pg.select_option("#save-format", "json")
    with pg.expect_download() as dl:
        pg.click("#btn-download")
    path = dl.value.path()
    downloaded = formats.load(path, "json")
    assert downloaded.entries == {(1, 1): 2, (1, 2): 7}
    assert downloaded.pencil == {(1, 1): 1, (2, 2): 0b101000000}
    # clear, then reopen the saved file three ways: folder list, file picker, drop
    pg.click("#btn-clear")
    assert all(v["digit"] == "" for v in state(pg).values())
    pg.select_option("#server-files", "saved.txt")
    wait_idle(pg)
    s = state(pg)
    assert s["1,1"]["digit"] == "2" and s["1,2"]["digit"] == "7" and s["2,2"]["marks"] == "79"
    pg.click("#btn-clear")
    pg.set_input_files("#file-input", str(path))
    pg.wait_for_function("() => document.querySelector('#board .sq.w .d').textContent === '2'")
    wait_idle(pg)
    assert state(pg)["1,2"]["digit"] == "7"
    pg.click("#btn-clear")
    pg.evaluate("""(text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.txt', {type: 'text/plain'}));
        for (const type of ['dragenter', 'dragover', 'drop'])
          window.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true,
                                                     cancelable: true}));
    }""", target.read_text())
    pg.wait_for_function("() => document.querySelector('#title').textContent.includes('dropped')")
    wait_idle(pg)
    assert state(pg)["1,2"]["digit"] == "7"
    assert pg.is_hidden("#drop-overlay")


def test_check_on_a_puzzle_with_two_solutions(page):
    pg = page
    pg.select_option("#server-files", "two.txt")
    wait_idle(pg)
    assert "more than one solution" in message(pg)
    cell(pg, 1, 1).click()
    pg.keyboard.press("3")  # the second solution's digit: fine
    pg.click("#btn-check")
    assert "fits a solution" in message(pg)
    assert "wrong" not in state(pg)["1,1"]["cls"].split()
    pg.keyboard.press("2")  # in no solution
    pg.click("#btn-check")
    assert "wrong" in message(pg)
    assert "wrong" in state(pg)["1,1"]["cls"].split()


def test_editor_refuses_two_solutions_then_accepts_the_fix(page):
    pg = page
    pg.click("#btn-new")
    assert pg.is_visible("#editor-view") and pg.is_hidden("#play-view")
    pg.fill("#ed-rows", "3")
    pg.fill("#ed-cols", "3")
    pg.click("#ed-grid")
    ed = "#editor-board .ecell[data-r='{}'][data-c='{}']"
    pg.check("input[name=tool][value=clue]")
    for (r, c), (field, value) in {(0, 1): ("down", "4"), (0, 2): ("down", "4"),
                                   (1, 0): ("across", "4"), (2, 0): ("across", "4")}.items():
        pg.click(ed.format(r, c))
        pg.fill(ed.format(r, c) + f" .in-{field}", value)
    pg.fill("#ed-name", "mine")
    pg.click("#ed-create")
    pg.wait_for_function("() => document.querySelector('#ed-message').className === 'err'")
    assert "more than one solution" in pg.inner_text("#ed-message")
    assert pg.locator("#editor-board .ecell.diff").count() == 4
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "play-editor.png"))
    # the fix: the second row and column sum to 11 (3+8), which the swap cannot reach
    pg.fill(ed.format(0, 2) + " .in-down", "11")
    pg.fill(ed.format(2, 0) + " .in-across", "11")
    pg.click("#ed-create")
    pg.wait_for_selector("#play-view:not([hidden])")
    assert pg.is_hidden("#editor-view")
    assert "mine" in pg.inner_text("#title")
    assert len(state(pg)) == 4
    pg.click("#btn-solve")
    pg.wait_for_function("() => document.querySelector('#message').textContent.includes('Solved')")
    assert [v["digit"] for v in state(pg).values()] == ["1", "3", "3", "8"]
    # editing it again: a clue that no two digits reach is refused with its square named
    pg.click("#btn-edit")
    pg.fill(ed.format(0, 1) + " .in-down", "2")
    pg.click("#ed-create")
    pg.wait_for_function("() => document.querySelector('#ed-message').className === 'err'")
    assert "r1c2" in pg.inner_text("#ed-message")
    pg.click("#ed-cancel")
    assert pg.is_visible("#play-view")


def inside_viewport(pg, selector: str) -> bool:
    box = pg.locator(selector).bounding_box()
    view = pg.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= view["width"]
            and box["y"] + box["height"] <= view["height"])


def test_a_big_board_scales_to_the_window_and_the_hint_stays_on_screen(page):
    pg = page
    pg.select_option("#server-files", "big.txt")
    wait_idle(pg)
    assert "31×46" in pg.inner_text("#title")
    pg.click("#hint-concrete")
    wait_idle(pg)
    assert inside_viewport(pg, "#board")  # was 2,414 px wide
    assert inside_viewport(pg, "#hint-box")
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "play-big.png"))
    # and grows back on a small puzzle, up to its full size
    pg.select_option("#server-files", "four.txt")
    wait_idle(pg)
    assert cell(pg, 1, 1).bounding_box()["width"] >= 50
    # a narrow window puts the side panel under the board; below the smallest usable
    # square the board scrolls inside its frame, and the page itself stays in the window
    pg.set_viewport_size({"width": 600, "height": 800})
    pg.select_option("#server-files", "big.txt")
    wait_idle(pg)
    assert pg.locator("#board-wrap").bounding_box()["width"] <= 600
    assert pg.evaluate("document.documentElement.scrollWidth") <= 600
    side, wrap = (pg.locator(s).bounding_box() for s in ("#side", "#board-wrap"))
    assert side["y"] >= wrap["y"] + wrap["height"] - 1


def test_a_file_of_several_puzzles_offers_a_choice(page, root):
    pg = page
    pg.select_option("#server-files", "k.j")
    pg.wait_for_selector("#chooser:not([hidden])")
    assert "holds 8 puzzles" in pg.inner_text("#chooser")
    assert "--name" not in pg.inner_text("body")
    pg.select_option("#chooser-name", "k3")
    pg.click("#chooser-open")
    pg.wait_for_function("() => document.querySelector('#title').textContent.includes('k3')")
    assert pg.is_hidden("#chooser")
    # the same from a file picked on this computer
    pg.set_input_files("#file-input", str(root / "k.j"))
    pg.wait_for_selector("#chooser:not([hidden])")
    pg.select_option("#chooser-name", "k2")
    pg.click("#chooser-open")
    pg.wait_for_function("() => document.querySelector('#title').textContent.includes('k2')")


def test_folder_list_holds_puzzle_files_only(page):
    # the list arrives after the page is ready: wait for it
    page.wait_for_function("() => document.querySelectorAll('#server-files option').length > 1")
    values = page.eval_on_selector_all("#server-files option", "os => os.map(o => o.value)")
    assert "expected.json" not in values
    assert not any(v.startswith("deducer.egg-info") for v in values)
    assert {"four.txt", "two.txt", "big.txt", "k.j"} <= set(values)


def test_save_is_not_on_the_hint_row(page):
    row = "el => el.closest('.toolrow').id"
    assert page.eval_on_selector("#btn-save", row) != page.eval_on_selector("#hint-apply", row)
    save, hint = (page.locator(s).bounding_box() for s in ("#btn-save", "#hint-apply"))
    assert save["y"] + save["height"] <= hint["y"]  # the file row is above the play row
