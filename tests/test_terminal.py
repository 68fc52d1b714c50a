"""The terminal renderer: boxes and colour for people, plain text for pipes."""

import re
import subprocess
import sys
from pathlib import Path

from deducer.app.cli import main
from deducer.engine.walk import explain
from deducer.puzzle.formats import load
from deducer.render import get

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_color_always_draws_boxes_and_colour(capsys):
    assert main(["solve", str(PUZZLES / "seed002-four.txt"), "--color", "always"]) == 0
    out = capsys.readouterr().out
    assert ANSI.search(out), "expected colour codes"
    plain = ANSI.sub("", out)
    assert "┌" in plain and "┼" in plain and "┘" in plain
    assert "unique solution" in plain
    for digit in "2379":  # the seed's solution B2=2, B3=3, C2=7, C3=9
        assert f"  {digit}  " in plain


def test_piped_output_stays_plain():
    # a pipe is not a terminal: --color auto must give the text renderer
    proc = subprocess.run([sys.executable, "-m", "deducer", "solve",
                           str(PUZZLES / "seed002-four.txt")], capture_output=True, text=True)
    assert proc.returncode == 0
    assert not ANSI.search(proc.stdout) and "┌" not in proc.stdout


def test_walkthrough_has_every_sentence_in_both_renderers():
    p = load(PUZZLES / "seed000-k2.j")
    exp = explain(p)
    fancy = ANSI.sub("", get("terminal").walkthrough(p, exp))
    plain = get("text").walkthrough(p, exp)
    flat = " ".join(fancy.split())
    for step in exp.steps:
        assert step.text in plain
        assert " ".join(step.text.split()) in flat
    assert "rating: Easy" in fancy
