"""Walkthroughs a person reads (issue 10, item 5): the notation explained once at the top,
long stretches of one easy rule grouped under one heading (every step still shown, the
JSON untouched), and the HTML board marking the cells and runs of the step's proof.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.render import get
from deducer.render.html import walkthrough_data, walkthrough_html
from deducer.render.walk import GROUP_MIN, easy_weight, groups, notation, proof_marks

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def k2():
    p = formats.load(PUZZLES / "seed000-k2.j")
    return p, explain(p)


def _fake(n, rule, weight):
    from deducer.engine.walk import Step

    return Step(n, rule, rule.title(), f"step {n}", [], [], [], [], weight, 1, 0)


# ---------------------------------------------------------------------------- grouping
def test_groups_keep_every_step_in_order():
    rules = ["a"] * 5 + ["b"] * 3 + ["hard"] * 6 + ["a"] * GROUP_MIN + ["c"]
    steps = [_fake(k + 1, r, 9.0 if r == "hard" else 1.0) for k, r in enumerate(rules)]
    gs = groups(steps, 1.6)
    assert [s.n for g in gs for s in g] == list(range(1, len(steps) + 1))
    assert [len(g) for g in gs] == [5, 1, 1, 1, 1, 1, 1, 1, 1, 1, GROUP_MIN, 1]
    for g in gs:
        if len(g) > 1:
            assert len({s.rule for s in g}) == 1 and all(s.weight <= 1.6 for s in g)


def test_markdown_notation_and_groups(k2):
    p, exp = k2
    md = get("markdown").walkthrough(p, exp)
    plain = re.sub(r"\\(.)", r"\1", md)
    assert plain.count(notation(p)) == 1 and plain.index(notation(p)) < plain.index("## Steps")
    # every step exactly once, in order, and numbered right once rendered: a list after a
    # group heading starts at the group's first step (CommonMark numbers from the first)
    numbers = [int(m) for m in re.findall(r"^(\d+)\. ", md, re.M)]
    assert numbers == [s.n for s in exp.steps]
    from markdown_it import MarkdownIt  # comes with rich

    html = MarkdownIt("commonmark").render(md).split("<h2>Steps</h2>")[1]
    shown, cur = [], 1
    for m in re.finditer(r'<ol(?: start="(\d+)")?>|<li>', html.split("<h2>")[0]):
        if m.group(0).startswith("<ol"):
            cur = int(m.group(1) or 1)
        else:
            shown.append(cur)
            cur += 1
    assert shown == [s.n for s in exp.steps]
    heads = re.findall(r"^\*\*Steps (\d+)–(\d+): (.+?) ×(\d+):\*\*", plain, re.M)
    assert heads, "k2 has long stretches of one easy rule"
    for first, last, name, count in heads:
        stretch = exp.steps[int(first) - 1:int(last)]
        assert len(stretch) == int(count) >= GROUP_MIN
        assert {s.name for s in stretch} == {name}


def test_terminal_notation_and_groups(k2):
    p, exp = k2
    out = ANSI.sub("", get("terminal").walkthrough(p, exp))
    flat = " ".join(out.split())
    assert flat.count(notation(p)) == 1
    assert re.search(r"Steps 1–\d+: Unique combination ×\d+", out)
    for s in exp.steps:
        assert " ".join(s.text.split()) in flat


def test_json_keeps_every_step(k2):
    p, exp = k2
    log = json.loads(get("json").walkthrough(p, exp))
    assert [s["n"] for s in log["steps"]] == [s.n for s in exp.steps]


# ---------------------------------------------------------------------------- proof marks
def _with_proof(exp, n, proof):
    """The walkthrough with ``proof`` on step ``n`` and no proof on the others (the built-in
    rules prove every step: the tests strip the rest to see the marks go)."""
    steps = [replace(s, proof=proof if s.n == n else None) for s in exp.steps]
    return replace(exp, steps=steps)


def test_proof_marks_collect_facts_runs_and_links(k2):
    p, _ = k2
    proof = {"assume": [1, 1, 9], "links": [
        {"text": "", "facts": [{"cell": [2, 2], "candidates": [4]},
                               {"run": [1, 0, "across"], "combos": [[7, 9]]}],
         "runs": [[0, 1, "down"]], "contradiction": True}]}
    step = replace(_fake(1, "x", 1.0), proof=proof)
    cells, runs = proof_marks(p, step)
    ref = {tuple(r.ref): r.id for r in p.runs}
    assert cells == {(2, 2)}
    assert runs == {ref[(1, 0, "across")], ref[(0, 1, "down")]}
    assert proof_marks(p, _fake(1, "x", 1.0)) == (set(), set())


def test_html_carries_the_proof_marks_and_the_notation(k2):
    p, exp = k2
    proof = {"facts": [{"cell": [2, 1], "candidates": [1, 2, 4]}], "runs": [[2, 0, "across"]]}
    exp2 = _with_proof(exp, 5, proof)
    data = walkthrough_data(p, exp2)
    idx = p.index
    ref = {tuple(r.ref): r.id for r in p.runs}
    assert data["steps"][4][4] == [idx[(2, 1)]]
    assert data["steps"][4][5] == [ref[(2, 0, "across")]]
    assert data["steps"][3][4:] == [[], [], 0]  # no proof marks, no region
    page = walkthrough_html(p, exp2)
    assert page.count('class="notation"') == 1
    assert page.count('<li class="grp"') == len([g for g in groups(exp.steps, easy_weight(exp))
                                                 if len(g) > 1])


def test_html_board_marks_the_proof_in_a_browser(k2, tmp_path, browser):
    p, exp = k2
    n = next(g[0].n for g in groups(exp.steps, easy_weight(exp)) if len(g) > 1)
    proof = {"facts": [{"cell": [2, 1], "candidates": [1, 2, 4]},
                       {"cell": [9, 7], "candidates": [7, 9]}],
             "runs": [[2, 0, "across"]]}
    path = tmp_path / "w.html"
    path.write_text(walkthrough_html(p, _with_proof(exp, n, proof)), encoding="utf-8")
    run = next(r for r in p.runs if r.ref == [2, 0, "across"])
    pg = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(path.as_uri())
    pg.wait_for_selector("body.ready")
    # fold the group holding step n: its steps hide; stepping into it unfolds it
    pg.click(f'#steps li.grp[data-grp="{n}"]')
    assert not pg.is_visible(f'#steps li[data-step="{n}"]')
    for _ in range(n):
        pg.keyboard.press("ArrowRight")
    assert pg.evaluate("document.body.dataset.current") == str(n)
    assert pg.is_visible(f'#steps li[data-step="{n}"]')
    pf = pg.eval_on_selector_all("#board g.w.pf", "els => els.map(e => e.dataset.cell)")
    pr = pg.eval_on_selector_all("#board g.w.pr", "els => els.map(e => e.dataset.cell)")
    assert sorted(pf) == ["2,1", "9,7"]
    assert sorted(pr) == sorted(f"{r},{c}" for r, c in run.coords)
    assert pg.eval_on_selector_all("#board g.cr.pr", "els => els.length") == 1
    pg.keyboard.press("ArrowRight")  # the next step has no proof: the marks go
    assert pg.eval_on_selector_all("#board g.w.pf, #board g.w.pr", "els => els.length") == 0
    pg.close()
    assert errors == []


def test_real_steps_mark_their_own_proofs(k2):
    p, exp = k2
    data = walkthrough_data(p, exp)
    for s, row in zip(exp.steps, data["steps"], strict=True):
        cells, runs = proof_marks(p, s)
        assert s.proof is not None, s.text  # every built-in step carries its proof
        assert sorted(row[5]) == sorted(runs)
    first = exp.steps[0]  # a unique combination: its run alone, no fact
    assert first.rule == "unique-combination" and first.proof["facts"] == []
    assert data["steps"][0][5] and not data["steps"][0][4]


# ---- pictures of the argument on a static board (issue 51 item 5) ------------------------
def _svg_cells(svg: str, cls: str) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in re.findall(
        rf'<g class="w[^"]*\b{cls}\b[^"]*" data-cell="(\d+),(\d+)"', svg)}


def test_a_region_sum_is_drawn_as_its_area_and_what_sticks_out():
    """``render --svg --step K`` (and the PDF's diagrams) of a region sum: the runs of the
    direction its step's runs name first (the region's, then the crossing runs) fill the
    area (class ``in``, outlined), the crossing runs' cells outside it are ``out``, the
    cells only one group covers ``lo``."""
    from deducer.generator.examples import cached_puzzle, read_cache
    from deducer.render.svg import step_svg

    puzzle = cached_puzzle(read_cache()["region-sum-two"])
    exp = explain(puzzle)
    step = next(s for s in exp.steps if s.rule.startswith("region-sum"))
    runs = {run.name: run for run in puzzle.runs}
    named = [runs[n] for n in step.runs]
    area = {rc for r in named if r.direction == named[0].direction for rc in r.coords}
    crossing = {rc for r in named if r.direction != named[0].direction for rc in r.coords}
    svg = step_svg(puzzle, exp, step.n)
    assert _svg_cells(svg, "in") == area and _svg_cells(svg, "out") == crossing - area
    assert _svg_cells(svg, "lo") == area ^ crossing
    path = re.search(r'<path class="rgn" d="([^"]+)"/>', svg).group(1)
    # the outline's segments run along grid lines only, around the area's border: as many
    # unit edges as the area has sides facing a cell outside it
    edges = sum(1 for r, c in area for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if n not in area)
    length = 0.0
    for x, y, kind, to in re.findall(r"M([\d.]+) ([\d.]+)([HV])([\d.]+)", path):
        length += abs(float(to) - (float(x) if kind == "H" else float(y)))
    assert length == pytest.approx(edges * 40)
    # a step of another rule draws no area
    other = next(s for s in exp.steps if not s.rule.startswith("region-sum"))
    assert 'class="rgn"' not in step_svg(puzzle, exp, other.n)


def test_a_chains_diagram_joins_its_links_with_arrows():
    from deducer.render.svg import step_svg
    from deducer.render.walk import chain_cases

    puzzle = formats.load(PUZZLES / "deducer-trial.txt")
    exp = explain(puzzle)
    step = next(s for s in exp.steps if chain_cases(s))
    links = step.proof["links"]
    svg = step_svg(puzzle, exp, step.n)
    arrows = re.findall(r'<g class="ar"><line [^>]*/><polygon points="([^"]+)"/></g>', svg)
    # one arrow per link whose cell is not the one before it (a whip: each from the last)
    cells = [tuple(step.proof["assume"][:2])]
    for lk in links:
        ch = [tuple(p[:2]) for p in lk.get("placements", []) + lk.get("eliminations", [])]
        cells.append(ch[0] if ch else None)
    want = sum(1 for k in range(1, len(links) + 1)
               if cells[k] is not None and cells[k] != cells[k - 1])
    # the closing contradiction, which changes no cell, is drawn where it breaks
    closing = 1 if links[-1].get("contradiction") and cells[-1] is None else 0
    assert want >= 1 and want <= len(arrows) <= want + closing


# ---- one page, one chain walker (issue 53 point 2) ---------------------------------------
def test_the_pages_static_files_are_package_data_and_the_walkthrough_inlines_them(k2):
    """Every file of the pages' static folders matches pyproject's package-data (so that
    ``pip install .`` ships it; tests/test_install.py installs and looks), and the HTML
    walkthrough, one file that opens offline, holds the text of its style, of the play
    page's chain walker and of its player; its chains travel as the JSON log's proofs."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[1]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["deducer"]
    static = [f for f in (root / "deducer").glob("**/static/*") if f.is_file()]
    assert {"chainstep.js", "walkthrough.js", "walkthrough.css", "play.js"} <= {
        f.name for f in static}
    for f in static:
        rel = f.relative_to(root / "deducer").as_posix()
        assert any(fnmatch.fnmatch(rel, g) for g in globs), rel
    trial = formats.load(PUZZLES / "deducer-trial.txt")
    exp = explain(trial)
    page = walkthrough_html(trial, exp)
    for name in ("walkthrough.css", "chainstep.js", "walkthrough.js", "cards.css", "cards.js"):
        text = (root / "deducer" / "render" / "static" / name).read_text(encoding="utf-8")
        assert text in page, name
    assert "<link " not in page and "src=" not in page.split("<body>")[0]  # nothing fetched
    chains = walkthrough_data(trial, exp)["chains"]
    by_n = {s.n: s for s in exp.steps}
    assert chains and all(json.loads(json.dumps(by_n[int(n)].proof)) == c["proof"]
                          for n, c in chains.items())


def test_notation_names_runs_of_the_puzzle_itself(k2):
    """The legend's example runs are on the board the reader has (a learner looked for the
    generic r2c1→ 16/2 on a board without it)."""
    p, _ = k2
    text = notation(p)
    named = re.findall(r"r\d+c\d+[→↓] \d+/\d+", text)
    assert len(named) == 2 and set(named) <= {run.name for run in p.runs}
    across, down = named
    r, c, total, n = map(int, re.match(r"r(\d+)c(\d+)→ (\d+)/(\d+)", across).groups())
    assert f"whose clue sits in r{r}c{c}, {n} cells adding up to {total};" in text
    assert f"runs down from {down.split('↓')[0]}." in text
