"""What ``deducer generate`` writes and resumes from: the run's options and its manifest in
the ``--out`` folder, the ``--jsonl`` file's records, and every output checked before a
puzzle is made."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

from ...api import RATER_VERSION
from ...errors import DeducerError
from ...puzzle.fileio import check_name, check_outputs, refuse_a_link, temp_name, write_output
from ..cli import not_over_a_puzzle

#: the file in an ``--out`` folder that says which runs made its puzzles (hidden: ``rate``
#: and ``ls`` leave it out)
MANIFEST = ".deducer-generate.json"


def run_options(req, args) -> dict:
    """What a run is: the options that decide which puzzles it makes, where they go in its
    numbering and how they are written. A resume with other ones would mix two runs."""

    return {"seed": req.seed, "size": f"{req.rows}x{req.cols}", "level": req.level,
            "score": None if req.score is None else list(req.score),
            "symmetry": req.symmetry, "density": req.density, "needs": req.needs,
            "max_chain": req.max_chain, "first": args.first, "count": args.count,
            "format": args.format, "rater": RATER_VERSION}


#: how each option of :func:`run_options` is said on the command line
_FLAGS = {"seed": "--seed", "size": "--size", "level": "--level", "score": "--score",
          "symmetry": "--symmetry", "density": "--density", "needs": "--needs",
          "max_chain": "--max-chain", "first": "--first", "count": "--count",
          "format": "--format", "rater": "rater version"}


def _said(key: str, value) -> str:
    if key == "score" and value is not None:
        low, high = value
        value = f"{'' if low is None else f'{low:g}'}-{'' if high is None else f'{high:g}'}"
    return f"{_FLAGS[key]} {'(none)' if value is None else value}"


def refuse_other_run(was: dict, now: dict, where: str) -> None:
    """Refuse a resume whose options are not the run's (a one-line error naming them)."""

    differ = [k for k in _FLAGS if was.get(k) != now.get(k)]
    if differ:
        then = ", ".join(_said(k, was.get(k)) for k in differ)
        asked = ", ".join(_said(k, now.get(k)) for k in differ)
        raise DeducerError(f"was made by a run with {then}; this one asks {asked}: resuming "
                           "would mix two runs (give the run's options, --first N to add a "
                           "new batch after it, or --force to start over)", path=where)


def _read_manifest(out) -> list[dict]:
    """The runs an ``--out`` folder's manifest lists (none when it has none)."""

    path = out / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        runs = data["runs"]
        if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
            raise TypeError
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise DeducerError("is not the list of runs 'deducer generate' writes (cannot tell "
                           "which run made the puzzles here)", path=str(path)) from None
    return runs


def check_out_resume(out, options: dict, made: int) -> None:
    """An ``--out`` folder may be resumed only by the run that made its puzzles: the one
    its manifest lists at the same ``--first``, with the same options."""

    was = next((r for r in _read_manifest(out) if r.get("first") == options["first"]), None)
    if was is not None:
        refuse_other_run(was, options, str(out))
    elif made:
        raise DeducerError(f"holds puzzles {options['first']:04d}.. but no record of the run "
                           "that made them (an older deducer, or files put there): cannot "
                           "tell whether it had the same options; pass --first N to add a "
                           "new batch after them, or --force to start over", path=str(out))


def write_manifest(out, options: dict) -> None:
    """Record the run in the folder's manifest: it replaces the runs whose numbers it
    overlaps (their files are written over)."""

    lo, hi = options["first"], options["first"] + options["count"]
    runs = [r for r in _read_manifest(out)
            if not (isinstance(r.get("first"), int) and isinstance(r.get("count"), int)
                    and r["first"] < hi and lo < r["first"] + r["count"])]
    runs.append(options)
    runs.sort(key=lambda r: r["first"] if isinstance(r.get("first"), int) else 0)
    text = json.dumps({"format": "deducer-generate", "version": 1, "runs": runs}, indent=1)
    write_output(out / MANIFEST, text + "\n", force=True)


def _jsonl_done(path: str, options: dict) -> set[int]:
    """The puzzles (0-based in the run) an interrupted ``--jsonl`` file holds, by the
    records' own indices, in any order and with any gaps (puzzles are written as they are
    made); a half-written last line is cut, after checking that every record was made by
    this run (a refused resume leaves the file as it was)."""

    first = options.get("first", 1) - 1
    count = options.get("count", 0)
    done: set[int] = set()
    try:
        with open(path, "r+b") as fh:
            data = fh.read()
            keep = data.rfind(b"\n") + 1
            for n, line in enumerate(data[:keep].splitlines(), 1):
                try:
                    was = json.loads(line)
                except (ValueError, RecursionError):
                    was = None
                if not isinstance(was, dict) or not isinstance(was.get("run"), dict):
                    raise DeducerError("is not a file of records this deducer's generate "
                                       "--jsonl writes (no 'run' options to go on with)",
                                       path=path, line=n)
                refuse_other_run(was["run"], options, f"{path}:{n}")
                index = was.get("index")
                if not isinstance(index, int) or isinstance(index, bool) or \
                        not first <= index < first + count:
                    raise DeducerError(f"record {n} is puzzle {index!r}, not one of this "
                                       f"run's {first}..{first + count - 1}: not resumable "
                                       "(--force starts over)", path=path, line=n)
                if index - first in done:
                    raise DeducerError(f"record {n} is puzzle {index} again: not resumable "
                                       "(--force starts over)", path=path, line=n)
                done.add(index - first)
            if keep < len(data):
                fh.truncate(keep)
    except FileNotFoundError:
        return set()
    except OSError as e:
        raise DeducerError(f"cannot resume: {e.strerror or e}", path=path) from None
    return done


