"""The HTML walkthrough in a real headless Chromium (Debian's, driven by Playwright).

Skipped only when /usr/bin/chromium or the playwright package is missing; install both
with scripts/install-browser.sh. Each check compares what the page shows with what the
step list says (the Python replay of ``explanation.steps``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browserkit import playwright_or_skip

from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.puzzle.combos import DIGITS
from deducer.render.html import walkthrough_html
from deducer.render.position import position_at, shown_candidates, step_marks
from deducer.render.svg import DIGIT_CLASS
from deducer.render.walk import step_text, step_title

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

WIKIPEDIA = "\n".join([
    "\\|23\\|30\\|\\|\\|27\\|12\\|16\\",
    "\\16|||\\|17\\24|||",
    "\\17|||15\\29||||",
    "\\35||||||12\\|\\",
    "\\|\\7|||7\\8|||7\\",
    "\\|11\\|10\\16|||||",
    "\\21|||||\\5||",
    "\\6||||\\|\\3||",
]) + "\n"

sync_api = playwright_or_skip()

# what the page shows of every white cell
STATE_JS = """() => {
  const out = {};
  document.querySelectorAll('#board g.w').forEach(g => {
    const cls = g.getAttribute('class').split(' ');
    const d = g.querySelector('text.d');
    const vis = [], struck = [];
    g.querySelectorAll('text.c').forEach(t => {
      const c = t.getAttribute('class').split(' ');
      if (!c.includes('off')) vis.push(+t.textContent);
      if (c.includes('x')) struck.push(+t.textContent);
    });
    out[g.dataset.cell] = {digit: d.textContent, dcls: d.getAttribute('class'),
      hl: cls.includes('hl'), run: cls.includes('run'), cands: vis, struck: struck};
  });
  return out;
}"""


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    puzzle = formats.loads(WIKIPEDIA, "pipe")
    exp = explain(puzzle)
    assert exp.status == "solved"
    path = tmp_path_factory.mktemp("walk") / "walkthrough.html"
    path.write_text(walkthrough_html(puzzle, exp), encoding="utf-8")
    return puzzle, exp, path


@pytest.fixture()
def page(browser, walk):
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    pg = ctx.new_page()
    errors: list[str] = []
    requests: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("request", lambda r: requests.append(r.url))
    pg.goto(walk[2].as_uri())
    pg.wait_for_selector("body.ready")
    yield pg
    assert errors == [], errors
    # self-contained: the page fetched nothing but itself
    assert all(u.startswith("file:") for u in requests), requests
    ctx.close()


def expected(puzzle, exp, k: int) -> dict:
    """What the board must show at position k, straight from the step list."""
    pos = position_at(puzzle, exp.steps, k)
    step = exp.steps[k - 1] if k else None
    marks = step_marks(puzzle, step) if step else None
    cands = shown_candidates(puzzle, pos, marks)
    names = {run.name: run for run in puzzle.runs}
    hl = {tuple(rc) for rc in step.cells} if step else set()
    run_cells = {rc for n in step.runs for rc in names[n].coords} if step else set()
    new = {(r, c) for r, c, _ in step.placements} if step else set()
    out = {}
    for rc in puzzle.whites:
        d = pos.digits.get(rc)
        struck = [] if d else list(DIGITS[marks.struck.get(rc, 0)]) if marks else []
        if d:
            kind = "n" if rc in new else DIGIT_CLASS[pos.kinds[rc]]
            dcls, shown = f"d {kind}", []
        else:
            dcls, shown = "d", sorted(set(DIGITS[cands.get(rc, 0)]) | set(struck))
        out[f"{rc[0]},{rc[1]}"] = {"digit": str(d) if d else "", "dcls": dcls,
                                   "hl": rc in hl, "run": rc in run_cells,
                                   "cands": shown, "struck": struck}
    return out


def check(pg, puzzle, exp, k: int) -> None:
    assert pg.evaluate("document.body.dataset.current") == str(k)
    got = pg.evaluate(STATE_JS)
    want = expected(puzzle, exp, k)
    bad = {c: (got[c], want[c]) for c in want if got[c] != want[c]}
    assert not bad, f"position {k}: {bad}"
    cur = pg.locator("#steps li.current")
    assert cur.count() == 1 and cur.get_attribute("data-step") == str(k)
    if k:
        s = exp.steps[k - 1]
        assert pg.text_content("#cur-text") == step_text(s)
        assert pg.text_content("#cur-rule") == step_title(s)
        # highlighted cells are exactly the step's cells
        hl = pg.eval_on_selector_all("#board g.w.hl", "els => els.map(e => e.dataset.cell)")
        assert sorted(hl) == sorted(f"{r},{c}" for r, c in s.cells)
        # eliminated candidates are struck, placed digits coloured
        n_lines = pg.eval_on_selector_all("#board-strikes line", "els => els.length")
        placed = {(r, c) for r, c, _ in s.placements}
        assert n_lines == sum(len(ds) for r, c, ds in s.eliminations if (r, c) not in placed)


def test_keyboard_steps_forward_and_back(page, walk):
    puzzle, exp, _ = walk
    n = len(exp.steps)
    check(page, puzzle, exp, 0)
    for k in range(1, n + 1):
        page.keyboard.press("ArrowRight")
        check(page, puzzle, exp, k)
    page.keyboard.press("ArrowRight")  # past the end: stays
    check(page, puzzle, exp, n)
    for k in range(n - 1, n - 12, -1):
        page.keyboard.press("ArrowLeft")
        check(page, puzzle, exp, k)
    page.keyboard.press("Home")
    check(page, puzzle, exp, 0)
    page.keyboard.press("ArrowLeft")  # before the start: stays
    check(page, puzzle, exp, 0)
    page.keyboard.press("End")
    check(page, puzzle, exp, n)
    # the solved grid: every cell holds the engine's digit
    got = page.evaluate(STATE_JS)
    assert [got[f"{r},{c}"]["digit"] for r, c in puzzle.whites] == \
        [str(DIGITS[m][0]) for m in exp.masks]


def test_clicking_steps_and_buttons(page, walk):
    puzzle, exp, _ = walk
    n = len(exp.steps)
    first_place = next(s.n for s in exp.steps if s.placements)
    for k in (12, 3, first_place, n, 1, n // 2, 0):
        page.click(f'#steps li[data-step="{k}"]')
        check(page, puzzle, exp, k)
    page.click("#next")
    check(page, puzzle, exp, 1)
    page.click("#next")
    check(page, puzzle, exp, 2)
    page.click("#prev")
    check(page, puzzle, exp, 1)
    page.click("#last")
    check(page, puzzle, exp, n)
    page.click("#first")
    check(page, puzzle, exp, 0)
    assert page.is_disabled("#prev") and not page.is_disabled("#next")
    # every step link in the header (the level's step, the hardest, the narrowest) jumps there
    # (the technique cards' step lists, folded until opened, are the header's kind of link)
    links = page.locator("a[data-goto] >> visible=true")
    assert links.count() >= 2
    for j in range(links.count()):
        link = links.nth(j)
        k = int(link.get_attribute("data-goto"))
        link.click()
        check(page, puzzle, exp, k)


def test_deep_link_and_all_candidates(browser, walk):
    puzzle, exp, path = walk
    pg = browser.new_page()
    pg.goto(path.as_uri() + "#step-20")
    pg.wait_for_selector("body.ready")
    check(pg, puzzle, exp, 20)
    pg.check("#all-cands")
    from deducer.assist.hints import player_marks

    for k in (20, 0):  # all candidates: what the runs' combinations allow, on every cell
        pg.goto(path.as_uri() + f"#step-{k}")
        pg.reload()
        pg.wait_for_selector("body.ready")
        if not pg.is_checked("#all-cands"):
            pg.check("#all-cands")
        got = pg.evaluate(STATE_JS)
        pos = position_at(puzzle, exp.steps, k)
        written = {rc: d for rc, d in pos.digits.items() if rc not in puzzle.givens}
        allowed, _ = player_marks(puzzle.with_entries(written))
        narrowed = 0
        for i, rc in enumerate(puzzle.whites):
            if rc not in pos.digits:
                want = set(DIGITS[pos.masks[i] & allowed[rc]])
                shown = got[f"{rc[0]},{rc[1]}"]
                assert set(shown["cands"]) - set(shown["struck"]) == want, (k, rc)
                narrowed += len(want) < 9
        # untouched cells no longer show a meaningless 1-9
        assert narrowed == sum(rc not in pos.digits for rc in puzzle.whites)
    pg.close()


def test_screenshot(page, walk):
    puzzle, exp, _ = walk
    # a step that both eliminates and places, if there is one
    k = next((s.n for s in exp.steps if s.placements and len(s.eliminations) > 1), 30)
    page.click(f'#steps li[data-step="{k}"]')
    check(page, puzzle, exp, k)
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "walkthrough.png"
    page.screenshot(path=str(out))
    assert out.stat().st_size > 10_000
    page.locator("#board").screenshot(path=str(ARTIFACTS / "board.png"))
    page.emulate_media(media="print")
    assert page.is_hidden(".controls")
    assert page.locator("#steps li[data-step]").nth(k).is_visible()


# ---------------------------------------------------------------------------- long steps, chains
ROOT = Path(__file__).resolve().parents[1]

# where the step text, the board and the page sit
LAYOUT_JS = """() => {
  const r = e => {
    const b = e.getBoundingClientRect();
    return {x: b.left, y: b.top, r: b.right, b: b.bottom, w: b.width, h: b.height};
  };
  const cur = document.getElementById('current');
  return {current: r(cur), svg: r(document.getElementById('board')),
          frame: r(document.querySelector('#board rect.frame')),
          list: r(document.getElementById('steppane')),
          scrolls: cur.scrollHeight > cur.clientHeight,
          overflow: getComputedStyle(cur).overflowY,
          page: document.scrollingElement.scrollHeight, vh: innerHeight, vw: innerWidth};
}"""


def _chain_puzzle(which: str):
    if which == "trial":
        return formats.load(ROOT / "puzzles" / "deducer-trial.txt")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from support.corpus import corpus_root, get

    if corpus_root() is None:
        pytest.skip("the shared corpus is absent (set DEDUCER_CORPUS)")
    return get("janko", "226").puzzle  # a 14x24 board whose hardest step is a 9-link chain


@pytest.fixture(scope="module", params=["trial", "janko226"])
def chain_walk(request, tmp_path_factory):
    puzzle = _chain_puzzle(request.param)
    exp = explain(puzzle)
    path = tmp_path_factory.mktemp("chain") / f"{request.param}.html"
    path.write_text(walkthrough_html(puzzle, exp), encoding="utf-8")
    return request.param, puzzle, exp, path


def _open(browser, path, k: int, size: tuple[int, int]):
    pg = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(path.as_uri() + f"#step-{k}")
    pg.wait_for_selector("body.ready")
    return pg, errors


def _apart(a: dict, b: dict) -> bool:
    return a["r"] <= b["x"] or b["r"] <= a["x"] or a["b"] <= b["y"] or b["b"] <= a["y"]


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768), (1920, 1080)])
def test_longest_step_never_covers_the_board(browser, chain_walk, size):
    name, puzzle, exp, path = chain_walk
    longest = max(exp.steps, key=lambda s: len(s.text))
    assert len(longest.text) > 400  # a chain: the step this test is about
    pg, errors = _open(browser, path, longest.n, size)
    box = pg.evaluate(LAYOUT_JS)
    # the step text and its list sit beside the board, never on it
    assert _apart(box["current"], box["svg"]), box
    assert _apart(box["list"], box["svg"]), box
    # the board keeps at least half the window's height, all of it in the window
    frame = box["frame"]
    assert frame["h"] >= 0.5 * size[1] and frame["b"] <= size[1], box
    # the long text scrolls in its box, which stays in the window; the page itself does not
    assert box["overflow"] == "auto" and box["current"]["b"] <= size[1]
    assert box["page"] <= size[1] + 1
    if size == (1024, 700):
        assert box["scrolls"]  # 1000 characters and more do not fit: the box scrolls
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"longest-{name}-{size[0]}x{size[1]}.png"))
    pg.close()
    assert errors == []


def _cells(pg, selector: str) -> list[str]:
    return sorted(pg.eval_on_selector_all(selector, "els => els.map(e => e.dataset.cell)"))


def _names(cells) -> list[str]:
    return sorted(f"{r},{c}" for r, c in cells)


def test_chain_stepper_walks_the_links_on_the_board(browser, chain_walk):
    from deducer.render.walk import broken_cells, chain_cases, link_cells

    name, puzzle, exp, path = chain_walk
    step = max((s for s in exp.steps if chain_cases(s)), key=lambda s: len(s.text))
    case = chain_cases(step)[0]
    pg, errors = _open(browser, path, step.n, (1024, 700))
    assert pg.is_visible("#chain") and pg.evaluate("document.body.dataset.link") == ""
    assert pg.locator("#links li").count() == len(case.links) + 1
    # the assumption: the digit written in the dashed cell, nothing else marked
    pg.keyboard.press("ArrowDown")
    assumed = f"{case.cell[0]},{case.cell[1]}"
    assert pg.evaluate("document.body.dataset.link") == "0"
    assert _cells(pg, "#board g.w.as") == [assumed]
    cell = pg.locator(f'#board g.w[data-cell="{assumed}"] text.d')
    assert cell.text_content() == str(case.digit) and cell.get_attribute("class") == "d a"
    assert _cells(pg, "#board g.w.hl") == []
    runs = {tuple(r.ref): r for r in puzzle.runs}
    placed_before: dict[str, int] = {}
    for j, link in enumerate(case.links, start=1):
        pg.keyboard.press("ArrowDown")
        assert pg.evaluate("document.body.dataset.link") == str(j)
        changed, used = link_cells(link)
        # the link's cells, its facts' cells and its runs, highlighted in turn
        assert _cells(pg, "#board g.w.hl") == _names(changed), j
        assert _cells(pg, "#board g.w.pf") == _names(used), j
        run_cells = {rc for ref in link["runs"] for rc in runs[tuple(ref)].coords}
        assert _cells(pg, "#board g.w.run") == _names(run_cells), j
        # its number on the cells it changes (where it breaks, for the last)
        at = changed or (broken_cells(puzzle, link) if link.get("contradiction") else set())
        now = pg.eval_on_selector_all("#board-badges g.bd:not(.old)",
                                      "els => els.map(e => [e.dataset.cell, e.textContent])")
        assert sorted(now) == sorted([c, str(j)] for c in _names(at)), j
        if link.get("contradiction"):
            assert _cells(pg, "#board g.w.bad") == _names(broken_cells(puzzle, link))
        # digits written by earlier links stay on the board
        for c, d in placed_before.items():
            assert pg.locator(f'#board g.w[data-cell="{c}"] text.d').text_content() == str(d)
        for r, c, d in link["placements"]:
            placed_before[f"{r},{c}"] = d
        assert pg.locator("#links li.current").get_attribute("data-link") == str(j)
        if j == len(case.links) // 2:
            ARTIFACTS.mkdir(exist_ok=True)
            pg.screenshot(path=str(ARTIFACTS / f"chain-link-{name}.png"))
    pg.keyboard.press("ArrowDown")  # past the last link: stays
    assert pg.evaluate("document.body.dataset.link") == str(len(case.links))
    pg.keyboard.press("ArrowUp")
    assert pg.evaluate("document.body.dataset.link") == str(len(case.links) - 1)
    # the next step leaves the chain: its marks and the stepper go
    pg.keyboard.press("ArrowRight")
    assert pg.evaluate("document.body.dataset.current") == str(step.n + 1)
    assert pg.eval_on_selector_all("#board-badges g, #board g.w.as", "els => els.length") == 0
    if not chain_cases(exp.steps[step.n]):
        assert pg.is_hidden("#chain")
    pg.close()
    assert errors == []


SEEN_JS = """() => {
  const box = document.getElementById('steppane').getBoundingClientRect();
  const cur = document.querySelector('#steps li.current');
  const inside = e => {
    const b = e.getBoundingClientRect();
    return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
  };
  let next = cur.nextElementSibling;  // the next step shown (a folded group's are not)
  while (next !== null && next.getClientRects().length === 0) next = next.nextElementSibling;
  // the current step in full and the start of the next one (only the current step's
  // start when it and a line more do not fit in the list)
  const fits = cur.getBoundingClientRect().height <= box.height - 40;
  const b = cur.getBoundingClientRect();
  return {current: fits ? inside(cur) : b.top >= box.top - 1,
          next: !fits || next === null || next.getBoundingClientRect().top + 12 <= box.bottom};
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_stepping_keeps_the_next_step_in_view(browser, chain_walk, size):
    """Walking forward, the current step stays in the list's view and so does the one
    after it (the list used to hold the current step at its bottom edge)."""
    name, puzzle, exp, path = chain_walk
    pg, errors = _open(browser, path, 1, size)
    for _ in range(min(len(exp.steps) - 1, 60)):
        pg.keyboard.press("ArrowRight")
        seen = pg.evaluate(SEEN_JS)
        assert seen == {"current": True, "next": True}, (
            name, size, pg.evaluate("document.body.dataset.current"))
    assert not errors
    pg.close()


# what a narrow window (the one-column layout) shows: header, board, the current step
NARROW_JS = """() => {
  const r = e => {
    const b = e.getBoundingClientRect();
    return {x: b.left, y: b.top, r: b.right, b: b.bottom};
  };
  return {header: r(document.querySelector('header h1')),
          title: document.querySelector('header h1').textContent.trim(),
          board: r(document.getElementById('board')), text: r(document.getElementById('cur-text')),
          rule: r(document.getElementById('cur-rule')),
          wide: document.scrollingElement.scrollWidth, vw: innerWidth, vh: innerHeight};
}"""


def _on_screen(box: dict, vh: int) -> bool:
    return box["y"] >= -1 and box["b"] <= vh + 1 and box["b"] > box["y"]


@pytest.mark.parametrize("size", [(800, 900), (420, 900)])
def test_narrow_window_shows_header_board_and_current_step(browser, size, tmp_path):
    """In one column a deep link to a step in the middle shows its board, whole, and its
    text (the list's scrolling used to scroll the page down to the list, past both), the
    page's top shows the header, and stepping with the arrows keeps the step's text on
    screen."""
    from deducer.render.walk import chain_cases

    puzzle = formats.load(ROOT / "puzzles" / "deducer-trial.txt")
    exp = explain(puzzle)
    # a step in the middle whose text is shown (a chain's is walked link by link instead)
    k = next(s.n for s in exp.steps[len(exp.steps) // 2:] if not chain_cases(s))
    path = tmp_path / "trial.html"
    path.write_text(walkthrough_html(puzzle, exp), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    w, h = size
    pg, errors = _open(browser, path, k, size)
    pg.screenshot(path=str(ARTIFACTS / f"narrow-{w}x{h}-step-{k}.png"))
    box = pg.evaluate(NARROW_JS)
    assert box["wide"] <= w, box  # nothing runs off the window's side
    # the board whole in the page's width, its top (the column numbers) not cut off
    board = box["board"]
    assert board["x"] >= 0 and board["r"] <= w and board["y"] >= 0, box
    # the step's title and text on screen
    assert pg.text_content("#cur-text") == step_text(exp.steps[k - 1])
    assert _on_screen(box["rule"], h) and _on_screen(box["text"], h), box
    # stepping on: the step's text stays on screen
    for j in range(k + 1, min(k + 8, len(exp.steps)) + 1):
        pg.keyboard.press("ArrowRight")
        assert pg.evaluate("document.body.dataset.current") == str(j)
        box = pg.evaluate(NARROW_JS)
        assert _on_screen(box["rule"], h), (j, box)
    # a step tapped in the list (far below the board) is shown on the board, on screen
    tap = min(k + 12, len(exp.steps))
    pg.click(f'#steps li[data-step="{tap}"]')
    assert pg.evaluate("document.body.dataset.current") == str(tap)
    box = pg.evaluate(NARROW_JS)
    assert _on_screen(box["rule"], h), (tap, box)
    # the page's top: the header's title, in the window
    pg.evaluate("window.scrollTo(0, 0)")
    box = pg.evaluate(NARROW_JS)
    assert box["title"].startswith("Kakuro walkthrough")
    assert _on_screen(box["header"], h), box
    pg.goto(path.as_uri())  # no step asked for: the page opens at its top
    pg.wait_for_selector("body.ready")
    assert pg.evaluate("window.scrollY") == 0
    assert _on_screen(pg.evaluate(NARROW_JS)["header"], h)
    pg.close()
    assert errors == []
