"""Backslash text (MarcelGarus/kakuro ``.kakuro``; InDevRus/cross_sums).

One grid row per line, squares separated by runs of whitespace. A token made only of
underscores (``_``, ``_____``) is a white cell; ``V\\H`` is a black square with an optional
down (vertical) sum before the backslash and an optional across (horizontal) sum after it
(``\\`` a plain black square, ``23\\`` down only, ``\\16`` across only). Empty lines and lines
starting with ``#`` are ignored. No digits in cells: the format holds the bare puzzle.

The writer writes the puzzle's name as a ``#`` comment line; givens and parity marks cannot be
written (use ``json`` or ``pipe``), the player's entries and pencil marks are left out.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format, parse_int

_WALL = re.compile(r"^([0-9]*)\\([0-9]*)$")
_WHITE = re.compile(r"^_+$")


def _lines(text: str):
    for ln, raw in enumerate(text.split("\n"), start=1):
        s = raw.replace("\u00a0", " ").strip()
        if s and not s.startswith("#"):
            yield ln, s


def sniff(text: str) -> bool:
    seen_white = seen_wall = False
    for k, (_, s) in enumerate(_lines(text)):
        if k >= 60:
            break
        for tok in s.split():
            if _WHITE.match(tok):
                seen_white = True
            elif _WALL.match(tok):
                seen_wall = True
            else:
                return False
    return seen_white and seen_wall


def read(text: str, *, name: str | None = None) -> Puzzle:
    rows: list[tuple[Square, ...]] = []
    row_lines: list[int] = []
    for ln, s in _lines(text):
        row: list[Square] = []
        for c, tok in enumerate(s.split()):
            if _WHITE.match(tok):
                row.append(WHITE)
                continue
            m = _WALL.match(tok)
            if not m:
                raise PuzzleError(
                    f"square {c + 1} {tok!r} is neither a white cell (underscores) nor a wall "
                    "(V\\H with optional down and across sums)",
                    line=ln,
                )
            down = parse_int(m[1], "down clue", ln, lo=1) if m[1] else None
            across = parse_int(m[2], "across clue", ln, lo=1) if m[2] else None
            row.append(Square(False, down, across) if (down or across) else BLANK)
        rows.append(tuple(row))
        row_lines.append(ln)
    if not rows:
        raise PuzzleError("no grid rows found", line=1)
    return Puzzle(tuple(rows), name=name, row_lines=tuple(row_lines)).validate()


def write(p: Puzzle) -> str:
    if p.givens:
        raise PuzzleError("the backslash format cannot hold givens; use --to json or pipe")
    if p.even is not None:
        raise PuzzleError("the backslash format cannot hold parity marks; use --to json")
    toks = [
        [None if sq.white else f"{sq.down or ''}\\{sq.across or ''}" for sq in row]
        for row in p.squares
    ]
    w_down = [0] * p.cols
    w_across = [0] * p.cols
    for row in toks:
        for c, t in enumerate(row):
            if t is not None:
                d, _, a = t.partition("\\")
                w_down[c] = max(w_down[c], len(d))
                w_across[c] = max(w_across[c], len(a))
    widths = [max(3, w_down[c] + 1 + w_across[c]) for c in range(p.cols)]
    out: list[str] = []
    if p.name:  # every line break (\r, \x85, U+2028 ...) starts a new comment; no NULs
        out.extend("# " + "".join(ch if ch.isprintable() else " " for ch in ln)
                   for ln in p.name.splitlines())
    for row in toks:
        cells = []
        for c, t in enumerate(row):
            if t is None:
                cells.append("_" * widths[c])
            else:  # aligned on the backslash
                d, _, a = t.partition("\\")
                cells.append((d.rjust(w_down[c]) + "\\" + a).ljust(widths[c]))
        out.append(" ".join(cells).rstrip())
    return "\n".join(out) + "\n"


FORMAT = Format(
    name="backslash",
    description=".kakuro text: V\\H walls, underscore cells, # comments",
    extensions=(".kakuro", ".txt"),
    sniff=sniff,
    read=read,
    write=write,
    comment="#",
)
