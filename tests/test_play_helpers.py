"""Issue 55's player features in a real headless Chromium, on a laptop (1280x800, mouse and
keyboard) and a phone (390x844, taps): the combination helper, zoom and pan on a big board,
pencil marks a phone can read, a chain walked on a phone with the board in view, All steps
closed by Esc and by "Why not?", and a solve replayed move by move (a saved solve, a janko.at
record found from its address).

Screenshots go to tests/artifacts/ (play-combos-*.png, play-zoom-*.png, play-replay-*.png,
play-walk-phone.png).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browserkit import SIZES, opened, play_server, playwright_or_skip

sync_api = playwright_or_skip()
import test_play_devices as devices  # noqa: E402
from test_combos_replay import SAVED  # noqa: E402
from test_play_browser import ARTIFACTS, big_puzzle, cell, state, wait_idle  # noqa: E402
from test_play_tools import press  # noqa: E402

from deducer import api  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from deducer.puzzle.combos import mask_of  # noqa: E402
from tests.support import corpus  # noqa: E402

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def janko_file() -> Path | None:
    base = corpus.corpus_root()
    path = base / corpus.JANKO / "Kakuro.jsonl.bz2" if base is not None else None
    return path if path is not None and path.is_file() else None


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("helpers")
    shutil.copy(PUZZLES / "seed002-four.txt", d / "four.txt")
    (d / "big.txt").write_text(formats.dumps(big_puzzle(31, 46), "pipe"), encoding="utf-8")
    (d / "four-solve.x-janko").write_text(SAVED, encoding="utf-8")
    devices.chain_state(d)  # chain.txt: a position whose full hint is a chain
    src = janko_file()
    if src is not None:  # read in place would be outside the folder: a copy in tmp
        shutil.copy(src, d / "Kakuro.jsonl.bz2")
    return d


@pytest.fixture(scope="module")
def server(root):
    with play_server(root, root / "four.txt") as url:
        yield url


@pytest.fixture(params=sorted(SIZES))
def person(request, browser, server):
    with opened(browser, server, **SIZES[request.param], accept_downloads=True) as pg:
        yield pg, request.param


def open_file(pg, size: str, name: str) -> None:
    if size == "phone" and pg.is_hidden("#server-files"):
        pg.tap("#btn-menu")
    pg.wait_for_function("n => [...document.querySelectorAll('#server-files option')]"
                         ".some(o => o.value === n)", arg=name)
    pg.select_option("#server-files", name)
    wait_idle(pg)


def in_view(pg, selector: str) -> bool:
    """Is the element on screen (to a pixel: a box scrolled to an edge lands on fractions)?"""
    box = pg.locator(selector).first.bounding_box()
    view = pg.viewport_size
    return (box is not None and box["y"] >= -1 and box["y"] + box["height"] <= view["height"] + 1
            and box["x"] >= -1 and box["x"] + box["width"] <= view["width"] + 1)


def in_frame(pg, selector: str) -> bool:
    """Is the element inside the board's frame's visible part (a zoomed board pans)?"""
    return pg.evaluate("""s => {
      const e = document.querySelector(s).getBoundingClientRect();
      const f = document.getElementById('board-wrap').getBoundingClientRect();
      return e.left >= f.left - 1 && e.right <= f.right + 1 && e.top >= f.top - 1
        && e.bottom <= f.bottom + 1;
    }""", selector)


def combos_shown(pg) -> list[dict]:
    """Each run of the helper: its head and its combinations (text, struck)."""
    return pg.eval_on_selector_all("#combo-box .combo-run", """rs => rs.map(r => ({
      head: r.querySelector('.combo-head b').textContent,
      combos: [...r.querySelectorAll('button.combo')].map(b =>
        [b.textContent, b.classList.contains('struck')]),
      need: (r.querySelector('.combo-need') || {}).textContent || null,
      none: (r.querySelector('.combo-none') || {}).textContent || null}))""")


# ---- the combination helper -------------------------------------------------------------------
def test_the_combination_helper_follows_the_cursor_and_the_board(person):
    pg, size = person
    assert pg.is_hidden("#combo-box")
    cell(pg, 2, 1).tap() if size == "phone" else cell(pg, 2, 1).click()
    if size == "phone":
        pg.tap("#pad-combos")
    else:
        pg.keyboard.press("k")
    assert pg.get_attribute("#pad-combos", "aria-pressed") == "true"
    pg.wait_for_function("() => document.querySelectorAll('#combo-box .combo-run').length == 2")
    runs = {r["head"]: r for r in combos_shown(pg)}
    # r3c2 lies in across 12 in 2 (3+9, 4+8, 5+7) and down 5 in 2 (1+4, 2+3)
    assert runs["Across 12 in 2"]["combos"] == [["3+9", False], ["4+8", False], ["5+7", False]]
    assert runs["Down 5 in 2"]["combos"] == [["1+4", False], ["2+3", False]]
    assert runs["Down 5 in 2"]["none"] == "5 6 7 8 9"
    # pencil 2 3 into r3c2: the across run's 4+8 and 5+7 and the down's 1+4 are struck
    if size == "phone":
        pg.tap("#pad-pencil")
        for d in (2, 3):
            pg.tap(f"#pad-digits button[data-d='{d}']")
        pg.tap("#pad-pencil")
    else:
        pg.keyboard.press("Shift+Digit2")
        pg.keyboard.press("Shift+Digit3")
    pg.wait_for_function("() => document.querySelectorAll('#combo-box .struck').length == 3")
    runs = {r["head"]: r for r in combos_shown(pg)}
    assert runs["Across 12 in 2"]["combos"] == [["3+9", False], ["4+8", True], ["5+7", True]]
    assert runs["Across 12 in 2"]["need"] == "3 9"
    assert runs["Down 5 in 2"]["combos"] == [["1+4", True], ["2+3", False]]
    # the helper's verdicts are the engine's (deducer.combinations)
    want = api.combinations(12, 2, [(None, mask_of([2, 3]), "r3c2"), (None, 0, "r3c3")])
    assert [(c.text, not c.live) for c in want.combos] == \
        [tuple(x) for x in runs["Across 12 in 2"]["combos"]]
    # pressing a struck combination says why
    press(pg, size, "#combo-box .combo-run:first-child button.combo.struck")
    assert "struck, the marks of r3c2 have none of its digits" in pg.inner_text(".combo-why")
    # the cursor moves: the helper follows (keyboard on the laptop, a tap on the phone)
    if size == "phone":
        cell(pg, 1, 2).tap()
    else:
        pg.keyboard.press("ArrowUp")
        pg.keyboard.press("ArrowRight")
    pg.wait_for_function("() => [...document.querySelectorAll('#combo-box .combo-head b')]"
                         ".some(b => b.textContent === 'Down 16 in 2')")
    heads = [r["head"] for r in combos_shown(pg)]
    assert heads == ["Across (no clue) in 2", "Down 16 in 2"]
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"play-combos-{size}.png"))
    # k (or the button) again closes it, and it stays closed over a reload
    if size == "phone":
        pg.tap("#pad-combos")
    else:
        pg.locator("#board").focus()
        pg.keyboard.press("k")
    assert pg.is_hidden("#combo-box")
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.is_hidden("#combo-box")


# ---- big boards ---------------------------------------------------------------------------------
def cell_px(pg) -> float:
    return pg.evaluate("parseFloat(getComputedStyle(document.documentElement)"
                       ".getPropertyValue('--cell'))")


def test_zoom_and_pan_a_big_board(person):
    pg, size = person
    open_file(pg, size, "big.txt")
    fit = cell_px(pg)
    assert pg.inner_text("#zoom-level") == "Fit"
    press(pg, size, "#zoom-in")
    press(pg, size, "#zoom-in")
    zoomed = cell_px(pg)
    assert zoomed >= fit * 1.5
    assert pg.inner_text("#zoom-level") == f"{round(zoomed / fit * 100)}%"
    wrap = pg.locator("#board-wrap")
    assert pg.evaluate("(() => { const w = document.getElementById('board-wrap');"
                       " return w.scrollWidth > w.clientWidth; })()")
    # the column and row numbers stay at the frame's top and left edges as it pans
    wrap.evaluate("w => { w.scrollTop = 300; w.scrollLeft = 200; }")
    assert pg.evaluate("""() => {
      const f = document.getElementById('board-wrap').getBoundingClientRect();
      const at = (sel, edge) => [...document.querySelectorAll(sel)].some(l => {
        const r = l.getBoundingClientRect();
        return Math.abs(r[edge] - f[edge]) <= 2 && r.left >= f.left - 1 && r.right <= f.right + 1
          && r.top >= f.top - 1 && r.bottom <= f.bottom + 1; });
      return at('#board > .row:first-child > .lab', 'top')
        && at('#board > .row > .lab:first-child', 'left');
    }""")
    # the selection is followed: a cell far off, selected by keys (or a hint), is brought
    # into the frame
    if size == "laptop":
        pg.locator("#board").focus()
        for _ in range(40):
            pg.keyboard.press("ArrowRight")
        sel = pg.evaluate("S.sel")
        assert sel[1] >= 40
        assert in_frame(pg, f"#sq-{sel[0]}-{sel[1]}")
        # Ctrl+wheel zooms at the pointer; the plain wheel pans
        box = wrap.bounding_box()
        pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        before = cell_px(pg)
        pg.keyboard.down("Control")
        pg.mouse.wheel(0, -300)
        pg.keyboard.up("Control")
        pg.wait_for_function("b => parseFloat(getComputedStyle(document.documentElement)"
                             ".getPropertyValue('--cell')) > b", arg=before)
    else:
        # two fingers pinch out: the board grows
        before = cell_px(pg)
        pinch(pg, wrap.bounding_box(), 40, 160)
        assert cell_px(pg) > before * 1.5
        # pencil marks a phone can read: 9 px at least
        assert pg.evaluate("parseFloat(getComputedStyle(document.querySelector('.sq.w .m'))"
                           ".fontSize)") >= 9
    pg.screenshot(path=str(ARTIFACTS / f"play-zoom-{size}.png"))
    press(pg, size, "#zoom-fit")
    assert cell_px(pg) == fit and pg.inner_text("#zoom-level") == "Fit"


def pinch(pg, box: dict, start: float, end: float, steps: int = 6) -> None:
    """Two fingers on the board's frame moving apart from ``start`` to ``end`` px."""
    cdp = pg.context.new_cdp_session(pg)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def points(d):
        return [{"x": cx - d / 2, "y": cy, "id": 1}, {"x": cx + d / 2, "y": cy, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start)})
    for k in range(1, steps + 1):
        d = start + (end - start) * k / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(d)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_pencil_marks_are_9_px_on_a_phone(phone):
    pg = phone
    for name in ("four.txt", "big.txt"):
        open_file(pg, "phone", name)
        size = pg.evaluate("parseFloat(getComputedStyle(document.querySelector('.sq.w .m'))"
                           ".fontSize)")
        assert size >= 9, (name, size)


