"""What a batch command reads: files, folders (recursively), globs, and ``-`` (standard
input, one puzzle per line: a puzz.link URL or a JSON line), expanded into one
:class:`Task` per puzzle in a stable order.

Nothing here can stop a batch: an entry that cannot be listed or read becomes a task that
carries its error, and turns into a row saying why.

A folder (or a glob) holds whatever its owner keeps next to the puzzles: notes, pages,
images, scripts, the run's own rows. A file found there is read when its text is a puzzle
notation deducer knows; anything else is skipped and counted (the command says how many), so
a ``SOURCE.md`` does not make the batch "bad input". A file named on the command line is read
whatever it holds. Special files (FIFOs, devices) in a folder are never opened (a FIFO would
block): they become rows saying what they are. The run's own outputs are never read.

JSON lines (``-`` lines, and ``.jsonl``/``.ndjson`` files such as ``deducer generate
--jsonl`` writes) hold either a puzzle in deducer's JSON format or an object with a
``puzzle`` key (that JSON puzzle, or puzzle text such as a URL); their lines are only split
here and parsed by the worker.
"""

from __future__ import annotations

import glob
import json
import os
import re
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...errors import DeducerError, printable
from ...puzzle import formats
from ...puzzle.fileio import MAX_BYTES, plain_suffix
from ...puzzle.formats import read_text
from ...puzzle.formats.lines import LINE_SUFFIXES, is_row, line_puzzle_text
from ..cli import is_url

_GLOB = re.compile(r"[*?[]")


@dataclass(frozen=True, slots=True)
class Task:
    """One puzzle to work on: a file (``path``, maybe ``name``), or a line of text."""

    label: str  # the row's source: path, path:name, or path:line
    path: str | None = None  # the file to read (None: ``text`` holds the puzzle)
    name: str | None = None  # which puzzle of a multi-puzzle file
    text: str | None = None  # a line of a JSON-lines file or of stdin (or a file's text)
    line: int | None = None  # where ``text`` came from (None: the whole file ``path``)
    error: str | None = None  # could not be listed or read: the row's reason


@dataclass
class Found:
    """What the arguments expand to: the tasks, and the folder files skipped as no puzzle."""

    tasks: list[Task] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    #: where in ``tasks`` a folder or glob that held no puzzle has its row
    empty: list[int] = field(default_factory=list)

    def nothing(self) -> str | None:
        """The reason, when the arguments hold no puzzle at all (every one a folder or glob
        of other files): nothing to rate is bad input, not an empty table."""
        if self.empty and len(self.empty) == len(self.tasks):
            return "; ".join(str(self.tasks[k].error) for k in self.empty)
        return None

    def note(self, limit: int = 5) -> str | None:
        """One line naming the skipped files (None when nothing was skipped)."""
        n = len(self.skipped)
        if not n:
            return None
        shown = ", ".join(printable(s) for s in self.skipped[:limit])
        more = f" and {n - limit} more" if n > limit else ""
        return (f"deducer: skipped {n} file{'s' if n > 1 else ''} that hold"
                f"{'s' if n == 1 else ''} no puzzle in a format deducer reads: {shown}{more}")


def _natural(path: str) -> list:
    """Sort key: 2.txt before 10.txt."""
    # [0-9]: '²' is a digit to str.isdigit() and not to int(); '٣' is one to \d and int()
    return [int(t) if k % 2 else t for k, t in enumerate(re.split(r"([0-9]+)", path))]


def walk(folder: str) -> list[str]:
    """Every file under ``folder``, hidden files and folders left out, in natural order."""
    found = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [os.path.join(top, f) for f in files if not f.startswith(".")]
    return sorted(found, key=_natural)


def _read(path: str) -> str:
    """A file's text, reading at most the size limit (a huge file is refused, not loaded)."""

    return read_text(path)


def _lines(where: str, text: str) -> list[Task]:
    tasks = []
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if s and not s.startswith("#"):
            tasks.append(Task(f"{where}:{n}", text=s, line=n))
    return tasks


