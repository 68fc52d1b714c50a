"""Every puzzle format behind one interface: detect, read, write.

A format module defines a :class:`Format` instance named ``FORMAT``; the registry below
lists the modules. Readers return validated :class:`~deducer.puzzle.model.Puzzle` objects and raise
:class:`~deducer.errors.PuzzleError` with the line where the text is wrong.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...errors import PuzzleError
from ..fileio import MAX_BYTES, plain_suffix, read_input
from ..model import Grade, Puzzle

# Modules are imported lazily so `deducer solve` pays only for the format it reads.
_MODULES = {
    "json": "deducer.puzzle.formats.jsonfmt",
    "pipe": "deducer.puzzle.formats.pipe",
    "backslash": "deducer.puzzle.formats.backslash",
    "j": "deducer.puzzle.formats.jboxed",
    "conditions": "deducer.puzzle.formats.conditions",
    "solved": "deducer.puzzle.formats.solved",
    "puzzlink": "deducer.puzzle.formats.puzzlink",
    "janko": "deducer.puzzle.formats.janko",
    "dzn": "deducer.puzzle.formats.dzn",
    "fib": "deducer.puzzle.formats.fib",
    "logicpuzzles": "deducer.puzzle.formats.logicpuzzles",
}
#: order in which detection asks the formats (most specific first)
DETECT_ORDER = ("json", "janko", "logicpuzzles", "dzn", "fib", "puzzlink", "conditions", "j",
                "pipe", "backslash", "solved")
#: each format's file extensions (its ``FORMAT.extensions``; a test holds them equal), known
#: without importing the readers: detection imports only the formats a file's extension
#: names (a reader with its regular expressions costs about 2 ms of start-up; all of them
#: were 13 ms of a 42 ms import)
EXTENSIONS = {
    "json": (".json",),
    "pipe": (".txt", ".pipe", ".kak2"),
    "backslash": (".kakuro", ".txt"),
    "j": (".j", ".ijs"),
    "conditions": (".txt", ".cond", ".kak"),
    "solved": (".puz", ".sol", ".txt", ".json"),
    "puzzlink": (".url", ".txt", ".tsv", ".pzprv3"),
    "janko": (".x-janko", ".janko", ".htm", ".html", ".jsonl"),
    "dzn": (".dzn",),
    "fib": (".kak", ".txt"),
    "logicpuzzles": (".xml",),
}


@dataclass(frozen=True)
class Format:
    """One puzzle notation."""

    name: str
    description: str
    extensions: tuple[str, ...]
    #: does this text look like this format? (cheap, no full parse)
    sniff: Callable[[str], bool]
    #: text -> puzzle; ``name`` selects one puzzle from a multi-puzzle file
    read: Callable[..., Puzzle]
    #: puzzle -> text, or None when the format is read-only
    write: Callable[[Puzzle], str] | None = None
    #: names of the puzzles in a multi-puzzle text (None: one puzzle per file)
    names: Callable[[str], list[str]] | None = None
    #: how a comment line starts (``#``, ``%``): the puzzle's grade is written and read
    #: as one (:func:`dumps`, :func:`loads`); None: the reader and writer keep the grade
    #: themselves (a field of json, a property of janko)
    comment: str | None = None


def get(name: str) -> Format:
    """The format called ``name``."""
    if name not in _MODULES:
        raise PuzzleError(f"unknown format {name!r}; known: {', '.join(sorted(_MODULES))}")
    return importlib.import_module(_MODULES[name]).FORMAT


def names() -> list[str]:
    """Every format deducer reads, by name (sorted): what ``--format`` accepts."""
    return sorted(_MODULES)


def writable() -> list[str]:
    """The formats deducer can also write (sorted): what ``convert --to`` accepts."""
    return [n for n in names() if get(n).write is not None]


def detect(text: str, path: str | None = None) -> Format:
    """Pick the format of ``text``: the file extension first, then content sniffing."""
    if path is not None:
        suffix = plain_suffix(path)
        for n in DETECT_ORDER:
            if suffix and suffix in EXTENSIONS[n]:
                f = get(n)
                if f.sniff(text):
                    return f
    for n in DETECT_ORDER:
        f = get(n)
        if f.sniff(text):
            return f
    raise PuzzleError(
        "cannot tell which puzzle format this is; name it with --format "
        f"({', '.join(names())})",
        line=1,
    )


def decode(data: bytes, path: str | None = None) -> str:
    """Bytes -> text: UTF-8 (BOM allowed), CRLF folded, NUL refused."""
    if len(data) > MAX_BYTES:
        raise PuzzleError(f"file is {len(data)} bytes; puzzle files are limited to {MAX_BYTES}")
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise PuzzleError("file contains a NUL byte (is it a binary file?)", path=path, line=line)
    # a byte-order mark dropped by hand: the "utf-8-sig" codec is a module to import (a
    # tenth of a millisecond of every first solve), plain "utf-8" is built in
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        at = e.start + bom  # the offset in the file
        line = data[:at].count(b"\n") + 1
        raise PuzzleError(
            f"not UTF-8 text (byte 0x{data[at]:02x} at offset {at})", path=path, line=line
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def loads(text: str, fmt: str | None = None, *, name: str | None = None,
          path: str | None = None) -> Puzzle:
    """Parse puzzle text (format detected unless given)."""
    try:
        f = get(fmt) if fmt else detect(text, path)
        puzzle = f.read(text, name=name)
        if f.comment is not None and puzzle.grade is None and GRADE_MARK in text:
            grade = find_grade(text, f.comment)
            if grade is not None:
                puzzle = puzzle.graded(grade)
        return puzzle
    except PuzzleError as e:
        raise e.located(path) from None
    except RecursionError:
        raise PuzzleError("input is nested too deeply", path=path) from None


def read_text(path: str | Path) -> str:
    """The text of a puzzle file (at most 4 MiB; a ``.gz`` or ``.bz2`` file read through,
    told by its first bytes): one-line errors naming the file."""
    p = str(path)
    data = read_input(p, error=PuzzleError, what="puzzle files")
    try:
        return decode(data, p)
    except PuzzleError as e:
        raise e.located(p) from None


def load(path: str | Path, fmt: str | None = None, *, name: str | None = None) -> Puzzle:
    """Read a puzzle file (compressed with gzip or bzip2 or not)."""
    p = str(path)
    return loads(read_text(p), fmt, name=name, path=p)


def load_all(path: str | Path, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle of a file: its one puzzle, or each of a file holding several named ones
    (which :func:`load` refuses without a name)."""
    try:
        return [load(path, fmt)]
    except PuzzleError as e:
        refused = e
    p = str(path)
    try:  # load read and decoded it: the refusal was the parse
        text = read_text(p)
        f = get(fmt) if fmt else detect(text, p)
        found = f.names(text) if f.names is not None else []
    except (OSError, PuzzleError):
        raise refused from None
    if len(found) < 2:
        raise refused
    return [loads(text, f.name, name=n, path=p) for n in found]


