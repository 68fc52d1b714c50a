"""deducer.what_if: a digit tried on a copy of the player's grid, what follows as a chain."""

from __future__ import annotations

from pathlib import Path

import pytest

import deducer
from deducer.proofcheck import check_walkthrough

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
FOUR = deducer.load(PUZZLES / "seed002-four.txt")  # r2c2 r2c3 / r3c2 r3c3 = 2 7 / 3 9


def proved(puzzle, w) -> list:
    """The proof checker's problems with a contradiction read as "digit leaves cell"."""
    step = {"n": 1, "rule": "what-if", "placements": [],
            "eliminations": [[*w.cell, [w.digit]]], "proof": w.proof}
    return check_walkthrough(puzzle, [step])


def test_a_wrong_digit_ends_in_a_contradiction_the_checker_accepts():
    for cell, digit in [((1, 1), 1), ((1, 1), 4), ((2, 2), 7), ((1, 2), 9)]:
        w = deducer.what_if(FOUR, cell, digit)
        assert w.status == "contradiction", (cell, digit, w.message)
        assert w.links[-1]["contradiction"] and f"{digit} cannot go in" in w.message
        assert proved(FOUR, w) == []
        assert w.to_json()["proof"]["assume"] == [*cell, digit]


def test_the_right_digit_fills_the_grid_and_nothing_changes_the_puzzle():
    w = deducer.what_if(FOUR, (1, 1), 2)
    assert w.status == "solved" and len(w.links) == 3
    assert [p for lk in w.links for p in lk["placements"]] == [[2, 1, 3], [2, 2, 9], [1, 2, 7]]
    assert FOUR.entries == {} and "(1) r1c2↓ 5/2" in w.text


def test_entries_count_and_the_cells_own_entry_is_replaced():
    played = FOUR.with_entries({(1, 2): 7, (1, 1): 5})
    w = deducer.what_if(played, (1, 1), 2)  # the 5 there gives way to the 2
    assert w.status == "solved" and len(w.links) == 2
    # a digit already in one of the cell's runs: said plainly, still a checked proof
    played = FOUR.with_entries({(1, 2): 7})
    w = deducer.what_if(played, (2, 2), 7)
    assert w.status == "contradiction"
    assert w.message == "7 cannot go in r3c3: r2c3, in a run with it, holds 7 already."
    assert proved(played, w) == []


def test_a_grid_that_already_breaks_a_rule_says_so():
    played = FOUR.with_entries({(1, 1): 7, (1, 2): 7})
    w = deducer.what_if(played, (2, 1), 3)
    assert w.status == "broken" and w.links == [] and "check it first" in w.message


def test_an_open_branch_keeps_to_what_rests_on_the_digit():
    p = deducer.load(PUZZLES / "deducer-trial.txt")
    sol = deducer.solve(p).solutions[0]
    i = p.index[(1, 7)]
    w = deducer.what_if(p, (1, 7), sol[i] % 9 + 1)  # wrong, but no simple rule sees it
    assert w.status == "open" and w.links
    assert "no rule breaks so far" in w.message
    w = deducer.what_if(p, (1, 7), sol[i], max_links=4)
    assert w.status == "budget" and len(w.links) <= 4


@pytest.mark.parametrize("cell, digit, message", [
    ((0, 0), 3, "r1c1 is not a white cell"),
    ((1, 1), 0, "0 is not a digit 1-9"),
    ((1, 1), True, "True is not a digit 1-9"),
])
def test_bad_requests_are_one_line_errors(cell, digit, message):
    with pytest.raises(deducer.DeducerError, match=message):
        deducer.what_if(FOUR, cell, digit)


def test_a_given_cannot_be_tried():
    p = deducer.load("\\|5\\|16\\\n\\|!2|\n\\12||\n")
    with pytest.raises(deducer.DeducerError, match="r2c2 holds a given"):
        deducer.what_if(p, (1, 1), 3)
