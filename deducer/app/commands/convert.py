"""``deducer convert``: read any format, write a writable one."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path, PurePath

from ...errors import DeducerError, PuzzleError, printable
from ...puzzle.fileio import check_name, check_outputs, not_an_input, write_outputs
from ...puzzle.formats import dumps, get, loads
from ..batch import inputs
from ..batch.progress import Bar
from ..cli import add_puzzle_args, emit, read_puzzle
from ..exits import EXIT_BAD_INPUT, EXIT_OK


def add_parser(sub) -> None:
    p = sub.add_parser("convert", help="convert a puzzle (or a collection) to another format",
                       description="Read a puzzle in any format and write it in another. "
                                   "With --out DIR, read a whole collection (a file holding "
                                   "several puzzles, such as janko.at's .jsonl(.bz2), a "
                                   "folder or a glob) and write one file per puzzle into "
                                   "DIR, in one run.")
    add_puzzle_args(p)
    p.add_argument("--to", required=True, metavar="FORMAT",
                   help="target format: a writable one (pipe, backslash, json, puzzlink, "
                        "janko, dzn, fib)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.add_argument("--out", metavar="DIR",
                   help="convert every puzzle of PUZZLE (a collection file, a folder or a "
                        "glob) into DIR: one file each, named after the puzzle, and for "
                        f"json, janko and puzzlink also {ALL}.jsonl / {ALL}.url holding "
                        "them all")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (--out; it is drawn only on a terminal)")


#: the name of the one file holding every puzzle that ``--out`` writes beside theirs
ALL = "all"
#: the formats with a file of several puzzles: its extension, and how a puzzle is a line
#: of it (deducer's JSON on one line; janko.at's JSON records; ``NAME URL`` lines)
MULTI = {"json": ".jsonl", "janko": ".jsonl", "puzzlink": ".url"}


def run(args) -> int:
    get(args.to)  # an unknown format: refused before anything is read
    if args.out is not None:
        if args.output is not None:
            raise DeducerError("give -o FILE (one puzzle) or --out DIR (every puzzle), not "
                               "both")
        return run_collection(args)
    check_outputs({"--output": args.output}, force=args.force, inputs=[args.puzzle])
    puzzle = read_puzzle(args)
    text = dumps(puzzle, args.to)
    lost = _left_out(puzzle, text, args.to)
    if lost:
        print(f"deducer: warning: the {args.to} format leaves out {lost}; the pipe and json "
              "formats keep them", file=sys.stderr)
    emit(text if text.endswith("\n") else text + "\n", args.output, args.force)
    return EXIT_OK


def _left_out(puzzle, text: str, fmt: str) -> str:
    """What of the player's progress the written text lost ("the player's 2 entries and 5
    pencil marks"), found by reading it back; "" when nothing was."""

    if not puzzle.entries and not puzzle.pencil:
        return ""
    try:
        back = loads(text, fmt)
    except PuzzleError:
        back = puzzle.without_progress()
    parts = []
    entries = sum(back.entries.get(rc) != d for rc, d in puzzle.entries.items())
    marks = sum(back.pencil.get(rc) != m for rc, m in puzzle.pencil.items())
    if entries:
        parts.append(f"{entries} entr{'y' if entries == 1 else 'ies'}")
    if marks:
        parts.append(f"{marks} cell{'' if marks == 1 else 's'} of pencil marks")
    return f"the player's {' and '.join(parts)}" if parts else ""


# ---- a collection: --out DIR -----------------------------------------------------------
def file_stem(name: str) -> str:
    """A puzzle's name as a file name: letters, digits, ``.``, ``_`` and ``-`` kept, any
    run of other characters one ``-`` (``janko 001`` -> ``janko-001``)."""

    stem = re.sub(r"[^0-9A-Za-z._-]+", "-", name).strip("-.")[:80]
    return stem or "puzzle"


def _stem_of(task, puzzle) -> str:
    """What a puzzle's file is called: its name, else its source's (the file, and the
    line of a JSON-lines file or the puzzle's name within a file of several)."""

    if puzzle.name:
        return file_stem(puzzle.name)
    src = PurePath(task.path or task.label.rsplit(":", 1)[0]).name
    for _ in range(2):  # Kakuro.jsonl.bz2 -> Kakuro
        if "." in src:
            src = src.rsplit(".", 1)[0]
    parts = [src]
    if task.name:
        parts.append(task.name)
    elif task.line is not None:
        parts.append(str(task.line))
    return file_stem("-".join(parts))


def _multi_line(puzzle, fmt: str, stem: str, index: int) -> str:
    """The puzzle as line ``index`` (from 1) of the format's file of several
    (:data:`MULTI`)."""

    if fmt == "json":
        return json.dumps(json.loads(dumps(puzzle, "json")), separators=(",", ":"))
    if fmt == "janko":
        text = dumps(puzzle, "janko")
        problem = text.split("problem\n", 1)[1].rsplit("end\n", 1)[0]
        data: dict = {"puzzle": "kakuro", "rows": puzzle.rows, "cols": puzzle.cols,
                      "problem": [row.split() for row in problem.strip().split("\n")]}
        if puzzle.grade is not None:
            data["rating"] = puzzle.grade.text()
        # janko's records are told apart by their number: a puzzle read from one keeps it
        m = re.fullmatch(r"janko ([0-9]+)", puzzle.name or "")
        number = m[1] if m else f"{index:03d}"
        return json.dumps({"file": f"/Kakuro/{number}.a.x-janko", "data": data},
                          separators=(",", ":"))
    url = dumps(puzzle, "puzzlink").strip().split("\n")[-1]  # the grade comment left out
    return f"{stem}\t{url}"