def dumps(puzzle: Puzzle, fmt: str) -> str:
    """Write a puzzle in a format that has a writer (its grade too, when it has one)."""
    f = get(fmt)
    if f.write is None:
        raise PuzzleError(f"format {fmt!r} can be read but not written; writable: "
                          f"{', '.join(writable())}")
    text = f.write(puzzle)
    if f.comment is not None and puzzle.grade is not None:
        line = f"{f.comment} {GRADE_MARK} {puzzle.grade.text()}\n"
        # KakuroApp's boards start with their size line, which its apps read first
        text = text + line if f.name == "fib" else line + text
    return text


#: the words a grade's comment line starts with: ``# rating: Hard, score 4.2, rater 7``
GRADE_MARK = "rating:"


def find_grade(text: str, comment: str):
    """The grade a ``comment`` line of ``text`` carries (:data:`GRADE_MARK`), or None."""

    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith(comment):
            rest = line[len(comment):].strip()
            if rest.startswith(GRADE_MARK):
                grade = Grade.parse(rest[len(GRADE_MARK):])
                if grade is not None:
                    return grade
    return None


def json_problem(e: Exception) -> str:
    """What is wrong with a JSON text, in a few words, from the exception ``json.loads``
    raised (its own words for a number too long to convert name a Python setting)."""
    if isinstance(e, RecursionError):
        return "nested too deeply"
    msg = getattr(e, "msg", None)
    if isinstance(msg, str):  # a JSONDecodeError
        return msg
    text = str(e)
    if "integer string conversion" in text:
        return "a number has more than 4300 digits"
    return text


def parse_int(token: str, what: str, line: int, *, lo: int = 0, hi: int = 45) -> int:
    """An integer field of a puzzle file, range-checked, with a located error."""
    t = token.strip()
    if not t.isascii() or not t.isdigit():
        shown = repr(t) if len(t) <= 40 else repr(t[:30]) + f"… ({len(t)} characters)"
        raise PuzzleError(f"{what} {shown} is not a whole number", line=line)
    if len(t) > 6 or not lo <= int(t) <= hi:
        shown = t if len(t) <= 12 else f"{t[:6]}… ({len(t)} digits)"
        raise PuzzleError(f"{what} {shown} is out of range {lo}..{hi}", line=line)
    return int(t)
