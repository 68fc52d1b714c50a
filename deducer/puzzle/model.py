"""Puzzle geometry: squares, derived runs, givens, player entries, pencil marks, parity.

A :class:`Puzzle` is immutable once built. Runs and the white-cell index are derived
from the grid, so every reader only has to produce squares (and optional extras).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..errors import PuzzleError
from .combos import ALL, BIT, EVEN, ODD, combos, sum_range

Coord = tuple[int, int]

#: limits that keep a hostile or mistyped file from exhausting memory or time
MAX_SIDE = 200  # squares per row or column (the largest real puzzles are 150x150)
#: the most white cells a grid can have (its clue row and column are black): also the
#: longest chain worth asking for, a link per cell (``--max-chain``, a rule's ``max_len``)
MAX_CELLS = (MAX_SIDE - 1) ** 2
MAX_RUNS = 20_000
#: characters a puzzle's name may not hold: a terminal obeys ESC and BEL (a name could
#: retitle the window), and HTML escaping leaves them be
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

ACROSS = "A"
DOWN = "D"
ARROW = {ACROSS: "→", DOWN: "↓"}


@dataclass(frozen=True, slots=True)
class Square:
    """One grid square: white (to fill) or black, a black one optionally carrying clues."""

    white: bool
    down: int | None = None
    across: int | None = None

    @property
    def is_clue(self) -> bool:
        return not self.white and (self.down is not None or self.across is not None)


WHITE = Square(True)
BLANK = Square(False)


@dataclass(frozen=True, slots=True)
class Run:
    """A maximal horizontal or vertical segment of white cells."""

    id: int
    direction: str  # ACROSS or DOWN
    total: int | None  # None: an unclued run (still all-distinct)
    cells: tuple[int, ...]  # white-cell indices, in reading order
    coords: tuple[Coord, ...]
    clue_at: Coord | None  # the black square carrying the clue, if any

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def name(self) -> str:
        """Human name, anchored at the clue square: ``r2c1→ 16/2`` (1-based)."""
        r, c = self.clue_at if self.clue_at is not None else self.coords[0]
        total = "?" if self.total is None else str(self.total)
        return f"r{r + 1}c{c + 1}{ARROW[self.direction]} {total}/{self.length}"

    @property
    def ref(self) -> list:
        """JSON reference (docs/json-contract.md): ``[row, col, "across"|"down"]`` of its clue
        square (for an unclued run, the black square just before its first cell), 0-based."""
        if self.clue_at is not None:
            r, c = self.clue_at
        else:
            r, c = self.coords[0]
            r, c = (r, c - 1) if self.direction == ACROSS else (r - 1, c)
        return [r, c, "across" if self.direction == ACROSS else "down"]

    @property
    def label(self) -> str:
        """Short name without the sum: ``r2c1→``."""
        r, c = self.clue_at if self.clue_at is not None else self.coords[0]
        return f"r{r + 1}c{c + 1}{ARROW[self.direction]}"


def cell_arg(cell: object) -> Coord:
    """A cell given to the API, ``(row, col)`` as two whole numbers (0-based), checked:
    anything else (a 1-tuple, None, ``("a", 1)``, ``(1.5, 2)``) is a :class:`PuzzleError`,
    never an IndexError or TypeError from deep inside."""

    parts: tuple = ()
    if isinstance(cell, (tuple, list)):
        parts = tuple(cell)
    if len(parts) != 2:
        raise PuzzleError(f"{cell!r:.60} is not a cell: give (row, col), 0-based")
    r, c = parts
    if not (isinstance(r, int) and isinstance(c, int)) or isinstance(r, bool) \
            or isinstance(c, bool):
        raise PuzzleError(f"{cell!r:.60} is not a cell: row and column are whole numbers")
    return r, c


def cell_name(coord: Coord) -> str:
    """``r3c4`` (1-based, over the whole grid)."""
    return f"r{coord[0] + 1}c{coord[1] + 1}"


#: ``Hard, score 4.2, rater 7``: a grade as files carry it (:meth:`Grade.text`)
_GRADE = re.compile(r"^\s*(?P<level>[A-Za-z]+),\s*score\s+(?P<score>[0-9]{1,4}(?:\.[0-9]{1,6})?),"
                    r"\s*rater\s+(?P<rater>[0-9A-Za-z.\-]{1,20})\s*$")


@dataclass(frozen=True)
class Grade:
    """The rating a puzzle file carries (``generate --out`` writes it): level, score and
    the rater version that gave them, kept by every reader and writer through a round
    trip, so a publisher need not rate the puzzle again."""

    level: str
    score: float
    rater: str

    def text(self) -> str:
        """``Hard, score 4.2, rater 7`` (the score as the rating prints it)."""
        return f"{self.level}, score {self.score:g}, rater {self.rater}"

    @staticmethod
    def parse(text: str) -> Grade | None:
        """The grade :meth:`text` wrote (None when ``text`` is not one: a comment that
        happens to start with "rating:" is left a comment)."""
        m = _GRADE.match(text)
        return None if m is None else Grade(m["level"], float(m["score"]), m["rater"])


@dataclass(frozen=True)
class Puzzle:
    """A Kakuro puzzle. Coordinates are 0-based ``(row, col)`` over the whole grid."""

    squares: tuple[tuple[Square, ...], ...]
    givens: dict[Coord, int] = field(default_factory=dict)
    entries: dict[Coord, int] = field(default_factory=dict)
    pencil: dict[Coord, int] = field(default_factory=dict)  # coord -> mask
    even: frozenset[Coord] | None = None  # parity puzzle: these even, other whites odd
    name: str | None = None
    # source line of each grid row, for error messages (None where unknown)
    row_lines: tuple[int | None, ...] | None = field(default=None, compare=False)
    #: the rating the file carries (not compared: the same grid is the same puzzle)
    grade: Grade | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # a name is shown in terminals and titles: control characters would steer them
        if self.name is not None and _CONTROL.search(self.name):
            object.__setattr__(self, "name", _CONTROL.sub("\ufffd", self.name))

    # ---- derived geometry -------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.squares)

    @property
    def cols(self) -> int:
        return len(self.squares[0]) if self.squares else 0

    @cached_property
    def whites(self) -> tuple[Coord, ...]:
        """White cells in reading order; a cell's index here is its id everywhere else."""
        return tuple(
            (r, c) for r, row in enumerate(self.squares) for c, sq in enumerate(row) if sq.white
        )

    @cached_property
    def index(self) -> dict[Coord, int]:
        return {rc: i for i, rc in enumerate(self.whites)}

    @cached_property
    def runs(self) -> tuple[Run, ...]:
        return tuple(self._derive_runs())

    @cached_property
    def run_ids_by_ref(self) -> dict[tuple, int]:
        """Run id by the run's JSON reference as a tuple (:attr:`Run.ref`): built once, for
        the renderers that read a walkthrough's proofs step by step."""
        return {tuple(run.ref): run.id for run in self.runs}

    @cached_property
    def cell_runs(self) -> tuple[tuple[int, ...], ...]:
        """For each white cell, the ids of the runs it belongs to (across first)."""
        acc: list[list[int]] = [[] for _ in self.whites]
        for run in self.runs:
            for i in run.cells:
                acc[i].append(run.id)
        return tuple(tuple(x) for x in acc)

    def _derive_runs(self):
        sq = self.squares
        rid = 0
        idx = self.index
        for direction in (ACROSS, DOWN):
            outer = range(self.rows) if direction == ACROSS else range(self.cols)
            for a in outer:
                inner_len = self.cols if direction == ACROSS else self.rows
                b = 0
                while b < inner_len:
                    rc = (a, b) if direction == ACROSS else (b, a)
                    if not sq[rc[0]][rc[1]].white:
                        b += 1
                        continue
                    start = b
                    while b < inner_len:
                        rc2 = (a, b) if direction == ACROSS else (b, a)
                        if not sq[rc2[0]][rc2[1]].white:
                            break
                        b += 1
                    coords = tuple(
                        (a, x) if direction == ACROSS else (x, a) for x in range(start, b)
                    )
                    clue_at = None
                    total = None
                    if start > 0:
                        clue_at = (a, start - 1) if direction == ACROSS else (start - 1, a)
                        black = sq[clue_at[0]][clue_at[1]]
                        total = black.across if direction == ACROSS else black.down
                    yield Run(
                        rid,
                        direction,
                        total,
                        tuple(idx[x] for x in coords),
                        coords,
                        clue_at,
                    )
                    rid += 1

    def run_of(self, coord: Coord, direction: str) -> Run | None:
        """The run through a white cell in a direction."""
        for rid in self.cell_runs[self.index[coord]]:
            if self.runs[rid].direction == direction:
                return self.runs[rid]
        return None

    # ---- candidate masks the puzzle itself allows -------------------------
    def initial_mask(self, i: int, *, with_entries: bool = False) -> int:
        """Candidates of white cell ``i`` before any reasoning: given, parity, else 1..9."""
        rc = self.whites[i]
        d = self.givens.get(rc)
        if d is None and with_entries:
            d = self.entries.get(rc)
        if d is not None:
            return BIT[d]
        if self.even is not None:
            return EVEN if rc in self.even else ODD
        return ALL

    def initial_masks(self, *, with_entries: bool = False) -> list[int]:
        return [self.initial_mask(i, with_entries=with_entries) for i in range(len(self.whites))]

    # ---- variations -----------------------------------------------------------
    def with_entries(self, entries: Mapping[Coord, int],
                     pencil: Mapping[Coord, int] | None = None) -> Puzzle:
        """A copy with the player's entries (``{(row, col): digit}``) and pencil marks
        (``{(row, col): mask}``, bit ``d - 1`` for digit ``d``) replaced.

        Checked here, at the door: a key that is not a white cell of the grid, an entry
        that is not a digit 1-9 or a mask outside 0..511 is a :class:`PuzzleError` naming
        it (the commands would otherwise fail deep inside with a KeyError or TypeError,
        or quietly ignore it)."""
        return replace(self, entries=self._progress(entries, "entry"),
                       pencil=self._progress(pencil or {}, "pencil marks"))

    def _progress(self, table, label: str) -> dict[Coord, int]:
        """``table`` as a plain dict of ``(row, col) -> int``, every item checked."""
        if not isinstance(table, Mapping):
            raise PuzzleError(f"the {'entries' if label == 'entry' else label} must be a "
                              f"mapping {{(row, col): {'digit' if label == 'entry' else 'mask'}}},"
                              f" not {type(table).__name__}")
        out: dict[Coord, int] = {}
        for key, value in table.items():
            rc = self._coord(key, label)
            v = _whole(value)
            if label == "entry":
                if v is None or not 1 <= v <= 9:
                    raise PuzzleError(f"{cell_name(rc)}: entry {_shown(value)} is not a digit "
                                      "1-9")
            elif v is None or not 0 <= v <= ALL:
                raise PuzzleError(f"{cell_name(rc)}: pencil marks {_shown(value)} are not a "
                                  f"digit mask 0..{ALL} (bit d-1 for digit d)")
            out[rc] = v
        return out

    def _coord(self, key, label: str) -> Coord:
        """A ``(row, col)`` key of entries or pencil marks: a white cell of this grid."""
        pair = tuple(_whole(x) for x in key) if isinstance(key, tuple) else ()
        if len(pair) != 2 or pair[0] is None or pair[1] is None:
            raise PuzzleError(f"{label} at {_shown(key)}: a cell is a (row, col) pair of "
                              "whole numbers, 0-based")
        rc = (pair[0], pair[1])
        if not (0 <= rc[0] < self.rows and 0 <= rc[1] < self.cols):
            raise PuzzleError(f"{label} at {_shown(key)}: outside the {self.rows}x{self.cols} "
                              "grid (rows and columns count from 0)")
        if rc not in self.index:
            sq = self.squares[rc[0]][rc[1]]
            what = "a clue square" if sq.is_clue else "a black square"
            raise PuzzleError(f"{cell_name(rc)}: {label} on {what}, not on a white cell")
        return rc

    def graded(self, grade: Grade | None) -> Puzzle:
        """The puzzle carrying ``grade`` (what its file says it rated)."""
        return replace(self, grade=grade)

    def without_progress(self) -> Puzzle:
        """The bare puzzle: givens kept, player's entries and pencil marks dropped."""
        return replace(self, entries={}, pencil={})

    # ---- validation -----------------------------------------------------------
    def line_of(self, coord: Coord) -> int | None:
        if self.row_lines and 0 <= coord[0] < len(self.row_lines):
            return self.row_lines[coord[0]]
        return None

    def validate(self) -> Puzzle:
        """Check the geometry and the givens; raise :class:`PuzzleError` naming the square."""
        if not self.squares or not self.squares[0]:
            raise PuzzleError("the puzzle has no squares")
        width = len(self.squares[0])
        if self.rows > MAX_SIDE or width > MAX_SIDE:
            raise PuzzleError(f"the grid is {self.rows}x{width}; deducer handles at most "
                              f"{MAX_SIDE}x{MAX_SIDE} squares")
        for r, row in enumerate(self.squares):
            if len(row) != width:
                raise PuzzleError(
                    f"row {r + 1} has {len(row)} squares but row 1 has {width} (ragged rows)",
                    line=self.line_of((r, 0)),
                )
        if not self.whites:
            raise PuzzleError("the puzzle has no white cells")
        self._check_clues()
        if len(self.runs) > MAX_RUNS:
            raise PuzzleError(f"the grid has {len(self.runs)} runs; deducer handles at most "
                              f"{MAX_RUNS}")
        for run in self.runs:
            self._check_run(run)
        self._check_digits()
        return self

    def _err(self, coord: Coord, msg: str) -> PuzzleError:
        return PuzzleError(f"{cell_name(coord)}: {msg}", line=self.line_of(coord))

    def _check_clues(self) -> None:
        for r, row in enumerate(self.squares):
            for c, sq in enumerate(row):
                if sq.white:
                    continue
                for total, dr, dc, word in ((sq.across, 0, 1, "across"), (sq.down, 1, 0, "down")):
                    if total is None:
                        continue
                    nr, nc = r + dr, c + dc
                    if nr >= self.rows or nc >= self.cols or not self.squares[nr][nc].white:
                        raise self._err((r, c), f"{word} clue {total} has no run behind it")

    def _check_run(self, run: Run) -> None:
        where = run.clue_at or run.coords[0]
        if run.length > 9:
            raise self._err(where, f"run {run.name} has {run.length} cells; at most 9 fit")
        if run.total is not None and not combos(run.total, run.length):
            lo, hi = sum_range(run.length)
            raise self._err(
                where,
                f"no {run.length} distinct digits sum to {run.total} "
                f"(a {run.length}-cell run sums to {lo}..{hi})",
            )

    def _check_digits(self) -> None:
        for label, table in (("given", self.givens), ("entry", self.entries)):
            for rc, d in table.items():
                if rc not in self.index:
                    raise self._err(rc, f"{label} {d} is not on a white cell")
                if _whole(d) is None or not 1 <= d <= 9:
                    raise self._err(rc, f"{label} {_shown(d)} is not a digit 1-9")
        for rc, mask in self.pencil.items():
            if rc not in self.index:
                raise self._err(rc, "pencil marks are not on a white cell")
            if _whole(mask) is None or not 0 <= mask <= ALL:
                raise self._err(rc, f"pencil marks {_shown(mask)} are not a digit mask "
                                    f"0..{ALL}")
        if self.even is not None:
            for rc in self.even:
                if rc not in self.index:
                    raise self._err(rc, "an even (parity) mark is not on a white cell")
        # only the givens are checked against the runs: they are part of the puzzle. A
        # player's entries that repeat a digit or fill a run to the wrong sum are the
        # commonest mistakes, located by `check` and `hint` (exit 1), not bad input.
        for run in self.runs:
            seen: dict[int, Coord] = {}
            for rc in run.coords:
                given = self.givens.get(rc)
                if given is None:
                    continue
                if given in seen:
                    raise self._err(
                        rc,
                        f"digit {given} appears twice in run {run.name} "
                        f"(also at {cell_name(seen[given])})",
                    )
                seen[given] = rc
            if run.total is not None and len(seen) == run.length and sum(seen) != run.total:
                raise self._err(
                    run.clue_at or run.coords[0],
                    f"run {run.name} is filled with digits summing to {sum(seen)}, not {run.total}",
                )
        for rc, d in self.givens.items():
            if self.even is not None and (rc in self.even) != (d % 2 == 0):
                raise self._err(rc, f"given {d} breaks the cell's parity mark")


