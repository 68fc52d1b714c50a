"""JSON lines: a text of one JSON object a line (``.jsonl``, ``.ndjson``), as ``generate
--jsonl`` writes, janko.at's scrape stores and ``rate -`` reads; each line holds one puzzle
in any notation a line can hold (deducer's JSON, a janko.at record, a puzz.link URL), or
an object holding one under ``puzzle``. Rows of ``rate --out`` are JSON lines too, and hold
no puzzle."""

from __future__ import annotations

import json

from ...errors import DeducerError, PuzzleError
from .. import formats
from . import json_problem

LINE_SUFFIXES = (".jsonl", ".ndjson")


def line_puzzle_text(text: str) -> str:
    """The puzzle text of one line (raises :class:`PuzzleError`): the line itself (a
    puzz.link URL, a deducer JSON puzzle, a janko.at record, any notation a line can hold:
    the reader detects it), or the puzzle an object holds under ``puzzle`` (the records
    ``generate --jsonl`` writes)."""
    if not text.startswith("{"):
        return text
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise PuzzleError(f"not a JSON line: {json_problem(e)}") from None
    puzzle = obj.get("puzzle") if isinstance(obj, dict) else None
    if isinstance(obj, dict) and obj.get("format") == "deducer":
        return text
    if isinstance(puzzle, dict):
        return json.dumps(puzzle)
    if isinstance(puzzle, str):
        return puzzle
    if is_row(obj):
        raise PuzzleError("is a row of 'deducer rate --out' (a rating), not a puzzle")

    try:
        formats.detect(text)
    except PuzzleError:
        raise PuzzleError("a JSON line must be a puzzle: deducer's JSON, a janko.at record, "
                          "or an object holding one under 'puzzle'") from None
    return text


def is_row(obj) -> bool:
    """Is this JSON object a row of ``deducer rate --out``?"""
    return isinstance(obj, dict) and "source" in obj and "puzzle" not in obj \
        and obj.get("format") != "deducer"


def json_lines(text: str) -> list[str] | None:
    """The lines of a JSON-lines text (every line that is not empty or a ``#`` comment is
    a JSON object); None for any other text (a multi-line JSON document among them)."""
    lines = [s for s in (line.strip() for line in text.split("\n"))
             if s and not s.startswith("#")]
    if not lines or not all(s.startswith("{") for s in lines):
        return None
    for s in lines:
        try:
            if not isinstance(json.loads(s), dict):
                return None
        except (ValueError, RecursionError):
            return None
    return lines


def line_holds_puzzle(line: str) -> bool:
    """Does this line hold a puzzle in a notation deducer reads?"""

    try:
        formats.detect(line_puzzle_text(line))
    except (DeducerError, RecursionError):
        return False
    return True




def holds_puzzle(text: str, path: str | None = None) -> bool:
    """Does this text hold a puzzle in a notation deducer reads? JSON lines (rows, records,
    puzzles) hold one when a line does: rows (``rate --out``) hold none."""

    lines = json_lines(text)
    if lines is not None:
        return any(line_holds_puzzle(line) for line in lines)
    try:
        formats.detect(text, path)
    except (DeducerError, RecursionError):
        return False
    return True
