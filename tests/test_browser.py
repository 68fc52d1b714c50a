"""The HTML walkthrough in a real headless Chromium (Debian's, driven by Playwright).

Skipped only when /usr/bin/chromium or the playwright package is missing; install both
with scripts/install-browser.sh. Each check compares what the page shows with what the
step list says (the Python replay of ``explanation.steps``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browserkit import playwright_or_skip

from deducer.explain.engine import explain
from deducer.puzzle import formats
from deducer.puzzle.combos import DIGITS
from deducer.render.html import walkthrough_html
from deducer.render.svg import DIGIT_CLASS, position_at, shown_candidates, step_marks
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
    # the hardest-step link in the header jumps there
    link = page.locator("a[data-goto]")
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
    from deducer.explain.hints import player_marks

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
