"""The model's hand-made dataclasses (deducer/puzzle/lean.py) behave as the dataclasses they
replace, and a first solve imports neither dataclasses nor json (issue 40, item 4)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from deducer.puzzle.formats import Format
from deducer.puzzle.model import Puzzle, Run, Square
from deducer.solver.propagate import Layout
from deducer.solver.search import SolveResult
from deducer.solver.status import SolveStatus
from tests.support.fresh import fresh_python

ROOT = Path(__file__).resolve().parents[1]


# ---- the classes as they were declared with @dataclass (the reference) ---------------------
@dataclass(frozen=True, slots=True)
class RefSquare:
    white: bool
    down: int | None = None
    across: int | None = None


@dataclass(frozen=True, slots=True)
class RefRun:
    id: int
    direction: str
    total: int | None
    cells: tuple[int, ...]
    coords: tuple
    clue_at: tuple | None


@dataclass(frozen=True)
class RefPuzzle:
    squares: tuple
    givens: dict = field(default_factory=dict)
    entries: dict = field(default_factory=dict)
    pencil: dict = field(default_factory=dict)
    even: frozenset | None = None
    name: str | None = None
    row_lines: tuple | None = field(default=None, compare=False)
    grade: object | None = field(default=None, compare=False)


@dataclass(frozen=True)
class RefFormat:
    name: str
    description: str
    extensions: tuple
    sniff: Callable
    read: Callable
    write: Callable | None = None
    names: Callable | None = None
    comment: str | None = None


@dataclass
class RefSolveResult:
    status: SolveStatus
    solutions: list
    complete: bool
    nodes: int = 0
    reason: str | None = None
    timed_out: bool = False
    work: int = 0
    stats: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RefLayout:
    run_cells: tuple
    run_total: tuple
    cell_runs: tuple


SQ = ((Square(False), Square(False, 3, None)), (Square(False, None, 4), Square(True)))
RSQ = ((RefSquare(False), RefSquare(False, 3, None)), (RefSquare(False, None, 4),
                                                       RefSquare(True)))
CASES = [  # (class, reference, positional args, keyword args)
    (Square, RefSquare, (False, 3), {"across": 7}),
    (Square, RefSquare, (True,), {}),
    (Run, RefRun, (2, "A", 17, (0, 1), ((1, 1), (1, 2)), (1, 0)), {}),
    (Puzzle, RefPuzzle, (SQ,), {"givens": {(1, 1): 1}, "name": "p", "row_lines": (3, 4)}),
    (Puzzle, RefPuzzle, (SQ,), {}),
    (Format, RefFormat, ("f", "a format", (".f",), str.isdigit, str.strip), {"write": str}),
    (SolveResult, RefSolveResult, (SolveStatus.UNIQUE, [[1, 2]], True), {"nodes": 3}),
    (Layout, RefLayout, (((0, 1),), (3,), ((0,), (0,))), {}),
]
IDS = [f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)]


def _ref_args(args):
    """The reference's arguments: its own squares where the puzzle has squares."""
    return tuple(RSQ if a is SQ else a for a in args)


