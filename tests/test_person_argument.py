"""Issue 51: sum bounds as a person adds them, and one deduction, one step.

Real positions: the 10x10 Expert puzzle ``deducer generate --size 10x10 --level Expert
--seed 5`` makes (its grid below, as made at 96eb332, so that a generator change does not
move the position), and the bundled puzzles. Every walk is checked by the independent
proof checker, which works each stated sum bound out again.
"""

from __future__ import annotations

import copy
import re
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.engine.walk import explain
from deducer.proofcheck import audit, checker
from deducer.puzzle import formats
from deducer.puzzle.combos import DIGITS
from deducer.rules.bounds import distinct_sums

#: ``deducer generate --size 10x10 --level Expert --seed 5`` (puzzle 1)
SEED5 = r"""\|34\|22\|9\|\|\|\|15\|13\|\
\9||||4\|\|22\12|||4\
\24|||||6\14||||
\9|||\22||||||
\8|||16\|\14||||15\|33\
\19||||7\|14\|\9|||
\|13\|20\18||||6\|\13||
\29|||||||4\4||
\20|||||\16||||
\|\4|||\|\|\13|||
"""


def _seed5():
    return formats.loads(SEED5)


def _walk(puzzle):
    steps = [s.to_json() for s in explain(puzzle).steps]
    assert checker.check_walkthrough(puzzle, steps) == []
    return steps


def test_the_issue_example_adds_different_digits_from_the_lists():
    """Step 47 of the seed-5 walk said "r3c5 (1 or 3), r3c2 and r3c4 take at most 21 of the
    24, so r3c3 is at least 3", with r3c4 down to 5 to 8 on the board: a person adds 3 + 8
    + 9 = 20 and takes the 3 as well (the 3 went 35 steps later, by a permutation check)."""
    puzzle = _seed5()
    steps = _walk(puzzle)
    (step,) = [s for s in steps if s["rule"] == "sum-bounds" and "so r3c3 is" in s["text"]]
    # r3c4 is 5 to 8 on the board: the terms are digits the cells can hold, 9 in r3c2 and
    # 8 in r3c4 (a term is read as its cell's digit)
    assert step["text"] == (
        "r3c1→ 24/4: r3c5 (1 or 3), r3c2 and r3c4, as different digits, make at most 3 + 9 + "
        "8 = 20, so r3c3 is at least 24 - 20 = 4: 1, 2 and 3 leave r3c3.")
    assert step["eliminations"] == [[2, 2, [1, 2, 3]]]
    bound = step["proof"]["bound"]
    assert bound["cell"] == [2, 2] and bound["most"]["sum"] == 20
    assert sorted(d for *_rc, d in bound["most"]["digits"]) == [3, 8, 9]
    # no heavier rule takes the 3 later: the sum did
    assert not [s for s in steps if s["n"] > step["n"] and s["rule"] == "permutation-check"
                and [2, 2, [3]] in s["eliminations"]]


def test_a_tampered_bound_is_caught_by_the_checker():
    """The checker works the bound out itself: a sum that is not the most the lists make,
    digits not from the lists, or a step taking less than its bound excludes, each fail."""
    puzzle = _seed5()
    steps = [s.to_json() for s in explain(puzzle).steps]
    k = next(k for k, s in enumerate(steps)
             if s["rule"] == "sum-bounds" and "so r3c3 is" in s["text"])
    rp = checker.Replay(puzzle)
    for s in steps[:k]:
        assert rp.feed(s) == []
    good = steps[k]
    assert checker.check_step(rp, rp.board, good) == []

    def kinds(step):
        return {p.kind for p in checker.check_step(rp, rp.board, step)}

    loose = copy.deepcopy(good)  # the old bound: each cell at its own most, 21
    loose["proof"]["bound"]["most"]["sum"] = 21
    assert "bound" in kinds(loose)
    repeat = copy.deepcopy(good)  # 9 twice
    repeat["proof"]["bound"]["most"]["digits"] = [
        [r, c, 9 if d == 8 else d] for r, c, d in good["proof"]["bound"]["most"]["digits"]]
    assert "bound" in kinds(repeat)
    short = copy.deepcopy(good)  # a digit the bound excludes left to a later step
    short["eliminations"] = [[2, 2, [1, 2]]]
    assert "bound" in kinds(short)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 0x1FF), min_size=1, max_size=5))
def test_the_bound_is_the_least_and_most_of_different_digits(masks):
    """distinct_sums (over digit masks) against every product of the lists."""
    sums = [sum(ds) for ds in product(*(DIGITS[m] for m in masks)) if len(set(ds)) == len(ds)]
    got = distinct_sums(masks)
    assert got == ((min(sums), max(sums)) if sums else None)


def test_a_cell_left_one_digit_is_written_in_by_the_same_step():
    """One deduction, one step: no naked single right after the step whose eliminations
    left its cell one digit, and the step that writes it passes the proof checker."""
    for name in ("seed000-k2.j", "deducer-trial.txt", "generated-6x6-s23.txt"):
        puzzle = formats.load(f"puzzles/{name}")
        steps = _walk(puzzle)
        written_by_elims = 0
        runs_of = {rc: set(puzzle.cell_runs[i]) for rc, i in puzzle.index.items()}

        def own(step, runs_of=runs_of):
            """The cells the step took digits from itself (not a written digit's peers)."""
            out = set()
            for r, c, ds in step["eliminations"]:
                peer = {d for pr, pc, d in step["placements"]
                        if runs_of[(pr, pc)] & runs_of[(r, c)]}
                if set(ds) - peer:
                    out.add((r, c))
            return out

        for before, after in zip(steps, steps[1:], strict=False):
            if after["rule"] != "naked-single":
                continue
            (r, c, _d), = after["placements"]
            assert (r, c) not in own(before), (name, before["text"], after["text"])
        for s in steps:
            if s["rule"] != "naked-single" and re.search(r", which is then \d", s["text"]):
                written_by_elims += 1
        assert not [s for s in steps if re.search(r"\bsteps? \d", s["text"])]
        if name == "seed000-k2.j":
            assert written_by_elims


def test_the_forced_placement_keeps_its_cell_fact_only_when_needed():
    """"r3c5 = 1" needs r3c5's candidates where its run alone does not decide it; the
    checker's surplus search finds no fact to drop on the bundled walks."""
    for name in ("seed000-k2.j", "generated-6x6-s23.txt"):
        puzzle = formats.load(f"puzzles/{name}")
        steps = _walk(puzzle)
        assert audit.surplus(puzzle, steps) == []
