"""`why`'s shortening is bounded by work, not by the clock: the same question gets the
same answer on a slow machine (issue 40, item 2)."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

from deducer.assist import why as why_module
from deducer.engine.walk import explain
from deducer.puzzle.formats import load

ROOT = Path(__file__).resolve().parents[1]


def _questions(puzzle, n: int = 6):
    steps = explain(puzzle).steps
    for s in steps[len(steps) // 2::max(1, len(steps) // (2 * n))][:n]:
        for r, c, ds in s.eliminations[:1]:
            yield (r, c), ds[0]


def test_a_slow_clock_does_not_change_the_answer(monkeypatch):
    puzzle = load(ROOT / "puzzles" / "seed000-k2.j")
    questions = list(_questions(puzzle))
    assert questions
    normal = [why_module.why(puzzle, rc, d).to_json() for rc, d in questions]
    # every reading of the clock 5 s after the last: a machine many times slower (no
    # deadline was asked for, so nothing may be cut short)
    ticks = itertools.count(0.0, 5.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks))
    slow = [why_module.why(puzzle, rc, d).to_json() for rc, d in questions]
    assert slow == normal
