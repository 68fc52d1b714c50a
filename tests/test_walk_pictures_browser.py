"""The HTML walkthrough's pictures of the argument and its zoom, in a real headless Chromium
(issue 51 item 5, issue 55 item 2): a region sum's area outlined with its inside and outside
cells coloured apart, a chain's links joined by arrows, and zoom and pan (buttons, keys,
Ctrl + wheel, drag) that change the board's transform and follow the step on show.

What the page must show is worked out here from the step list and the puzzle's runs, not
from the renderer's own helpers. Skipped when Chromium or Playwright is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browserkit import playwright_or_skip

from deducer.engine.walk import explain
from deducer.generator.examples import cached_puzzle, read_cache
from deducer.puzzle import formats
from deducer.render.html import walkthrough_html

sync_api = playwright_or_skip()

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _page(browser, path: Path, k: int, size=(1280, 800)):
    pg = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(path.as_uri() + f"#step-{k}")
    pg.wait_for_selector("body.ready")
    return pg, errors


@pytest.fixture(scope="module")
def region_walk(tmp_path_factory):
    """The technique pages' region-sum-two example (the package's cache), walked whole."""
    puzzle = cached_puzzle(read_cache()["region-sum-two"])
    exp = explain(puzzle)
    path = tmp_path_factory.mktemp("region") / "region.html"
    path.write_text(walkthrough_html(puzzle, exp), encoding="utf-8")
    return puzzle, exp, path


@pytest.fixture(scope="module")
def chain_walk(tmp_path_factory):
    puzzle = formats.load(ROOT / "puzzles" / "deducer-trial.txt")
    exp = explain(puzzle)
    path = tmp_path_factory.mktemp("chain") / "chain.html"
    path.write_text(walkthrough_html(puzzle, exp), encoding="utf-8")
    return puzzle, exp, path


def _cells(pg, selector: str) -> list[str]:
    return sorted(pg.eval_on_selector_all(selector, "els => els.map(e => e.dataset.cell)"))


def _names(cells) -> list[str]:
    return sorted(f"{r},{c}" for r, c in cells)


FILL_JS = """sel => { const e = document.querySelector(sel + ' rect.bg');
  return e ? getComputedStyle(e).fill : null; }"""


def test_a_region_sum_outlines_its_area_and_colours_inside_and_outside_apart(browser,
                                                                            region_walk):
    puzzle, exp, path = region_walk
    step = next(s for s in exp.steps if s.rule.startswith("region-sum"))
    runs = {run.name: run for run in puzzle.runs}
    named = [runs[n] for n in step.runs]
    # the area: the runs of the direction named first; outside: what the others add
    area = [r for r in named if r.direction == named[0].direction]
    crossing = [r for r in named if r.direction != named[0].direction]
    inside = {rc for r in area for rc in r.coords}
    outside = {rc for r in crossing for rc in r.coords} - inside
    assert crossing and outside
    pg, errors = _page(browser, path, step.n)
    assert _cells(pg, "#board g.w.in") == _names(inside)
    assert _cells(pg, "#board g.w.out") == _names(outside)
    # the cells only one group covers are the darker ones
    assert _cells(pg, "#board g.w.lo") == _names(inside ^ (outside | {
        rc for r in crossing for rc in r.coords}))
    fills = {k: pg.evaluate(FILL_JS, sel) for k, sel in (
        ("in", "#board g.w.in:not(.lo)"), ("out", "#board g.w.out"),
        ("plain", "#board g.w:not(.in):not(.out):not(.hl):not(.run):not(.pf):not(.pr)"))}
    assert len(set(fills.values())) == 3, fills  # inside, outside and the rest apart
    # each group's clues coloured as its cells
    clues = pg.eval_on_selector_all("#board g.cr.in", "els => els.length")
    assert clues == len(area)
    assert pg.eval_on_selector_all("#board g.cr.out", "els => els.length") == len(crossing)
    # the outline: a path along the area's border, as wide as the area
    d = pg.get_attribute("#board-region", "d")
    assert d and d.count("M") >= 4
    box = pg.evaluate("""() => { const b = document.getElementById('board-region').getBBox();
      return [b.x, b.y, b.width, b.height]; }""")
    cell = pg.evaluate("""() => { const r = document.querySelector('#board g.w rect.bg');
      return +r.getAttribute('width'); }""")
    rows = [r for r, _ in inside]
    cols = [c for _, c in inside]
    assert round(box[2] / cell) == max(cols) - min(cols) + 1
    assert round(box[3] / cell) == max(rows) - min(rows) + 1
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "walk-region-1280.png"))
    # the next step is no region: nothing of it stays on the board
    pg.keyboard.press("ArrowRight")
    assert _cells(pg, "#board g.w.in") == [] and _cells(pg, "#board g.w.out") == []
    assert pg.get_attribute("#board-region", "d") == ""
    pg.close()
    assert errors == []


def _anchor(puzzle, link: dict):
    """Where a link is drawn: the first cell it writes in or narrows, else (the closing
    contradiction) the first cell its facts leave empty, or the cells it names, or its
    runs' cells."""
    for key in ("placements", "eliminations"):
        if link.get(key):
            return tuple(link[key][0][:2])
    if not link.get("contradiction"):
        return None
    facts = [f for f in link.get("facts", ()) if "cell" in f]
    empty = [tuple(f["cell"]) for f in facts if not f.get("candidates")]
    named = [tuple(f["cell"]) for f in facts]
    runs = [rc for ref in link.get("runs", ()) for rc in
            puzzle.runs[puzzle.run_ids_by_ref[tuple(ref)]].coords]
    return min(empty or named or runs or [None])


