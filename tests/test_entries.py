"""A player's entries and pencil marks given through the API are checked at the door
(``Puzzle.with_entries``): anything that is not a digit on a white cell is one
:class:`PuzzleError` naming it, never a KeyError, IndexError or TypeError deep inside hint,
check, explain, rate or why, and never quietly ignored by solve (issue 41, item 11)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deducer
from deducer.assist.why import why
from deducer.errors import DeducerError, PuzzleError

ROOT = Path(__file__).resolve().parents[1]
FOUR = deducer.load(ROOT / "puzzles" / "seed002-four.txt")  # 3x3, whites r2c2 r2c3 r3c2 r3c3


def every_command(p) -> None:
    deducer.solve(p)
    deducer.explain(p)
    deducer.rate(p)
    deducer.hint(p, "full")
    deducer.check(p)
    why(p, (1, 1), 4)


@pytest.mark.parametrize(("entries", "says"), [
    ({(0, 0): 3}, "r1c1: entry on a black square"),
    ({(0, 1): 3}, "r1c2: entry on a clue square"),
    ({(1, 1): 0}, "r2c2: entry 0 is not a digit 1-9"),
    ({(1, 1): 10}, "r2c2: entry 10 is not a digit 1-9"),
    ({(1, 1): "3"}, "r2c2: entry '3' is not a digit 1-9"),
    ({(1, 1): 3.0}, "r2c2: entry 3.0 is not a digit 1-9"),
    ({(1, 1): True}, "r2c2: entry True is not a digit 1-9"),
    ({(1, 1): None}, "r2c2: entry None is not a digit 1-9"),
    ({(9, 9): 3}, "entry at (9, 9): outside the 3x3 grid"),
    ({(-1, 1): 3}, "entry at (-1, 1): outside the 3x3 grid"),
    ({"r2c2": 3}, "entry at 'r2c2': a cell is a (row, col) pair"),
    ({(1,): 3}, "entry at (1,): a cell is a (row, col) pair"),
    ({(1, 1, 2): 3}, "entry at (1, 1, 2): a cell is a (row, col) pair"),
    ([((1, 1), 3)], "the entries must be a mapping"),
])
def test_a_bad_entry_is_refused_naming_it(entries, says):
    with pytest.raises(PuzzleError) as e:
        FOUR.with_entries(entries)
    assert says in str(e.value)


@pytest.mark.parametrize(("pencil", "says"), [
    ({(1, 1): 1024}, "r2c2: pencil marks 1024 are not a digit mask 0..511"),
    ({(1, 1): -1}, "r2c2: pencil marks -1 are not a digit mask"),
    ({(1, 1): "12"}, "r2c2: pencil marks '12' are not a digit mask"),
    ({(0, 2): 3}, "r1c3: pencil marks on a clue square"),
])
def test_bad_pencil_marks_are_refused_naming_them(pencil, says):
    with pytest.raises(PuzzleError) as e:
        FOUR.with_entries({}, pencil)
    assert says in str(e.value)


def test_good_entries_are_kept_as_plain_ints():
    class Index:  # an integer type that is not int (numpy's, say)
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    p = FOUR.with_entries({(Index(1), 1): Index(2)}, {(2, 2): 0b110000000})
    assert p.entries == {(1, 1): 2} and type(p.entries[(1, 1)]) is int
    assert p.pencil == {(2, 2): 0b110000000}
    every_command(p)


def test_validate_refuses_what_with_entries_refuses():
    import dataclasses

    bad = dataclasses.replace(FOUR, entries={(1, 1): "3"})
    with pytest.raises(PuzzleError, match="entry '3' is not a digit"):
        bad.validate()
    bad = dataclasses.replace(FOUR, pencil={(1, 1): 4096})
    with pytest.raises(PuzzleError, match="pencil marks 4096"):
        bad.validate()


anything = st.one_of(st.integers(-3, 12), st.text(max_size=2), st.none(), st.booleans(),
                     st.floats(allow_nan=False, min_value=-2, max_value=12))
keys = st.one_of(st.tuples(st.integers(-2, 4), st.integers(-2, 4)), st.tuples(st.integers(0, 3)),
                 st.text(max_size=3), st.integers(0, 3))


@settings(max_examples=60)
@given(st.dictionaries(keys, anything, max_size=3), st.dictionaries(keys, anything, max_size=2))
def test_any_entries_are_refused_or_work_everywhere(entries, pencil):
    """Whatever is passed, with_entries refuses it with one DeducerError, or every command
    takes the puzzle without any other exception."""
    try:
        p = FOUR.with_entries(entries, pencil)
    except DeducerError:
        return
    assert all(rc in FOUR.index and 1 <= d <= 9 for rc, d in p.entries.items())
    try:
        every_command(p)
    except DeducerError:
        pass
