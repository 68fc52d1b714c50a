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

from deducer.explain.engine import explain
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
        n = len(chain_cases(s)[0].links)
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
            assert re.match(rf"\s*\(\s*{k}\) ", line), line
            assert link["text"] in line
        assert "contradiction" in links[-1]
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
        assert len(inner) == len(links)
        for got, link in zip(inner, links, strict=True):
            assert got.startswith(link["text"].replace("&", "&amp;").replace(">", "&gt;"))
        assert "contradiction" in inner[-1]
        assert f"<p>{chain_conclusion(s)}</p>" in item
