"""puzz.link / pzv.jp Kakuro URLs (pzprjs encoding), reader and writer; pzprv3 files (read).

URL: ``https://puzz.link/p?kakuro/COLS/ROWS/BODY`` (also ``pzv.jp/p.html?kakuro/...`` or just
``kakuro/COLS/ROWS/BODY``). COLS x ROWS is the playing area; the clue row and column in
front of it are implicit, so the puzzle grid is (ROWS+1) x (COLS+1). BODY walks the playing
area row by row: ``k``..``z`` skip 1..16 white cells, ``.`` a black square without clues, any
other character starts a clue square and is followed by one more: the first codes the down
sum, the second the across sum, each ``0``-``9``/``a``-``j`` = 0-19 (base 36), ``A``-``Z`` =
20-45, and ``0`` or ``-`` = no clue. Then come the border clues: one character (down sum)
for every column whose top cell is white, then one (across sum) for every row whose leftmost
cell is white.

A position (the player's entries and pencil marks) may follow the URL after ``#``: deducer's
own addition, ``#e=ENTRIES&m=MARKS`` (either part may be left out), which the play page's
link writes and every command reads. Both walk the white cells row by row, left to right.
ENTRIES: ``1``-``9`` the next cell holds that digit, ``a``-``z`` skip 1-26 empty cells.
MARKS: ``A``-``Z`` skip 1-26 cells without marks, else two characters ``0``-``9``/``a``-``v``
(base 32) give the next cell's marks as a 9-bit number (bit 0 = digit 1, ``fv`` = all nine).
Cells after the last one written are empty. The writer adds it only when the puzzle has
entries or pencil marks.

A text may hold several URLs, one per line (e.g. the corpus TSV): each is named by the first
tab- or space-separated field before it on its line (else by its 1-based position); pick one
with ``name=``. Lines starting with ``#`` are comments.

pzprv3 (pzprjs' save format: ``pzprv3/kakuro/ROWS/COLS/...``, records separated by ``/`` or
newlines): the top border record (down clues), one record per row (across clue, then ``.``
white or ``a,b`` = across, down), then the answer rows, read as the player's entries.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format, parse_int

# Only the ``kakuro/COLS/ROWS/BODY`` part is matched by the pattern: an optional address
# prefix ``[^\s?]*\?`` in the pattern made every search quadratic in the line length (a
# long line hung the reader); :func:`_url_start` finds where the address begins instead.
_URL = re.compile(r"kakuro/([0-9]+)/([0-9]+)/([0-9A-Za-z.\-]*)(?:#(\S*))?")
_URL_LINE = re.compile(r"(?:^|[\s?/])kakuro/[0-9]+/[0-9]+/")
MAX_SIDE = 200


def _value(ch: str, what: str, line: int) -> int | None:
    if ch in "-0":
        return None
    if "1" <= ch <= "9" or "a" <= ch <= "j":
        return int(ch, 36)
    if "A" <= ch <= "Z":
        return int(ch, 36) + 10
    raise PuzzleError(f"{what}: {ch!r} is not a sum character (0-9, a-j, A-Z, -)", line=line)


def _code(v: int | None) -> str:
    if v is None:
        return "-"
    if 1 <= v <= 19:
        return "0123456789abcdefghij"[v]
    if 20 <= v <= 45:
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v - 20]
    raise PuzzleError(f"sum {v} cannot be written in a puzz.link URL (1..45)")


# ---- finding the puzzles in a text --------------------------------------------------------
def _url_start(s: str, k: int) -> int:
    """Where the URL whose ``kakuro/`` is at ``k`` begins: after ``http…?`` if present."""
    if k == 0 or s[k - 1] != "?":
        return k
    j = k - 1
    while j and not s[j - 1].isspace() and s[j - 1] != "?":
        j -= 1
    return j


def _entries(text: str) -> list[tuple[str, int, re.Match]]:
    out: list[tuple[str, int, re.Match]] = []
    for ln, raw in enumerate(text.split("\n"), start=1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        m = _URL.search(s)
        if not m:
            continue
        before = s[: _url_start(s, m.start())].strip()
        label = re.split(r"[\t ]+", before)[0] if before else str(len(out) + 1)
        out.append((label, ln, m))
    return out


def names(text: str) -> list[str]:
    if text.lstrip().startswith("pzprv3"):
        return []
    found = _entries(text)
    return [label for label, _, _ in found] if len(found) > 1 else []


def sniff(text: str) -> bool:
    head = text.lstrip()[:2000]
    if re.match(r"pzprv3\s*[/\n]\s*kakuro\b", head):
        return True
    lines = [s.strip() for s in head.split("\n") if s.strip() and not s.strip().startswith("#")]
    return bool(lines) and any(_URL_LINE.search(s) for s in lines[:3])


# ---- URL reader ---------------------------------------------------------------------------
def _decode(m: re.Match, line: int, name: str | None) -> Puzzle:
    cols = parse_int(m[1], "URL column count", line, lo=1, hi=MAX_SIDE)
    rows = parse_int(m[2], "URL row count", line, lo=1, hi=MAX_SIDE)
    body = m[3]
    # playing area: None = white, else (down, across) of a black square
    cells: list[tuple[int | None, int | None] | None] = []
    total = rows * cols
    i = 0
    while len(cells) < total:
        if i >= len(body):
            raise PuzzleError(
                f"the URL ends after {len(cells)} of the {total} cells of a {cols}x{rows} grid",
                line=line,
            )
        ch = body[i]
        if "k" <= ch <= "z":
            k = int(ch, 36) - 19
            if len(cells) + k > total:
                raise PuzzleError(f"the URL skips past the end of the {cols}x{rows} grid",
                                  line=line)
            cells.extend([None] * k)
            i += 1
        elif ch == ".":
            cells.append((None, None))
            i += 1
        else:
            if i + 1 >= len(body):
                raise PuzzleError("the URL ends in the middle of a clue square", line=line)
            where = f"clue square {len(cells) + 1}"
            cells.append((_value(ch, where, line), _value(body[i + 1], where, line)))
            i += 2
    rest = body[i:]
    grid: list[list[Square]] = [[BLANK] * (cols + 1) for _ in range(rows + 1)]
    for k, cell in enumerate(cells):
        r, c = divmod(k, cols)
        grid[r + 1][c + 1] = WHITE if cell is None else (
            Square(False, cell[0], cell[1]) if cell != (None, None) else BLANK
        )
    j = 0
    border_down: dict[int, int | None] = {}
    border_across: dict[int, int | None] = {}
    for c in range(cols):
        if grid[1][c + 1].white:
            if j >= len(rest):
                raise PuzzleError(f"the URL lacks the border clue above column {c + 1}", line=line)
            border_down[c] = _value(rest[j], f"border clue above column {c + 1}", line)
            j += 1
    for r in range(rows):
        if grid[r + 1][1].white:
            if j >= len(rest):
                raise PuzzleError(f"the URL lacks the border clue left of row {r + 1}", line=line)
            border_across[r] = _value(rest[j], f"border clue left of row {r + 1}", line)
            j += 1
    if rest[j:]:
        raise PuzzleError(f"unexpected text {rest[j:]!r} after the border clues", line=line)
    for c, v in border_down.items():
        grid[0][c + 1] = Square(False, v, None) if v else BLANK
    for r, v in border_across.items():
        grid[r + 1][0] = Square(False, None, v) if v else BLANK
    p = Puzzle(tuple(tuple(row) for row in grid), name=name, row_lines=(line,) * (rows + 1))
    if m[4]:  # a bare '#' holds no position
        entries, pencil = _read_position(m[4], p.validate().whites, line)
        p = p.with_entries(entries, pencil)
    return p.validate()


# ---- the position after '#': entries and pencil marks (deducer's own) ----------------------
_B32 = "0123456789abcdefghijklmnopqrstuv"


def _read_position(fragment: str, whites, line: int) -> tuple[dict, dict]:
    """The entries and pencil marks of ``#e=...&m=...`` (see the module's docstring)."""
    entries: dict = {}
    pencil: dict = {}
    seen = set()
    for part in fragment.split("&"):
        key, eq, value = part.partition("=")
        if not eq or key not in ("e", "m"):
            shown = part if len(part) <= 20 else part[:20] + "…"
            raise PuzzleError(f"after '#' the URL has {shown!r}; deducer reads a position "
                              "there: e=ENTRIES and m=PENCIL MARKS, joined by '&'", line=line)
        if key in seen:
            raise PuzzleError(f"the position after '#' gives {key}= twice", line=line)
        seen.add(key)
        what = "entries" if key == "e" else "pencil marks"
        k = 0  # the next white cell
        i = 0
        while i < len(value):
            ch = value[i]
            if key == "e" and "a" <= ch <= "z" or key == "m" and "A" <= ch <= "Z":
                k += ord(ch.lower()) - 96
                i += 1
                continue
            if k >= len(whites):
                raise PuzzleError(f"the {what} after '#' go past the last of the "
                                  f"{len(whites)} white cells", line=line)
            if key == "e" and "1" <= ch <= "9":
                entries[whites[k]] = int(ch)
                i += 1
            elif key == "m" and ch in _B32 and i + 1 < len(value) and value[i + 1] in _B32:
                mask = _B32.index(ch) * 32 + _B32.index(value[i + 1])
                if not 0 < mask < 512:
                    raise PuzzleError(f"pencil marks {value[i:i + 2]!r} after '#' are not "
                                      "digits 1-9 (01 to fv)", line=line)
                pencil[whites[k]] = mask
                i += 2
            else:
                expected = ("a digit 1-9 or a skip a-z" if key == "e" else
                            "two characters 0-9/a-v or a skip A-Z")
                raise PuzzleError(f"the {what} after '#' have {value[i:i + 2]!r} at "
                                  f"{key}= character {i + 1}; expected {expected}", line=line)
            k += 1
        if k > len(whites):
            raise PuzzleError(f"the {what} after '#' skip past the last of the "
                              f"{len(whites)} white cells", line=line)
    return entries, pencil


