"""janko.at puzzle files: the ``application/x-janko`` data of Angela and Otto Janko's pages.

A page of https://www.janko.at/Raetsel/Kakuro/ carries its puzzle in a
``<script id="data" type="application/x-janko">`` block; saved alone it is a ``.x-janko``
file. Properties one a line, grids on the lines after their keyword::

    begin
    puzzle kakuro
    author Otto Janko
    rows 10            (or: size 10 for a square grid)
    cols 12
    problem
    x 700 2900 x ...   (x black, - white cell, n a clue: see below)
    4 - - 1113 ...
    solution
    - - - - ...        (- black, 1-9 the cell's digit)
    moves
    Z1;lb,1;...
    end

A clue ``n`` of the problem grid is across ``n`` when ``n < 100``, else down ``n // 100``
and across ``n % 100`` (``1516``: down 15, across 16; ``700``: down 7 only). Without a
``problem`` grid the clues are the run sums of the ``solution`` grid (most of janko's
Kakuro pages store only the solution). The whole HTML page is read too (the data block is
taken out of it), and so is the JSON record the janko.at scrapes store a page as,
``{"file": "/Kakuro/001.a.x-janko", "data": {"puzzle": "kakuro", "solution": [[...]]}}``,
one per line (a file of several records: ``--name 001`` picks one).

The writer writes ``begin``/``puzzle kakuro``/``rows``/``cols``/``problem``/``end`` (and
``rating LEVEL, score N, rater V`` for a puzzle that carries its grade): clues and
black squares only (givens, entries and pencil marks have no place in janko's problem grid).
"""

from __future__ import annotations

import json
import re

from ...errors import PuzzleError
from ..model import BLANK, WHITE, Grade, Puzzle, Square
from . import Format, json_problem, parse_int
from .solved import from_digit_grid

_SCRIPT_OPEN = re.compile(r"<script", re.I)
_SCRIPT_CLOSE = re.compile(r"</script>", re.I)
_X_JANKO = re.compile(r"application/x-janko", re.I)
#: a line ``puzzle NAME`` (``[^\S\n]``: spaces within the line; ``\s`` would run on over the
#: next lines from every line start, and a page of blank lines took minutes)
_PUZZLE_KAKURO = re.compile(r"^[^\S\n]*puzzle[^\S\n]+kakuro[^\S\n]*$", re.M | re.I)
_PUZZLE_LINE = re.compile(r"^[^\S\n]*puzzle[^\S\n]+\w+[^\S\n]*$", re.M)
_PROPERTY = re.compile(r"^[A-Za-z_]{2,}$")
_GRIDS = ("problem", "solution")
_JSON_SNIFF = re.compile(r'x-janko"|"puzzle"\s*:\s*"kakuro"')
_RECORD_ID = re.compile(r"/([0-9]+)[^/]*$")


# ---- the text form ------------------------------------------------------------------------
def _script(text: str) -> tuple[int, int] | None:
    """Where the body of the first ``<script ...application/x-janko...>`` element of a page
    starts and ends (None: no such element). One pass over the text: a regular expression
    scanned the rest of the page again from every ``<script`` (64 KB of them: 9 s)."""
    pos = 0
    while True:
        m = _SCRIPT_OPEN.search(text, pos)
        if m is None:
            return None
        gt = text.find(">", m.end())
        if gt < 0:
            return None  # no tag ends after here: no later one can
        # a ``<script`` between this one and ``gt`` ends at ``gt`` too: it has no more
        if _X_JANKO.search(text, m.end(), gt):
            close = _SCRIPT_CLOSE.search(text, gt + 1)
            return None if close is None else (gt + 1, close.start())
        pos = gt + 1


def _data_block(text: str) -> tuple[str, int]:
    """The x-janko text of a file or page, and the line number of its first line."""
    where = _script(text)
    if where is None:
        return text, 1
    start, end = where
    return text[start:end], text.count("\n", 0, start) + 1