def test_a_chains_links_are_joined_by_arrows_on_the_board(browser, chain_walk):
    puzzle, exp, path = chain_walk
    step = next(s for s in exp.steps if s.proof and "assume" in s.proof)
    links = step.proof["links"]
    cell = tuple(step.proof["assume"][:2])
    pg, errors = _page(browser, path, step.n)
    assert pg.eval_on_selector_all("#board-arrows g.ar", "els => els.length") == 0
    at = [cell] + [_anchor(puzzle, lk) for lk in links]
    want = 0
    pg.keyboard.press("ArrowDown")  # the assumption: no arrow yet
    assert pg.eval_on_selector_all("#board-arrows g.ar", "els => els.length") == 0
    for j, link in enumerate(links, start=1):
        pg.keyboard.press("ArrowDown")
        assert pg.evaluate("document.body.dataset.link") == str(j)
        src = [int(a) for a in link.get("after") or [j - 1]]
        new = [s for s in src if at[s] is not None and at[j] is not None and at[s] != at[j]]
        want += len(new)
        got = pg.evaluate("""() => [...document.querySelectorAll('#board-arrows g.ar')].map(
          g => ({old: g.classList.contains('old'),
                 tip: g.querySelector('polygon').getAttribute('points').split(' ')[0]}))""")
        assert len(got) == want, (j, got)
        # the arrows into this link are the current ones, and point into its cell
        fresh = [g for g in got if not g["old"]]
        assert len(fresh) == len(new)
        for g in fresh:
            x, y = map(float, g["tip"].split(","))
            r, c = at[j]
            rect = pg.evaluate(f"""() => {{ const b = document.querySelector(
              '#board g.w[data-cell="{r},{c}"] rect.bg');
              return [+b.getAttribute('x'), +b.getAttribute('y'), +b.getAttribute('width')]; }}""")
            assert rect[0] <= x <= rect[0] + rect[2] and rect[1] <= y <= rect[1] + rect[2]
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "walk-chain-arrows-1280.png"))
    pg.keyboard.press("ArrowRight")  # another step: the arrows go
    assert pg.eval_on_selector_all("#board-arrows g.ar", "els => els.length") == 0
    pg.close()
    assert errors == []


def _scale(transform: str) -> float:
    m = re.search(r"scale\(([0-9.]+)\)", transform or "")
    return float(m.group(1)) if m else 1.0


