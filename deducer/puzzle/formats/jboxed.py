"""J boxed rows (Roger Hui's J essay: puzzles ``k0`` .. ``k7``).

Each grid row is one line of ``;``-separated squares: ``x`` an inactive (black) square, ``_`` a
blank (white) cell to fill, ``V H`` a clue square with the vertical (down) sum first and the
horizontal (across) sum second, ``0`` meaning no clue (``0 10`` across 10 only, ``6 0`` down 6
only). Puzzles come wrapped in J definitions::

    k1=: ".;._2 ] 0 : 0  NB. http://en.wikipedia.com/wiki/Kakuro
    x   ; 23 0 ; 30  0 ; ...
    0 16 ;   _  ;   _   ; ...
    )

A file may hold several such blocks: pick one with ``name=`` (the block's name); with several
blocks and no name the reader refuses and lists the names. Text without any wrapper is read
as bare rows. ``NB.`` starts a J comment; non-breaking spaces count as spaces. Read-only.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format, parse_int

_HEAD = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*=[.:].*\b0\s*:\s*0\s*(?:NB\..*)?$")
_CLUE = re.compile(r"^([0-9]+)\s+([0-9]+)$")
_BARE_CELL = re.compile(r"^\s*(?:x|_|[0-9]+\s+[0-9]+)\s*$")


def _clean(raw: str) -> str:
    s = raw.replace("\u00a0", " ")
    k = s.find("NB.")
    if k >= 0:
        s = s[:k]
    return s.strip()


def _blocks(text: str):
    """``(name, head_line, [(line, row_text), ...])`` for every wrapped block."""
    out: list[tuple[str, int, list[tuple[int, str]]]] = []
    cur: tuple[str, int, list[tuple[int, str]]] | None = None
    for ln, raw in enumerate(text.split("\n"), start=1):
        s = raw.replace("\u00a0", " ")
        if cur is None:
            m = _HEAD.match(s)
            if m:
                cur = (m[1], ln, [])
            continue
        if s.strip() == ")":
            out.append(cur)
            cur = None
            continue
        body = _clean(s)
        if body:
            cur[2].append((ln, body))
    if cur is not None:
        raise PuzzleError(f"block {cur[0]!r} is not closed by a line holding ')'", line=cur[1])
    return out


def names(text: str) -> list[str]:
    try:
        return [b[0] for b in _blocks(text)]
    except PuzzleError:
        return [m[1] for m in map(_HEAD.match, text.replace("\u00a0", " ").split("\n")) if m]


def sniff(text: str) -> bool:
    head = text[:20000].replace("\u00a0", " ")
    lines = head.split("\n")
    if any(_HEAD.match(s) for s in lines):
        return True
    rows = [_clean(s) for s in lines[:40]]
    rows = [s for s in rows if s]
    return bool(rows) and all(";" in s and all(_BARE_CELL.match(c) for c in s.split(";"))
                              for s in rows)


def _row(ln: int, s: str) -> list[Square]:
    row: list[Square] = []
    for c, cell in enumerate(s.split(";")):
        t = " ".join(cell.split())
        if t == "x":
            row.append(BLANK)
        elif t == "_":
            row.append(WHITE)
        else:
            m = _CLUE.match(t)
            if not m:
                raise PuzzleError(
                    f"square {c + 1} {t!r} is not 'x' (inactive), '_' (blank) or a clue "
                    "'V H' (down and across sums, 0 = none)",
                    line=ln,
                )
            down = parse_int(m[1], "down clue", ln) or None
            across = parse_int(m[2], "across clue", ln) or None
            row.append(Square(False, down, across) if (down or across) else BLANK)
    return row


def read(text: str, *, name: str | None = None) -> Puzzle:
    blocks = _blocks(text)
    if blocks:
        found = [b[0] for b in blocks]
        if name is None:
            if len(blocks) > 1:
                raise PuzzleError(
                    f"the file holds {len(blocks)} puzzles ({', '.join(found)}); "
                    "choose one with --name",
                    line=blocks[0][1],
                )
            chosen = blocks[0]
        else:
            hits = [b for b in blocks if b[0] == name]
            if not hits:
                raise PuzzleError(
                    f"no puzzle named {name!r} here; the file holds {', '.join(found)}", line=1
                )
            chosen = hits[-1]  # a later J definition overrides an earlier one
        pname, head_line, body = chosen
        if not body:
            raise PuzzleError(f"block {pname!r} has no grid rows", line=head_line)
    else:
        pname = name
        body = [(ln, s) for ln, raw in enumerate(text.split("\n"), start=1) if (s := _clean(raw))]
        if not body:
            raise PuzzleError("no grid rows found", line=1)
    rows = [tuple(_row(ln, s)) for ln, s in body]
    return Puzzle(
        tuple(rows), name=pname, row_lines=tuple(ln for ln, _ in body)
    ).validate()


FORMAT = Format(
    name="j",
    description="J boxed rows: x ; _ ; 'V H' clues (0 = none), k1=: ... ) blocks",
    extensions=(".j", ".ijs"),
    sniff=sniff,
    read=read,
    names=names,
)
