"""The pipe text format: ``|``-separated squares, one grid row per line.

``\\`` blank, ``12\\16`` clue (down\\across), ``\\12`` / ``12\\`` one clue, empty or spaces an
input cell, ``7`` an entry, ``(1,2,4)`` pencil marks, ``7(1,2,4)`` both (the entry keeps its
marks underneath). ``#`` starts a comment line. A given (a digit fixed by the puzzle) is
written ``!7``, so that entries stay the player's.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..combos import DIGITS, mask_of
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format, parse_int

_CELL = re.compile(r"^(?P<given>!)?(?P<digit>[1-9])?(?:\((?P<marks>[^)]*)\))?$")


def sniff(text: str) -> bool:
    lines = [ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(lines) and all("|" in ln for ln in lines[:3])


def read(text: str, *, name: str | None = None) -> Puzzle:
    rows: list[list[Square]] = []
    row_lines: list[int] = []
    givens: dict = {}
    entries: dict = {}
    pencil: dict = {}
    for ln, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        r = len(rows)
        row: list[Square] = []
        for c, tok in enumerate(raw.split("|")):
            t = tok.strip().replace("\u00a0", "")
            if "\\" in t:
                down_s, _, across_s = t.partition("\\")
                if "\\" in across_s:
                    raise PuzzleError(f"square {c + 1} {t!r} has two backslashes", line=ln)
                down = parse_int(down_s, "down clue", ln, lo=1) if down_s.strip() else None
                across = parse_int(across_s, "across clue", ln, lo=1) if across_s.strip() else None
                row.append(Square(False, down, across) if (down or across) else BLANK)
                continue
            m = _CELL.match(t.replace(" ", ""))
            if not m:
                raise PuzzleError(
                    f"square {c + 1} {t!r} is not a clue (d\\a), a blank (\\), a digit or "
                    "pencil marks like (1,2,4)",
                    line=ln,
                )
            row.append(WHITE)
            if m["digit"]:
                (givens if m["given"] else entries)[(r, c)] = int(m["digit"])
            elif m["given"]:
                raise PuzzleError(f"square {c + 1}: '!' must be followed by a digit", line=ln)
            if m["marks"] is not None:
                marks = [x.strip() for x in m["marks"].split(",") if x.strip()]
                ds = []
                for x in marks:
                    if not (len(x) == 1 and x in "123456789"):
                        raise PuzzleError(f"square {c + 1}: pencil mark {x!r} is not 1-9", line=ln)
                    ds.append(int(x))
                pencil[(r, c)] = mask_of(ds)
        rows.append(row)
        row_lines.append(ln)
    if not rows:
        raise PuzzleError("no grid rows found", line=1)
    return Puzzle(
        tuple(tuple(r) for r in rows),
        givens=givens,
        entries=entries,
        pencil=pencil,
        name=name,
        row_lines=tuple(row_lines),
    ).validate()


def write(p: Puzzle) -> str:
    out = []
    for r, row in enumerate(p.squares):
        toks = []
        for c, sq in enumerate(row):
            if not sq.white:
                toks.append(f"{sq.down or ''}\\{sq.across or ''}" if sq.is_clue else "\\")
                continue
            t = ""
            if (r, c) in p.givens:
                t = f"!{p.givens[(r, c)]}"
            elif (r, c) in p.entries:
                t = str(p.entries[(r, c)])
            if p.pencil.get((r, c)):
                t += "(" + ",".join(map(str, DIGITS[p.pencil[(r, c)]])) + ")"
            toks.append(t)
        line = "|".join(toks)
        if not line.strip():  # a one-column row with an empty cell: read back as a blank line
            raise PuzzleError(f"row {r + 1} is a single empty cell, which the | format cannot "
                              "write (a blank line is skipped); use --to json")
        out.append(line)
    head: list[str] = []
    if p.even is not None:
        raise PuzzleError("the | format cannot hold parity marks; use --to json")
    return "\n".join(head + out) + "\n"


FORMAT = Format(
    name="pipe",
    description="pipe text: |-separated squares, d\\a clues, entries and (1,2,4) pencil marks",
    extensions=(".txt", ".pipe", ".kak2"),
    sniff=sniff,
    read=read,
    write=write,
    comment="#",
)
