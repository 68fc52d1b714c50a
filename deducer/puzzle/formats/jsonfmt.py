"""Our own lossless JSON format (reader and writer).

```json
{
  "format": "deducer",
  "version": 1,
  "name": "k2",
  "rows": 3,
  "cols": 3,
  "grid": [
    ["\\\\", "5\\\\", "16\\\\"],
    ["\\\\", "", ""],
    ["\\\\12", "", ""]
  ],
  "givens": [[2, 1, 3]],
  "entries": [[1, 1, 2]],
  "pencil": [[1, 2, [7, 9]]],
  "even": null
}
```

``grid`` holds one list of strings per grid row: ``""`` a white cell, ``"\\\\"`` a blank
black square, ``"D\\\\A"`` a clue square (down sum before the backslash, across sum after,
either may be left out). Coordinates are 0-based ``[row, col]`` over the whole grid.
``givens`` / ``entries`` are ``[row, col, digit]``, ``pencil`` is ``[row, col, [digits]]``,
``even`` is ``null`` (not a parity puzzle) or the list of even cells ``[row, col]`` (every
other white cell is odd). Only ``format``, ``version`` and ``grid`` are required.

Other JSON (such as the kakuros.com ``{"board": ...}`` export) is not this format: that one is
read by the ``solved`` format.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ..combos import DIGITS, mask_of
from ..model import BLANK, WHITE, Grade, Puzzle, Square
from . import Format, json_problem

VERSION = 1
_KNOWN_KEYS = {
    "format", "version", "name", "rows", "cols", "grid", "givens", "entries", "pencil", "even",
    "comment", "rating",
}
_SNIFF = re.compile(r'"format"\s*:\s*"deducer"')


def sniff(text: str) -> bool:
    return text.lstrip().startswith("{") and _SNIFF.search(text[:65536]) is not None


# ---- line numbers of JSON values ----------------------------------------------------------
def item_lines(text: str) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Where things are in a JSON object text, for error messages.

    Returns ``(key_line, element_lines)``: the 1-based line of every top-level key, and for
    every top-level key whose value is an array, the line where each of its elements starts.
    A tiny scanner (strings and nesting only); it never fails, it just knows less on bad text.
    """
    key_line: dict[str, int] = {}
    elems: dict[str, list[int]] = {}
    depth = 0
    line = 1
    i = 0
    n = len(text)
    current: str | None = None  # top-level key whose value is being scanned
    expect_elem = False  # at depth 2 inside an array: next non-space char starts an element
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    line += 1
                j += 1
            s = text[i + 1 : j]
            if depth == 1:
                k = j + 1
                while k < n and text[k] in " \t\r\n":
                    k += 1
                if k < n and text[k] == ":":
                    current = s
                    key_line.setdefault(s, line)
            elif depth == 2 and expect_elem and current is not None:
                elems.setdefault(current, []).append(line)
                expect_elem = False
            i = j
        elif ch in "[{":
            if depth == 2 and expect_elem and current is not None:
                elems.setdefault(current, []).append(line)
                expect_elem = False
            depth += 1
            if depth == 2 and ch == "[" and current is not None:
                elems.setdefault(current, [])
                expect_elem = True
        elif ch in "]}":
            depth -= 1
            if depth <= 1:
                expect_elem = False
        elif ch == ",":
            if depth == 2:
                expect_elem = True
        elif depth == 2 and expect_elem and current is not None and not ch.isspace():
            elems.setdefault(current, []).append(line)
            expect_elem = False
        i += 1
    return key_line, elems