def _translate(transform: str) -> tuple[float, float]:
    m = re.search(r"translate\((-?[0-9.]+)px,\s*(-?[0-9.]+)px\)", transform or "")
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


TRANSFORM = "document.getElementById('board').style.transform"
IN_VIEW_JS = """() => {
  // the step's cells all in the board's box when their span fits in it, else some of them
  const box = document.querySelector('.boardwrap').getBoundingClientRect();
  const rs = [...document.querySelectorAll('#board g.w.hl rect.bg')]
    .map(r => r.getBoundingClientRect());
  if (!rs.length) return true;
  const inside = b => b.left >= box.left - 1 && b.right <= box.right + 1 &&
    b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
  const w = Math.max(...rs.map(b => b.right)) - Math.min(...rs.map(b => b.left));
  const h = Math.max(...rs.map(b => b.bottom)) - Math.min(...rs.map(b => b.top));
  return w <= box.width && h <= box.height ? rs.every(inside) : rs.some(inside);
}"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_zoom_and_pan_change_the_boards_transform_and_follow_the_step(browser, chain_walk,
                                                                     size):
    puzzle, exp, path = chain_walk
    pg, errors = _page(browser, path, 1, size)
    assert pg.evaluate(TRANSFORM) == "" and pg.is_disabled("#zoom-fit")
    pg.click("#zoom-in")
    pg.click("#zoom-in")
    z = _scale(pg.evaluate(TRANSFORM))
    # x1.5 a press, up to a cell of about 110 px (and at least twice the whole board)
    assert 2 <= z <= 2.25 and float(pg.evaluate("document.body.dataset.zoom")) == z
    # a candidate is now drawn bigger: at least 9 px on a phone, as on a desktop
    pg.keyboard.press("End")
    pg.keyboard.press("Home")
    pg.keyboard.press("ArrowRight")
    high = pg.evaluate("""() => { const t = [...document.querySelectorAll('#board text.c')]
      .find(t => !t.classList.contains('off'));
      return t ? t.getBoundingClientRect().height : null; }""")
    assert high is None or high >= 9
    # stepping on keeps the step's cells in the zoomed view
    for _ in range(12):
        pg.keyboard.press("ArrowRight")
        # (after the glide, a fifth of a second)
        pg.wait_for_function(IN_VIEW_JS, timeout=3000)
    # drag pans: the translation moves with the pointer
    before = _translate(pg.evaluate(TRANSFORM))
    box = pg.locator(".boardwrap").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    pg.mouse.move(cx, cy)
    pg.mouse.down()
    pg.mouse.move(cx + 40, cy + 30, steps=4)
    pg.mouse.up()
    after = _translate(pg.evaluate(TRANSFORM))
    assert after != before
    # Ctrl + wheel zooms about the pointer; a plain wheel leaves the board as it is
    pg.mouse.move(cx, cy)
    pg.mouse.wheel(0, 120)
    assert _scale(pg.evaluate(TRANSFORM)) == pytest.approx(z, abs=0.01)
    pg.keyboard.press("-")
    z = _scale(pg.evaluate(TRANSFORM))
    pg.keyboard.down("Control")
    pg.mouse.wheel(0, -200)
    pg.keyboard.up("Control")
    assert _scale(pg.evaluate(TRANSFORM)) > z
    # keys: - zooms out, 0 shows the whole board again
    pg.keyboard.press("-")
    pg.keyboard.press("0")
    pg.wait_for_timeout(260)
    assert pg.evaluate(TRANSFORM) == "" and pg.is_disabled("#zoom-out")
    ARTIFACTS.mkdir(exist_ok=True)
    pg.click("#zoom-in")
    pg.wait_for_timeout(600)
    pg.screenshot(path=str(ARTIFACTS / f"walk-zoom-{size[0]}.png"))
    pg.close()
    assert errors == []


def test_the_page_stays_one_file(region_walk):
    """Zoom, outlines and arrows add no file: the walkthrough still fetches nothing."""
    _, _, path = region_walk
    text = path.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "<link " not in text and "@import" not in text
