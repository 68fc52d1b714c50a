"""The play page's player tools in a real headless Chromium, as a person uses them, on a
laptop (1280x800, mouse and keyboard) and on a phone (390x844, taps): highlight a digit,
colour pencil marks, "What if" and back, a link that reopens the position, "Save my solve".

Screenshots go to tests/artifacts/ (play-tools-*.png).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browserkit import READY, SIZES, opened, play_server, playwright_or_skip

sync_api = playwright_or_skip()
import test_play_browser as play  # noqa: E402
from test_play_browser import ARTIFACTS, cell, message, state, wait_idle  # noqa: E402

from deducer import api  # noqa: E402
from deducer.puzzle import formats  # noqa: E402

# the play folder and the server of test_play_browser.py (started on four.txt), shared
root, server = play.root, play.server

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
FOUR_LINK = "https://puzz.link/p?kakuro/2/2/n5g-c"
# the page's own state, beyond what the board shows
GRID_JS = """() => ({entries: [...S.entries].sort(), pencil: [...S.pencil].sort(),
  colours: [...S.colours].sort(), undo: S.undo.length, redo: S.redo.length,
  moves: S.moves.length})"""


@pytest.fixture(params=sorted(SIZES))
def person(request, browser, server):
    """(page, size): a fresh page on the server (empty localStorage) at one of the sizes."""
    with opened(browser, server, **SIZES[request.param], accept_downloads=True,
                permissions=["clipboard-read", "clipboard-write"]) as pg:
        yield pg, request.param


def press(pg, size: str, selector: str) -> None:
    """A button pressed as the person does: tapped on the phone, clicked on the laptop."""
    if size == "phone":
        pg.tap(selector)
    else:
        pg.click(selector)


def pad(pg, size: str, d: int) -> None:
    press(pg, size, f"#pad-digits button[data-d='{d}']")


def write(pg, size: str, r: int, c: int, d: int) -> None:
    """Digit ``d`` into cell (r, c): tap and the pad on the phone, click and a key on a laptop."""
    if size == "phone":
        cell(pg, r, c).tap()
        pad(pg, size, d)
    else:
        cell(pg, r, c).click()
        pg.keyboard.press(str(d))


def pencil(pg, size: str, r: int, c: int, digits) -> None:
    if size == "phone":
        cell(pg, r, c).tap()
        pg.tap("#pad-pencil")
        for d in digits:
            pad(pg, size, d)
        pg.tap("#pad-pencil")
    else:
        cell(pg, r, c).click()
        for d in digits:
            pg.keyboard.press(f"Shift+Digit{d}")


def position(pg) -> dict[str, tuple[str, str]]:
    """What the board shows of each white cell: (digit, pencil marks)."""
    return {k: (v["digit"], v["marks"]) for k, v in state(pg).items()}


def keys(pg, cls: str) -> set[tuple[int, int]]:
    return {tuple(map(int, k.split(","))) for k in pg.eval_on_selector_all(
        f"#board .{cls}", "es => es.map(e => e.dataset.r + ',' + e.dataset.c)")}


def mark_classes(pg, r: int, c: int) -> dict[str, str]:
    """The visible pencil marks of a cell and their classes: {"1": "c1", "3": "c2 hl"}."""
    return pg.eval_on_selector_all(
        f"#sq-{r}-{c} .m", "ms => Object.fromEntries(ms.filter(m => m.textContent)"
        ".map(m => [m.textContent, [...m.classList].filter(x => x !== 'm').sort().join(' ')]))")


def open_files(pg, size: str) -> None:
    """On the phone the file row (save, link) is folded behind Files."""
    if size == "phone" and pg.is_hidden("#btn-record"):
        pg.tap("#btn-menu")


def shot(pg, name: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"play-tools-{name}-{size}.png"))


# ---- highlight a digit -----------------------------------------------------------------------
def test_highlight_every_cell_holding_a_digit(person):
    pg, size = person
    write(pg, size, 1, 2, 7)
    pencil(pg, size, 2, 2, [7, 9])
    if size == "phone":
        pg.tap("#pad-find")
        assert pg.get_attribute("#pad-find", "aria-pressed") == "true"
        pad(pg, size, 7)
        assert pg.get_attribute("#pad-digits button[data-d='7']", "aria-pressed") == "true"
        assert pg.get_by_role("button", name="highlight 7").count() == 1
    else:
        pg.keyboard.press("Alt+Digit7")
    # the cell holding 7, and the cell with 7 pencilled in, its mark picked out
    assert keys(pg, "hl-digit") == {(1, 2)}
    assert keys(pg, "hl-mark") == {(2, 2)}
    assert mark_classes(pg, 2, 2) == {"7": "hl", "9": ""}
    assert "Highlighting 7: 1 cell holds it, 1 more has it pencilled in" in message(pg)
    shot(pg, "highlight", size)
    # the highlight follows the grid as it changes
    if size == "phone":
        pg.tap("#pad-find")  # the pad writes digits again
        write(pg, size, 2, 1, 7)
    else:
        write(pg, size, 2, 1, 7)
    assert keys(pg, "hl-digit") == {(1, 2), (2, 1)}
    # and goes: the same digit again (phone), Alt+0 (laptop)
    if size == "phone":
        pg.tap("#pad-find")
        pad(pg, size, 7)
    else:
        pg.keyboard.press("Alt+Digit0")
    assert keys(pg, "hl-digit") == set() and keys(pg, "hl-mark") == set()
    assert mark_classes(pg, 2, 2) == {"7": "", "9": ""}


# ---- colour pencil marks -----------------------------------------------------------------------
def test_colour_pencil_marks_in_two_colours(person):
    pg, size = person
    press(pg, size, "#sq-1-1")
    blue = pg.get_by_role("button", name="colour pencil marks blue")
    orange = pg.get_by_role("button", name="colour pencil marks orange")
    if size == "phone":
        blue.tap()
        pad(pg, size, 1)
        pad(pg, size, 3)
        orange.tap()
        pad(pg, size, 3)
        orange.tap()  # off: the pad writes digits again
    else:
        pg.locator("#board").focus()
        pg.keyboard.press("c")  # blue
        assert blue.get_attribute("aria-pressed") == "true"
        pg.keyboard.press("1")
        pg.keyboard.press("3")
        pg.keyboard.press("c")  # orange
        assert orange.get_attribute("aria-pressed") == "true"
        assert blue.get_attribute("aria-pressed") == "false"
        pg.keyboard.press("3")
        pg.keyboard.press("c")  # off
    assert blue.get_attribute("aria-pressed") == "false"
    assert orange.get_attribute("aria-pressed") == "false"
    # the marks were pencilled in by colouring them; 3 went from blue to orange
    assert state(pg)["1,1"]["marks"] == "13" and state(pg)["1,1"]["digit"] == ""
    assert mark_classes(pg, 1, 1) == {"1": "c1", "3": "c2"}
    heard = ("r2c2, across without a clue in 2 cells, down 5 in 2 cells: pencil marks 1 3; "
             "blue 1; orange 3")
    assert pg.get_by_role("gridcell", name=heard, exact=True).count() == 1
    shot(pg, "colours", size)
    # colours undo like any change; a mark rubbed out loses its colour
    press(pg, size, "#pad-undo" if size == "phone" else "#btn-undo")
    assert mark_classes(pg, 1, 1) == {"1": "c1", "3": "c1"}
    press(pg, size, "#pad-redo" if size == "phone" else "#btn-redo")
    pencil(pg, size, 1, 1, [1])  # rubbed out
    pencil(pg, size, 1, 1, [1])  # back, plain
    assert mark_classes(pg, 1, 1) == {"1": "", "3": "c2"}
    # kept over a reload
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert mark_classes(pg, 1, 1) == {"1": "", "3": "c2"}


# ---- what if --------------------------------------------------------------------------------
def test_what_if_shows_what_follows_and_comes_back_as_it_was(person):
    pg, size = person
    write(pg, size, 1, 2, 7)
    pencil(pg, size, 1, 1, [1, 2, 4])
    if size == "phone":
        pg.tap("#pad-colour2")
        pad(pg, size, 4)
        pg.tap("#pad-colour2")
    else:
        pg.keyboard.press("c")
        pg.keyboard.press("c")
        pg.keyboard.press("4")
        pg.keyboard.press("c")
    before, board = pg.evaluate(GRID_JS), state(pg)
    assert before["colours"] and before["entries"] == [["1,2", 7]]
    # into the branch (by keyboard on the laptop: the button takes Enter)
    if size == "phone":
        pg.tap("#btn-whatif")
    else:
        pg.focus("#btn-whatif")
        pg.keyboard.press("Enter")
    assert pg.get_attribute("#btn-whatif", "aria-pressed") == "true"
    assert pg.is_visible("#branch-bar") and "Nothing here is kept" in pg.inner_text("#branch-bar")
    assert pg.is_disabled("#btn-link") and pg.is_disabled("#btn-record")
    # 4 in r2c2: r3c2 must be 1, and row 3's 12 cannot be made with a 1
    write(pg, size, 1, 1, 4)
    wait_idle(pg)
    assert pg.is_visible("#chain")
    assert "4 cannot go in r2c2" in message(pg)
    assert pg.inner_text("#hint-level") == "What if r2c2 were 4?"
    # one link, then the contradiction (which is not counted as a link)
    assert pg.inner_text("#chain-text").startswith("You wrote 4 in r2c2. Follow the 1 link ")
    assert keys(pg, "assume") == {(1, 1)}
    press(pg, size, "#chain-next")
    assert "link 1 of 1" in pg.inner_text("#chain-head")
    assert pg.inner_text("#chain-text").startswith("(1) r1c2↓ 5/2 has one empty cell left")
    assert pg.inner_text("#sq-2-1 .ghost.now") == "1"  # the digit the link writes
    shot(pg, "whatif-link", size)
    press(pg, size, "#chain-next")
    assert "contra" in pg.get_attribute("#board .link-no", "class")
    assert ": the contradiction" in pg.inner_text("#chain-head")
    press(pg, size, "#chain-next")
    assert pg.inner_text("#chain-head").startswith("Where it leads")
    assert "4 cannot go in r2c2" in pg.inner_text("#chain-text")
    assert pg.is_disabled("#chain-next")
    shot(pg, "whatif-end", size)
    # the right digit: the rest follows, and can be written into the branch
    write(pg, size, 1, 1, 2)
    wait_idle(pg)
    assert "fill in every cell" in message(pg)
    press(pg, size, "#branch-apply")
    assert {k: v["digit"] for k, v in state(pg).items()} == {
        "1,1": "2", "1,2": "7", "2,1": "3", "2,2": "9"}
    # back to the grid as it was: entries, marks, colours, undo history, no moves added
    press(pg, size, "#branch-back")
    assert "Back to your grid" in message(pg)
    assert pg.evaluate(GRID_JS) == before and state(pg) == board
    assert mark_classes(pg, 1, 1) == {"1": "", "2": "", "4": "c2"}
    assert pg.get_attribute("#btn-whatif", "aria-pressed") == "false"
    assert pg.is_hidden("#branch-bar") and pg.is_hidden("#hint-box")
    assert not pg.is_disabled("#btn-record")


def test_a_reload_in_a_branch_keeps_the_players_grid(person):
    pg, size = person
    write(pg, size, 1, 2, 7)
    before = pg.evaluate(GRID_JS)
    press(pg, size, "#btn-whatif")
    write(pg, size, 1, 1, 5)
    wait_idle(pg)
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.evaluate(GRID_JS) == before
    assert pg.is_hidden("#branch-bar")
    # another puzzle opened in a branch ends it, and starts from its own grid
    press(pg, size, "#btn-whatif")
    write(pg, size, 1, 1, 5)
    wait_idle(pg)
    if size == "phone":
        pg.tap("#btn-menu")
    pg.select_option("#server-files", "two.txt")
    wait_idle(pg)
    assert all(v == ("", "") for v in position(pg).values())
    assert pg.is_hidden("#branch-bar") and not pg.is_disabled("#btn-record")


# ---- a link that reopens the position --------------------------------------------------------
def test_the_link_reopens_the_same_position(person, browser, server):
    pg, size = person
    write(pg, size, 1, 1, 2)
    pencil(pg, size, 1, 2, [7, 9])
    pencil(pg, size, 2, 1, [3])
    before = position(pg)
    open_files(pg, size)
    press(pg, size, "#btn-link")
    wait_idle(pg)
    link = pg.input_value("#link-text")
    assert link == FOUR_LINK + "#e=2&m=Aa004"
    assert "Link copied" in message(pg)
    assert pg.evaluate("navigator.clipboard.readText()") == link
    shot(pg, "link", size)
    # the link holds the position for deducer's commands too
    p = api.load(link)
    assert p.entries == {(1, 1): 2} and p.pencil == {(1, 2): 0b101000000, (2, 1): 0b100}
    # cleared, then reopened from the link: the same grid; Undo brings the cleared one back
    press(pg, size, "#btn-clear")
    assert all(v["digit"] == "" and v["marks"] == "" for v in state(pg).values())
    open_files(pg, size)
    pg.fill("#link-text", link)
    press(pg, size, "#btn-open-link")
    wait_idle(pg)
    assert position(pg) == before
    assert "Opened the link's position" in message(pg)
    press(pg, size, "#pad-undo" if size == "phone" else "#btn-undo")
    assert all(v["digit"] == "" for v in state(pg).values())
    # another person, another browser: the same position
    with opened(browser, server, **SIZES[size]) as other:
        open_files(other, size)
        other.fill("#link-text", link)
        other.press("#link-text", "Enter")
        wait_idle(other)
        assert position(other) == before


# ---- save my solve ---------------------------------------------------------------------------
def read_moves(line: str) -> tuple[str | None, list[tuple[tuple[int, int], int | None, str, int]]]:
    """(header, [(cell (row, col), digit or None, marks, ms)]) of a solving record, read by
    the puzzle layer's moves reader."""
    from deducer.puzzle import records

    rec = records.parse(line)
    return rec.header, [(m.cell, m.digit, m.marks, m.ms) for m in rec.moves]