def _skips(n: int, first: str) -> str:
    """``n`` cells skipped, as runs of ``first``..(26 cells)."""
    out = []
    while n > 0:
        k = min(n, 26)
        out.append(chr(ord(first) + k - 1))
        n -= k
    return "".join(out)


def write_position(p: Puzzle) -> str:
    """The ``#e=...&m=...`` of the player's entries and pencil marks ("" for none)."""
    parts = []
    for key, table in (("e", p.entries), ("m", p.pencil)):
        out, skip = [], 0
        for rc in p.whites:
            v = table.get(rc)
            if not v:
                skip += 1
                continue
            out.append(_skips(skip, "a" if key == "e" else "A"))
            skip = 0
            out.append(str(v) if key == "e" else _B32[v >> 5] + _B32[v & 31])
        if out:
            parts.append(f"{key}={''.join(out)}")
    return "#" + "&".join(parts) if parts else ""


# ---- pzprv3 reader ------------------------------------------------------------------------
def _num(t: str, what: str, line: int) -> int:
    """A pzprv3 clue number; ``0``, ``-1`` and ``-`` mean no clue."""
    return 0 if t in ("-", "-1") else parse_int(t, what, line)


def _read_pzprv3(text: str, name: str | None) -> Puzzle:
    lines = text.strip().split("\n")
    if len([s for s in lines if s.strip()]) <= 1:
        recs = [(1, s) for s in text.strip().split("/")]
    else:
        recs = [(ln, s) for ln, s in enumerate(text.split("\n"), start=1)]
    recs = [(ln, s.strip()) for ln, s in recs]
    recs = [(ln, s) for ln, s in recs if s]
    if len(recs) < 4 or recs[0][1] != "pzprv3" or recs[1][1] != "kakuro":
        raise PuzzleError("not a pzprv3 kakuro file (expected pzprv3, kakuro, rows, cols)",
                          line=recs[0][0] if recs else 1)
    rows = parse_int(recs[2][1], "row count", recs[2][0], lo=1, hi=MAX_SIDE)
    cols = parse_int(recs[3][1], "column count", recs[3][0], lo=1, hi=MAX_SIDE)
    if len(recs) < 5 + rows:
        raise PuzzleError(f"the file ends before its {rows} grid rows", line=recs[-1][0])
    grid: list[list[Square]] = []
    row_lines = []
    ln, top = recs[4]
    items = top.split()
    if len(items) != cols + 1:
        raise PuzzleError(f"border record has {len(items)} items, expected {cols + 1}", line=ln)
    grid.append([BLANK] + [
        Square(False, v, None) if (v := _num(t, "down clue", ln)) else BLANK
        for t in items[1:]
    ])
    row_lines.append(ln)
    for r in range(rows):
        ln, rec = recs[5 + r]
        items = rec.split()
        if len(items) != cols + 1:
            raise PuzzleError(f"grid row {r + 1} has {len(items)} items, expected {cols + 1}",
                              line=ln)
        a0 = _num(items[0], "across clue", ln)
        row = [Square(False, None, a0) if a0 else BLANK]
        for t in items[1:]:
            if t == ".":
                row.append(WHITE)
                continue
            a_s, sep, d_s = t.partition(",")
            if not sep:
                raise PuzzleError(f"{t!r} is not '.' (white) or 'across,down'", line=ln)
            a, d = _num(a_s, "across clue", ln), _num(d_s, "down clue", ln)
            row.append(Square(False, d or None, a or None) if (a or d) else BLANK)
        grid.append(row)
        row_lines.append(ln)
    entries = {}
    for r in range(rows):
        if 5 + rows + r >= len(recs):
            break
        ln, rec = recs[5 + rows + r]
        items = rec.split()
        for c, t in enumerate(items[:cols]):
            if t in "123456789" and len(t) == 1:
                if not grid[r + 1][c + 1].white:
                    raise PuzzleError(f"answer {t} in row {r + 1} is on a black square", line=ln)
                entries[(r + 1, c + 1)] = int(t)
            elif t not in (".", "0", "-"):
                raise PuzzleError(f"answer {t!r} in row {r + 1} is not a digit or '.'", line=ln)
    return Puzzle(
        tuple(tuple(row) for row in grid), entries=entries, name=name, row_lines=tuple(row_lines)
    ).validate()