def _parse_text(text: str) -> tuple[dict[str, tuple[str, int]], dict[str, list]]:
    """Properties (value, line) and grids (rows of (line, tokens)) of an x-janko text."""
    block, first = _data_block(text)
    props: dict[str, tuple[str, int]] = {}
    grids: dict[str, list[tuple[int, list[str]]]] = {}
    current: list | None = None
    begun = False
    for ln, raw in enumerate(block.split("\n"), start=first):
        toks = raw.split()
        if not toks:
            continue
        key = toks[0]
        if not begun:
            if key == "begin":
                begun = True
                continue
            if key.startswith("#") or key.startswith("<"):
                continue
            raise PuzzleError("a janko.at puzzle file starts with 'begin'", line=ln)
        if _PROPERTY.match(key):
            if key == "end":
                break
            if key in _GRIDS:
                current = grids.setdefault(key, [])
                if current:
                    raise PuzzleError(f"a second '{key}' grid", line=ln)
                continue
            current = None  # moves, or any property janko adds: not a grid of ours
            props[key] = (" ".join(toks[1:]), ln)
            continue
        if current is not None:
            current.append((ln, toks))
    if not begun:
        raise PuzzleError("no 'begin' line: not a janko.at puzzle file", line=first)
    return props, grids


def _size(props: dict[str, tuple[str, int]]) -> tuple[int | None, int | None]:
    def num(key: str) -> int | None:
        if key not in props:
            return None
        value, ln = props[key]
        return parse_int(value, key, ln, lo=1, hi=1000)

    size = num("size")
    rows, cols = num("rows"), num("cols")
    return (rows if rows is not None else size), (cols if cols is not None else size)


def _check_shape(rows: list[tuple[int, list[str]]], what: str, nr: int | None,
                 nc: int | None, start_line: int) -> None:
    if not rows:
        raise PuzzleError(f"the '{what}' grid is empty", line=start_line)
    width = len(rows[0][1])
    for ln, toks in rows:
        if len(toks) != width:
            raise PuzzleError(f"{what} row has {len(toks)} squares but its first row has "
                              f"{width} (ragged rows)", line=ln)
    if nr is not None and len(rows) != nr:
        raise PuzzleError(f"the '{what}' grid has {len(rows)} rows, the file says {nr}",
                          line=rows[-1][0])
    if nc is not None and width != nc:
        raise PuzzleError(f"the '{what}' grid has {width} columns, the file says {nc}",
                          line=rows[0][0])


def _clue_square(tok: str, ln: int) -> Square:
    n = parse_int(tok, "clue", ln, lo=1, hi=4545)
    if n < 100:
        return Square(False, None, n)
    down, across = divmod(n, 100)
    if down > 45 or across > 45:
        raise PuzzleError(f"clue {tok} is not down*100 + across with sums up to 45", line=ln)
    return Square(False, down, across or None)


def _from_problem(rows: list[tuple[int, list[str]]], name: str | None) -> Puzzle:
    squares = []
    lines = []
    for ln, toks in rows:
        out = []
        for tok in toks:
            if tok == "-":
                out.append(WHITE)
            elif tok.lower() == "x":
                out.append(BLANK)
            else:
                out.append(_clue_square(tok, ln))
        squares.append(tuple(out))
        lines.append(ln)
    return Puzzle(tuple(squares), name=name, row_lines=tuple(lines)).validate()


def _from_solution(rows: list[tuple[int, list[str]]], name: str | None) -> Puzzle:
    digits: list[list[int | None]] = []
    for ln, toks in rows:
        row: list[int | None] = []
        for tok in toks:
            if tok in ("-", "x", "X"):
                row.append(None)
            elif len(tok) == 1 and tok in "123456789":
                row.append(int(tok))
            else:
                raise PuzzleError(f"solution square {tok!r} is neither '-' (black) nor a "
                                  "digit 1-9", line=ln)
        digits.append(row)
    return from_digit_grid(digits, name=name, row_lines=[ln for ln, _ in rows])[0]


def _build(props: dict[str, tuple[str, int]], grids: dict[str, list], name: str | None,
           line: int) -> Puzzle:
    kind = props.get("puzzle")
    if kind is not None and kind[0].strip().lower() != "kakuro":
        raise PuzzleError(f"a janko.at '{kind[0]}' puzzle, not kakuro", line=kind[1])
    nr, nc = _size(props)
    for what, build in (("problem", _from_problem), ("solution", _from_solution)):
        rows = grids.get(what)
        if rows is not None:
            _check_shape(rows, what, nr, nc, line)
            puzzle = build(rows, name)
            rating = props.get("rating")  # deducer's own property: the grade it rated
            grade = None if rating is None else Grade.parse(rating[0])
            return puzzle if grade is None else puzzle.graded(grade)
    raise PuzzleError("neither a 'problem' nor a 'solution' grid", line=line)


