"""MiniZinc data files (``.dzn``) for the Kakuro model of the MiniZinc benchmarks.

The model (``kakuro.mzn``, Ralph Becket) takes::

    h = 6;  w = 6;                          % rows and columns, clue row/column included
    grid_data = [| 0, 0, 1, ... | ... |];   % h rows of w values: 0 black, 1 white
    n_h = 6;  h_clue = [| r, c, len, sum | ... |];   % across clues
    n_v = 6;  v_clue = [| r, c, len, sum | ... |];   % down clues

``r, c`` are the 1-based row and column of the black clue square; an across clue covers
``(r, c+1) .. (r, c+len)``, a down clue ``(r+1, c) .. (r+len, c)``. Rows of a 2-D array
literal are separated by ``|`` and several may share a line. Later revisions of the
benchmarks write the clues as records, ``[(row: 2, col: 2, len: 2, sum: 4), ...]``: read
too. ``%`` starts a comment. Without ``grid_data`` the white cells are the clues' cells.
A clue's ``len`` must be the length of the white run it stands before.

The writer writes the first form; every run needs a clue (the model has no unclued runs),
and givens, entries and pencil marks have no place in it.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..model import ACROSS, BLANK, DOWN, MAX_SIDE, WHITE, Puzzle, Square
from . import Format

#: a statement ``name = value`` (the text between two ``;``), anchored at its start
_ASSIGN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=", re.S)
_TOKEN = re.compile(r"[^\s,|\[\]]+")
_RECORD = re.compile(r"\(([^()]*)\)")
# ASCII digits only: ``\d`` takes any script's digits, and int() reads them
_FIELD = re.compile(r"^\s*(row|col|len|sum)\s*:\s*(-?[0-9]+)\s*$")
_INT = re.compile(r"^-?[0-9]+$")
#: digits a number of the data may have: a grid side is at most 200, a sum at most 45
MAX_DIGITS = 6


def _strip_comments(text: str) -> str:
    """``%`` comments blanked to spaces (so offsets, and line numbers, stay where they were)."""
    return re.sub(r"%[^\n]*", lambda m: " " * len(m.group(0)), text)


def _assignments(text: str) -> dict[str, tuple[str, int]]:
    """Every ``name = value;`` of the data, with the line its value starts on. One pass:
    statements end at ``;``, and lines are counted as the statements go by (counting them
    from the start for each, and a pattern looking for the ``;`` from every line start,
    made a big file take minutes)."""
    out: dict[str, tuple[str, int]] = {}
    clean = _strip_comments(text)
    pos, ln = 0, 1
    while True:
        end = clean.find(";", pos)
        if end < 0:
            return out  # what follows the last ';' is no statement
        m = _ASSIGN.match(clean, pos, end)
        if m is not None:
            ln += clean.count("\n", pos, m.end())
            name = m.group(1)
            if name in out:
                raise PuzzleError(f"'{name}' is assigned twice", line=ln)
            out[name] = (clean[m.end():end], ln)
            pos = m.end()
        ln += clean.count("\n", pos, end)
        pos = end + 1


def _ints(value: str, key: str, ln: int, most: int | None = None) -> list[int]:
    return [v for v, _ in _ints_at(value, key, ln, most)]


def _number(tok: str, what: str, line: int) -> int:
    """A number of the data (ASCII digits, at most :data:`MAX_DIGITS` of them)."""
    if not _INT.match(tok):
        raise PuzzleError(f"{what}: {tok[:20]!r} is not a whole number", line=line)
    if len(tok.lstrip("-")) > MAX_DIGITS:
        shown = tok if len(tok) <= 12 else f"{tok[:6]}… ({len(tok)} digits)"
        raise PuzzleError(f"{what}: {shown} is out of range", line=line)
    return int(tok)


def _ints_at(value: str, key: str, ln: int, most: int | None = None) -> list[tuple[int, int]]:
    """The whole numbers of a value, each with the line it stands on (lines counted as the
    tokens go by, not from the start for each); more than ``most`` is an error."""
    out: list[tuple[int, int]] = []
    at, last = ln, 0
    for m in _TOKEN.finditer(value):
        at += value.count("\n", last, m.start())
        last = m.start()
        if most is not None and len(out) == most:
            raise PuzzleError(f"{key}: more than {most} numbers, more than the grid has room "
                              "for", line=at)
        out.append((_number(m.group(0), key, at), at))
    return out


def _one(values: dict[str, tuple[str, int]], key: str) -> int:
    value, ln = values[key]
    got = _ints(value, key, ln)
    if len(got) != 1:
        raise PuzzleError(f"{key} must be one whole number", line=ln)
    return got[0]


def _clues(values: dict[str, tuple[str, int]], key: str, most: int) -> list[tuple[int, ...]]:
    """The (row, col, len, sum, line) tuples of an array literal or a list of records (at
    most ``most``: one a square of the grid)."""
    if key not in values:
        raise PuzzleError(f"no '{key} = ...;' assignment", line=1)
    value, ln = values[key]
    if "(" in value:
        out: list[tuple[int, ...]] = []
        at, last = ln, 0
        for m in _RECORD.finditer(value):
            at += value.count("\n", last, m.start())
            last = m.start()
            if len(out) == most:
                raise PuzzleError(f"{key}: more than {most} clues, more than the grid has "
                                  "squares", line=at)
            fields: dict[str, int] = {}
            for part in m.group(1).split(","):
                f = _FIELD.match(part)
                if f is None:
                    raise PuzzleError(f"{key}: {part.strip()[:30]!r} is not row/col/len/sum: "
                                      "a number", line=at)
                fields[f.group(1)] = _number(f.group(2), f"{key}: {f.group(1)}", at)
            if set(fields) != {"row", "col", "len", "sum"}:
                raise PuzzleError(f"{key}: a clue record needs row, col, len and sum", line=at)
            out.append((fields["row"], fields["col"], fields["len"], fields["sum"], at))
        return out
    flat = _ints_at(value, key, ln, 4 * most)
    if len(flat) % 4:
        raise PuzzleError(f"{key}: {len(flat)} numbers are not rows of four "
                          "(row, col, len, sum)", line=ln)
    return [tuple(v for v, _ in flat[k:k + 4]) + (flat[k][1],) for k in range(0, len(flat), 4)]


def read(text: str, *, name: str | None = None) -> Puzzle:
    """A Kakuro instance of MiniZinc data (``h``, ``w``, ``grid_data``, ``h_clue``, ``v_clue``)."""
    values = _assignments(text)
    for key in ("h", "w"):
        if key not in values:
            raise PuzzleError(f"no '{key} = ...;' assignment (rows h, columns w)", line=1)
    h, w = _one(values, "h"), _one(values, "w")
    if not (1 <= h <= MAX_SIDE and 1 <= w <= MAX_SIDE):
        raise PuzzleError(f"the grid is {h}x{w}; deducer handles 1 to {MAX_SIDE} a side",
                          line=values["h"][1])
    across = _clues(values, "h_clue", h * w)
    down = _clues(values, "v_clue", h * w)
    for key in ("n_h", "n_v"):
        if key in values:
            n, got = _one(values, key), len(across if key == "n_h" else down)
            if n != got:
                raise PuzzleError(f"{key} = {n} but {'h' if key == 'n_h' else 'v'}_clue "
                                  f"has {got} clues", line=values[key][1])
    white = [[False] * w for _ in range(h)]
    if "grid_data" in values:
        value, ln = values["grid_data"]
        grid = _ints(value, "grid_data", ln, h * w)
        if len(grid) != h * w or set(grid) - {0, 1}:
            raise PuzzleError(f"grid_data is not {h} rows of {w} zeros and ones", line=ln)
        white = [[bool(grid[r * w + c]) for c in range(w)] for r in range(h)]
    else:
        for clues, dr, dc in ((across, 0, 1), (down, 1, 0)):
            for r, c, n, _s, _ln in clues:
                for k in range(1, max(0, min(n, MAX_SIDE)) + 1):
                    rr, cc = r - 1 + dr * k, c - 1 + dc * k
                    if 0 <= rr < h and 0 <= cc < w:
                        white[rr][cc] = True
    squares = [[WHITE if white[r][c] else BLANK for c in range(w)] for r in range(h)]
    lengths: dict[tuple[tuple[int, int], str], tuple[int, int]] = {}
    for key, clues, direction in (("h_clue", across, ACROSS), ("v_clue", down, DOWN)):
        for r, c, n, s, ln in clues:
            if not (1 <= r <= h and 1 <= c <= w) or white[r - 1][c - 1]:
                raise PuzzleError(f"{key}: the clue at row {r}, column {c} is not on a black "
                                  "square of the grid", line=ln)
            if not 0 <= s <= 45:
                raise PuzzleError(f"{key}: sum {s} at row {r}, column {c} is out of range "
                                  "0..45", line=ln)
            old = squares[r - 1][c - 1]
            if (old.across if direction == ACROSS else old.down) is not None:
                raise PuzzleError(f"{key}: a second clue at row {r}, column {c}", line=ln)
            squares[r - 1][c - 1] = (Square(False, old.down, s) if direction == ACROSS
                                     else Square(False, s, old.across))
            lengths[((r - 1, c - 1), direction)] = (n, ln)
    p = Puzzle(tuple(tuple(row) for row in squares), name=name).validate()
    for run in p.runs:
        if run.clue_at is None:
            continue
        want = lengths.get((run.clue_at, run.direction))
        if want is not None and want[0] != len(run.cells):
            key = "h_clue" if run.direction == ACROSS else "v_clue"
            r, c = run.clue_at
            raise PuzzleError(f"{key}: the clue at row {r + 1}, column {c + 1} says {want[0]} "
                              f"cells, the grid has {len(run.cells)}", line=want[1])
    return p


def sniff(text: str) -> bool:
    head = _strip_comments(text[:65536])
    return all(re.search(rf"(?m)^[ \t]*{k}[ \t]*=", head) for k in ("h_clue", "v_clue"))


def _table(rows: list[str]) -> str:
    if not rows:
        return "[| |]"
    return "[|\n" + "|\n".join(f"\t{row}" for row in rows) + "\n|]"


def write(puzzle: Puzzle) -> str:
    """The puzzle as MiniZinc data for the benchmarks' ``kakuro.mzn``."""
    if puzzle.givens:
        raise PuzzleError("the dzn format cannot hold givens; use --to json or pipe")
    if puzzle.even is not None:
        raise PuzzleError("the dzn format cannot hold parity marks; use --to json")
    clues: dict[str, list[str]] = {ACROSS: [], DOWN: []}
    for run in sorted(puzzle.runs, key=lambda r: (r.clue_at or (-1, -1))):
        if run.total is None and len(run.cells) == 1:
            continue  # a lone cell between black squares: no run for the model either
        if run.clue_at is None or run.total is None:
            r, c = run.coords[0]
            raise PuzzleError(f"the run at r{r + 1}c{c + 1} has no clue; the MiniZinc "
                              "model needs a sum for every run")
        r, c = run.clue_at
        clues[run.direction].append(f"{r + 1}, {c + 1}, {len(run.cells)}, {run.total}")
    grid = [", ".join("1" if sq.white else "0" for sq in row) for row in puzzle.squares]
    return (
        "% Kakuro as data for the MiniZinc benchmarks' kakuro.mzn (written by deducer)\n"
        f"h = {puzzle.rows};\nw = {puzzle.cols};\n"
        f"grid_data = {_table(grid)};\n"
        f"n_h = {len(clues[ACROSS])};\nh_clue = {_table(clues[ACROSS])};\n"
        f"n_v = {len(clues[DOWN])};\nv_clue = {_table(clues[DOWN])};\n"
    )


FORMAT = Format(
    name="dzn",
    description="MiniZinc data (.dzn) for the benchmarks' kakuro.mzn: grid_data, h_clue, v_clue",
    extensions=(".dzn",),
    sniff=sniff,
    read=read,
    write=write,
    comment="%",
)
