"""Row/column conditions (Lars-Erik Thorelli's ``kaksolve`` input).

Whitespace-separated statements (on one line or many)::

    r1 10 2:5     row 1: cells c12..c15 sum to 10 (clue at r1 c1, across)
    c3 4 1        column 3: the single cell at row 1 sums to 4 (clue at r0 c3, down)
    b 5 5 8       the cell at row 5, column 5 is given as 8
    e 11 22       parity puzzle: cells (1,1) and (2,2) are even, every other cell odd
    .             end of input (anything after it is ignored)

Rows and columns count from 0 and the clue row/column is part of the grid, so a condition's
clue sits on the square just before its first cell. ``(...)`` is a comment. ``e`` takes
two-digit ``RC`` pairs (rows and columns 0-9) or ``R,C`` pairs. ``r 1 10 2:5`` (a space
after the letter) is accepted too.

Every cell named by a condition is white, every other square black. Each condition must
cover a whole maximal white segment: two row conditions that touch, or a condition whose clue
square is itself a cell of another condition, is an error. A white segment that no condition
covers is read as an unclued run (all digits distinct, any sum). Read-only.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..combos import combos, sum_range
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format, parse_int

MAX_INDEX = 99
_RC = re.compile(r"^([rc])([0-9]+)$")
_KEYWORDS = ("r", "c", "b", "e", ".")
_SNIFF_TOKEN = re.compile(r"^(?:[rc][0-9]+|[rcbe]|[0-9]+(?::[0-9]+)?|[0-9]+,[0-9]+|\.)$")


def _strip_comments(text: str) -> str:
    """Blank out ``(...)`` comments, keeping newlines (and so line numbers)."""
    out = []
    depth = 0
    line = 1
    open_line = 0
    for ch in text:
        if ch == "\n":
            line += 1
            out.append(ch)
            continue
        if ch == "(":
            if depth == 0:
                open_line = line
            depth += 1
            out.append(" ")
        elif ch == ")":
            if depth == 0:
                raise PuzzleError("')' without a matching '('", line=line)
            depth -= 1
            out.append(" ")
        else:
            out.append(" " if depth else ch)
    if depth:
        raise PuzzleError("'(' comment is never closed", line=open_line)
    return "".join(out)


def _tokens(text: str) -> list[tuple[int, str]]:
    toks = []
    for ln, raw in enumerate(_strip_comments(text.replace("\u00a0", " ")).split("\n"), start=1):
        for t in raw.split():
            toks.append((ln, t))
    return toks


def sniff(text: str) -> bool:
    head = text[:4000]
    try:
        toks = _tokens(head)
    except PuzzleError:
        # an unclosed comment may just be cut off by the 4000-character window
        toks = [(0, t) for t in re.sub(r"\([^)]*\)?", " ", head).split()]
    toks = toks[:-1] if len(text) > 4000 and toks else toks  # last one may be cut
    if len(toks) < 3 or not _RC.match(toks[0][1]) and toks[0][1] not in ("r", "c", "b", "e"):
        return False
    return all(_SNIFF_TOKEN.match(t) for _, t in toks[:200])


def _span(tok: str, what: str, ln: int) -> tuple[int, int]:
    a, sep, b = tok.partition(":")
    lo = parse_int(a, what, ln, hi=MAX_INDEX)
    hi = parse_int(b, what, ln, hi=MAX_INDEX) if sep else lo
    if hi < lo:
        raise PuzzleError(f"{what} range {tok} runs backwards", line=ln)
    return lo, hi


def read(text: str, *, name: str | None = None) -> Puzzle:
    toks = _tokens(text)
    conds, givens, evens = _conditions(toks)
    if not conds:
        raise PuzzleError("no row or column conditions found", line=toks[0][0] if toks else 1)

    # cells named by conditions are white
    white: dict[tuple[int, int], int] = {}
    for kind, idx, _total, a, b, ln in conds:
        for x in range(a, b + 1):
            white.setdefault((idx, x) if kind == "r" else (x, idx), ln)
    nrows = 1 + max(r for r, _ in white)
    ncols = 1 + max(c for _, c in white)

    clues = _clues(conds, white)

    squares = []
    for r in range(nrows):
        row = []
        for c in range(ncols):
            if (r, c) in white:
                row.append(WHITE)
            elif (r, c) in clues:
                row.append(Square(False, clues[(r, c)].get("down"), clues[(r, c)].get("across")))
            else:
                row.append(BLANK)
        squares.append(tuple(row))

    for rc, (d, ln) in givens.items():
        if rc not in white:
            raise PuzzleError(f"b {rc[0]} {rc[1]} {d}: that square is not a cell of any "
                              "condition", line=ln)
    even = _parity(givens, evens, white)
    # per-row source line (first condition touching the row), for validate()'s messages
    row_lines = tuple(
        next(
            (ln for kind, idx, _t, a, b, ln in conds
             if (kind == "r" and idx == r) or (kind == "c" and a - 1 <= r <= b)),
            None,
        )
        for r in range(nrows)
    )
    puzzle = Puzzle(
        tuple(squares),
        givens={rc: d for rc, (d, _) in givens.items()},
        even=even,
        name=name,
        row_lines=row_lines,
    )
    _no_digit_twice(puzzle, givens)
    return puzzle.validate()


def _conditions(toks: list[tuple[int, str]]):
    """The conditions ``(dir, index, total, first, last, line)``, the givens (coord ->
    (digit, line)) and the even cells (coord -> line; None when the text names none)."""
    conds: list[tuple[str, int, int, int, int, int]] = []  # (dir, line_no, total, a, b, ln)
    givens: dict[tuple[int, int], tuple[int, int]] = {}  # coord -> (digit, line)
    evens: dict[tuple[int, int], int] | None = None
    i = 0
    n = len(toks)

    def take(k: int, ln: int, what: str) -> list[str]:
        nonlocal i
        got = [t for _, t in toks[i : i + k]]
        if len(got) < k or any(t == "." for t in got):
            raise PuzzleError(f"{what}: expected {k} more value(s)", line=ln)
        i += k
        return got

    while i < n:
        ln, t = toks[i]
        i += 1
        if t == ".":
            break  # the final '.' is optional; anything after it is ignored
        m = _RC.match(t)
        if m or t in ("r", "c"):
            kind = t[0]
            if m:
                idx_s = m[2]
            else:
                (idx_s,) = take(1, ln, f"{t} condition")
            word = "row" if kind == "r" else "column"
            total_s, span_s = take(2, ln, f"{word} condition {t}")
            idx = parse_int(idx_s, f"{word} number", ln, hi=MAX_INDEX)
            total = parse_int(total_s, f"{word} {idx} sum", ln, lo=1)
            a, b = _span(span_s, "column" if kind == "r" else "row", ln)
            conds.append((kind, idx, total, a, b, ln))
        elif t == "b":
            r_s, c_s, d_s = take(3, ln, "given (b row col digit)")
            rc = (parse_int(r_s, "row", ln, hi=MAX_INDEX), parse_int(c_s, "column", ln,
                                                                     hi=MAX_INDEX))
            d = parse_int(d_s, "given digit", ln, lo=1, hi=9)
            if rc in givens and givens[rc][0] != d:
                raise PuzzleError(
                    f"r{rc[0]}c{rc[1]} is given twice ({givens[rc][0]} and {d})", line=ln
                )
            givens[rc] = (d, ln)
        elif t == "e":
            if evens is None:
                evens = {}
            while i < n and not _RC.match(toks[i][1]) and toks[i][1] not in _KEYWORDS:
                eln, et = toks[i]
                i += 1
                if "," in et:
                    r_s, _, c_s = et.partition(",")
                    rc = (parse_int(r_s, "row", eln, hi=MAX_INDEX),
                          parse_int(c_s, "column", eln, hi=MAX_INDEX))
                elif len(et) == 2 and et.isascii() and et.isdigit():
                    rc = (int(et[0]), int(et[1]))
                else:
                    raise PuzzleError(
                        f"even cell {et!r} is not a two-digit RC pair like 12 or a R,C pair "
                        "like 10,11",
                        line=eln,
                    )
                evens[rc] = eln
        elif t.endswith(".") and t[:-1].isdigit():
            raise PuzzleError(f"{t!r}: put a space before the final '.'", line=ln)
        else:
            raise PuzzleError(
                f"{t!r} is not a condition (r<row> sum cols, c<col> sum rows, b row col digit, "
                "e cells, or a final '.')",
                line=ln,
            )
    return conds, givens, evens


def _clues(conds: list,
           white: dict[tuple[int, int], int]) -> dict[tuple[int, int], dict[str, int]]:
    """Each condition's clue on the square before its run (refused: a run that touches
    another, starts at the edge, has a condition twice or a sum its length cannot make)."""
    # every condition must be a whole maximal segment
    clues: dict[tuple[int, int], dict[str, int]] = {}
    seen: dict[tuple[str, int, int], int] = {}
    for kind, idx, total, a, b, ln in conds:
        word = "row" if kind == "r" else "column"
        desc = f"{kind}{idx} {total} " + (f"{a}:{b}" if a != b else str(a))
        key = (kind, idx, a)
        if key in seen:
            raise PuzzleError(f"{desc}: the same run already has a condition (line {seen[key]})",
                              line=ln)
        seen[key] = ln
        if a == 0:
            raise PuzzleError(
                f"{desc}: the run starts in {word} position 0, leaving no square for its clue",
                line=ln,
            )
        clue_rc = (idx, a - 1) if kind == "r" else (a - 1, idx)
        after = (idx, b + 1) if kind == "r" else (b + 1, idx)
        if clue_rc in white:
            raise PuzzleError(
                f"{desc}: its clue square r{clue_rc[0]}c{clue_rc[1]} is a cell of another "
                f"condition (line {white[clue_rc]}); the runs touch",
                line=ln,
            )
        if after in white:
            raise PuzzleError(
                f"{desc}: the run continues into r{after[0]}c{after[1]} (a cell of the condition "
                f"on line {white[after]}); the runs touch",
                line=ln,
            )
        length = b - a + 1
        if length > 9:
            raise PuzzleError(f"{desc}: a run of {length} cells; at most 9 fit", line=ln)
        if not combos(total, length):
            lo, hi = sum_range(length)
            raise PuzzleError(
                f"{desc}: no {length} distinct digits sum to {total} (a {length}-cell run sums "
                f"to {lo}..{hi})",
                line=ln,
            )
        clues.setdefault(clue_rc, {})["down" if kind == "c" else "across"] = total
    return clues


def _parity(givens: dict, evens: dict[tuple[int, int], int] | None,
            white: dict[tuple[int, int], int]) -> frozenset[tuple[int, int]] | None:
    """The even cells (None: not a parity puzzle), each a cell of a condition, and no
    given against its cell's parity."""
    even = None
    if evens is not None:
        for rc, ln in evens.items():
            if rc not in white:
                raise PuzzleError(
                    f"even cell r{rc[0]}c{rc[1]} is not a cell of any condition", line=ln
                )
        even = frozenset(evens)
        for rc, (d, ln) in givens.items():
            if (rc in even) != (d % 2 == 0):
                raise PuzzleError(
                    f"b {rc[0]} {rc[1]} {d}: the given breaks the cell's parity "
                    f"({'even' if rc in even else 'odd'})",
                    line=ln,
                )
    return even


def _no_digit_twice(puzzle: Puzzle, givens: dict) -> None:
    """No run is given the same digit twice."""
    for run in puzzle.runs:
        seen_digit: dict[int, tuple[int, int]] = {}
        for rc in run.coords:
            if rc in givens:
                d, ln = givens[rc]
                if d in seen_digit:
                    o = seen_digit[d]
                    raise PuzzleError(
                        f"b {rc[0]} {rc[1]} {d}: digit {d} is already given at r{o[0]}c{o[1]} "
                        "in the same run",
                        line=ln,
                    )
                seen_digit[d] = rc


FORMAT = Format(
    name="conditions",
    description="kaksolve conditions: r1 10 2:5, c3 4 1, b 5 5 8 givens, e 11 22 even cells",
    extensions=(".txt", ".cond", ".kak"),
    sniff=sniff,
    read=read,
)