# ---- the JSON record form (janko.at scrapes) ----------------------------------------------
def _record_lines(text: str) -> list[tuple[int, str]]:
    return [(ln, s) for ln, s in enumerate(text.split("\n"), start=1) if s.strip()]


def _record_id(rec: dict) -> str | None:
    f = rec.get("file")
    m = _RECORD_ID.search(f.split(".")[0]) if isinstance(f, str) else None
    return m.group(1) if m else None


def _from_record(rec: object, ln: int) -> Puzzle:
    if not isinstance(rec, dict):
        raise PuzzleError("a janko record is a JSON object", line=ln)
    data = rec.get("data", rec)
    if not isinstance(data, dict):
        raise PuzzleError("a janko record's 'data' is a JSON object", line=ln)
    props: dict[str, tuple[str, int]] = {}
    for key in ("puzzle", "size", "rows", "cols", "rating"):
        if key in data:
            if not isinstance(data[key], str | int) or isinstance(data[key], bool):
                raise PuzzleError(f"'{key}' is not a word or a number", line=ln)
            props[key] = (str(data[key]), ln)
    grids: dict[str, list] = {}
    for key in _GRIDS:
        if key in data:
            grid = data[key]
            if not isinstance(grid, list) or not all(
                    isinstance(row, list) and all(isinstance(t, str | int) for t in row)
                    for row in grid):
                raise PuzzleError(f"'{key}' is not a list of rows of squares", line=ln)
            grids[key] = [(ln, [str(t) for t in row]) for row in grid]
    pid = _record_id(rec)
    return _build(props, grids, f"janko {pid}" if pid else None, ln)


def _json_records(text: str) -> list[tuple[int, dict]]:
    out = []
    for ln, s in _record_lines(text):
        try:
            out.append((ln, json.loads(s)))
        except (ValueError, RecursionError) as e:  # a 5000-digit number is a ValueError
            raise PuzzleError(f"not a JSON record: {json_problem(e)}", line=ln) from None
    return out


def _is_json(text: str) -> bool:
    return text.lstrip().startswith("{")


# ---- the format ---------------------------------------------------------------------------
def sniff(text: str) -> bool:
    head = text[:65536]
    if _is_json(head):
        return _JSON_SNIFF.search(head) is not None and (
            '"solution"' in head or '"problem"' in head)
    if _script(head) is not None and _PUZZLE_KAKURO.search(head):
        return True
    first = next((s.strip() for s in head.split("\n") if s.strip()), "")
    return first == "begin" and _PUZZLE_LINE.search(head) is not None


def names(text: str) -> list[str]:
    """The record ids of a file of janko JSON records, one a line (``001``, ``002``, ...)."""
    if not _is_json(text):
        return []
    found = []
    for _ln, s in _record_lines(text):
        try:
            pid = _record_id(json.loads(s))
        except (ValueError, AttributeError):
            continue
        if pid:
            found.append(pid)
    return found


def read(text: str, *, name: str | None = None) -> Puzzle:
    """An x-janko text or page, or a janko JSON record (``name`` picks one of several)."""
    if not _is_json(text):
        props, grids = _parse_text(text)
        return _build(props, grids, name, 1)
    records = _json_records(text)
    if not records:
        raise PuzzleError("no janko record in the file", line=1)
    if name is None:
        if len(records) > 1:
            ids = [_record_id(r) or "?" for _, r in records]
            shown = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
            raise PuzzleError(f"{len(records)} janko records in one file ({shown}); "
                              "pick one with --name", line=records[1][0])
        ln, rec = records[0]
        return _from_record(rec, ln)
    want = name.removeprefix("janko ").strip().lstrip("0") or "0"
    for ln, rec in records:
        pid = _record_id(rec)
        if pid is not None and (pid.lstrip("0") or "0") == want:
            return _from_record(rec, ln)
    raise PuzzleError(f"no janko record numbered {name!r} in the file", line=1)


