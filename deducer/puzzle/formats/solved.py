"""Solved grids: the clues are the run sums of the stored solution.

Text form, one grid row per line, squares separated by whitespace (or, on a line with no
spaces, one character per square):

* ``1``-``9`` a white cell holding its solution digit; ``#d`` (e.g. ``#9``) a white cell whose
  digit is shown to the player as a given (ifilot/cx16-kakuro ``.puz``);
* ``0``, ``#``, ``.``, ``x``, ``X``, ``\\``, ``-``, ``*`` a black square.

A line starting with ``#`` that is not a row of squares is a comment (``# B5/P1/2*``).
Every white segment of two or more cells gets a clue: the sum of its digits; a lone white
cell between black squares gets none (it is a run of one, unclued). When a white cell touches
the top or left edge, a black clue row / column is added in front.

Also read here: the kakuros.com JSON export ``{"board": [[...], ...]}`` (MarcelGarus/kakuro
``*-solution.json``): ``-1`` black, ``0`` empty white, ``1``-``9`` white with its digit,
``across*1000 + down*10`` a clue square. Its clues are taken as stored.

:func:`read_with_solution` returns the puzzle and the stored solution; :func:`from_digit_grid`
builds both from rows of digits (for corpus loaders). Read-only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from ...errors import PuzzleError
from ..model import BLANK, MAX_SIDE, WHITE, Puzzle, Square
from . import Format

Coord = tuple[int, int]
BLACK_TOKENS = frozenset({"0", "#", ".", "x", "X", "\\", "-", "*"})
_TOKEN = re.compile(r"^(?:#?[1-9]|[0#.xX\\*-])$")
_COMPACT = re.compile(r"#[1-9]|.")


# ---- building from digits -----------------------------------------------------------------
def from_digit_grid(
    rows: Sequence[Sequence[int | None]],
    givens: Iterable[Coord] | Mapping[Coord, int] | None = None,
    *,
    name: str | None = None,
    row_lines: Sequence[int | None] | None = None,
) -> tuple[Puzzle, dict[Coord, int]]:
    """A puzzle (clues = run sums) and its solution from a solved grid.

    ``rows``: ``None`` or ``0`` for a black square, ``1``-``9`` for a white cell's digit.
    ``givens``: coordinates (in ``rows``' own coordinates) whose digit the puzzle shows; a
    mapping is accepted too and its digits must agree with the grid. A black clue row and/or
    column is prepended when white cells touch the top / left edge; the returned puzzle and
    solution use the final coordinates. ``row_lines``: source line of each row, for errors.
    """

    def line(r: int) -> int | None:
        return row_lines[r] if row_lines is not None and 0 <= r < len(row_lines) else None

    if not rows or not rows[0]:
        raise PuzzleError("the solved grid is empty", line=line(0) or 1)
    width = len(rows[0])
    if len(rows) > MAX_SIDE or width > MAX_SIDE:  # refuse before any per-square work
        raise PuzzleError(f"the grid is {len(rows)}x{width}; deducer handles at most "
                          f"{MAX_SIDE}x{MAX_SIDE} squares")
    grid = _digit_rows(rows, width, line)
    dr = 1 if any(grid[0]) else 0
    dc = 1 if any(row[0] for row in grid) else 0
    if dc:
        grid = [[0] + row for row in grid]
    if dr:
        grid = [[0] * len(grid[0])] + grid
    lines = [None] * dr + [line(r) for r in range(len(rows))]
    nr, nc = len(grid), len(grid[0])

    gmap = _given_digits(grid, givens, dr, dc, line)
    down, across = _run_sums(grid, dr, dc, lines)
    squares = tuple(
        tuple(
            WHITE if grid[r][c]
            else Square(False, down.get((r, c)), across.get((r, c)))
            if (r, c) in down or (r, c) in across else BLANK
            for c in range(nc)
        )
        for r in range(nr)
    )
    solution = {(r, c): grid[r][c] for r in range(nr) for c in range(nc) if grid[r][c]}
    puzzle = Puzzle(squares, givens=gmap, name=name, row_lines=tuple(lines)).validate()
    return puzzle, solution


def _digit_rows(rows: Sequence[Sequence[int | None]], width: int, line) -> list[list[int]]:
    """The solved grid's rows checked (as wide as the first; digits 1-9, 0 or None for a
    black square) as lists of ints, 0 for black."""
    grid: list[list[int]] = []
    for r, row in enumerate(rows):
        if len(row) != width:
            raise PuzzleError(
                f"row {r + 1} has {len(row)} squares but row 1 has {width} (ragged rows)",
                line=line(r),
            )
        out = []
        for c, v in enumerate(row):
            if v is None:
                v = 0
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 9:
                raise PuzzleError(
                    f"row {r + 1} square {c + 1}: {v!r} is not a digit 1-9 or black (0/None)",
                    line=line(r),
                )
            out.append(v)
        grid.append(out)
    return grid


def _given_digits(grid: list[list[int]], givens, dr: int, dc: int, line) -> dict[Coord, int]:
    """The givens (``from_digit_grid``'s, in the rows' own coordinates) on the grid shifted
    by ``dr`` rows and ``dc`` columns, each with its solution digit."""
    nr, nc = len(grid), len(grid[0])
    gmap: dict[Coord, int] = {}
    if givens is not None:
        items = givens.items() if isinstance(givens, Mapping) else ((rc, None) for rc in givens)
        for (r0, c0), d in items:
            rc = (r0 + dr, c0 + dc)
            if not (0 <= rc[0] < nr and 0 <= rc[1] < nc) or not grid[rc[0]][rc[1]]:
                raise PuzzleError(f"given at r{r0 + 1}c{c0 + 1} is not on a white cell",
                                  line=line(r0))
            v = grid[rc[0]][rc[1]]
            if d is not None and d != v:
                raise PuzzleError(
                    f"given {d} at r{r0 + 1}c{c0 + 1} disagrees with the solution digit {v}",
                    line=line(r0),
                )
            gmap[rc] = v
    return gmap


def _run_sums(grid: list[list[int]], dr: int, dc: int,
              lines: list) -> tuple[dict[Coord, int], dict[Coord, int]]:
    """The clues (down, across: clue square -> sum) of every run of the solved grid; a run
    repeating a digit is refused (named in the rows' own coordinates)."""
    nr, nc = len(grid), len(grid[0])
    down: dict[Coord, int] = {}
    across: dict[Coord, int] = {}
    for horizontal in (True, False):
        outer, inner = (nr, nc) if horizontal else (nc, nr)
        for a in range(outer):
            b = 0
            while b < inner:
                r, c = (a, b) if horizontal else (b, a)
                if not grid[r][c]:
                    b += 1
                    continue
                start = b
                seen: dict[int, Coord] = {}
                while b < inner:
                    r, c = (a, b) if horizontal else (b, a)
                    d = grid[r][c]
                    if not d:
                        break
                    if d in seen:
                        o = seen[d]
                        raise PuzzleError(
                            f"the stored solution repeats digit {d} in a "
                            f"{'row' if horizontal else 'column'} run "
                            f"(r{o[0] + 1 - dr}c{o[1] + 1 - dc} and r{r + 1 - dr}c{c + 1 - dc})",
                            line=lines[r],
                        )
                    seen[d] = (r, c)
                    b += 1
                # every run gets its sum as a clue, one-cell runs too: a solved grid states
                # them, and the sources' uniqueness (janko 947, cx16 034) depends on them
                if start > 0:
                    clue = (a, start - 1) if horizontal else (start - 1, a)
                    (across if horizontal else down)[clue] = sum(seen)
    return down, across


# ---- text forms ------------------------------------------------------------------------------
def _split(s: str) -> list[str]:
    toks = s.split()
    if len(toks) == 1 and len(toks[0]) > 1 and not _TOKEN.match(toks[0]):
        return _COMPACT.findall(toks[0])
    return toks


def _grid_lines(text: str):
    """``(line, tokens)`` of every grid row; comment lines skipped."""
    for ln, raw in enumerate(text.split("\n"), start=1):
        s = raw.replace("\u00a0", " ").strip()
        if not s:
            continue
        toks = _split(s)
        if s.startswith("#") and not all(_TOKEN.match(t) for t in toks):
            continue
        yield ln, toks


def _is_board_json(text: str) -> bool:
    head = text.lstrip()[:400]
    return head.startswith("{") and re.search(r'"board"\s*:', head) is not None


def sniff(text: str) -> bool:
    if _is_board_json(text):
        return True
    digit = False
    n = 0
    for _ln, toks in _grid_lines(text[:20000]):
        n += 1
        if n > 60:
            break
        for t in toks:
            if not _TOKEN.match(t):
                return False
            if t[-1] in "123456789":
                digit = True
    return digit


def _read_text(text: str, name: str | None):
    rows: list[list[int]] = []
    lines: list[int] = []
    givens: list[Coord] = []
    for ln, toks in _grid_lines(text):
        row = []
        for c, t in enumerate(toks):
            if not _TOKEN.match(t):
                raise PuzzleError(
                    f"square {c + 1} {t!r} is not a digit 1-9, a given #d or a black square "
                    "(0 # . x \\ - *)",
                    line=ln,
                )
            if t in BLACK_TOKENS:
                row.append(0)
            else:
                if t.startswith("#"):
                    givens.append((len(rows), c))
                row.append(int(t[-1]))
        rows.append(row)
        lines.append(ln)
    if not rows:
        raise PuzzleError("no grid rows found", line=1)
    return from_digit_grid(rows, givens, name=name, row_lines=lines)


def _read_board_json(text: str, name: str | None):
    from .jsonfmt import item_lines, load_json

    data = load_json(text)
    key_line, elems = item_lines(text)
    board = data.get("board") if isinstance(data, dict) else None
    if not isinstance(board, list) or not board:
        raise PuzzleError('"board" must be a non-empty list of rows', line=key_line.get("board", 1))
    blines = elems.get("board", [])
    lines = [blines[r] if r < len(blines) else key_line.get("board", 1)
             for r in range(len(board))]
    squares = []
    solution: dict[Coord, int] = {}
    for r, row in enumerate(board):
        if not isinstance(row, list):
            raise PuzzleError(f"board row {r + 1} is not a list", line=lines[r])
        out = []
        for c, v in enumerate(row):
            if isinstance(v, bool) or not isinstance(v, int):
                raise PuzzleError(f"board row {r + 1} square {c + 1}: {v!r} is not a whole "
                                  "number", line=lines[r])
            if v == -1:
                out.append(BLANK)
            elif 0 <= v <= 9:
                out.append(WHITE)
                if v:
                    solution[(r, c)] = v
            elif v >= 10 and v % 10 == 0 and v // 1000 <= 45:
                a, d = v // 1000, (v % 1000) // 10
                if d > 45:
                    raise PuzzleError(f"board row {r + 1} square {c + 1}: {v} has a down sum "
                                      f"{d} over 45", line=lines[r])
                out.append(Square(False, d or None, a or None))
            else:
                raise PuzzleError(
                    f"board row {r + 1} square {c + 1}: {v} is not -1 (black), 0-9 (white) or "
                    "a clue across*1000 + down*10",
                    line=lines[r],
                )
        squares.append(tuple(out))
    puzzle = Puzzle(tuple(squares), name=name, row_lines=tuple(lines)).validate()
    for run in puzzle.runs:
        ds = [solution[rc] for rc in run.coords if rc in solution]
        r0 = (run.clue_at or run.coords[0])[0]
        if len(set(ds)) != len(ds):
            raise PuzzleError(f"the stored solution repeats a digit in run {run.name}",
                              line=lines[r0])
        if run.total is not None and len(ds) == run.length and sum(ds) != run.total:
            raise PuzzleError(
                f"the stored solution is wrong: run {run.name} sums to {sum(ds)}", line=lines[r0]
            )
    return puzzle, solution


def read_with_solution(text: str, *, name: str | None = None) -> tuple[Puzzle, dict[Coord, int]]:
    """The puzzle and the solution digits stored with it (coordinates of the puzzle)."""
    if _is_board_json(text):
        return _read_board_json(text, name)
    return _read_text(text, name)


def read(text: str, *, name: str | None = None) -> Puzzle:
    return read_with_solution(text, name=name)[0]


FORMAT = Format(
    name="solved",
    description="solved grid (digits; #d = given; clues are run sums), or kakuros.com JSON",
    extensions=(".puz", ".sol", ".txt", ".json"),
    sniff=sniff,
    read=read,
)