def _whole(x) -> int | None:
    """``x`` as an int when it is a whole number (an int or a numpy integer, not a bool,
    a float or a string), else None."""
    if isinstance(x, bool) or isinstance(x, (float, str, bytes)):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


def _shown(x) -> str:
    """A value in an error message, cut short."""
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def clued_from_fill(white: list[list[bool]], values: dict[Coord, int]) -> Puzzle:
    """The puzzle whose clues are the run sums of a filled grid: ``white[r][c]`` marks the
    white squares, ``values[(r, c)]`` their digits (an empty ``values`` leaves every run
    unclued)."""
    rows, cols = len(white), len(white[0])
    squares = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if white[r][c]:
                row.append(WHITE)
                continue
            down = across = None
            if values and r + 1 < rows and white[r + 1][c]:
                k, down = r + 1, 0
                while k < rows and white[k][c]:
                    down += values[(k, c)]
                    k += 1
            if values and c + 1 < cols and white[r][c + 1]:
                k, across = c + 1, 0
                while k < cols and white[r][k]:
                    across += values[(r, k)]
                    k += 1
            row.append(Square(False, down, across) if (down or across) else BLANK)
        squares.append(tuple(row))
    return Puzzle(tuple(squares)).validate()


def solution_grid(puzzle: Puzzle, values: list[int]) -> list[list[int | None]]:
    """The whole grid, rows of entries: the digit at a white cell, None elsewhere."""
    out: list[list[int | None]] = [[None] * puzzle.cols for _ in range(puzzle.rows)]
    for (r, c), v in zip(puzzle.whites, values, strict=True):
        out[r][c] = v
    return out


def check_solution(puzzle: Puzzle, values: list[int]) -> str | None:
    """Independent check of a full assignment; returns what is wrong, or None."""
    for i, v in enumerate(values):
        if not 1 <= v <= 9:
            return f"{cell_name(puzzle.whites[i])} holds {v}"
        if not puzzle.initial_mask(i) & BIT[v]:
            return f"{cell_name(puzzle.whites[i])} holds {v} against its given or parity"
    for run in puzzle.runs:
        ds = [values[i] for i in run.cells]
        if len(set(ds)) != len(ds):
            return f"run {run.name} repeats a digit"
        if run.total is not None and sum(ds) != run.total:
            return f"run {run.name} sums to {sum(ds)}"
    return None