def walk_keeps_the_board_in_view(pg, steps: int = 4) -> None:
    """Next ▶ tapped ``steps`` times: each time the button and the board are both on
    screen, and the link's first cell is in the board's frame."""
    for _ in range(steps):
        if pg.is_disabled("#chain-next"):
            break
        pg.locator("#chain-next").scroll_into_view_if_needed()
        pg.tap("#chain-next")
        assert in_view(pg, "#chain-nav")
        box = pg.locator("#board-wrap").bounding_box()
        assert box["y"] >= -1 and box["y"] + box["height"] <= 844 * 0.6
        for k in pg.eval_on_selector_all("#board .hintcell", "es => es.map(e => e.id)")[:1]:
            assert in_view(pg, f"#{k}") and in_frame(pg, f"#{k}")


def test_a_chain_walked_on_a_phone_keeps_the_board_in_view(phone):
    pg = phone
    open_file(pg, "phone", "chain.txt")
    pg.tap("#zoom-in")  # a board larger than the screen's width, as a big one is
    pg.tap("#zoom-in")
    pg.tap("#hint-full")
    wait_idle(pg)
    assert pg.is_visible("#chain")
    # the opening's message above the hint box, as a hint answered within busy()'s 150 ms
    # leaves it (a warm server; a slow one clears it): the chain's buttons then sit at the
    # screen's bottom edge, and the first link's text, a line longer, must not push them off
    opened = "The puzzle has exactly one solution."
    if pg.inner_text("#message") != opened:
        pg.evaluate("m => say(m, 'ok')", opened)
        pg.locator("#chain-nav").scroll_into_view_if_needed()
    walk_keeps_the_board_in_view(pg)
    pg.screenshot(path=str(ARTIFACTS / "play-walk-phone.png"))
    pg.tap("#chain-end")
    assert "walking" not in pg.get_attribute("body", "class")