def run_collection(args) -> int:
    """``convert COLLECTION --to FORMAT --out DIR``: every puzzle read (one process), every
    output name checked before any is written, then one file each (and the file of them
    all). A puzzle that cannot be read or written is one line on stderr and exit 2; the
    others are still written."""
    out = _out_folder(args.out)
    found = inputs.find([args.puzzle], args.format, args.name)
    if found.nothing():
        raise DeducerError(found.nothing() or "no puzzle")
    if found.note():
        print(found.note(), file=sys.stderr)
    fmt = get(args.to)
    ext = fmt.extensions[0]
    bar = Bar(len(found.tasks), sys.stderr.isatty() and not args.no_progress, "converting")
    texts: list[tuple[str, str]] = []  # (file name, text)
    lines: list[str] = []
    failed = 0
    taken: set[str] = set()
    lost: list[str] = []
    try:
        for k, task in enumerate(found.tasks, 1):
            try:
                if task.error is not None:
                    raise DeducerError(task.error)
                puzzle = inputs.load(task, args.format)
                text = dumps(puzzle, args.to)
            except DeducerError as e:
                failed += 1
                shown = str(e) if str(e).startswith(task.label) else f"{task.label}: {e}"
                bar.say(f"deducer: error: {printable(shown)}")
                bar(k)
                continue
            stem = _stem_of(task, puzzle)
            name, n = stem + ext, 1
            while name.lower() in taken or name == ALL + MULTI.get(args.to, "/"):
                n += 1
                name = f"{stem}-{n}{ext}"
            taken.add(name.lower())
            if puzzle.entries or puzzle.pencil:
                why = _left_out(puzzle, text, args.to)
                if why:
                    lost.append(name)
            texts.append((name, text if text.endswith("\n") else text + "\n"))
            if args.to in MULTI:
                lines.append(_multi_line(puzzle, args.to, Path(name).stem, len(lines) + 1))
            bar(k)
    finally:
        bar.close()
    names = [n for n, _ in texts]
    if lines:
        names.append(ALL + MULTI[args.to])
    _check_folder(out, names, args, found)
    if not texts:
        raise DeducerError(f"no puzzle of {args.puzzle} could be converted ({failed} "
                           f"failed)")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise DeducerError(f"cannot write: {e.strerror or e}", path=args.out) from None
    files = [(out / name, text) for name, text in texts]
    if lines:
        files.append((out / (ALL + MULTI[args.to]), "\n".join(lines) + "\n"))
    write_outputs(files, force=args.force)
    _warn_lost(lost, args.to)
    where = str(out / texts[0][0]) if len(texts) == 1 else \
        f"{out / texts[0][0]} .. {out / texts[-1][0]}"
    also = f", and all of them in {out / (ALL + MULTI[args.to])}" if lines else ""
    fail = f"; {failed} could not be converted (above)" if failed else ""
    print(f"deducer: converted {len(texts)} puzzle{'s' if len(texts) != 1 else ''} to "
          f"{args.to}: {printable(where)}{printable(also)}{fail}", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _out_folder(path: str) -> Path:
    """``--out`` of a collection: a folder, or one to be made in a folder that exists."""
    out = Path(path)
    check_name(out)
    if out.exists() and not out.is_dir():
        raise DeducerError("--out must be a folder", path=path)
    if not out.exists() and not out.parent.is_dir():
        raise DeducerError(f"folder {str(out.parent)!r} does not exist", path=path)
    return out


def _warn_lost(lost: list[str], to: str) -> None:
    """One warning naming the puzzles whose entries or pencil marks ``to`` leaves out."""
    if lost:
        print(f"deducer: warning: the {to} format leaves out the player's entries or "
              f"pencil marks of {len(lost)} puzzle{'s' if len(lost) != 1 else ''} "
              f"({', '.join(lost[:3])}{' ...' if len(lost) > 3 else ''}); the pipe and json "
              "formats keep them", file=sys.stderr)


def _check_folder(out, names: list[str], args, found) -> None:
    """Before anything is written: no output over an input (``--force`` or not), over a
    puzzle of another kind than this run writes, and none over an existing file without
    ``--force`` (every one named in one line)."""

    if not out.is_dir():
        return
    have = set(os.listdir(out))
    clash = [n for n in names if n in have]
    sources = {t.path for t in found.tasks if t.path} | {args.puzzle}
    for n in clash:
        not_an_input(out / n, sources)
    if clash and not args.force:
        shown = ", ".join(clash[:3]) + (f" and {len(clash) - 3} more" if len(clash) > 3
                                        else "")
        raise DeducerError(f"already holds {shown}; pass --force to overwrite "
                           f"{'it' if len(clash) == 1 else 'them'}, or give another folder",
                           path=str(out))
