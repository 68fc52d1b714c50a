"""Every step sentence of the JSON log appears in the HTML and Markdown walkthroughs."""

import html
import json
import re
from pathlib import Path

import pytest

from deducer.app.cli import main

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def _unmarkdown(text: str) -> str:
    # the renderer backslash-escapes Markdown's special characters; a reader sees them plain
    return re.sub(r"\\([\\*_`|<>\[\]])", r"\1", text)


@pytest.mark.parametrize("name", ["seed000-k2.j", "deducer-trial.txt", "seed002-four.txt"])
def test_json_log_sentences_are_in_both_walkthroughs(name, tmp_path, capsys):
    src = PUZZLES / name
    md, page = tmp_path / "w.md", tmp_path / "w.html"
    code = main(["explain", str(src), "--json", "--markdown", str(md), "--html", str(page)])
    assert code == 0
    log = json.loads(capsys.readouterr().out)
    assert log["steps"], "a walkthrough with no steps proves nothing"
    markdown = _unmarkdown(md.read_text(encoding="utf-8"))
    # the page keeps the steps as JSON for its script and as HTML text: either way a
    # browser shows the sentence, so compare against the unescaped page
    page_text = html.unescape(page.read_text(encoding="utf-8"))
    for step in log["steps"]:
        # a chain is shown link by link: its heading, each link's sentence, its conclusion
        parts = _chain_parts(step) or [step["text"]]
        for part in parts:
            assert part in markdown, f"step {step['n']} missing from Markdown: {part}"
            assert part in page_text or json.dumps(part)[1:-1] in page_text, \
                f"step {step['n']} missing from HTML: {part}"


def _chain_parts(step: dict) -> list[str]:
    """The pieces a chain step's sentence is shown in (none for other steps)."""
    from types import SimpleNamespace

    from deducer.render.walk import chain_cases, chain_conclusion, step_title

    s = SimpleNamespace(**step)
    cases = chain_cases(s)
    if not cases:
        return []
    parts = [step_title(s), chain_conclusion(s)]
    for case in cases:
        parts.append(case.intro)
        parts += [link["text"] for link in case.links]
    return parts
