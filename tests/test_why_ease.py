"""``why`` gives the easiest answer it finds, never harder than the walkthrough's own way to
the same elimination (issue 37, item 5): checked on seeded random (cell, digit) pairs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deducer.assist.why import EXPLAINED, LONG_ANSWER, why
from deducer.engine.walk import explain
from deducer.puzzle.formats import load

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
#: (puzzle, pairs drawn): a hard bundled puzzle with chains, and one without
SAMPLES = (("deducer-trial.txt", 8), ("seed002-four.txt", 6))


def _removed_at(steps, cell: tuple[int, int], digit: int) -> int:
    """Index of the walkthrough's step that takes ``digit`` out of ``cell`` (its
    eliminations, or another digit written there); -1 when the grid as given does."""
    for k, s in enumerate(steps):
        if any((r, c) == cell and d != digit for r, c, d in s.placements):
            return k
        if any((r, c) == cell and digit in ds for r, c, ds in s.eliminations):
            return k
    return -1


@pytest.mark.parametrize(("name", "count"), SAMPLES)
def test_why_is_never_harder_than_the_walkthroughs_path(name, count):
    p = load(PUZZLES / name)
    exp = explain(p)
    assert exp.status == "solved"
    solution = dict(zip(p.whites, exp.solution, strict=True))
    rng = random.Random(37)
    open_cells = [rc for rc in p.whites if rc not in p.givens]
    pairs = []
    while len(pairs) < count:
        cell, digit = rng.choice(open_cells), rng.randint(1, 9)
        if digit != solution[cell] and (cell, digit) not in pairs:
            pairs.append((cell, digit))
    for cell, digit in pairs:
        answer = why(p, cell, digit)
        assert answer.kind == EXPLAINED, (cell, digit, answer.message)
        k = _removed_at(exp.steps, cell, digit)
        ceiling = max((s.weight for s in exp.steps[:k + 1]), default=0.0)
        hardest = max((s.weight for s in answer.steps), default=0.0)
        assert hardest <= ceiling + 1e-9, (cell, digit, hardest, ceiling)
        if not answer.steps:  # the digits written in the cell's runs settle it at once
            continue
        assert answer.path == k + 1 and answer.path_weight == pytest.approx(ceiling)
        assert len(answer.steps) <= answer.path
        assert answer.long == (len(answer.steps) > LONG_ANSWER)
        if answer.long:
            assert "a long answer" in answer.message and f"step {answer.path}" in answer.message
