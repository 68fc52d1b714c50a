"""``deducer rate``: rate many puzzles: a table, CSV or JSON, or a rows file written as it goes.

The batch machinery (chunks, workers, retries, Dask, resume) is :mod:`deducer.app.batch`;
this module says what one puzzle's row holds and how rows are printed.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from functools import partial

from ...api import RATER_VERSION, ExplainStatus, explain, ladder
from ...errors import DeducerError
from ...puzzle import formats
from ...puzzle.fileio import check_outputs
from ...render import get
from ..backstop import interruptible
from ..batch import add_engine_args, settings_from
from ..batch import run as batch_run
from ..batch.inputs import Embedded, find, load
from ..batch.output import RowFile, match_rows, out_format
from ..batch.progress import Bar
from ..cli import emit, not_over_a_puzzle
from ..exits import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNDECIDED,
)
from .explain import add_rule_args, check_timeout

#: rate limits each puzzle with --timeout, not the whole command (see cli.main)
PER_PUZZLE_TIMEOUT = True

#: statuses of a row; only "solved" carries a level
SOLVED, MULTIPLE, NONE, STALLED, TIMEOUT, _ = ExplainStatus
UNREADABLE, FAILED, ERROR = "unreadable", "failed", "error"
#: a batch's exit code is the first of these its rows call for
EXIT_ORDER = ((UNREADABLE, EXIT_BAD_INPUT), (ERROR, EXIT_BAD_INPUT), (FAILED, EXIT_INTERNAL),
              (TIMEOUT, EXIT_UNDECIDED), (NONE, EXIT_NO_SOLUTION), (MULTIPLE, EXIT_NO_SOLUTION))


def add_parser(sub) -> None:
    p = sub.add_parser(
        "rate", help="rate the difficulty of many puzzles (files, folders, globs, '-')",
        description="Explain every puzzle step by step and tabulate its rating: size, level, "
                    "score (how hard the whole solve is, docs/rating.md), hardest step "
                    "(weight and rule), total effort, number of steps, and the steps that "
                    "needed trial or guessing; --why adds which step set the level and where "
                    "the solve is narrowest. Folders are read recursively for "
                    "the files that hold a puzzle (the others, such as notes, pages and "
                    "images, are skipped and counted on stderr; FIFOs and devices become "
                    "unreadable rows; the run's own --out is never read), a quoted glob is "
                    "expanded the same way, '-' reads one puzzle per line (puzz.link URLs or "
                    "JSON lines, at most 4 MiB each) and .jsonl files are read line by line "
                    "(a line holds a puzzle in any notation a line can hold); .gz and .bz2 "
                    "files are read through. A folder or glob holding no puzzle is bad input. "
                    "A file named on the command line is read whatever it holds; an --out "
                    "that is also an input is refused. A file holding "
                    "several puzzles is rated puzzle by puzzle (unless --name picks one). "
                    "Rows come in input order and are identical whatever --jobs or --engine. "
                    "Only a uniquely solved puzzle gets a level; every other row says why "
                    "(unreadable, no solution, not unique, timed out, failed) and never stops "
                    "the batch. Exit code: 2 if a row is unreadable, else 3 if a puzzle kept "
                    "killing its worker, else 4 if one timed out, else 1 if one has no "
                    "solution or several, else 0.")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE",
                   help="puzzle files, folders, globs, or '-' (standard input)")

    p.add_argument("--format", choices=formats.names() + ["parquet"],
                   help="the files' format (default: detect for each file); 'parquet' is "
                        "taken as --out-format parquet")
    p.add_argument("--name", help="which puzzle of multi-puzzle files (default: all)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="print CSV")
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--out", metavar="FILE",
                     help="write one JSON line per puzzle to FILE as each is finished "
                          "(source, status, level, hardest, weight, effort, steps, chain, "
                          "rater, seconds, error, ...), sorted to input order at the end; "
                          "print only a summary. Ctrl-C keeps every finished row")
    p.add_argument("--out-format", choices=("jsonl", "parquet"),
                   help="format of --out (default: parquet for a .parquet name, else jsonl; "
                        "parquet needs the 'parquet' extra)")
    p.add_argument("--resume", action="store_true",
                   help="keep the rows already in --out and rate only the rest")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument("--why", action="store_true",
                   help="say for each rated puzzle which step set its level and where the "
                        "solve is narrowest (the step with fewest easy moves open)")
    p.add_argument("--ignore-entries", action="store_true",
                   help="rate the bare puzzle, leaving out a player's entries (by default, as "
                        "solve and explain do, entries are kept and what is left is rated)")
    p.add_argument("--no-timing", action="store_true",
                   help="leave 'seconds' empty in --out rows, so that two runs give "
                        "byte-identical files")

    add_engine_args(p, "rate")
    add_rule_args(p)
    for action in p._actions:
        if action.dest == "timeout":
            action.help = ("give each puzzle at most this long (its row then says 'timed out', "
                           "exit code 4); a worker still busy a second later is killed")


# ---------------------------------------------------------------------------- one puzzle
_RULES: dict = {}


def _ladder(rule_files: tuple, disable: tuple):
    key = (rule_files, disable)
    if key not in _RULES:
        _RULES[key] = ladder(list(rule_files), list(disable))
    return _RULES[key]


def _blank(task) -> dict:
    """A row with nothing rated yet (every key present, in the order rows are written)."""

    return {"file": task.label, "path": task.path, "name": task.name, "status": None,
            "level": None, "hardest_rule": None, "max_weight": None, "score": None,
            "notes": None,
            "steps": None, "chain": None, "trial": None, "guessing": None, "rows": None,
            "cols": None, "cells": None, "rater": RATER_VERSION, "seconds": None,
            "error": None, "message": "", "rating": None, "effort": None, "why": None,
            "rules": None}


def _why(status: str, message: str, timeout: float | None) -> str | None:
    """The reason a row has no level (None for a rated row)."""
    if status == SOLVED:
        return None
    if status == TIMEOUT:
        return f"timed out after {timeout:g} s" if timeout else "timed out"
    if status == MULTIPLE:
        return "not unique: " + message.removeprefix("the puzzle has ")
    if status == NONE:
        return message if message.startswith("no solution") else f"no solution: {message}"
    return f"unrated: {message}"


def rate_one(settings: tuple, task) -> dict:
    """Rate one puzzle (runs in a worker): a row of plain data, whatever happens."""

    fmt, rule_files, disable, timeout, ignore_entries = settings
    row = _blank(task)
    if task.error is not None:
        row.update(status=UNREADABLE, error=task.error)
        return row
    start = time.perf_counter()
    try:
        puzzle = load(task, fmt)
        row.update(rows=puzzle.rows, cols=puzzle.cols, cells=len(puzzle.whites))
        rules = _ladder(rule_files, disable)
        # the puzzle's time limit counts its reading (format detection included) too: the
        # walk gets what is left, and ends before the pool's backstop kills its worker
        left = None if timeout is None else \
            max(min(0.05, timeout), timeout - (time.perf_counter() - start))
        exp = explain(puzzle, rules, timeout=left, use_entries=not ignore_entries)
    except DeducerError as e:
        where = task.path or task.label
        # unreadable puzzle, or (once read) a rule file's fault, such as a false deduction
        row.update(status=UNREADABLE if row["rows"] is None else ERROR,
                   error=str(e.located(where)))
        return row
    r = exp.rating
    row.update(status=exp.status, message=exp.message, rating=r.to_json(),
               seconds=round(time.perf_counter() - start, 3),
               error=_why(exp.status, exp.message, timeout))
    if exp.status == SOLVED:
        hardest = max(exp.steps, key=lambda s: s.weight, default=None)
        row.update(
            level=r.level, max_weight=round(r.max_weight, 3),
            hardest_rule=hardest.rule if hardest else None, score=r.score, notes=r.notes,
            steps=r.steps,
            chain=r.max_chain, trial=r.trial, guessing=r.guessing, effort=r.effort,
            why=r.why(), rules=dict(r.rules))
    return row


def cost(task) -> float:
    """How much work a puzzle is, guessed before it is read, for the batch to start the
    largest first: the size of its text, which grows with the grid (a stat, not a read:
    the parent must not hold up the workers). A task that cannot be read costs nothing."""
    if task.error is not None:
        return 0.0
    if task.text is not None:
        return float(len(task.text))
    try:
        return float(os.stat(task.path).st_size)
    except (OSError, TypeError):
        return 0.0


def failed_row(timeout: float | None, task, kind: str, message: str) -> dict:
    """The row of a puzzle the batch engine gave up on (runs in the parent)."""
    row = _blank(task)
    if kind == "timeout":
        row.update(status=TIMEOUT, error=_why(TIMEOUT, "", timeout), seconds=timeout)
    else:
        row.update(status=FAILED, error=f"failed: {message}")
    return row


# ---------------------------------------------------------------------------- output
def options_of(args) -> str:
    """The options that change what a row says, as given ('' for none): rows made with
    other ones do not belong in the same file (``--resume`` refuses them)."""
    # the same file by another path, or the same rules disabled in another order, are the
    # same options
    parts = ["--ignore-entries"] if args.ignore_entries else []
    parts += [f"--rules {os.path.realpath(r)}" for r in args.rules]
    parts += [f"--disable {d}" for d in sorted(set(args.disable))]
    return " ".join(parts)


def out_row(row: dict, timing: bool = True, options: str = "") -> dict:
    """The row of an ``--out`` file (the issue's columns, in a fixed order; ``options``,
    when any were given, last)."""
    return {"source": row["file"], "status": row["status"], "level": row["level"],
            "hardest": row["hardest_rule"], "weight": row["max_weight"],
            "effort": row["effort"], "steps": row["steps"], "chain": row["chain"],
            "trial": row["trial"], "guessing": row["guessing"], "rows": row["rows"],
            "cols": row["cols"], "cells": row["cells"], "rater": row["rater"],
            "seconds": row["seconds"] if timing else None, "error": row["error"],
            "score": row["score"], "notes": row["notes"], "why": row["why"],
            "rules": row["rules"],
            **({"options": options} if options else {})}


def exit_code(counts: dict) -> int:
    for status, code in EXIT_ORDER:
        if counts.get(status):
            return code
    return EXIT_OK


def summary(counts: dict, total: int, kept: int, out: str, skipped: int = 0) -> str:
    names = ((SOLVED, "rated"), (MULTIPLE, "not unique"), (NONE, "no solution"),
             (TIMEOUT, "timed out"), (STALLED, "unrated"), (UNREADABLE, "unreadable"),
             (ERROR, "rule errors"), (FAILED, "failed"))
    parts = [f"{counts[s]} {label}" for s, label in names if counts.get(s)]
    resumed = f" ({kept} kept from before)" if kept else ""
    skip = f"; {skipped} file{'s' if skipped != 1 else ''} skipped (no puzzle)" \
        if skipped else ""
    return (f"{total} puzzle{'s' if total != 1 else ''}{resumed}: "
            f"{', '.join(parts) or 'none'}{skip}; rows in {out}\n")


# ---------------------------------------------------------------------------- run
def _check_resumed(sink, args, labels: list[str]) -> None:
    """Refuse to go on with rows that are not this run's: each must be for one of the
    inputs (in any order: rows are written as they finish), rated with the same options
    and by the same rater version."""

    index = match_rows([row.get("source") for row in sink.done], labels)
    for k, (row, at) in enumerate(zip(sink.done, index, strict=True)):
        why = None
        if at is None:
            why = (f"row {k + 1} is for {row.get('source')!r}, which the inputs do not give "
                   "(or give fewer times): not the same inputs, so not resumable")
        elif row.get("options", "") != options_of(args):
            was = row.get("options") or "no options"
            why = (f"row {k + 1} was rated with {was}, this run with "
                   f"{options_of(args) or 'no options'}: the rows would not compare")
        elif row.get("rater") != RATER_VERSION:
            why = (f"row {k + 1} was rated by rater version {row.get('rater')!r}, this "
                   f"deducer rates with {RATER_VERSION!r}: the rows would not compare")
        if why:
            sink.close(False)
            raise DeducerError(f"{why} (use --force to start over)", path=args.out)


def run(args) -> int:
    check_timeout(args)
    settings = settings_from(args)
    fmt = args.format
    out_fmt = args.out_format
    if fmt == "parquet":  # --format parquet names the output, not the puzzles
        fmt, out_fmt = None, "parquet"
    if (args.resume or args.no_timing or out_fmt or args.force) and not args.out:
        raise DeducerError("--resume, --force, --no-timing and --out-format go with --out")
    _ladder(tuple(args.rules), tuple(args.disable))  # a bad rule file: one error, up front
    outputs = []
    if args.out:
        out_fmt = out_format(args.out, out_fmt)
        outputs = [args.out, RowFile.journal_of(args.out, out_fmt)]
    # inputs first: an output that is also an input is refused before it is opened
    found = find(args.puzzles, fmt, args.name, outputs=outputs)
    if found.nothing():
        raise DeducerError(found.nothing() or "")
    # the one output check every command makes, after find's own, more precise, refusals
    # (an existing rows file is RowFile's to refuse: it offers --resume beside --force)
    check_outputs({"--out": args.out}, force=True, guard=not_over_a_puzzle)
    tasks = found.tasks
    sink = None
    if args.out:
        sink = RowFile(args.out, out_fmt, resume=args.resume, force=args.force)
    note = found.note()
    if note:
        print(note, file=sys.stderr)
    counts: Counter = Counter()
    labels = [t.label for t in tasks]
    kept, todo = _resumed(sink, args, labels, counts)
    tasks = [tasks[k] for k in todo]
    func = partial(rate_one, (fmt, tuple(args.rules), tuple(args.disable), args.timeout,
                              args.ignore_entries))
    on_fail = partial(failed_row, args.timeout)
    costs = [cost(t) for t in tasks]  # before the tasks are wrapped for Dask (a read each)
    if settings.engine == "dask":  # its workers may not see this machine's files
        tasks = Embedded(tasks)  # type: ignore[assignment]  # reads as the task list
    bar = Bar(len(tasks), sys.stderr.isatty() and not args.no_progress)
    rows: dict[int, dict] = {}  # without --out: the finished rows, by input index
    complete = False
    # the largest puzzles first, every worker's ladder loaded before its first one, and
    # each row kept the moment its puzzle is finished, whatever the order
    batch = batch_run(func, tasks, settings, on_fail, tick=bar, costs=costs,
                      init=partial(_ladder, tuple(args.rules), tuple(args.disable)),
                      in_order=False)
    with interruptible() as interrupted:
        try:
            for pair in batch:
                if pair is not None:
                    at, row = pair
                    counts[row["status"]] += 1
                    if sink is not None:
                        sink.write(out_row(row, timing=not args.no_timing,
                                           options=options_of(args)))
                    else:
                        rows[todo[at]] = row
                if interrupted():
                    break
            else:
                complete = True
        finally:
            # the workers stop now, not when the generator is collected
            batch.close()  # type: ignore[attr-defined]  # run() is a generator
            bar.close()
            if sink is not None:
                sink.close(complete, labels)
    done = sum(counts.values())
    if not complete:  # Ctrl-C: every finished row is kept (or printed), and said
        _interrupted(args, sink is not None, rows, done, kept + len(tasks))
        return EXIT_INTERRUPTED
    if sink is not None:
        emit(summary(counts, kept + len(tasks), kept, args.out, len(found.skipped)))
    else:
        emit(get("json" if args.json else "csv" if args.csv else "text")
             .rate_rows([rows[k] for k in sorted(rows)], why=args.why))
    return exit_code(counts)


def _resumed(sink, args, labels: list[str], counts: Counter) -> tuple[int, list[int]]:
    """With ``--resume``: how many rows the file keeps (counted into ``counts``) and the
    inputs still to rate, by index; else none kept and every input."""
    todo = list(range(len(labels)))  # the inputs this run rates, by index
    if sink is None or not sink.done:
        return 0, todo
    _check_resumed(sink, args, labels)
    for row in sink.done:
        counts[row.get("status")] += 1
    had = set(i for i in match_rows([r.get("source") for r in sink.done], labels))
    return len(sink.done), [k for k in todo if k not in had]


def _interrupted(args, to_file: bool, rows: dict[int, dict], done: int, total: int) -> None:
    """Ctrl-C: the rows finished so far printed (without ``--out``), and what is left said."""
    if to_file:
        print(f"deducer: interrupted: {args.out} keeps the {done} finished rows of "
              f"{total}; run the same command with --resume to rate the rest",
              file=sys.stderr)
    else:
        emit(get("json" if args.json else "csv" if args.csv else "text")
             .rate_rows([rows[k] for k in sorted(rows)], why=args.why))
        print(f"deducer: interrupted: {done} of {total} puzzles rated (their rows "
              "are above, in input order); the rest were not", file=sys.stderr)
