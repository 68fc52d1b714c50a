"""``deducer rate``: rate many puzzle files: a table, CSV or JSON, in input order."""

from __future__ import annotations

import sys

from ..cli import EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, emit
from .explain import add_rule_args, check_timeout

#: rate limits each puzzle with --timeout, not the whole command (see cli.main)
PER_PUZZLE_TIMEOUT = True

COLUMNS = ("file", "size", "status", "level", "hardest", "effort", "steps", "trial/guessing")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "rate", help="rate the difficulty of many puzzle files",
        description="Explain every puzzle step by step and tabulate its rating: size, level, "
                    "hardest step (weight and rule), total effort, number of steps, and the "
                    "steps that needed trial or guessing. A file holding several puzzles is "
                    "rated puzzle by puzzle (unless --name picks one). Output is in input "
                    "order and identical whatever --jobs is. A file that cannot be read is a "
                    "row with its error; exit code 2 if any, else 1 if some puzzle has no "
                    "solution, else 0.")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files")
    from ...puzzle.formats import _MODULES

    p.add_argument("--format", choices=sorted(_MODULES), help="the files' format (default: "
                   "detect for each file)")
    p.add_argument("--name", help="which puzzle of multi-puzzle files (default: all)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="print CSV")
    out.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="rate in N worker processes (default 1)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is only drawn when stderr is a terminal)")
    add_rule_args(p)


# ---------------------------------------------------------------------------- tasks
def _expand(paths, fmt: str | None, name: str | None) -> list[tuple]:
    """(label, path, name, error) per puzzle; multi-puzzle files become one task each."""
    from pathlib import Path

    from ...errors import DeducerError
    from ...puzzle import formats

    tasks = []
    for path in paths:
        if name is not None:
            tasks.append((f"{path}:{name}", path, name, None))
            continue
        try:
            data = Path(path).read_bytes()
            text = formats.decode(data, path)
            f = formats.get(fmt) if fmt else formats.detect(text, path)
            names = f.names(text) if f.names is not None else []
        except DeducerError as e:
            tasks.append((path, path, None, str(e.located(path))))
            continue
        except OSError as e:
            msg = "no such file" if isinstance(e, FileNotFoundError) else \
                f"cannot read: {e.strerror or e}"
            tasks.append((path, path, None, f"{path}: {msg}"))
            continue
        if len(names) > 1:
            tasks += [(f"{path}:{n}", path, n, None) for n in names]
        else:
            tasks.append((path, path, None, None))
    return tasks


_RULES: dict = {}


def _ladder(rule_files: tuple, disable: tuple):
    from ...explain import registry

    key = (rule_files, disable)
    if key not in _RULES:
        _RULES[key] = registry.load(extra=list(rule_files), disable=list(disable))
    return _RULES[key]


def rate_one(task) -> dict:
    """Rate one puzzle (runs in a worker process): a row of plain data."""
    from ...errors import DeducerError
    from ...explain.engine import explain
    from ...explain.rating import GUESS_RULES, TRIAL_RULES
    from ...puzzle import formats

    label, path, name, error, fmt, rule_files, disable, timeout = task
    row: dict = {"file": label, "path": path, "name": name}
    if error is not None:
        row["error"] = error
        return row
    try:
        puzzle = formats.load(path, fmt, name=name)
        exp = explain(puzzle, _ladder(rule_files, disable), timeout=timeout)
    except DeducerError as e:
        row["error"] = str(e.located(path))
        return row
    r = exp.rating
    hardest = max(exp.steps, key=lambda s: s.weight, default=None)
    trial = sum(1 for s in exp.steps if s.rule in TRIAL_RULES)
    guess = sum(1 for s in exp.steps if s.rule in GUESS_RULES)
    row.update(
        rows=puzzle.rows, cols=puzzle.cols, cells=len(puzzle.whites), status=exp.status,
        level=r.level, max_weight=round(r.max_weight, 3),
        hardest_rule=hardest.rule if hardest else None, score=r.score, steps=r.steps,
        trial=trial, guessing=guess, message=exp.message, rating=r.to_json(),
    )
    return row