class _Plain:
    """What the C scanner reads from a ``json.JSONDecoder()``: the defaults of json.loads."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                      "NaN": float("nan")}.__getitem__


_NOT_PLAIN = object()
_SPACE = " \t\n\r"  # what JSON calls white space


def _scan(text: str):
    """``json.loads(text)`` of a valid JSON text through the C scanner json.loads itself
    runs, without importing json: its four modules and six regular expressions were 1.5 ms,
    a sixth of a small puzzle's import + first solve (issue 40). ``_NOT_PLAIN`` for anything
    else (invalid JSON, a byte-order mark, no C scanner here): json.loads then decides."""
    try:
        from _json import make_scanner
    except ImportError:
        return _NOT_PLAIN
    if text.startswith("\ufeff"):
        return _NOT_PLAIN  # json.loads refuses it, in its own words
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = make_scanner(_Plain)(text, start)  # type: ignore[arg-type]  # duck typed
    except Exception:  # noqa: BLE001 - StopIteration, JSONDecodeError, RecursionError...
        return _NOT_PLAIN
    if text[end:].strip(_SPACE):
        return _NOT_PLAIN  # extra data after the value
    return value


def load_json(text: str):
    """``json.loads`` with located errors (and no escaping exceptions)."""
    value = _scan(text)
    if value is not _NOT_PLAIN:
        return value
    import json  # here, as in the other JSON functions: every command's start-up reads
    # this module (format detection), few of them read or write JSON
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleError(f"bad JSON: {e.msg}", line=e.lineno) from None
    except (ValueError, RecursionError) as e:
        raise PuzzleError(f"bad JSON: {json_problem(e)}", line=1) from None


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---- reader ---------------------------------------------------------------------------------
def _square(tok, ln: int, c: int) -> Square:
    if not isinstance(tok, str):
        import json  # for the message only: reading valid JSON needs no json module

        raise PuzzleError(f"grid square {c + 1} is {json.dumps(tok)}, not a string", line=ln)
    t = tok.strip()
    if t == "" or t == "_":
        return WHITE
    if "\\" not in t:
        raise PuzzleError(
            f"grid square {c + 1} {t!r} is not a white cell (\"\"), a blank (\"\\\\\") or a "
            "clue (\"D\\\\A\")",
            line=ln,
        )
    down_s, _, across_s = t.partition("\\")
    vals: list[int | None] = []
    for s, word in ((down_s, "down"), (across_s, "across")):
        s = s.strip()
        if not s:
            vals.append(None)
            continue
        if not s.isascii() or not s.isdigit() or len(s) > 3 or not 1 <= int(s) <= 45:
            raise PuzzleError(
                f"grid square {c + 1}: {word} clue {s!r} is not a whole number 1..45", line=ln
            )
        vals.append(int(s))
    down, across = vals
    return Square(False, down, across) if (down or across) else BLANK


def read(text: str, *, name: str | None = None) -> Puzzle:
    data = load_json(text)
    if not isinstance(data, dict):
        raise PuzzleError("the JSON text is not an object", line=1)
    key_line, elems = item_lines(text)

    def kl(key: str) -> int:
        return key_line.get(key, 1)

    if data.get("format") != "deducer":
        raise PuzzleError('not a deducer puzzle: "format" must be "deducer"', line=kl("format"))
    version = data.get("version", VERSION)
    if not _is_int(version) or version > VERSION or version < 1:
        raise PuzzleError(
            f"JSON version {version!r} is not supported (this reader knows version {VERSION})",
            line=kl("version"),
        )
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise PuzzleError(f"unknown key {unknown[0]!r} in the puzzle JSON", line=kl(unknown[0]))
    grid = data.get("grid")
    if not isinstance(grid, list) or not grid:
        raise PuzzleError('"grid" must be a non-empty list of rows', line=kl("grid"))
    glines = elems.get("grid", [])

    def gl(r: int) -> int:
        return glines[r] if r < len(glines) else kl("grid")

    rows: list[tuple[Square, ...]] = []
    for r, row in enumerate(grid):
        if not isinstance(row, list):
            raise PuzzleError(f"grid row {r + 1} is not a list of squares", line=gl(r))
        rows.append(tuple(_square(tok, gl(r), c) for c, tok in enumerate(row)))
    nrows, ncols = len(rows), len(rows[0])
    for key, actual in (("rows", nrows), ("cols", ncols)):
        if key in data and data[key] != actual:
            raise PuzzleError(
                f'"{key}" says {data[key]!r} but the grid has {actual}', line=kl(key)
            )

    tables, pencil, even = _cell_lists(data, key_line, elems, rows)
    pname = data.get("name")
    if pname is not None and not isinstance(pname, str):
        raise PuzzleError('"name" must be a string or null', line=kl("name"))
    grade = _grade(data.get("rating"), kl("rating"))
    return Puzzle(
        tuple(rows),
        givens=tables["givens"],
        entries=tables["entries"],
        pencil=pencil,
        even=even,
        name=pname if pname is not None else name,
        row_lines=tuple(gl(r) for r in range(nrows)),
        grade=grade,
    ).validate()


def _cell_lists(data: dict, key_line: dict[str, int], elems: dict[str, list[int]],
                rows: list[tuple[Square, ...]]):
    """The puzzle object's cell lists, each item checked against the grid: the givens
    and entries (as ``tables``), the pencil marks (coord -> mask) and the even cells."""
    nrows, ncols = len(rows), len(rows[0])

    def kl(key: str) -> int:
        return key_line.get(key, 1)

    def coord(item, key: str, idx: int, extra: int):
        ln = elems.get(key, [])
        line = ln[idx] if idx < len(ln) else kl(key)
        if not isinstance(item, list) or len(item) != 2 + extra:
            shape = "[row, col]" + (", value" if extra else "")
            raise PuzzleError(f'"{key}" item {idx + 1} is not [{shape.strip("[]")}]', line=line)
        r, c = item[0], item[1]
        if not (_is_int(r) and _is_int(c) and 0 <= r < nrows and 0 <= c < len(rows[r])):
            raise PuzzleError(
                f'"{key}" item {idx + 1}: [{r!r}, {c!r}] is not a square of the '
                f"{nrows}x{ncols} grid",
                line=line,
            )
        if not rows[r][c].white:
            raise PuzzleError(
                f'"{key}" item {idx + 1}: r{r + 1}c{c + 1} is not a white cell', line=line
            )
        return (r, c), line

    def listed(key: str) -> list:
        v = data.get(key)
        if v is None:
            return []
        if not isinstance(v, list):
            raise PuzzleError(f'"{key}" must be a list', line=kl(key))
        return v

    tables: dict[str, dict] = {}
    for key in ("givens", "entries"):
        table: dict = {}
        for i, item in enumerate(listed(key)):
            rc, line = coord(item, key, i, 1)
            d = item[2]
            if not _is_int(d) or not 1 <= d <= 9:
                raise PuzzleError(f'"{key}" item {i + 1}: {d!r} is not a digit 1-9', line=line)
            if rc in table:
                raise PuzzleError(f'"{key}" lists r{rc[0] + 1}c{rc[1] + 1} twice', line=line)
            table[rc] = d
        tables[key] = table
    pencil: dict = {}
    for i, item in enumerate(listed("pencil")):
        rc, line = coord(item, "pencil", i, 1)
        ds = item[2]
        if not isinstance(ds, list) or not all(_is_int(d) and 1 <= d <= 9 for d in ds):
            raise PuzzleError(f'"pencil" item {i + 1}: marks must be a list of digits 1-9',
                              line=line)
        if rc in pencil:
            raise PuzzleError(f'"pencil" lists r{rc[0] + 1}c{rc[1] + 1} twice', line=line)
        pencil[rc] = mask_of(ds)
    even = None
    if data.get("even") is not None:
        even_set = set()
        for i, item in enumerate(listed("even")):
            rc, _ = coord(item, "even", i, 0)
            even_set.add(rc)
        even = frozenset(even_set)
    return tables, pencil, even


def _grade(value, line: int) -> Grade | None:
    """``"rating": {"level": "Hard", "score": 4.2, "rater": "7"}`` (null or absent: none)."""
    if value is None:
        return None
    ok = (isinstance(value, dict) and set(value) == {"level", "score", "rater"}
          and isinstance(value["level"], str) and isinstance(value["rater"], str)
          and isinstance(value["score"], int | float) and not isinstance(value["score"], bool))
    grade = Grade.parse(f"{value['level']}, score {value['score']}, rater {value['rater']}") \
        if ok else None
    if grade is None:
        raise PuzzleError('"rating" must be {"level": NAME, "score": NUMBER, "rater": '
                          'VERSION} or null', line=line)
    return grade


# ---- writer ---------------------------------------------------------------------------------
def _tok(sq: Square) -> str:
    if sq.white:
        return ""
    return f"{sq.down or ''}\\{sq.across or ''}"


def write(p: Puzzle) -> str:
    import json

    def items(key: str, values: list) -> str:
        if not values:
            return f'  "{key}": []'
        body = ",\n".join("    " + json.dumps(v) for v in values)
        return f'  "{key}": [\n{body}\n  ]'

    parts = [
        '  "format": "deducer"',
        f'  "version": {VERSION}',
        f'  "name": {json.dumps(p.name)}',
        f'  "rows": {p.rows}',
        f'  "cols": {p.cols}',
        '  "grid": [\n'
        + ",\n".join("    " + json.dumps([_tok(sq) for sq in row]) for row in p.squares)
        + "\n  ]",
        items("givens", [[r, c, d] for (r, c), d in sorted(p.givens.items())]),
        items("entries", [[r, c, d] for (r, c), d in sorted(p.entries.items())]),
        items("pencil", [[r, c, list(DIGITS[m])] for (r, c), m in sorted(p.pencil.items())]),
        '  "even": null' if p.even is None else items("even", [list(rc) for rc in sorted(p.even)]),
    ]
    if p.grade is not None:
        g = {"level": p.grade.level, "score": p.grade.score, "rater": p.grade.rater}
        parts.append(f'  "rating": {json.dumps(g)}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


FORMAT = Format(
    name="json",
    description='deducer JSON (lossless): {"format": "deducer", "grid": [...], "givens": ...}',
    extensions=(".json",),
    sniff=sniff,
    read=read,
    write=write,
)
