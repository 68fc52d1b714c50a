"""The player's entries are dropped once, at the API (``puzzle.without_progress()``): the
walk, the solver, ``why`` and the proof checker take the puzzle they are given, entries
and all. These tests catch an entry flag flipped anywhere inside (``why`` answering from
the bare puzzle, or ``explain(use_entries=False)`` walking from the entries)."""

from __future__ import annotations

from pathlib import Path

from deducer import api, proofcheck
from deducer.assist.why import EXPLAINED, UNSOLVABLE

# four cells, one solution: r2c2=2, r2c3=7, r3c2=3, r3c3=9 (0-based (1,1) (1,2) (2,1) (2,2))
FOUR = Path(__file__).resolve().parents[1] / "puzzles" / "seed002-four.txt"


def test_why_answers_from_the_entries_and_from_the_bare_puzzle_differently():
    bare = api.load(FOUR)
    right = bare.with_entries({(1, 1): 2})
    wrong = bare.with_entries({(1, 1): 1})
    # the right entry is a step ahead: r3c2 is 3 one step after it, four from the clues
    with_entry = api.why(right, (2, 1), 4)
    without = api.why(right.without_progress(), (2, 1), 4)
    assert with_entry.kind == without.kind == EXPLAINED
    assert (len(with_entry.steps), len(without.steps)) == (1, 4)
    assert api.why(bare, (2, 1), 4).steps == without.steps
    # a wrong entry leaves the grid as given no solution: said so, not a bare answer
    assert api.why(wrong, (2, 1), 4).kind == UNSOLVABLE
    assert api.why(wrong.without_progress(), (2, 1), 4).kind == EXPLAINED


def test_explain_without_entries_is_the_walk_of_the_bare_puzzle():
    right = api.load(FOUR).with_entries({(1, 1): 2})
    with_entry = api.explain(right)
    without = api.explain(right, use_entries=False)
    bare = api.explain(right.without_progress())
    assert [s.text for s in without.steps] == [s.text for s in bare.steps]
    assert len(with_entry.steps) < len(without.steps)
    assert without.puzzle.entries == {} and with_entry.puzzle.entries == {(1, 1): 2}
    # each walk's proofs hold on the puzzle it carries (the checker writes its entries in)
    assert proofcheck.check_walkthrough(with_entry.puzzle, with_entry.steps) == []
    assert proofcheck.check_walkthrough(without.puzzle, without.steps) == []


def test_solve_without_entries_ignores_a_wrong_entry():
    wrong = api.load(FOUR).with_entries({(1, 1): 1})
    assert api.solve(wrong).solutions == []
    assert "an entry is wrong" in str(api.solve(wrong, blame_entries=True).reason)
    assert api.solve(wrong, use_entries=False).solutions == [[2, 7, 3, 9]]