def _run_tasks(tasks: list, jobs: int, progress) -> list[dict]:
    results: list = [None] * len(tasks)
    if jobs <= 1 or len(tasks) <= 1:
        for k, t in enumerate(tasks):
            results[k] = rate_one(t)
            progress(k + 1)
        return results
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
        futures = {pool.submit(rate_one, t): k for k, t in enumerate(tasks)}
        done = 0
        for fut in as_completed(futures):
            results[futures[fut]] = fut.result()
            done += 1
            progress(done)
    return results


class _Progress:
    """A progress bar on stderr (rich), drawn only when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.bar = None
        if enabled and total > 0:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self.bar = Progress("rating", BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=Console(stderr=True),
                                transient=True)
            self.task = self.bar.add_task("rating", total=total)
            self.bar.start()

    def __call__(self, done: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


# ---------------------------------------------------------------------------- output
def _cells(row: dict) -> list[str]:
    if "error" in row:
        return [row["file"], "-", "error", "", "", "", "", row["error"]]
    fallback = []
    if row["trial"]:
        fallback.append(f"trial x{row['trial']}")
    if row["guessing"]:
        fallback.append(f"guessing x{row['guessing']}")
    hardest = f"{row['max_weight']:g}" + (f" {row['hardest_rule']}" if row["hardest_rule"]
                                           else "")
    return [row["file"], f"{row['rows']}x{row['cols']}/{row['cells']}", row["status"],
            row["level"], hardest, str(row["score"]), str(row["steps"]),
            ", ".join(fallback) or "-"]


def table(rows: list[dict]) -> str:
    body = [_cells(r) for r in rows]
    heads = list(COLUMNS)
    widths = [max(len(x) for x in col) for col in zip(heads, *body, strict=True)]
    right = {5, 6}  # numbers
    lines = []
    for line in [heads] + body:
        cells = [c.rjust(w) if k in right and line is not heads else c.ljust(w)
                 for k, (c, w) in enumerate(zip(line, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def csv_text(rows: list[dict]) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["file", "rows", "cols", "cells", "status", "level", "max_weight",
                "hardest_rule", "score", "steps", "trial", "guessing", "error"])
    for r in rows:
        if "error" in r:
            w.writerow([r["file"], "", "", "", "error", "", "", "", "", "", "", "", r["error"]])
            continue
        w.writerow([r["file"], r["rows"], r["cols"], r["cells"], r["status"], r["level"],
                    f"{r['max_weight']:g}", r["hardest_rule"] or "", r["score"], r["steps"],
                    r["trial"], r["guessing"], ""])
    return buf.getvalue()


def json_text(rows: list[dict]) -> str:
    from ...explain.rating import RATER_VERSION
    from ...render.jsonout import dumps

    return dumps({"version": RATER_VERSION, "puzzles": rows})


def run(args) -> int:
    from ...errors import DeducerError

    check_timeout(args)
    if args.jobs < 1:
        raise DeducerError("--jobs must be at least 1")
    _ladder(tuple(args.rules), tuple(args.disable))  # a bad rule file: one error, up front
    tasks = [(*t, args.format, tuple(args.rules), tuple(args.disable), args.timeout)
             for t in _expand(args.puzzles, args.format, args.name)]
    bar = _Progress(len(tasks), sys.stderr.isatty() and not args.no_progress)
    try:
        rows = _run_tasks(tasks, args.jobs, bar)
    finally:
        bar.close()
    if args.json:
        emit(json_text(rows))
    elif args.csv:
        emit(csv_text(rows))
    else:
        emit(table(rows))
    if any("error" in r for r in rows):
        return EXIT_BAD_INPUT
    if any(r.get("status") == "none" for r in rows):
        return EXIT_NO_SOLUTION
    return EXIT_OK
