"""SVG board and HTML walkthrough renderers, and the ``deducer render`` command."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from deducer.app.cli import main
from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.puzzle.combos import BIT, DIGITS
from deducer.render import get
from deducer.render import svg as svgmod
from deducer.render.html import walkthrough_html
from deducer.render.position import position_at
from deducer.solver.search import solve

# The Wikipedia example puzzle (unique solution), in the | format.
WIKIPEDIA = "\n".join([
    r"\|23\|30\|\|\|27\|12\|16\ ".rstrip(),
    r"\16|||\|17\24|||",
    r"\17|||15\29||||",
    r"\35||||||12\|\ ".rstrip(),
    r"\|\7|||7\8|||7\ ".rstrip(),
    r"\|11\|10\16|||||",
    r"\21|||||\5||",
    r"\6||||\|\3||",
]) + "\n"

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def puzzle():
    return formats.loads(WIKIPEDIA, "pipe")


@pytest.fixture(scope="module")
def explanation(puzzle):
    return explain(puzzle)


@pytest.fixture(scope="module")
def solution(puzzle):
    res = solve(puzzle)
    assert res.status == "unique"
    return res.solutions[0]


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def cells_of(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    out = {}
    for g in root.iter(f"{NS}g"):
        if "w" in g.get("class", "").split():
            r, c = map(int, g.get("data-cell").split(","))
            out[(r, c)] = g
    return out


def texts(el: ET.Element, cls: str) -> list[ET.Element]:
    return [t for t in el.iter(f"{NS}text") if cls in t.get("class", "").split()]


def digit_of(g: ET.Element) -> str:
    ds = texts(g, "d")
    return ds[0].text or "" if ds else ""


def test_wikipedia_puzzle_parses(puzzle, explanation):
    assert (puzzle.rows, puzzle.cols, len(puzzle.whites)) == (8, 8, 36)
    assert explanation.status == "solved"


def test_svg_is_xml_with_every_clue(puzzle):
    root = parse(svgmod.puzzle_svg(puzzle))
    assert root.tag == f"{NS}svg"
    clues = sorted(int(t.text) for t in texts(root, "ct"))
    want = sorted(v for row in puzzle.squares for sq in row if not sq.white
                  for v in (sq.down, sq.across) if v is not None)
    assert clues == want
    assert set(cells_of(root)) == set(puzzle.whites)
    # every black square is drawn
    blacks = sum(1 for row in puzzle.squares for sq in row if not sq.white)
    assert sum(1 for r in root.iter(f"{NS}rect") if r.get("class") == "k") == blacks


def test_svg_solution_draws_every_digit(puzzle, solution):
    root = parse(svgmod.solution_svg(puzzle, solution))
    cells = cells_of(root)
    for rc, v in zip(puzzle.whites, solution, strict=True):
        assert digit_of(cells[rc]) == str(v), rc
    # and every clue still
    assert len(texts(root, "ct")) == sum(
        (sq.down is not None) + (sq.across is not None)
        for row in puzzle.squares for sq in row if not sq.white)


def test_svg_renderer_interface(puzzle, solution, explanation):
    res = solve(puzzle)
    root = parse(get("svg").solve(puzzle, res))
    assert [digit_of(cells_of(root)[rc]) for rc in puzzle.whites] == [str(v) for v in solution]
    final = parse(get("svg").walkthrough(puzzle, explanation))
    assert [digit_of(cells_of(final)[rc]) for rc in puzzle.whites] == [str(v) for v in solution]


def test_givens_bold_and_candidates(puzzle, solution):
    p = replace(puzzle, givens={puzzle.whites[0]: solution[0]}).validate()
    root = parse(svgmod.puzzle_svg(p, candidates=True))
    cells = cells_of(root)
    g0 = cells[p.whites[0]]
    assert texts(g0, "d")[0].get("class") == "d g"
    # a 16/2 run: only 7 and 9 fit r2c2 (9 is the given there, so r2c3 keeps 7)
    assert sorted(t.text for t in texts(cells[(1, 2)], "c")) == ["7"]
    assert not texts(g0, "c")


def test_replay_reaches_the_engine_state(puzzle, explanation):
    pos = position_at(puzzle, explanation.steps, len(explanation.steps))
    assert pos.masks == explanation.masks
    assert [pos.digits[rc] for rc in puzzle.whites] == [DIGITS[m][0] for m in explanation.masks]


def test_step_svg_marks_the_step(puzzle, explanation):
    steps = explanation.steps
    names = {run.name: run for run in puzzle.runs}
    for k in (1, 12, next(s.n for s in steps if s.placements), len(steps)):
        step = steps[k - 1]
        root = parse(svgmod.step_svg(puzzle, explanation, k))
        cells = cells_of(root)
        hl = {rc for rc, g in cells.items() if "hl" in g.get("class").split()}
        assert hl == {tuple(rc) for rc in step.cells}
        run_cells = {rc for n in step.runs for rc in names[n].coords}
        assert {rc for rc, g in cells.items() if "run" in g.get("class").split()} == run_cells
        for r, c, ds in step.eliminations:
            if (r, c) in {(p[0], p[1]) for p in step.placements}:
                continue
            struck = sorted(int(t.text) for t in texts(cells[(r, c)], "x"))
            assert struck == sorted(ds), (k, r, c)
        for r, c, d in step.placements:
            t = texts(cells[(r, c)], "d")[0]
            assert (t.text, t.get("class")) == (str(d), "d n")
        # the clue halves of the step's runs are highlighted
        hl_runs = {g.get("data-run") for g in root.iter(f"{NS}g")
                   if g.get("class") == "cr hl"}
        assert hl_runs == {str(names[n].id) for n in step.runs if names[n].clue_at}
    with pytest.raises(Exception, match="no step"):
        svgmod.step_svg(puzzle, explanation, len(steps) + 1)


def parity_puzzle(puzzle, solution):
    even = frozenset(rc for rc, v in zip(puzzle.whites, solution, strict=True) if v % 2 == 0)
    return replace(puzzle, even=even).validate(), even


def test_parity_cells_are_shaded(puzzle, solution):
    p, even = parity_puzzle(puzzle, solution)
    for text in (svgmod.puzzle_svg(p), svgmod.solution_svg(p, solution)):
        cells = cells_of(parse(text))
        shaded = {rc for rc, g in cells.items() if "even" in g.get("class").split()}
        assert shaded == even and 0 < len(even) < len(p.whites)
    exp = explain(p)
    page = walkthrough_html(p, exp)
    shaded = set()
    for m in re.finditer(r'<g class="([^"]*)" data-cell="(\d+),(\d+)"', page):
        if "even" in m.group(1).split():
            shaded.add((int(m.group(2)), int(m.group(3))))
    assert shaded == even
    assert ".even .bg{fill:" in page


def test_html_holds_every_step_sentence(puzzle, explanation):
    page = get("html").walkthrough(puzzle, explanation)
    plain = html.unescape(page)
    for s in explanation.steps:
        assert s.text in plain, s.n
        assert f'data-step="{s.n}"' in page
    assert 'id="board"' in page and 'id="steps"' in page
    # rating header: level, score, hardest step, narrowest step, effort, rules with counts
    r = explanation.rating
    assert f"<dd>{r.level}" in page
    assert f"<dd>{r.score:g}</dd>" in page and f"<dd>{r.effort}</dd>" in page
    assert f'data-goto="{r.narrowest_step}">step {r.narrowest_step}</a>' in page
    assert f'(from <a href="#s{r.level_step}" data-goto="{r.level_step}">' in page
    for rule, n in r.rules.items():
        assert f'data-rule="{rule}"' in page and f"×{n}</b>" in plain
    # self-contained: nothing fetched from anywhere
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!#)""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert "@media print" in page


def test_html_data_script_cannot_break_out(puzzle, explanation):
    from deducer.engine.walk import Step

    evil = Step(n=1, rule="x", name="</script><b>", text="a </script> & <!-- b", placements=[],
                eliminations=[], cells=[], runs=[], weight=1.0, score=1, available=0)
    exp = replace(explanation, steps=[evil])
    page = walkthrough_html(puzzle, exp)
    assert page.count("</script>") == 2  # only the two real script elements close
    assert "a </script> & <!-- b" in html.unescape(page)


def test_html_solve_page(puzzle, solution):
    page = get("html").solve(puzzle, solve(puzzle))
    assert "unique solution" in page
    assert page.count('class="d ') == len(solution)


def test_walkthrough_data_is_consistent(puzzle, explanation):
    from deducer.render.html import walkthrough_data

    data = walkthrough_data(puzzle, explanation)
    assert len(data["steps"]) == len(explanation.steps)
    masks = list(data["start"])
    for st in data["steps"]:
        for i, m in st[1]:
            masks[i] &= ~m
        for i, d in st[0]:
            masks[i] = BIT[d]
    assert masks == explanation.masks


# ---- the command ---------------------------------------------------------------------------


@pytest.fixture()
def wiki_file(tmp_path):
    path = tmp_path / "wiki.txt"
    path.write_text(WIKIPEDIA, encoding="utf-8")
    return path


def test_render_command_svg_html(wiki_file, tmp_path, puzzle, solution, capsys):
    out_svg, out_html = tmp_path / "b.svg", tmp_path / "w.html"
    assert main(["render", str(wiki_file), "--svg", str(out_svg), "--html", str(out_html)]) == 0
    parse(out_svg.read_text(encoding="utf-8"))
    assert 'id="board"' in out_html.read_text(encoding="utf-8")
    # refuses to overwrite without --force, and writes nothing then
    before = out_svg.read_text(encoding="utf-8")
    assert main(["render", str(wiki_file), "--svg", str(out_svg), "--solution"]) == 2
    assert "--force" in capsys.readouterr().err
    assert out_svg.read_text(encoding="utf-8") == before
    assert main(["render", str(wiki_file), "--svg", str(out_svg), "--solution", "--force"]) == 0
    cells = cells_of(parse(out_svg.read_text(encoding="utf-8")))
    assert [digit_of(cells[rc]) for rc in puzzle.whites] == [str(v) for v in solution]


def test_render_command_step_and_stdout(wiki_file, capsys):
    assert main(["render", str(wiki_file), "--svg", "-", "--step", "3", "--candidates"]) == 0
    root = parse(capsys.readouterr().out)
    assert any("hl" in g.get("class").split() for g in cells_of(root).values())
    assert main(["render", str(wiki_file)]) == 2
    assert "name an output" in capsys.readouterr().err
    assert main(["render", str(wiki_file), "--svg", "-", "--step", "999"]) == 2


def test_render_command_png(wiki_file, tmp_path, capsys):
    out = tmp_path / "b.png"
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):  # no package, or no libcairo on the machine
        assert main(["render", str(wiki_file), "--png", str(out)]) == 2
        assert "cairosvg" in capsys.readouterr().err
        assert not out.exists()
        return
    assert main(["render", str(wiki_file), "--png", str(out), "--solution"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_big_walkthrough_stays_small(corpus_dir):
    path = corpus_dir / "marcelgarus-kakuro" / "30x30.kakuro"
    if not path.exists():
        pytest.skip("30x30 corpus puzzle not found")
    p = formats.load(str(path))
    exp = explain(p)
    page = walkthrough_html(p, exp)
    assert len(exp.steps) > 300
    assert len(page.encode("utf-8")) < 1_500_000


def test_render_command_png_without_cairosvg(wiki_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "cairosvg", None)  # import fails
    out, svg_out = tmp_path / "b.png", tmp_path / "b.svg"
    assert main(["render", str(wiki_file), "--png", str(out), "--svg", str(svg_out)]) == 2
    err = capsys.readouterr().err
    assert "pip install cairosvg" in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and not svg_out.exists()  # nothing half-written


# ---------------------------------------------------------------------------- PDF booklet
def _poppler():
    """pdfinfo / pdftotext / pdftoppm (Debian's poppler-utils), or skip."""
    import shutil

    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("cairosvg or libcairo missing (pip install '.[png]')")
    if not all(shutil.which(t) for t in ("pdfinfo", "pdftotext", "pdftoppm")):
        pytest.skip("poppler-utils missing (scripts/install-browser.sh installs it)")


def _run(*cmd) -> str:
    import subprocess

    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


ROOT_DIR = __import__("pathlib").Path(__file__).resolve().parents[1]


def test_render_pdf_booklet_puzzles_then_solutions_then_walkthroughs(tmp_path, wiki_file):
    _poppler()
    from PIL import Image

    out = tmp_path / "book.pdf"
    k = ROOT_DIR / "puzzles" / "seed000-k.j"  # eight puzzles in one file: all of them
    four = ROOT_DIR / "puzzles" / "seed002-four.txt"
    assert main(["render", "--pdf", str(out), str(k), str(four), str(wiki_file),
                 "--walkthroughs"]) == 0
    info = _run("pdfinfo", str(out))
    pages = int(re.search(r"Pages:\s+(\d+)", info)[1])
    assert "A4" in info and "deducer" in info and pages >= 4
    text = _run("pdftotext", "-layout", str(out), "-")
    heads = [ln.strip() for ln in text.splitlines()
             if ln.strip() in ("Puzzles", "Solutions", "Walkthroughs")]
    order = [h for i, h in enumerate(heads) if i == 0 or heads[i - 1] != h]
    assert order == ["Puzzles", "Solutions", "Walkthroughs"]
    # each puzzle titled by its level and score, never by its file name (issue 55)
    assert "seed000-k.j" not in text and "seed002-four" not in text
    four_rating = explain(formats.load(four)).rating
    assert f"9. {four_rating.level}, score {four_rating.score:g}" in text
    assert "4. not rated — several solutions (one shown)" in text  # k3
    # the walkthrough of the four-cell puzzle, every step, in the engine's words
    walk = explain(formats.load(four))
    flat = " ".join(text.split())
    for step in walk.steps:
        assert " ".join(f"{step.name}: {step.text}".split())[:60] in flat
    # every page drawn, nothing outside the paper's margins
    _run("pdftoppm", "-r", "40", "-png", str(out), str(tmp_path / "page"))
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == pages
    for path in images:
        img = Image.open(path).convert("L")
        w, h = img.size
        dark = sum(img.histogram()[:128])
        assert 0.001 < dark / (w * h) < 0.6, path.name
        box = img.point(lambda v: 255 if v < 200 else 0).getbbox()
        assert box[0] > w * 0.03 and box[2] < w * 0.97 and box[3] < h * 0.99, path.name


def test_render_pdf_solution_page_holds_the_solution(tmp_path):
    _poppler()
    out = tmp_path / "four.pdf"
    four = ROOT_DIR / "puzzles" / "seed002-four.txt"
    assert main(["render", str(four), "--pdf", str(out)]) == 0
    puzzles, solutions = (_run("pdftotext", "-f", str(n), "-l", str(n), "-layout", str(out), "-")
                          for n in (1, 2))
    digits = lambda t: re.findall(r"\b[1-9]\b", t.split("\n", 3)[-1])  # noqa: E731
    assert "Puzzles" in puzzles and "Solutions" in solutions
    # the solution 2 7 / 3 9 is on the second page; the first has clues 5, 16, 12, the row
    # and column numbers 1-3 and the page number, never a 7 or a 9
    assert {"2", "7", "3", "9"} <= set(digits(solutions))
    assert not {"7", "9"} & set(digits(puzzles))


def test_render_pdf_refusals(tmp_path, wiki_file, capsys):
    out = tmp_path / "x.pdf"
    none = tmp_path / "none.txt"
    none.write_text("\\|3\\|3\\\n\\3| | \n\\4| | \n", encoding="utf-8")
    assert main(["render", "--pdf", str(out), str(wiki_file), str(none)]) == 2
    err = capsys.readouterr().err
    assert "none.txt" in err and "no solution" in err and not out.exists()
    assert main(["render", "--svg", str(tmp_path / "a.svg"), str(wiki_file), str(wiki_file)]) == 2
    assert "only --pdf" in capsys.readouterr().err
    assert main(["render", "--pdf", "-", str(wiki_file)]) == 2
    assert main(["render", "--svg", str(tmp_path / "a.svg"), str(wiki_file),
                 "--walkthroughs"]) == 2
    assert "--walkthroughs goes with --pdf" in capsys.readouterr().err
