"""KakuroApp boards (``.kak``): the format of the UPC FIB "PROP" course's Kakuro projects
(marcizhu/KakuroApp, paucuesta9/PROP_Kakuro), which their apps load and save.

```
4,4                 rows,cols (the clue row and column included)
*,C7,C16,*          * a black square, C<n> a down clue ("columna"), F<n> an across clue
F9,?,?,C4           ("fila"), C<n>F<m> both (the down clue first), ? a white cell,
F15,?,?,?           1-9 a white cell holding a given digit
*,F8,?,?
```

Cells are separated by commas (spaces around them and a trailing comma are allowed); the
header line is optional (the app's database stores boards without it); a line starting with
``#`` is a comment (deducer writes a generated board's rating as one, after the board, where
the apps, reading the rows the header counts, do not look). Every run has a
clue: a white cell whose run has none is refused, as the apps refuse it.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format, parse_int

_HEADER = re.compile(r"^\s*([0-9]+)\s*,\s*([0-9]+)\s*$")
_TOKEN = re.compile(r"^(?:\*|\?|[1-9]|C[0-9]+|F[0-9]+|C[0-9]+F[0-9]+)$")
_CLUE = re.compile(r"^(?:C(?P<down>[0-9]+))?(?:F(?P<across>[0-9]+))?$")


def _rows(text: str) -> list[tuple[int, str]]:
    # a ``#`` line is deducer's comment (a generated board's rating, after the board)
    return [(ln, s.strip()) for ln, s in enumerate(text.split("\n"), start=1)
            if s.strip() and not s.lstrip().startswith("#")]


def _tokens(line: str) -> list[str]:
    toks = [t.strip() for t in line.split(",")]
    if len(toks) > 1 and not toks[-1]:
        toks.pop()  # a trailing comma (paucuesta9's diff2/12_10/0.txt has one)
    return toks


def sniff(text: str) -> bool:
    """A header ``R,C`` (or none) and rows of comma-separated ``*``, ``?``, digits and
    ``C``/``F`` clues, a clue or a black square among the first rows."""
    lines = _rows(text[:65536])
    if lines and _HEADER.match(lines[0][1]):
        lines = lines[1:]
    head = [_tokens(s) for _, s in lines[:3]]
    return bool(head) and all(len(t) > 1 and all(_TOKEN.match(x) for x in t) for t in head) \
        and any(x[0] in "*CF" for t in head for x in t)


def read(text: str, *, name: str | None = None) -> Puzzle:
    """The board; its givens are the digits it holds."""
    return read_board(text, name=name)


def read_board(text: str, *, name: str | None = None, validate: bool = True) -> Puzzle:
    """:func:`read`; ``validate=False`` leaves the givens unchecked against the runs (a
    board kept as its source has it, a repeated digit and all), the clues are still
    checked."""
    lines = _rows(text)
    if not lines:
        raise PuzzleError("no board rows found", line=1)
    size = None
    m = _HEADER.match(lines[0][1])
    if m:
        size = (int(m.group(1)), int(m.group(2)))
        ln = lines[0][0]
        lines = lines[1:]
        if len(lines) != size[0]:
            raise PuzzleError(f"the header says {size[0]} rows, the board has {len(lines)}",
                              line=ln)
    squares: list[tuple[Square, ...]] = []
    givens: dict[tuple[int, int], int] = {}
    row_lines: list[int] = []
    for ln, s in lines:
        toks = _tokens(s)
        if size is not None and len(toks) != size[1]:
            raise PuzzleError(f"row has {len(toks)} cells, the header says {size[1]}", line=ln)
        r = len(squares)
        row = []
        for c, t in enumerate(toks):
            if t == "?":
                row.append(WHITE)
            elif t == "*":
                row.append(BLANK)
            elif len(t) == 1 and "1" <= t <= "9":
                givens[(r, c)] = int(t)
                row.append(WHITE)
            else:
                m = _CLUE.match(t)
                if not t or not m:
                    shown = t if len(t) <= 20 else t[:20] + "…"
                    raise PuzzleError(f"cell {c + 1} {shown!r} is not *, ?, a digit, C<n>, "
                                      "F<n> or C<n>F<m>", line=ln)
                down, across = (None if v is None else
                                parse_int(v, f"cell {c + 1}: sum", ln, lo=1, hi=45)
                                for v in m.group("down", "across"))
                row.append(Square(False, down, across))
        squares.append(tuple(row))
        row_lines.append(ln)
    p = Puzzle(tuple(squares), givens=givens, name=name, row_lines=tuple(row_lines))
    if validate:
        p.validate()
    else:
        width = len(squares[0])
        for squares_row, ln in zip(squares, row_lines, strict=True):
            if len(squares_row) != width:
                raise PuzzleError(f"row has {len(squares_row)} cells but the first row has {width}",
                                  line=ln)
    for run in p.runs:
        if run.total is None:
            r, c = run.coords[0]
            raise PuzzleError(f"r{r + 1}c{c + 1}: a white cell's run has no clue (this format "
                              "gives every run one)", line=p.line_of((r, c)))
    return p


def write(p: Puzzle) -> str:
    """``R,C`` and the rows; givens as digits. The format holds no parity marks and no
    unclued run (refused); the player's entries and pencil marks are left out."""
    if p.even is not None:
        raise PuzzleError("the fib format cannot hold parity marks; use --to json")
    for run in p.runs:
        if run.total is None:
            r, c = run.coords[0]
            raise PuzzleError(f"the fib format gives every run a clue, and the run at "
                              f"r{r + 1}c{c + 1} has none; use --to pipe or json")
    lines = [f"{p.rows},{p.cols}"]
    for r, row in enumerate(p.squares):
        toks = []
        for c, sq in enumerate(row):
            if sq.white:
                toks.append(str(p.givens[(r, c)]) if (r, c) in p.givens else "?")
            elif sq.is_clue:
                toks.append((f"C{sq.down}" if sq.down is not None else "")
                            + (f"F{sq.across}" if sq.across is not None else ""))
            else:
                toks.append("*")
        lines.append(",".join(toks))
    return "\n".join(lines) + "\n"


FORMAT = Format(
    name="fib",
    description="KakuroApp .kak boards (UPC FIB PROP): R,C then rows of *, ?, digits, "
                "C<down>F<across>",
    extensions=(".kak", ".txt"),
    sniff=sniff,
    read=read,
    write=write,
    comment="#",
)