def file_tasks(path: str, fmt: str | None, name: str | None,
               text: str | None = None) -> list[Task]:
    """The puzzles of one file: one task, one per named puzzle, or one per JSON line
    (``text``: the file's text, when it has been read already)."""

    if name is not None:
        return [Task(f"{path}:{name}", path=path, name=name)]
    try:
        text = _read(path) if text is None else text
        if fmt is None and plain_suffix(path) in LINE_SUFFIXES:
            return _lines(path, text) or [Task(path, error=f"{path}: no puzzle lines")]
        f = formats.get(fmt) if fmt else formats.detect(text, path)
        names = f.names(text) if f.names is not None else []
    except DeducerError as e:
        return [Task(path, path=path, error=str(e.located(path)))]
    except RecursionError:
        return [Task(path, path=path, error=f"{path}: input is nested too deeply")]
    if len(names) > 1:
        return [Task(f"{path}:{n}", path=path, name=n) for n in names]
    return [Task(path, path=path)]


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _special(path: str) -> str | None:
    """What ``path`` is when it is not a regular file (None for a regular file, or one that
    cannot be looked at: reading it says why)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "a special file")


def _puzzle_suffix(path: str) -> bool:
    suffix = plain_suffix(path)
    return bool(suffix) and (suffix in LINE_SUFFIXES or any(
        suffix in exts for exts in formats.EXTENSIONS.values()))


def _is_rows_file(text: str) -> bool:
    """Does a JSON-lines text hold rows (``deducer rate --out``), not puzzles?"""
    for line in text.split("\n"):
        s = line.strip()
        if s and not s.startswith("#"):
            try:
                obj = json.loads(s)
            except (ValueError, RecursionError):
                return False
            return is_row(obj)
    return False


def found_tasks(path: str, fmt: str | None, name: str | None) -> list[Task] | None:
    """The puzzles of a file found in a folder or by a glob; None when it holds none (a
    note, a page, an image, an empty file: the caller counts it as skipped)."""

    special = _special(path)
    if special is not None:
        return [Task(path, path=path, error=f"{path}: not a regular file ({special}); "
                                            "not read")]
    if fmt is not None:
        return file_tasks(path, fmt, name)
    try:
        text = _read(path)
    except DeducerError:
        # binary, not UTF-8 or too big: a puzzle file's name still gets its row saying why
        return file_tasks(path, fmt, name) if _puzzle_suffix(path) else None
    if plain_suffix(path) in LINE_SUFFIXES:
        if _is_rows_file(text) or not text.strip():
            return None
        return file_tasks(path, fmt, name, text)
    try:
        formats.detect(text, path)
    except DeducerError:
        return None
    except RecursionError:
        pass
    return file_tasks(path, fmt, name, text)


def stdin_tasks(stream, limit: int | None = None) -> list[Task]:
    """One task per non-empty, non-``#`` line of standard input. A line is bounded like a
    puzzle file (:data:`~deducer.puzzle.fileio.MAX_BYTES`): a longer one is a row saying so,
    and ends the reading (the rest of it cannot be told from the next line's start)."""

    limit = MAX_BYTES if limit is None else limit
    tasks = []
    n = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            break
        n += 1
        if len(raw) > limit:
            tasks.append(Task(f"<stdin>:{n}", line=n, error=f"<stdin>:{n}: line holds more "
                              f"than {limit} bytes; a puzzle is limited to {limit} (standard "
                              "input not read further)"))
            break
        try:
            s = raw.decode("utf-8-sig" if n == 1 else "utf-8").strip()
        except UnicodeDecodeError:
            tasks.append(Task(f"<stdin>:{n}", line=n, error=f"<stdin>:{n}: not UTF-8 text"))
            continue
        if s and not s.startswith("#"):
            tasks.append(Task(f"<stdin>:{n}", text=s, line=n))
    return tasks


def expand(args: Iterable[str], fmt: str | None = None, name: str | None = None,
           stdin=None) -> list[Task]:
    """Every puzzle the command-line arguments name, in the order given (a folder's and a
    glob's files in natural order)."""
    return find(args, fmt, name, stdin).tasks


def _key(path: str) -> str:
    return os.path.realpath(path)


def find(args: Iterable[str], fmt: str | None = None, name: str | None = None, stdin=None,
         *, outputs: Iterable[str] = ()) -> Found:
    """:func:`expand`, and the folder files skipped as holding no puzzle. ``outputs`` are
    the run's own files: never read from a folder or glob, and refused when named as an
    input (writing them would destroy that input)."""

    own = {_key(o): o for o in outputs}
    found = Found()
    tasks = found.tasks
    for arg in args:
        if is_url(arg):  # a puzz.link URL given on the command line is the puzzle itself
            tasks.append(Task(arg, text=arg))
            continue
        if arg == "-":
            if stdin is None:
                stdin = sys.stdin.buffer
            tasks += stdin_tasks(stdin)
            continue
        if os.path.isdir(arg):
            files = walk(arg)
            if not files:
                found.empty.append(len(tasks))
                tasks.append(Task(arg, error=f"{arg}: no puzzle in {arg} (the folder holds "
                                             "no files)"))
        elif not os.path.exists(arg) and _GLOB.search(arg):
            files = []
            for m in sorted(glob.glob(arg, recursive=True), key=_natural):
                files += walk(m) if os.path.isdir(m) else [m]
            if not files:
                found.empty.append(len(tasks))
                tasks.append(Task(arg, error=f"{arg}: no file matches"))
        else:
            if own and os.path.exists(arg) and _key(arg) in own:
                out = own[_key(arg)]
                also = "" if arg == out else f" ({arg})"
                raise DeducerError(f"is also an input{also}; writing it would destroy "
                                   "that input: name another output file", path=out)
            tasks += file_tasks(arg, fmt, name)
            continue
        before, skipped = len(tasks), len(found.skipped)
        for f in files:
            if own and _key(f) in own:
                # the run's own output, in the folder it rates: rows from an earlier run
                # are not read; a puzzle there would be destroyed by writing the rows
                got = found_tasks(f, fmt, name)
                if got and any(t.error is None for t in got):
                    raise DeducerError(f"is a puzzle in {arg}, which this run rates; writing "
                                       "the rows there would destroy it: name another "
                                       "output file", path=own[_key(f)])
                continue
            got = found_tasks(f, fmt, name)
            if got is None:
                found.skipped.append(f)
            else:
                tasks += got
        if files and len(tasks) == before:
            # a folder of notes, or the wrong folder: a row says so (an empty table and
            # exit code 0 read as "all rated")
            found.empty.append(len(tasks))
            tasks.append(Task(arg, error=_no_puzzle(arg, found.skipped[skipped:])))
    return found


def _no_puzzle(arg: str, skipped: list[str], limit: int = 3) -> str:
    """``DIR: no puzzle in DIR (2 files, none in a format deducer reads: a.md, b.txt)``."""
    where = "in" if os.path.isdir(arg) else "matching"
    if not skipped:
        return f"{arg}: no puzzle {where} {arg}"
    n = len(skipped)
    shown = ", ".join(printable(s) for s in skipped[:limit]) + (
        f" and {n - limit} more" if n > limit else "")
    return (f"{arg}: no puzzle {where} {arg} ({n} file{'s' if n != 1 else ''}, none in a "
            f"format deducer reads: {shown})")


def embed(task: Task) -> Task:
    """The task with its file's text inside, for workers that do not share this machine's
    files (a Dask cluster); read errors become the task's error, as they would in a worker."""
    if task.path is None or task.text is not None or task.error is not None:
        return task
    try:
        text = _read(task.path)
    except DeducerError as e:
        return Task(task.label, path=task.path, name=task.name, error=str(e))
    return Task(task.label, path=task.path, name=task.name, text=text)


class Embedded:
    """``tasks`` seen through :func:`embed`, a slice at a time (files are read as their
    chunk is sent, not all up front)."""

    def __init__(self, tasks: list[Task]):
        self.tasks = tasks

    def __len__(self) -> int:
        return len(self.tasks)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [embed(t) for t in self.tasks[k]]
        return embed(self.tasks[k])


def load(task: Task, fmt: str | None):
    """The task's puzzle (raises :class:`DeducerError` located at the file and line)."""

    if task.text is None:
        assert task.path is not None  # a task holds a path or a text
        return formats.load(task.path, fmt, name=task.name)
    if task.line is None:  # a whole file's text, embedded
        return formats.loads(task.text, fmt, name=task.name, path=task.path)
    where = task.label.rsplit(":", 1)[0]
    try:
        return formats.loads(line_puzzle_text(task.text), fmt, name=task.name)
    except DeducerError as e:
        e.path, e.line = where, task.line  # a line's own line numbers mean nothing here
        raise