def test_save_my_solve_reads_back(person):
    pg, size = person
    write(pg, size, 1, 1, 4)             # wrong
    pencil(pg, size, 1, 2, [7, 9])
    write(pg, size, 1, 1, 2)             # mended
    pg.wait_for_timeout(60)              # a little thinking: times grow
    write(pg, size, 1, 2, 7)             # over its marks
    write(pg, size, 2, 1, 5)
    press(pg, size, "#pad-undo" if size == "phone" else "#btn-undo")  # an undo is a move too
    write(pg, size, 2, 1, 3)
    write(pg, size, 2, 2, 9)
    pg.wait_for_function("() => document.querySelector('#message').textContent"
                         ".includes('Well done')")
    open_files(pg, size)
    with pg.expect_download() as dl:
        press(pg, size, "#btn-record")
    wait_idle(pg)
    assert "Saved your solve (9 moves, each with its time)" in message(pg)
    saved = Path(dl.value.path())
    assert dl.value.suggested_filename == "puzzle-solve.x-janko"
    text = saved.read_text(encoding="utf-8")
    # the puzzle, read back by deducer's janko reader
    back = formats.loads(text, "janko")
    assert back.squares == formats.load(PUZZLES / "seed002-four.txt").squares
    line = text.split("moves\n", 1)[1].split("\n", 1)[0]
    header, moves = read_moves(line)
    assert header == "Z1" and len(moves) == 9
    times = [ms for *_, ms in moves]
    assert times == sorted(times) and times[4] - times[3] >= 50
    # replayed, the moves give the grid the page shows
    grid: dict = {}
    for rc, digit, marks, _ in moves:
        grid[rc] = (digit, marks)
    assert moves[0][:3] == ((1, 1), 4, "") and moves[1][:3] == ((1, 2), None, "7")
    assert moves[2][:3] == ((1, 2), None, "79") and moves[3][:3] == ((1, 1), 2, "")
    assert moves[4][:3] == ((1, 2), 7, "79")  # the digit over its marks, which it keeps
    assert moves[6][:3] == ((2, 1), None, "")  # the undo: the cell empty again
    shown = {tuple(map(int, k.split(","))): v for k, v in state(pg).items()}
    assert {rc: d for rc, (d, _) in grid.items()} == {
        rc: int(v["digit"]) for rc, v in shown.items()}
    shot(pg, "solve-saved", size)