def test_a_what_if_walked_on_a_phone_keeps_the_board_in_view(phone, root):
    pg = phone
    open_file(pg, "phone", "chain.txt")
    pg.tap("#zoom-in")
    pg.tap("#zoom-in")
    # the chain step's own assumption, tried as a what-if: it leads to a contradiction
    r, c, d = api.hint(formats.load(root / "chain.txt"), "full").to_json()["proof"]["assume"]
    pg.tap("#btn-whatif")
    cell(pg, r, c).scroll_into_view_if_needed()
    cell(pg, r, c).tap()
    pg.tap(f"#pad-digits button[data-d='{d}']")
    wait_idle(pg)
    assert pg.is_visible("#chain") and "walking" in pg.get_attribute("body", "class")
    walk_keeps_the_board_in_view(pg)
    pg.tap("#branch-back")


def test_all_steps_closes_on_esc_and_when_why_not_opens(person):
    pg, size = person
    press(pg, size, "#hint-all")
    wait_idle(pg)
    assert pg.is_visible("#all-steps")
    if size == "laptop":
        # the focus is in the list: Esc there closes it (it used to stop at the list)
        assert pg.evaluate("document.activeElement.classList.contains('step-pick')")
        pg.keyboard.press("Escape")
        assert pg.is_hidden("#all-steps") and pg.is_hidden("#hint-box")
        press(pg, size, "#hint-all")
        wait_idle(pg)
    # a pencil mark, then "Why not?" on it: the answer replaces the list
    cell(pg, 1, 1).tap() if size == "phone" else cell(pg, 1, 1).click()
    if size == "phone":
        pg.tap("#pad-pencil")
        pg.tap("#pad-digits button[data-d='9']")
        pg.tap("#pad-pencil")
    else:
        pg.keyboard.press("Shift+Digit9")
    press(pg, size, "#why-group button.why-digit")
    wait_idle(pg)
    assert pg.inner_text("#hint-level").startswith("Why not 9")
    assert pg.is_hidden("#all-steps")


