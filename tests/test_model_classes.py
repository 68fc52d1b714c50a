"""The model's classes are plain dataclasses (issue 53: the hand-made ones of lean.py went):
what a caller relies on — equality without the row lines, fresh default dicts, a name with
no control characters, pickling, a subclass — and a first solve stays free of json and the
SAT solver (issue 40, item 4)."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from deducer.puzzle.formats import Format
from deducer.puzzle.model import Grade, Puzzle, Run, Square
from deducer.solver.propagate import Layout
from deducer.solver.search import SolveResult
from deducer.solver.status import SolveStatus
from tests.support.fresh import fresh_python

ROOT = Path(__file__).resolve().parents[1]
SQ = ((Square(False), Square(False, 3, None)), (Square(False, None, 4), Square(True)))


@pytest.mark.parametrize("obj", [
    Square(False, 3, 7), Run(2, "A", 17, (0, 1), ((1, 1), (1, 2)), (1, 0)),
    Puzzle(SQ, givens={(1, 1): 1}, name="p", row_lines=(3, 4)), Grade("Hard", 4.2, "7"),
    SolveResult(SolveStatus.UNIQUE, [[1, 2]], True, nodes=3),
    Layout(((0, 1),), (3,), ((0,), (0,))),
], ids=lambda o: type(o).__name__)
def test_the_model_classes_are_dataclasses_that_pickle(obj):
    assert dataclasses.is_dataclass(obj)
    assert pickle.loads(pickle.dumps(obj)) == obj
    assert dataclasses.replace(obj) == obj


def test_the_frozen_classes_refuse_assignment():
    for obj in (Square(True), Puzzle(SQ), Format("f", "a format", (".f",), str.isdigit,
                                                  str.strip)):
        first = dataclasses.fields(obj)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, first, "x")
    assert not hasattr(Square(True), "__dict__")  # slotted: a grid holds many


def test_a_format_defaults_to_read_only_without_a_comment():
    f = Format("f", "a format", (".f",), str.isdigit, str.strip)
    assert (f.write, f.names, f.comment) == (None, None, None)


def test_a_puzzle_compares_without_its_row_lines_and_gets_fresh_dicts():
    a = Puzzle(SQ, row_lines=(1, 2))
    b = Puzzle(SQ, row_lines=(5, 6))
    assert a == b and a.givens == {} and a.givens is not b.givens
    assert a.with_entries({(1, 1): 2}) == dataclasses.replace(a, entries={(1, 1): 2})
    assert Puzzle(SQ, name="a\x1bb").name == "a\ufffdb"  # control characters replaced


def test_a_first_solve_imports_neither_json_nor_the_sat_solver(tmp_path):
    """A small puzzle in deducer's JSON format: loaded and solved with no json module (its
    C scanner reads the file) and no SAT solver."""
    from deducer.puzzle import formats

    path = tmp_path / "four.json"
    path.write_text(formats.dumps(formats.load(ROOT / "puzzles" / "seed002-four.txt"), "json"),
                    encoding="utf-8")
    code = (f"import sys, deducer; r = deducer.solve(deducer.load({str(path)!r}));"
            "print(r.status, sorted(m for m in ('json', 'heapq', "
            "'deducer.solver.oracle', 'deducer.solver.verdicts', 'encodings.utf_8_sig', "
            "'pysat') if m in sys.modules))")
    assert fresh_python(code, ROOT) == ["unique []"]


@pytest.mark.parametrize("text", [
    '{"a": [1, 2.5, -0, 1e400, "\\u00e9\\ud800", null, true, false]}', " \t\n[]\r\n", "NaN",
    "[Infinity, -Infinity]", "123456789012345678901234567890", '{"a": 1, "a": 2}',
])
def test_the_json_reader_reads_as_json_loads(text):
    import json

    from deducer.puzzle.formats.jsonfmt import _NOT_PLAIN, _scan

    got = _scan(text)
    assert got is not _NOT_PLAIN and repr(got) == repr(json.loads(text))


@pytest.mark.parametrize("text", ['{"a": 1}x', "", "  ", "\ufeff{}", "[1,]", '"\x01"', "1 2",
                                  "[" * 100_000, '{"a" 1}'])
def test_invalid_json_is_left_to_json_loads(text):
    """Anything json.loads refuses is refused by json.loads itself (its own message)."""
    from deducer.errors import PuzzleError
    from deducer.puzzle.formats.jsonfmt import _NOT_PLAIN, _scan, load_json

    assert _scan(text) is _NOT_PLAIN
    with pytest.raises(PuzzleError, match="bad JSON"):
        load_json(text)


def test_a_byte_order_mark_is_dropped_and_a_bad_byte_located_in_the_file():
    """The offset of a bad byte counts the byte-order mark (the utf-8-sig codec's offset did
    not: it named the byte three places early)."""
    from deducer.errors import PuzzleError
    from deducer.puzzle.formats import decode

    assert decode(b"\xef\xbb\xbfab\r\nc") == "ab\nc"
    assert decode(b"\xef\xbb\xbf\xef\xbb\xbfx") == "\ufeffx"  # only the first is a mark
    with pytest.raises(PuzzleError) as err:
        decode(b"\xef\xbb\xbfab\n\xff", "f.txt")
    assert str(err.value) == "f.txt:2: not UTF-8 text (byte 0xff at offset 6)"


def test_the_walk_and_check_statuses_are_offered_where_they_were():
    import deducer
    from deducer.solver import status, verdicts

    assert status.ExplainStatus is verdicts.ExplainStatus is deducer.ExplainStatus
    assert status.CheckStatus is verdicts.CheckStatus is deducer.CheckStatus
    assert pickle.loads(pickle.dumps(status.ExplainStatus.SOLVED)) == "solved"
    with pytest.raises(AttributeError):
        status.Nothing  # noqa: B018


def test_a_subclass_keeps_its_bases_fields():
    class Titled(Puzzle):
        """A puzzle subclass, as a user may write one."""

    q = Titled(SQ, name="a")
    assert [f.name for f in dataclasses.fields(q)] == [f.name for f in dataclasses.fields(Puzzle)]
    moved = dataclasses.replace(q, name="b")
    assert type(moved) is Titled and moved.name == "b"