def read(text: str, *, name: str | None = None) -> Puzzle:
    if text.lstrip().startswith("pzprv3"):
        return _read_pzprv3(text, name)
    found = _entries(text)
    if not found:
        raise PuzzleError("no puzz.link kakuro URL (…?kakuro/COLS/ROWS/…) found", line=1)
    if name is not None and len(found) > 1:
        hits = [e for e in found if e[0] == name]
        if not hits:
            raise PuzzleError(
                f"no URL named {name!r}; the file holds {', '.join(e[0] for e in found)}", line=1
            )
        label, ln, m = hits[0]
        return _decode(m, ln, label)
    if len(found) > 1:
        raise PuzzleError(
            f"the text holds {len(found)} URLs ({', '.join(e[0] for e in found)}); choose one "
            "by name",
            line=found[0][1],
        )
    label, ln, m = found[0]
    return _decode(m, ln, name)


# ---- writer -------------------------------------------------------------------------------
def write(p: Puzzle) -> str:
    """The puzz.link URL of the puzzle, with the player's entries and pencil marks after
    ``#`` (:func:`write_position`); givens and parity marks cannot be written."""
    if p.givens:
        raise PuzzleError("a puzz.link URL cannot hold givens; use --to json or pipe")
    if p.even is not None:
        raise PuzzleError("a puzz.link URL cannot hold parity marks; use --to json")
    sq = p.squares
    if sq[0][0].is_clue:
        raise PuzzleError("r1c1 carries a clue, but a puzz.link grid's corner cannot")
    for c in range(p.cols):
        if sq[0][c].white:
            raise PuzzleError(f"r1c{c + 1} is white; a puzz.link grid needs a black top row")
    for r in range(p.rows):
        if sq[r][0].white:
            raise PuzzleError(f"r{r + 1}c1 is white; a puzz.link grid needs a black left column")
    rows, cols = p.rows - 1, p.cols - 1
    if rows < 1 or cols < 1:
        raise PuzzleError("the puzzle has no playing area inside its clue row and column")
    out = []
    count = 0
    for r in range(1, p.rows):
        for c in range(1, p.cols):
            s = sq[r][c]
            if s.white:
                count += 1
                if count == 16:
                    out.append("z")
                    count = 0
                continue
            if count:
                out.append(chr(ord("k") + count - 1))
                count = 0
            out.append(_code(s.down) + _code(s.across) if s.is_clue else ".")
    if count:
        out.append(chr(ord("k") + count - 1))
    for c in range(1, p.cols):
        if sq[1][c].white:
            out.append(_code(sq[0][c].down))
    for r in range(1, p.rows):
        if sq[r][1].white:
            out.append(_code(sq[r][0].across))
    return f"https://puzz.link/p?kakuro/{cols}/{rows}/{''.join(out)}{write_position(p)}\n"


FORMAT = Format(
    name="puzzlink",
    description="puzz.link / pzv.jp kakuro URL (pzprjs encoding); pzprv3 files",
    extensions=(".url", ".txt", ".tsv", ".pzprv3"),
    sniff=sniff,
    read=read,
    write=write,
    comment="#",
    names=names,
)
