"""A chain step's conclusion (issue 51, one deduction one step): a chain that leaves its
cell one digit writes it in the same step, and its sentence says which digit goes in
("So 3 leaves r3c4, which is then 4."), as other rules' sentences say it; a chain that
leaves more than one digit says only what leaves.
"""

from __future__ import annotations

import re
from pathlib import Path

from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.puzzle.model import cell_name

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
END = re.compile(r"\. So (\d) leaves (r\d+c\d+)(?:, which is then (\d))?\.$")


def _chain_steps(name: str) -> list:
    return [s for s in explain(formats.load(PUZZLES / name)).steps if s.chain]


def test_a_chain_that_leaves_its_cell_one_digit_says_the_digit_written_in():
    seen = {"written": 0, "left open": 0}
    for name in ("generated-6x6-s23.txt", "deducer-trial.txt"):
        for s in _chain_steps(name):
            m = END.search(s.text)
            assert m, s.text
            digit, cell, then = int(m[1]), m[2], m[3]
            writes = {cell_name((r, c)): d for r, c, d in s.placements}
            if cell in writes:  # the step writes the cell: the sentence names that digit
                assert then is not None and int(then) == writes[cell], s.text
                assert int(then) != digit
                seen["written"] += 1
            else:  # more than one digit left: the sentence says what leaves, no more
                assert then is None, s.text
                assert any(cell_name((r, c)) == cell and digit in ds
                           for r, c, ds in s.eliminations), s.text
                seen["left open"] += 1
    assert seen["written"] and seen["left open"], seen  # both cases met
