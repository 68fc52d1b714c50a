"""Solving records: the order in which a person wrote digits and pencil marks into a grid.

The notation is janko.at's ``moves`` (its test-solvers' recorded solves, kept in the
``moves`` property of a page's ``application/x-janko`` data), read and written here; the
play page saves a player's own solve in the same notation, with the time of each move
(deducer's ``@`` extension). The full description with the figures found in the janko.at
data is docs/formats.md, "Solving records". In short, ``;``-separated tokens::

    Z2;hg,1;gg,-,,13;gg,3;ic,-;Q0;...

- ``Z1`` / ``Z2`` (an upper-case letter and digits, no comma): a control token. The first
  one is the record's header (every janko record starts with ``Z1`` or ``Z2``); one later
  in a record is a :data:`CONTROL` move. janko.at does not say what they mean; they are
  kept as they are.
- ``CELL,V`` or ``CELL,V,,MARKS``: the cell's state after the move. ``V`` is its digit
  (``1``-``9``) or ``-`` (janko also writes an empty ``V``) for none; ``MARKS`` its pencil
  marks, all of them (a later token replaces them, it does not toggle). A digit is a
  :data:`DIGIT` move (its marks, when written, stay under the digit), marks without a
  digit a :data:`PENCIL` move, neither an :data:`ERASE`.
- ``CELL`` names column then row, 0-based over the whole grid (the clue row and column
  are 0): two letters ``a``-``z`` when both are below 26 (``hg``: column 7, row 6), else
  four digits, two each (``2819``: column 28, row 19); deducer's writer uses six digits,
  three each, for a coordinate of 100 or more (janko.at has no grid that large).
- deducer's extension: ``@MS`` after a move, the milliseconds since the record began
  (``hg,1@1520``); never in a janko record, so a plain record reads as before.

:func:`parse` reads a record, :func:`write` writes one (``write(parse(s)) == s`` for every
janko record: the header, the empty ``V`` and the marks are kept as written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..errors import DeducerError, printable

Coord = tuple[int, int]

DIGIT = "digit"
PENCIL = "pencil"
ERASE = "erase"
CONTROL = "control"
KINDS = (DIGIT, PENCIL, ERASE, CONTROL)

#: a record is at most this long (the longest janko record is 7,591 characters)
MAX_CHARS = 4 * 1024 * 1024
#: a coordinate is below this (a grid is at most 200 squares a side: deducer.puzzle.model)
MAX_COORD = 200
#: a time is at most this many milliseconds (about 115 days)
MAX_MS = 10**10 - 1

_CONTROL = re.compile(r"[A-Z][0-9]{0,6}")
_LETTERS = re.compile(r"[a-z]{2}")
_DIGITS = re.compile(r"[0-9]{4}|[0-9]{6}")
_MARKS = re.compile(r"[0-9A-Za-z]+")
_TIME = re.compile(r"[0-9]{1,10}")


class RecordError(DeducerError):
    """A solving record that does not follow the notation (one line: where and what)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded move: the state a cell was left in, or a control token."""

    kind: str  # DIGIT, PENCIL, ERASE or CONTROL
    cell: Coord | None = None  # 0-based (row, col) over the whole grid; None for CONTROL
    digit: int | None = None  # DIGIT: the digit written
    #: the cell's pencil marks after the move, as written (digits 1-9; janko has two
    #: stray letters): all of them, a later move replaces them
    marks: str = ""
    text: str = ""  # CONTROL: the token, e.g. "Q0"
    ms: int | None = None  # milliseconds since the record began (deducer's extension)
    #: how "no digit" was written: "-" (deducer and nearly all of janko) or "" (19 janko
    #: tokens); kept so that a janko record is written back as it was
    blank: str = field(default="-", compare=False)

    @property
    def candidates(self) -> tuple[int, ...]:
        """The pencil marks that are digits 1-9, in the order written."""
        return tuple(int(ch) for ch in self.marks if "1" <= ch <= "9")


@dataclass(frozen=True, slots=True)
class Record:
    """A solving record: an optional header token (janko: ``Z1``/``Z2``) and the moves."""

    moves: tuple[Move, ...]
    header: str | None = None


# ---- cell names -----------------------------------------------------------------------------
def cell_token(cell: Coord) -> str:
    """The record's name of a cell: column then row (``(6, 7)`` is ``hg``)."""
    r, c = cell
    if not (0 <= r < MAX_COORD and 0 <= c < MAX_COORD):
        raise RecordError(f"cell {cell} is outside every grid (0..{MAX_COORD - 1})")
    if r < 26 and c < 26:
        return chr(97 + c) + chr(97 + r)
    if r < 100 and c < 100:
        return f"{c:02d}{r:02d}"
    return f"{c:03d}{r:03d}"


