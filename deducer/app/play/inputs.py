"""Reading a request of the play page: its JSON body, its fields, the puzzle it carries
and the cell and digit it names; every fault is an :class:`ApiError` (status, message).

The puzzle travels between page and server as deducer's own JSON format (an object, see
:mod:`deducer.puzzle.formats.jsonfmt`), so it is re-validated on every call by the same
reader that reads files.
"""

from __future__ import annotations

import json

from flask import request

from ...errors import DeducerError, PuzzleError
from ...puzzle import formats, records
from ...puzzle.model import Puzzle, cell_name
from . import limits

#: the formats the page saves in, with the file name endings each takes
SAVE_FORMATS = {"pipe": (".txt", ".pipe"), "json": (".json",)}


class ApiError(Exception):
    """An error answered as ``{"error": message, **extra}`` with an HTTP status."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def _nesting(text: str) -> int:
    """How deeply JSON arrays/objects nest in ``text`` (brackets inside strings skipped);
    counted before parsing, since the parser itself recurses."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def body() -> dict:
    """The request's JSON object (415 unless sent as JSON, 400 when not an object)."""
    if not request.is_json:
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    text = request.get_data(as_text=True)
    if _nesting(text) > limits.MAX_NESTING:
        raise ApiError(400, "the request body nests JSON more than "
                            f"{limits.MAX_NESTING} levels deep")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if data is None:
        raise ApiError(400, "the request body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def check_format(name: str | None) -> None:
    """A format named in a request must be one deducer reads."""
    if name is not None and name not in formats.names():
        raise ApiError(400, f"unknown format {name!r}; known: {', '.join(formats.names())}")


_KIND_NAMES = {str: "a string", dict: "an object", list: "a list", bool: "true or false",
               int: "a whole number"}


def field(data: dict, key: str, kind, *, required: bool = True, default=None):
    """``data[key]`` checked to be of ``kind`` (a bool is no int); ``default`` when it is
    missing or null and not ``required``."""
    if key not in data or data[key] is None:
        if required:
            raise ApiError(400, f"missing field {key!r}")
        return default
    value = data[key]
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise ApiError(400, f"field {key!r} must be {_KIND_NAMES.get(kind, kind.__name__)}")
    return value


def puzzle(data: dict) -> Puzzle:
    """The puzzle a request carries (deducer JSON object), read by the JSON format reader."""
    obj = dict(field(data, "puzzle", dict))
    obj.setdefault("format", "deducer")
    obj.setdefault("version", 1)
    try:
        return formats.loads(json.dumps(obj), "json")
    except PuzzleError as e:
        raise ApiError(400, f"the puzzle is not valid: {e.message}") from None
    except (TypeError, ValueError) as e:
        raise ApiError(400, f"the puzzle is not valid: {e}") from None


def cell_field(data: dict, p: Puzzle) -> tuple[int, int]:
    """The white cell a request names as ``cell: [row, col]`` (0-based)."""
    cell = field(data, "cell", list)
    if len(cell) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell):
        raise ApiError(400, "field 'cell' must be [row, column]")
    rc = (cell[0], cell[1])
    if rc not in p.index:
        raise ApiError(400, f"{cell_name(rc)} is not a white cell")
    return rc


def digit_field(data: dict) -> int:
    """The digit a request names as ``digit`` (1-9)."""
    digit = field(data, "digit", int)
    if not 1 <= digit <= 9:
        raise ApiError(400, "field 'digit' must be 1-9")
    return digit


def save_format(data: dict) -> str:
    """The format a request saves or exports in (``pipe`` unless it says)."""
    fmt_ = field(data, "format", str, required=False, default="pipe")
    if fmt_ not in SAVE_FORMATS:
        raise ApiError(400, f"field 'format' must be one of {', '.join(sorted(SAVE_FORMATS))}")
    return fmt_


def check_tokens(grid: list[list[str]]) -> None:
    """The editor's squares, named by cell: '' white, '\\' blank, 'D\\A' a clue."""
    for r, row in enumerate(grid):
        for c, tok in enumerate(row):
            t = tok.strip()
            if not t:
                continue
            where = cell_name((r, c))
            if t.count("\\") != 1 or len(t) > 12:
                raise ApiError(422, f"{where}: {tok!r} is not a white square (''), a blank "
                                    "('\\') or a clue ('down\\across')", kind="invalid",
                               cells=[[r, c]])
            for part, word in zip(t.split("\\"), ("down", "across"), strict=True):
                if part and not (part.isascii() and part.isdigit() and 1 <= int(part) <= 45):
                    raise ApiError(422, f"{where}: the {word} sum {part!r} is not a whole "
                                        "number 1..45", kind="invalid", cells=[[r, c]])


def check_record(moves: str, p: Puzzle) -> None:
    """The page's record of a solve (docs/play.md, "Save my solve"), read by the moves
    reader: on one line, each move on a white cell of ``p`` and with its time."""
    if "\n" in moves or "\r" in moves:  # it goes on the one line of janko's property
        raise ApiError(400, "field 'moves' is not a solving record: it holds a line break")
    try:
        rec = records.parse(moves)
    except DeducerError as e:
        raise ApiError(400, f"field 'moves' is not a solving record: {e.message}") from None
    # numbered as the reader numbers them: from 1, the header counted
    for k, mv in enumerate(rec.moves, start=1 if rec.header is None else 2):
        if mv.cell is not None and mv.cell not in p.index:
            raise ApiError(400, f"field 'moves' is not a solving record: move {k} is on "
                                f"{cell_name(mv.cell)}, not a white cell")
        if mv.ms is None:
            raise ApiError(400, f"field 'moves' is not a solving record: move {k} has no "
                                "time (@MS)")
