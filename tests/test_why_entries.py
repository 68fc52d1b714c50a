"""``why`` answers from the grid as given, the player's entries included (issue 53, point 5:
flipping any of its ``use_entries`` flags went unnoticed). Each test below fails when one
of them is flipped: the solve that checks the grid, the solve that looks for another
solution, and the proof checker's replays that shorten an answer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from deducer import proofcheck
from deducer.assist.why import POSSIBLE, UNSOLVABLE, why
from deducer.engine.walk import explain
from deducer.puzzle.combos import BIT
from deducer.puzzle.formats import load
from deducer.solver.search import solve

ROOT = Path(__file__).resolve().parents[1]


def test_an_entry_that_leaves_no_solution_is_said_so():
    """seed002-four solves as 2 7 / 3 9; a 1 written in r2c2 leaves no solution, which is
    the answer about r3c3 (no run of r3c3 holds the entry: the grid, not a run, says it)."""
    p = load(ROOT / "puzzles" / "seed002-four.txt")
    wrong = p.with_entries({(1, 1): 1})
    assert why(wrong, (2, 2), 1).kind == UNSOLVABLE
    assert why(p, (2, 2), 1).kind != UNSOLVABLE


def test_another_solution_is_one_the_entries_allow():
    """k3 has 40 solutions; one entry leaves 24. "One of them puts d there" is said exactly
    when one of those 24 does, on every cell where they differ."""
    p = load(ROOT / "puzzles" / "seed000-k.j", name="k3")
    every = solve(p, max_solutions=100).solutions
    assert len(every) == 40
    differ = [i for i in range(len(p.whites)) if len({s[i] for s in every}) > 1]
    first = differ[0]
    at = p.with_entries({p.whites[first]: every[0][first]})
    left = [s for s in every if s[first] == every[0][first]]
    assert 1 < len(left) < len(every)
    wrong = []
    for i in differ[1:]:
        for d in range(1, 10):
            said = why(at, p.whites[i], d).kind == POSSIBLE
            if said != any(s[i] == d for s in left):
                wrong.append((p.whites[i], d, said))
    assert wrong == []


def _questions(puzzle, every: int):
    """The grid 35% into k2's walkthrough, its written digits once as the player's entries
    and once as givens, and every ``every``-th (cell, digit) still open that is not the
    solution's."""
    full = explain(puzzle)
    written = {(r, c): d for s in full.steps[: int(len(full.steps) * 0.35)]
               for r, c, d in s.placements}
    as_entries = puzzle.with_entries(written)
    as_givens = replace(puzzle, givens={**puzzle.givens, **written})
    board = proofcheck.Replay(as_entries).board
    open_ = [(rc, d) for i, rc in enumerate(puzzle.whites) if not board.written[i]
             for d in range(1, 10) if board.masks[i] & BIT[d] and d != full.solution[i]]
    return as_entries, as_givens, open_[::every]


def test_entries_count_as_the_grid_as_given():
    """The same digits as entries or as givens: the same answers, step for step (the
    replays that shorten an answer start from the entries too)."""
    as_entries, as_givens, questions = _questions(load(ROOT / "puzzles" / "seed000-k2.j"), 4)
    assert len(questions) > 50

    def said(p, rc, d):
        a = why(p, rc, d)
        return a.kind, a.message, [(s.rule, s.eliminations, s.placements) for s in a.steps]

    differ = [(rc, d) for rc, d in questions if said(as_entries, rc, d) != said(as_givens, rc, d)]
    assert differ == []