# ---- replay -------------------------------------------------------------------------------------
def test_replay_a_saved_solve_move_by_move(person, root):
    pg, size = person
    if size == "phone":
        pg.tap("#btn-menu")
    press(pg, size, "#btn-replay")
    assert pg.is_visible("#replay-open")
    if size == "phone":  # from the folder
        pg.select_option("#replay-folder", "four-solve.x-janko")
    else:  # a file of the computer
        pg.set_input_files("#replay-file", str(root / "four-solve.x-janko"))
    pg.wait_for_selector("#replay-bar:not([hidden])")
    wait_idle(pg)
    assert "7 moves" in pg.inner_text("#message")
    assert pg.inner_text("#replay-status") == "Move 0 of 7"
    assert all(v["digit"] == "" and v["marks"] == "" for v in state(pg).values())
    step = (lambda: pg.tap("#replay-next")) if size == "phone" else \
        (lambda: pg.keyboard.press("ArrowRight"))
    if size == "laptop":
        pg.locator("#board").focus()
    step()
    # move 1: a wrong 4 in r2c2, at 2.1 s, in pink
    assert pg.inner_text("#replay-status") == "Move 1 of 7 · 0:02.1"
    s = state(pg)
    assert s["1,1"]["digit"] == "4" and "wrong" in s["1,1"]["cls"] and "sel" in s["1,1"]["cls"]
    assert "wrong digit" in pg.inner_text("#replay-move")
    step()
    step()
    s = state(pg)  # move 3: r2c3 pencilled 7 9
    assert s["1,2"]["marks"] == "79" and s["1,1"]["digit"] == "4"
    # back one move: the board as it was after move 2
    if size == "phone":
        pg.tap("#replay-prev")
    else:
        pg.keyboard.press("ArrowLeft")
    assert state(pg)["1,2"]["marks"] == "7"
    # the end: the solution; the slowest cell is a button that goes to its move
    press(pg, size, "#replay-last")
    s = state(pg)
    assert {k: v["digit"] for k, v in s.items()} == {"1,1": "2", "1,2": "7", "2,1": "3",
                                                     "2,2": "9"}
    assert "wrong" not in s["1,1"]["cls"]
    slow = pg.locator("#replay-slowest button.replay-go").first
    assert slow.inner_text() == "r3c2 10.9 s"
    assert "cells the solver filled for good kept to the walkthrough's order" in \
        pg.inner_text("#replay-summary")
    pg.screenshot(path=str(ARTIFACTS / f"play-replay-{size}.png"))
    press(pg, size, "#replay-first")
    assert pg.inner_text("#replay-status") == "Move 0 of 7"
    # nothing is written in a replay
    cell(pg, 1, 1).tap() if size == "phone" else cell(pg, 1, 1).click()
    if size == "laptop":
        pg.keyboard.press("5")
        assert "This is a replay" in pg.inner_text("#message")
    press(pg, size, "#replay-leave")
    assert pg.is_hidden("#replay-bar")
    assert pg.evaluate("S.moves.length") == 0  # the replay made no moves of the player's
    assert all(v["digit"] == "" for v in state(pg).values())