# ---- deducer play 'LINK' -------------------------------------------------------------------------
def test_deducer_play_with_a_link_opens_its_position_once(browser, root):
    import socket

    with socket.socket() as probe:  # one port for both runs: the page's storage is per port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    ctx = browser.new_context(**SIZES["laptop"])
    pg = ctx.new_page()
    with play_server(root, FOUR_LINK + "#e=2&m=Aa004", port):
        pg.goto(url)
        pg.wait_for_selector(READY)
        assert position(pg) == {"1,1": ("2", ""), "1,2": ("", "79"), "2,1": ("", "3"),
                                "2,2": ("", "")}
        assert "link" in pg.inner_text("#title")
        # the player goes on; a reload keeps their grid (the link's position is not put back)
        write(pg, "laptop", 1, 2, 7)
        pg.reload()
        pg.wait_for_selector(READY)
        assert position(pg)["1,2"] == ("7", "79")
    # another link of the same puzzle, later: its position, and Undo gives the grid back
    with play_server(root, FOUR_LINK + "#e=c9", port):
        pg.goto(url)
        pg.wait_for_selector(READY)
        assert position(pg) == {"1,1": ("", ""), "1,2": ("", ""), "2,1": ("", ""),
                                "2,2": ("9", "")}
        assert "Opened the link's position" in message(pg)
        pg.click("#btn-undo")
        assert position(pg)["1,2"] == ("7", "79")
    ctx.close()