@pytest.mark.parametrize(("cls", "ref", "args", "kwargs"), CASES, ids=IDS)
def test_a_lean_class_behaves_as_its_dataclass(cls, ref, args, kwargs):
    obj, twin = cls(*args, **kwargs), ref(*_ref_args(args), **kwargs)
    assert dataclasses.is_dataclass(cls) and dataclasses.is_dataclass(obj)
    ours = [(f.name, f.default, f.default_factory, f.compare, f.init, f.repr)
            for f in dataclasses.fields(obj)]
    theirs = [(f.name, f.default, f.default_factory, f.compare, f.init, f.repr)
              for f in dataclasses.fields(twin)]
    assert ours == theirs
    assert cls.__match_args__ == ref.__match_args__
    assert list(inspect.signature(cls).parameters) == list(inspect.signature(ref).parameters)
    assert repr(obj) == repr(twin).replace("RefSquare(", "Square(").replace(
        f"{ref.__qualname__}(", f"{cls.__qualname__}(", 1)
    assert obj == cls(*args, **kwargs) and obj != twin and obj != 1
    frozen = ref.__dataclass_params__.frozen
    assert cls.__dataclass_params__.frozen == frozen
    if frozen:
        try:
            assert hash(obj) == hash(cls(*args, **kwargs))
        except TypeError:  # a puzzle holds dicts: unhashable, as the dataclass is
            with pytest.raises(TypeError):
                hash(twin)
        name = dataclasses.fields(obj)[0].name
        for act in (lambda o: setattr(o, name, 1), lambda o: delattr(o, name)):
            with pytest.raises(dataclasses.FrozenInstanceError) as ours_err:
                act(obj)
            with pytest.raises(dataclasses.FrozenInstanceError) as theirs_err:
                act(twin)
            assert str(ours_err.value) == str(theirs_err.value)
        # a new attribute: refused too (a slotted frozen dataclass raises TypeError there,
        # a CPython slip: its __setattr__ names the class it replaced)
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.other = 1
        with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
            twin.other = 1
    else:
        assert cls.__hash__ is None
        obj.nodes = 9
        assert obj.nodes == 9
    if cls is not Format:  # a format holds functions: not picklable, nor compared so
        assert pickle.loads(pickle.dumps(obj)) == obj
        assert copy.deepcopy(obj) == obj
    # dataclasses.replace and asdict work on it
    first = dataclasses.fields(obj)[0].name
    changed = dataclasses.replace(obj, **{first: getattr(obj, first)})
    assert changed == obj and changed is not obj
    if cls is not Puzzle:  # a puzzle's squares: asdict recurses into the dataclasses
        assert dataclasses.asdict(obj).keys() == dataclasses.asdict(twin).keys()


def test_a_puzzle_compares_without_its_row_lines_and_gets_fresh_dicts():
    a = Puzzle(SQ, row_lines=(1, 2))
    b = Puzzle(SQ, row_lines=(5, 6))
    assert a == b and a.givens == {} and a.givens is not b.givens
    assert a._with_progress({(1, 1): 2}, {}) == dataclasses.replace(a, entries={(1, 1): 2})
    assert Puzzle(SQ, name="a\x1bb").name == "a\ufffdb"  # control characters replaced


def test_a_slotted_lean_class_pickles_as_its_dataclass_did():
    """Pickles written before (by the dataclass) still load, and the other way round."""
    run = Run(2, "A", 17, (0, 1), ((1, 1), (1, 2)), (1, 0))
    assert run.__getstate__() == [2, "A", 17, (0, 1), ((1, 1), (1, 2)), (1, 0)]
    fresh = Run.__new__(Run)
    fresh.__setstate__(run.__getstate__())
    assert fresh == run
    assert not hasattr(Square(True), "__dict__")


def test_a_first_solve_imports_neither_dataclasses_nor_json(tmp_path):
    """A small puzzle in deducer's JSON format: loaded and solved with no dataclass built,
    no json module (its C scanner reads the file) and no SAT solver; a later
    ``import dataclasses`` still comes without inspect."""
    from deducer.puzzle import formats

    path = tmp_path / "four.json"
    path.write_text(formats.dumps(formats.load(ROOT / "puzzles" / "seed002-four.txt"), "json"),
                    encoding="utf-8")
    code = (f"import sys, deducer; r = deducer.solve(deducer.load({str(path)!r}));"
            "print(r.status, sorted(m for m in ('dataclasses', 'json', 'inspect', 'heapq', "
            "'deducer.solver.oracle', 'deducer.solver.verdicts', 'encodings.utf_8_sig', "
            "'pysat') if m in sys.modules));"
            "import dataclasses; print('inspect' in sys.modules);"
            "print(dataclasses.fields(r)[0].name, 'inspect' in sys.modules)")
    assert fresh_python(code, ROOT) == ["unique []", "False", "status False"]


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