def test_replay_a_janko_record_from_its_address(person):
    pg, size = person
    path = janko_file()
    if path is None:
        pytest.skip("no corpus (set DEDUCER_CORPUS)")
    if size == "phone":
        pg.tap("#btn-menu")
    press(pg, size, "#btn-replay")
    pg.fill("#replay-link", "https://www.janko.at/Raetsel/Kakuro/002.a.htm")
    press(pg, size, "#replay-open-link")
    pg.wait_for_selector("#replay-bar:not([hidden])", timeout=60000)
    wait_idle(pg)
    assert pg.inner_text("#title").startswith("janko 002")
    rep = api.replay(_janko_text(path), "janko", name="2")
    n = len(rep.record.moves)
    assert pg.inner_text("#replay-status") == f"Move 0 of {n}"
    press(pg, size, "#replay-last")
    want = rep.board_after(n).entries
    got = {tuple(map(int, k.split(","))): int(v["digit"]) for k, v in state(pg).items()
           if v["digit"]}
    assert got == want
    # the partings: as many as the replay finds, each a button to its move
    parts = pg.locator("#replay-partings button.replay-go")
    assert parts.count() == len(rep.partings) > 0
    first = rep.partings[0]
    if size == "phone":
        pg.tap("#replay-partings summary")
    else:
        pg.click("#replay-partings summary")
    press(pg, size, "#replay-partings li:first-child button")
    assert pg.inner_text("#replay-status") == f"Move {first.move + 1} of {n}"
    assert "Parts from the walkthrough" in pg.inner_text("#replay-move")
    nr, nc = first.next_cell
    assert "diff" in state(pg)[f"{nr},{nc}"]["cls"]  # the walkthrough's next, in orange
    pg.screenshot(path=str(ARTIFACTS / f"play-replay-janko-{size}.png"))


def _janko_text(path: Path) -> str:
    import bz2

    return bz2.open(path, "rt", encoding="utf-8").read()


def test_a_saved_solve_opened_to_play_offers_its_replay(phone, root):
    pg = phone
    pg.set_input_files("#file-input", str(root / "four-solve.x-janko"))
    offer = pg.locator("#message button.replay-offer")
    # the page reads the file before it asks the server (and shows itself busy): waiting
    # for idle alone may come too early
    offer.wait_for()
    wait_idle(pg)
    assert offer.count() == 1 and "holds a solving record" in pg.inner_text("#message")
    assert pg.is_hidden("#replay-bar")  # opened to play: the grid is the player's
    offer.tap()
    pg.wait_for_selector("#replay-bar:not([hidden])")
    wait_idle(pg)
    assert pg.inner_text("#replay-status") == "Move 0 of 7"
    assert pg.is_hidden("#pad")  # the replay's bar sits under the board instead
    assert in_view(pg, "#replay-next")