def sort_jsonl(path: str) -> None:
    """Put a ``--jsonl`` file's records in index order (they are written as they are
    made): a new file under a temporary name, renamed into place, so an interruption
    leaves the old one whole. A finished run's file is then the same bytes whether it
    ran through or was resumed."""

    with open(path, "rb") as fh:
        lines = fh.read().splitlines(keepends=True)
    keys = []
    for line in lines:
        try:
            keys.append(json.loads(line).get("index"))
        except (ValueError, AttributeError, RecursionError):
            keys.append(None)
    if None in keys or keys == sorted(keys):
        return
    tmp = os.path.join(os.path.dirname(os.path.abspath(path)),
                       temp_name(os.path.basename(path)) + "tmp")
    try:
        with open(tmp, "wb") as dst:
            for _k, line in sorted(zip(keys, lines, strict=True), key=lambda kl: kl[0]):
                dst.write(line)
    except OSError as e:
        os.unlink(tmp) if os.path.exists(tmp) else None
        raise DeducerError(f"cannot write: {e.strerror or e}; the puzzles are kept, in the "
                           "order they were made", path=path) from None
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    os.replace(tmp, path)


def _generated(text: str) -> bool:
    """Is this text the JSON lines a ``generate --jsonl`` run wrote (which ``--force`` may
    replace, where another file holding puzzles is never replaced)?"""

    lines = [line for line in text.split("\n") if line.strip()]
    try:
        objs = [json.loads(line) for line in lines]
    except (ValueError, RecursionError):
        return False
    return bool(objs) and all(isinstance(o, dict) and {"index", "seed", "puzzle"} <= set(o)
                              for o in objs)


def plan_outputs(args, ext: str, options: dict | None = None
                 ) -> tuple[set[int], set[int]]:
    """Check every output before anything is made, and return the puzzles (0-based in the
    run) already in ``--out`` and in ``--jsonl`` (``--resume``: those the same run wrote,
    in any order and with any gaps; empty sets otherwise). One-line
    errors: a folder that cannot be made, a name too long, an existing file without
    --force, a puzzle file as --jsonl (--force or not), two outputs that are one file, a
    resume with other options than the run's."""

    if args.resume and args.force:
        raise DeducerError("--resume keeps what was made, --force replaces it: give one")
    if args.resume and args.seed is None:
        raise DeducerError("--resume needs the --seed of the run it goes on with (printed as "
                           "'deducer: seed N' when it started)")
    if args.resume and not args.out and args.jsonl in (None, "-"):
        raise DeducerError("--resume goes with --out or --jsonl FILE")
    if args.first < 1:
        raise DeducerError("--first must be 1 or more")
    names = [f"{k + args.first:04d}.{ext}" for k in range(args.count)]
    in_out: set[int] = set()
    in_jsonl: set[int] = set()
    if args.out:
        out = Path(args.out)
        check_name(out)
        if out.exists() and not out.is_dir():
            raise DeducerError("--out must be a directory", path=args.out)
        try:
            have = set(os.listdir(out)) if out.is_dir() else set()
        except OSError as e:
            raise DeducerError(f"cannot read the folder: {e.strerror or e}", path=args.out) \
                from None
        if args.resume:
            in_out = {k for k, n in enumerate(names) if n in have}
            if options is not None:
                check_out_resume(out, options, len(in_out))
        clash = [n for n in names if n in have] if not args.resume else []
        if clash and not args.force and not args.resume:
            shown = ", ".join(clash[:3]) + (f" and {len(clash) - 3} more" if len(clash) > 3
                                            else "")
            taken = [int(n.split(".")[0]) for n in have
                     if n.endswith(f".{ext}") and n.split(".")[0].isascii()
                     and n.split(".")[0].isdigit()]
            after = max(taken, default=0) + 1
            raise DeducerError(f"already holds {shown}; pass --first {after} to add the new "
                               "puzzles after them, --resume to go on where a run stopped, "
                               "or --force to overwrite", path=args.out)
    if args.jsonl not in (None, "-"):
        if args.out and os.path.realpath(os.path.dirname(os.path.abspath(args.jsonl))) == \
                os.path.realpath(args.out) and os.path.basename(args.jsonl) in names:
            raise DeducerError("--jsonl names one of the puzzle files --out writes; give it "
                               "its own name", path=args.jsonl)
        # the one output check every command makes; generate's own records are the one
        # file holding puzzles that --force (or --resume) may write over
        guard = partial(not_over_a_puzzle, may_replace=_generated)
        check_outputs({"--jsonl": args.jsonl}, force=args.force or args.resume, guard=guard)
        if args.resume:
            refuse_a_link(args.jsonl)
            in_jsonl = _jsonl_done(args.jsonl, options or {})
    return in_out, in_jsonl