def parse_cell(name: str) -> Coord:
    """``(row, col)`` of a record's cell name (``hg`` is ``(6, 7)``, ``2819`` ``(19, 28)``)."""
    if _LETTERS.fullmatch(name):
        return ord(name[1]) - 97, ord(name[0]) - 97
    if _DIGITS.fullmatch(name):
        h = len(name) // 2
        r, c = int(name[h:]), int(name[:h])
        if r >= MAX_COORD or c >= MAX_COORD:
            raise RecordError(f"cell {name!r} is outside every grid (coordinates up to "
                              f"{MAX_COORD - 1})")
        return r, c
    raise RecordError(f"{printable(repr(name))} is not a cell name (two letters a-z, or "
                      "four digits: column then row)")


# ---- reading --------------------------------------------------------------------------------
def _move(token: str) -> Move:
    """One token (time already taken off); raises RecordError without a position."""
    if "," not in token:
        if _CONTROL.fullmatch(token):
            return Move(CONTROL, text=token)
        raise RecordError("expected 'CELL,DIGIT', 'CELL,-,,MARKS' or a control token "
                          "like 'Z1'")
    parts = token.split(",")
    if len(parts) not in (2, 4):
        raise RecordError(f"a move has 2 or 4 comma-separated fields, not {len(parts)}")
    cell = parse_cell(parts[0])
    value = parts[1]
    marks = ""
    if len(parts) == 4:
        if parts[2]:
            raise RecordError(f"the third field is always empty, not "
                              f"{printable(repr(parts[2]))}")
        marks = parts[3]
        if not _MARKS.fullmatch(marks):
            raise RecordError("pencil marks are digits (a stray letter is kept), not "
                              f"{printable(repr(marks))}")
        if len(marks) > 36:
            raise RecordError(f"{len(marks)} pencil marks in one cell")
    if len(value) == 1 and "1" <= value <= "9":
        return Move(DIGIT, cell, int(value), marks)
    if value == "-" or (value == "" and marks):
        return Move(PENCIL if marks else ERASE, cell, None, marks, blank=value)
    raise RecordError(f"a cell's value is a digit 1-9 or '-', not {printable(repr(value))}")


def parse(text: str, *, path: str | None = None, line: int | None = None) -> Record:
    """Read a solving record; bad input raises one :class:`RecordError` naming the move
    (1-based, the header counted) and its first character (0-based offset in ``text``).

    Whitespace between tokens is ignored (an x-janko file may break ``moves`` over lines);
    the last ``;`` is optional."""
    if not isinstance(text, str):
        raise RecordError("a solving record is text", path=path, line=line)
    if len(text) > MAX_CHARS:
        raise RecordError(f"a solving record is at most {MAX_CHARS} characters, not "
                          f"{len(text)}", path=path, line=line)
    moves: list[Move] = []
    header: str | None = None
    last_ms = -1
    pos = 0
    tokens = text.split(";")
    for k, raw in enumerate(tokens, start=1):
        start = pos + len(raw) - len(raw.lstrip())
        pos += len(raw) + 1
        token = raw.strip()
        if not token:
            if k == len(tokens):
                break  # the record's closing ';'
            raise RecordError(f"move {k} (offset {start}): empty move (two ';' in a row)",
                              path=path, line=line)
        try:
            ms = None
            if "@" in token:
                token, _, when = token.partition("@")
                if not _TIME.fullmatch(when):
                    raise RecordError("a time is '@' and whole milliseconds, not "
                                      f"{printable(repr('@' + when))}")
                ms = int(when)
                if ms < last_ms:
                    raise RecordError(f"time {ms} ms is before the move before it "
                                      f"({last_ms} ms)")
                last_ms = ms
            mv = _move(token)
        except RecordError as e:
            whole = raw.strip()
            shown = printable(whole if len(whole) <= 40 else whole[:40] + "…")
            raise RecordError(f"move {k} (offset {start}) '{shown}': {e.message}",
                              path=path, line=line) from None
        if mv.kind == CONTROL and k == 1 and ms is None:
            header = mv.text
            continue
        if ms is not None:
            mv = Move(mv.kind, mv.cell, mv.digit, mv.marks, mv.text, ms, mv.blank)
        moves.append(mv)
    return Record(tuple(moves), header)


