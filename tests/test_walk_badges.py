"""A chain link's number never covers a candidate, on the page and in the PDF's diagrams,
and the walkthrough page follows a #step-N given after it has loaded (issue 41, item 15).

The board checks are geometry: a badge's circle against the ink of every candidate shown
(a digit of the 10.5 px candidate font is at most 6.7 px wide and 7.7 px tall above its
baseline). The browser checks drive Debian's Chromium, and leave screenshots in
tests/artifacts/ to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.render.position import position_at
from deducer.render.svg import BADGE_R, diagram_svg
from deducer.render.walk import chain_cases

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
HALF_W, INK_H = 3.35, 7.7  # a candidate digit's ink around its x, above its baseline


@pytest.fixture(scope="module")
def trial():
    puzzle = formats.load(ROOT / "puzzles" / "deducer-trial.txt")
    exp = explain(puzzle)
    steps = [s for s in exp.steps if chain_cases(s)]
    assert steps
    return puzzle, exp, steps


def covers(circle: tuple[float, float, float], cand: tuple[float, float]) -> bool:
    """Does the circle (cx, cy, r) reach the ink box of a candidate at (x, baseline)?"""
    cx, cy, r = circle
    x, y = cand
    nx = min(max(cx, x - HALF_W), x + HALF_W)
    ny = min(max(cy, y - INK_H), y)
    return (cx - nx) ** 2 + (cy - ny) ** 2 < r * r


def svg_shapes(svg: str):
    circles = [tuple(float(v) for v in m) for m in
               re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg)]
    cands = [(float(x), float(y)) for cls, x, y in
             re.findall(r'<text class="(c[^"]*)" data-d="\d" x="([\d.]+)" y="([\d.]+)"', svg)
             if "off" not in cls.split()]
    box = [float(v) for v in re.search(r'viewBox="([^"]+)"', svg).group(1).split()]
    return circles, cands, box


def test_the_diagrams_badges_cover_no_candidate(trial):
    """The PDF's chain diagrams (diagram_svg): every badge clear of every candidate shown,
    and whole inside the picture."""
    puzzle, exp, steps = trial
    seen = 0
    for step in steps:
        svg = diagram_svg(puzzle, position_at(puzzle, exp.steps, step.n - 1), step)
        circles, cands, (x0, y0, w, h) = svg_shapes(svg)
        assert circles, step.n
        for c in circles:
            assert not [xy for xy in cands if covers(c, xy)], (step.n, c)
            cx, cy, r = c
            assert x0 <= cx - r and cx + r <= x0 + w and y0 <= cy - r and cy + r <= y0 + h
        seen += len(circles)
    assert seen >= 5


def test_a_cells_badges_take_free_corners_inside_the_board():
    from deducer.render.svg import badge_places

    # (2, 3) is in the last column: its second number goes below-left, not on the edge;
    # (1, 1)'s second number finds its top-right corner taken by (1, 2)'s first
    places = badge_places({(1, 1): [1, 4], (1, 2): [2], (2, 3): [3, 5]}, rows=4, cols=4)
    assert places == [((1, 1), 1, 0), ((1, 1), 4, 2), ((1, 2), 2, 0), ((2, 3), 3, 0),
                      ((2, 3), 5, 3)]
    assert BADGE_R <= 6


# ---------------------------------------------------------------------------- the page
browserkit = pytest.importorskip("browserkit")
sync_api = browserkit.playwright_or_skip()


@pytest.fixture(scope="module")
def page_file(trial, tmp_path_factory):
    from deducer.render.html import walkthrough_html

    puzzle, exp, _ = trial
    path = tmp_path_factory.mktemp("walk") / "trial.html"
    path.write_text(walkthrough_html(puzzle, exp), encoding="utf-8")
    return path


def _open(browser, path: Path, hash_: str):
    pg = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(path.as_uri() + hash_)
    pg.wait_for_selector("body.ready")
    return pg, errors


SHAPES_JS = """() => {
  const circles = [...document.querySelectorAll('#board-badges circle')].map(
    c => [+c.getAttribute('cx'), +c.getAttribute('cy'), +c.getAttribute('r')]);
  const cands = [...document.querySelectorAll('#board g.w text.c')].filter(
    t => !t.classList.contains('off')).map(t => [+t.getAttribute('x'), +t.getAttribute('y')]);
  const vb = document.getElementById('board').viewBox.baseVal;
  return {circles, cands, box: [vb.x, vb.y, vb.width, vb.height]};
}"""


def test_the_pages_badges_cover_no_candidate(browser, trial, page_file):
    """Every link of every chain, walked on the page: no badge on a candidate shown."""
    _, _, steps = trial
    seen = 0
    errors: list[str] = []
    for step in steps:
        pg, errs = _open(browser, page_file, f"#step-{step.n}")
        errors += errs
        assert pg.evaluate("document.body.dataset.current") == str(step.n)
        links = pg.locator("#links li").count()
        for j in range(links):
            pg.keyboard.press("ArrowDown")
            shapes = pg.evaluate(SHAPES_JS)
            x0, y0, w, h = shapes["box"]
            for c in shapes["circles"]:
                assert not [xy for xy in shapes["cands"] if covers(c, tuple(xy))], \
                    (step.n, j, c)
                cx, cy, r = c
                assert x0 <= cx - r and cx + r <= x0 + w and y0 <= cy - r and cy + r <= y0 + h
            seen += len(shapes["circles"])
            if step is steps[1] and j == links - 1:
                ARTIFACTS.mkdir(exist_ok=True)
                pg.locator("#board").screenshot(path=str(ARTIFACTS / "chain-badges.png"))
        pg.close()
    assert seen >= 10
    assert errors == []


def test_the_page_follows_a_hash_given_after_loading(browser, trial, page_file):
    _, exp, steps = trial
    pg, errors = _open(browser, page_file, "#step-3")
    assert pg.evaluate("document.body.dataset.current") == "3"
    for given, shown in ((f"#step-{steps[0].n}", steps[0].n), ("#s5", 5),
                         ("#step-99999", len(exp.steps)), ("#step-0", 0)):
        pg.evaluate(f"location.hash = '{given}'")
        pg.wait_for_function(f"document.body.dataset.current === '{shown}'", timeout=5000)
        assert pg.inner_text("#pos").startswith("Start" if shown == 0 else f"Step {shown} ")
    # back to an earlier hash in the history goes back to that step too
    pg.go_back()
    pg.wait_for_function(f"document.body.dataset.current === '{len(exp.steps)}'",
                         timeout=5000)
    pg.close()
    assert errors == []