def _clue_token(sq: Square) -> str:
    if sq.down is None and sq.across is None:
        return "x"
    if sq.down is None:
        return str(sq.across)
    return str(sq.down * 100 + (sq.across or 0))


def write(puzzle: Puzzle) -> str:
    """The puzzle as a janko.at ``x-janko`` text (a problem grid, no solution)."""
    if puzzle.givens:
        raise PuzzleError("the janko format cannot hold givens; use --to json or pipe")
    if puzzle.even is not None:
        raise PuzzleError("the janko format cannot hold parity marks; use --to json")
    for row in puzzle.squares:
        for sq in row:
            if not sq.white and 0 in (sq.down, sq.across):
                raise PuzzleError("janko's problem grid cannot hold a clue of 0")
    lines = ["begin", "puzzle kakuro"]
    lines.append(f"rows {puzzle.rows}")
    lines.append(f"cols {puzzle.cols}")
    if puzzle.grade is not None:  # a property janko's pages do not have: they skip it
        lines.append(f"rating {puzzle.grade.text()}")
    lines.append("problem")
    for row in puzzle.squares:
        lines.append(" ".join("-" if sq.white else _clue_token(sq) for sq in row))
    lines.append("end")
    return "\n".join(lines) + "\n"


FORMAT = Format(
    name="janko",
    description="janko.at puzzle files (x-janko: problem/solution grids), pages, JSON records",
    extensions=(".x-janko", ".janko", ".htm", ".html", ".jsonl"),
    sniff=sniff,
    read=read,
    write=write,
    names=names,
)


# ---- the solving record a janko text carries (docs/formats.md, "Solving records") ---------
def solve_record(text: str, name: str | None = None) -> tuple[str | None, str | None]:
    """The ``moves`` property (a solving record, not yet parsed) and the ``solver``
    of an x-janko text or page, or of the JSON record ``name`` picks (as :func:`read`);
    None for what it lacks. In the text form the moves may follow ``moves`` on its line or
    stand on the lines after it (the play page's "Save my solve" writes them so), up to
    the next property."""
    if _is_json(text):
        records = _json_records(text)
        rec: object = None
        if name is None:
            rec = records[0][1] if len(records) == 1 else None
        else:
            want = name.removeprefix("janko ").strip().lstrip("0") or "0"
            rec = next((r for _, r in records
                        if (pid := _record_id(r)) is not None
                        and (pid.lstrip("0") or "0") == want), None)
        data = rec.get("data", rec) if isinstance(rec, dict) else None
        if not isinstance(data, dict):
            return None, None
        moves, who = data.get("moves"), data.get("solver")
        return (moves if isinstance(moves, str) else None,
                who if isinstance(who, str) else None)
    block, _first = _data_block(text)
    moves_parts: list[str] | None = None
    found: str | None = None
    solver: str | None = None
    for raw in block.split("\n"):
        toks = raw.split()
        if not toks:
            continue
        if _PROPERTY.match(toks[0]):
            if moves_parts is not None and found is None:
                found = "".join(moves_parts)
            if toks[0] == "end":
                break
            if toks[0] == "moves" and found is None:
                moves_parts = toks[1:]
            elif toks[0] == "solver":
                solver = " ".join(toks[1:]) or None
            continue
        if moves_parts is not None and found is None:
            moves_parts.extend(toks)
    if found is None and moves_parts is not None:
        found = "".join(moves_parts)
    return (found or None), solver


def recorded(text: str) -> list[str]:
    """The ids of the JSON records of ``text`` that carry a solving record (``moves``);
    [] for the text form (one puzzle: :func:`solve_record` says if it has one)."""
    if not _is_json(text):
        return []
    found = []
    for _ln, s in _record_lines(text):
        try:
            rec = json.loads(s)
        except ValueError:
            continue
        data = rec.get("data", rec) if isinstance(rec, dict) else None
        pid = _record_id(rec) if isinstance(rec, dict) else None
        if pid and isinstance(data, dict) and isinstance(data.get("moves"), str):
            found.append(pid)
    return found