# ---- writing --------------------------------------------------------------------------------
def move_token(move: Move) -> str:
    """One move as the record writes it (with ``@MS`` when it has a time)."""
    if move.kind == CONTROL:
        if not _CONTROL.fullmatch(move.text):
            raise RecordError(f"a control token is an upper-case letter and digits, not "
                              f"{printable(repr(move.text))}")
        out = move.text
    elif move.kind in (DIGIT, PENCIL, ERASE):
        if move.cell is None:
            raise RecordError(f"a {move.kind} move needs a cell")
        if move.marks and not _MARKS.fullmatch(move.marks):
            raise RecordError(f"pencil marks {printable(repr(move.marks))} are not digits")
        if move.kind == DIGIT:
            if move.digit is None or not 1 <= move.digit <= 9:
                raise RecordError(f"a digit move writes 1-9, not {move.digit!r}")
            value = str(move.digit)
        else:
            if (move.kind == PENCIL) != bool(move.marks):
                raise RecordError("a pencil move has marks, an erase none")
            value = move.blank if move.blank in ("-", "") and move.marks else "-"
        out = cell_token(move.cell) + "," + value + (",," + move.marks if move.marks else "")
    else:
        raise RecordError(f"unknown move kind {move.kind!r} (one of {', '.join(KINDS)})")
    if move.ms is not None:
        if not 0 <= move.ms <= MAX_MS:
            raise RecordError(f"a move's time is 0..{MAX_MS} ms, not {move.ms}")
        out += f"@{move.ms}"
    return out


def write(record: Record | Iterable[Move], header: str | None = None) -> str:
    """The record as one line of ``;``-terminated tokens (janko writes a ``;`` after the
    last one too). ``header`` (or the record's own) goes first."""
    if isinstance(record, Record):
        moves, header = record.moves, header if header is not None else record.header
    else:
        moves = tuple(record)
    out = []
    if header is not None:
        if not _CONTROL.fullmatch(header):
            raise RecordError(f"a header is a control token like 'Z1', not "
                              f"{printable(repr(header))}")
        out.append(header)
    last = -1
    for mv in moves:
        if mv.ms is not None:
            if mv.ms < last:
                raise RecordError(f"time {mv.ms} ms is before the move before it ({last} ms)")
            last = mv.ms
        out.append(move_token(mv))
    return "".join(t + ";" for t in out)


# ---- what a record says about a solve -------------------------------------------------------
def final_digits(record: Record) -> dict[Coord, int]:
    """Each cell's digit at the end of the record (cells left empty are absent)."""
    out: dict[Coord, int] = {}
    for mv in record.moves:
        if mv.cell is None:
            continue
        if mv.kind == DIGIT and mv.digit is not None:
            out[mv.cell] = mv.digit
        else:
            out.pop(mv.cell, None)
    return out


def entry_order(record: Record, solution: Mapping[Coord, int]) -> dict[Coord, int]:
    """For each cell of ``solution`` that ends holding its digit: the index (0-based, in
    ``record.moves``) of the move from which it held it for good; a wrong digit written
    over later, or an erased one, counts from the move that put the right one back."""
    since: dict[Coord, int] = {}
    for k, mv in enumerate(record.moves):
        cell = mv.cell
        if cell is None or cell not in solution:
            continue
        right = mv.kind == DIGIT and mv.digit == solution[cell]
        if not right:
            since.pop(cell, None)
        elif cell not in since:
            since[cell] = k
    return since


def marked_cells(record: Record) -> set[Coord]:
    """The cells that held a pencil mark at some point (a digit written over marks may
    carry them: janko's recorder sometimes writes marks first with the digit)."""
    return {mv.cell for mv in record.moves if mv.cell is not None and mv.candidates}
