"""Chains shown link by link (issue 28): every renderer lists a chain step's links, numbered,
under its assumption, and titles the step once ("Forcing chain of 9 links", never "Forcing
chain: Forcing chain of 9 links").

The puzzle is the bundled ``puzzles/deducer-trial.txt``, whose walkthrough needs forcing
chains (and a region sum).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.render import get
from deducer.render.walk import chain_cases, chain_conclusion, step_text, step_title

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def trial():
    p = formats.load(PUZZLES / "deducer-trial.txt")
    exp = explain(p)
    chains = [s for s in exp.steps if chain_cases(s)]
    assert len(chains) >= 3, "the bundled trial puzzle needs chains"
    return p, exp, chains


def test_titles_say_the_rule_once(trial):
    _, exp, chains = trial
    for s in chains:
        # the closing contradiction is where the links lead, not a link
        n = sum(1 for lk in chain_cases(s)[0].links if not lk.get("contradiction"))
        assert n == len(chain_cases(s)[0].links) - 1
        assert step_title(s) == f"{s.name} of {n} link{'s' if n != 1 else ''}"
        assert s.name.lower() not in step_text(s).lower()
        assert step_text(s).startswith("If ")
        assert chain_conclusion(s) == f"So {s.proof['assume'][2]} leaves " \
            f"r{s.proof['assume'][0] + 1}c{s.proof['assume'][1] + 1}."
    plain = exp.steps[0]
    assert step_title(plain) == plain.name and step_text(plain) == plain.text


def _numbered_blocks(out: str, s) -> list[str]:
    """The lines of step ``s``'s block in a text walkthrough."""
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if re.match(rf"\s*{s.n}\. ", line))
    block = [lines[start]]
    for line in lines[start + 1:]:
        if re.match(r"\s*\d+\. ", line) or not line.strip():
            break
        block.append(line)
    return block


@pytest.mark.parametrize("renderer", ["text", "terminal"])
def test_text_lists_every_link_on_its_own_numbered_line(trial, renderer):
    p, exp, chains = trial
    out = ANSI.sub("", get(renderer).walkthrough(p, exp))
    assert ": Forcing chain" not in out and "Forcing chain: " not in out
    for s in chains:
        block = _numbered_blocks(out, s)
        case = chain_cases(s)[0]
        assert block[0].strip().startswith(f"{s.n}. {step_title(s)}")
        assert block[1].strip() == case.intro
        links = block[2:2 + len(case.links)]
        for k, (line, link) in enumerate(zip(links, case.links, strict=True), start=1):
            label = "✗" if link.get("contradiction") else str(k)  # the end is not counted
            assert re.match(rf"\s*\(\s*{label}\) ", line), line
            assert link["text"] in line
        assert "contradiction" in links[-1] and "(✗)" in links[-1]
        assert block[2 + len(case.links)].strip() == chain_conclusion(s)


def test_markdown_nests_the_links_as_an_ordered_list(trial):
    from markdown_it import MarkdownIt  # comes with rich

    p, exp, chains = trial
    md = get("markdown").walkthrough(p, exp)
    html = MarkdownIt("commonmark").render(md)
    # the steps are still numbered right at the top level
    assert [int(m) for m in re.findall(r"^(\d+)\. ", md, re.M)] == [s.n for s in exp.steps]
    items = {}  # the top-level items that hold an inner list, by their title
    for item in html.split("<li>\n<p><strong>")[1:]:
        if "<ol>" in item:
            items.setdefault(item.split("</strong>", 1)[0], []).append(item)
    for s in chains:
        item = items[step_title(s)].pop(0)
        inner = re.findall(r"<li>(.*?)</li>", item.split("<ol>", 1)[1], re.S)
        links = chain_cases(s)[0].links
        # the numbered links; the contradiction they lead to follows the list, unnumbered
        assert len(inner) == len(links) - 1
        for got, link in zip(inner, links, strict=False):
            assert got.startswith(link["text"].replace("&", "&amp;").replace(">", "&gt;"))
        end = links[-1]["text"].replace("&", "&amp;").replace(">", "&gt;")
        assert f"✗ {end}: <em>a contradiction</em>" in item
        assert f"<p>{chain_conclusion(s)}</p>" in item


# ---------------------------------------------------------------------------- PDF diagrams
def _poppler_or_skip():
    import shutil

    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("cairosvg or libcairo missing (pip install '.[png]')")
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm missing (poppler-utils)")


def _colour_share(img, box, colour, tol=40) -> float:
    """Share of the pixels in ``box`` (left, top, right, bottom) near ``colour``."""
    crop = img.crop(box)
    colours = crop.getcolors(crop.width * crop.height)
    near = sum(n for n, c in colours
               if all(abs(a - b) <= tol for a, b in zip(c, colour, strict=True)))
    return near / max(1, crop.width * crop.height)


def test_pdf_walkthrough_draws_a_diagram_for_every_step_beyond_the_easy_ones(tmp_path, trial):
    """A Hard puzzle (made by the project's generator) and the bundled trial puzzle (chains
    and a region sum) in one booklet: every step beyond the simplest tiers has its board,
    every walkthrough page has a board, and the PNG of the pages shows them marked."""
    _poppler_or_skip()
    import subprocess
    from shutil import copyfile

    from PIL import Image

    from deducer.app.cli import main
    from deducer.render.pdf import Entry, book_pages, needs_diagram, pdf_bytes

    assert main(["generate", "--size", "9x9", "--level", "Hard", "--seed", "5",
                 "--out", str(tmp_path / "gen"), "--no-progress"]) == 0
    hard = formats.load(tmp_path / "gen" / "0001.txt")
    hard_exp = explain(hard)
    assert hard_exp.rating.level == "Hard"
    # the bundled puzzles need no region sum since chains are whips: make one that does
    assert main(["generate", "--size", "9x9", "--needs", "region-sum-one", "--seed", "2",
                 "--out", str(tmp_path / "reg"), "--no-progress"]) == 0
    reg = formats.load(tmp_path / "reg" / "0001.txt")
    reg_exp = explain(reg)
    p, exp, chains = trial
    entries = [Entry("hard", hard, hard_exp.solution, explanation=hard_exp),
               Entry("trial", p, exp.solution, explanation=exp),
               Entry("region", reg, reg_exp.solution, explanation=reg_exp)]
    pages = book_pages(entries, walkthroughs=True)
    out = tmp_path / "book.pdf"
    out.write_bytes(pdf_bytes(pages))
    subprocess.run(["pdftoppm", "-r", "72", "-png", str(out), str(tmp_path / "page")],
                   check=True)
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == len(pages)
    walk = [k for k, page in enumerate(pages) if any(t[2] == "Walkthroughs" for t in page.texts)]
    assert walk and all(pages[k].figures for k in walk)  # a board on every page
    drawn = {key: (k, fig) for k in walk for key, *fig in pages[k].figures if key is not None}
    for n, e in enumerate((hard_exp, exp, reg_exp), start=1):
        wanted = [(n, s.n) for s in e.steps if needs_diagram(s, e.rating.levels["Easy"])]
        assert wanted and sorted(key for key in drawn if key[0] == n) == wanted
    region = [s for s in reg_exp.steps if s.rule.startswith("region-sum")]
    assert region, "the generated puzzle's walkthrough has a region sum"
    for n, s in [(2, c) for c in chains] + [(3, r) for r in region]:
        k, (x, y, w, h) = drawn[(n, s.n)]
        img = Image.open(images[k]).convert("RGB")  # 72 dpi: a pixel is a point
        box = (int(x), int(y), int(x + w), int(y + h))
        assert _colour_share(img, box, (0x2e, 0x2e, 0x2e), 20) > 0.03  # clue squares
        if s in chains:  # the assumed cell's dashed border and the links' numbers
            assert _colour_share(img, box, (0xb0, 0x17, 0x9b)) > 0.002, s.n
        else:  # the region's area in green, outlined
            assert _colour_share(img, box, (0xd9, 0xf0, 0xd3), 12) > 0.01, s.n
            assert _colour_share(img, box, (0x1b, 0x7a, 0x2a), 30) > 0.002, s.n
    art = Path(__file__).resolve().parent / "artifacts"
    art.mkdir(exist_ok=True)
    copyfile(images[drawn[(2, chains[0].n)][0]], art / "pdf-chain-page.png")
    copyfile(images[drawn[(3, region[0].n)][0]], art / "pdf-region-page.png")


def test_svg_of_a_chain_step_draws_the_chain(trial):
    """``render --svg --step K`` on a chain: the assumed digit in its dashed cell, every
    link's number, the digits the links write, the cells where it breaks."""
    import xml.etree.ElementTree as ET

    from deducer.render.svg import step_svg

    p, exp, chains = trial
    ns = {"s": "http://www.w3.org/2000/svg"}
    for s in chains:
        root = ET.fromstring(step_svg(p, exp, s.n))
        case = chain_cases(s)[0]
        cls = {g.get("data-cell"): g.get("class").split() for g in root.iter(f"{{{ns['s']}}}g")
               if g.get("data-cell")}
        assumed = f"{case.cell[0]},{case.cell[1]}"
        assert [c for c, k in cls.items() if "as" in k] == [assumed]
        digit = root.find(f".//s:g[@data-cell='{assumed}']/s:text[@class='d a']", ns)
        assert digit is not None and digit.text == str(case.digit)
        numbers = sorted(int(t.text) for t in root.findall(".//s:g[@class='bd']/s:text", ns))
        assert numbers == list(range(1, len(case.links) + 1))  # every link's number, once
        assert any("bad" in k for k in cls.values())
        for link in case.links:
            for r, c, d in link["placements"]:
                t = root.find(f".//s:g[@data-cell='{r},{c}']/s:text[@class='d l']", ns)
                assert t is not None and t.text == str(d)
