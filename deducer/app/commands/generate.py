"""``deducer generate``: new puzzles with one solution, at an exact level."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..cli import EXIT_INTERNAL, EXIT_OK, EXIT_UNDECIDED

EXTENSIONS = {"json": "json", "puzzlink": "url"}
#: the most puzzles one run makes (a file name has four digits or more; beyond this
#: the run is a mistake, not a plan)
MAX_COUNT = 1_000_000


def add_parser(sub) -> None:
    from ...generator.layout import SYMMETRIES

    p = sub.add_parser(
        "generate", help="make new puzzles with a unique solution at an exact level",
        description="Make new Kakuro puzzles: a symmetric layout like a published grid (runs "
                    "of 2 to 9 cells, no cut cell, no 2x2 black block), a fill, clues from "
                    "the fill, local repairs until the solution is unique, then steered to "
                    "the requested level (the walkthrough needs a step of that level and no "
                    "harder one). The same --seed gives the same puzzles whatever --jobs or "
                    "--engine is. Exit code 4 when --timeout stopped the run before --count "
                    "puzzles were made (those made are kept); 3 when a puzzle failed (it "
                    "kept killing its worker, or raised an error: one line each on stderr, "
                    "the others are still made).")
    p.add_argument("--size", default="12x12", metavar="ROWSxCOLS",
                   help="the whole grid, clue row and column included (default 12x12; "
                        "6x6 to 60x60, rectangles too)")
    p.add_argument("--level", help="Easy, Medium, Hard, Expert, Extreme or Unreasonable: the "
                                   "hardest technique the walkthrough needs (default: the "
                                   "mix of published collections, mostly Easy and Medium)")
    p.add_argument("--score", metavar="LOW-HIGH",
                   help="the rating's score range, how long and narrow the solve is "
                        "(e.g. 3-6, 5-, -4; see docs/rating.md)")
    p.add_argument("--count", type=int, default=1, metavar="N", help="how many (default 1)")
    p.add_argument("--seed", type=int, help="random seed (default: a random one, printed)")
    p.add_argument("--out", metavar="DIR", help="write DIR/0001.txt, DIR/0002.txt, ...")
    p.add_argument("--first", type=int, default=1, metavar="N",
                   help="start at puzzle N of the run (default 1), numbering the --out files "
                        "from N: a second batch in the same folder goes on after the "
                        "first, and with the same --seed makes the puzzles a longer run "
                        "would have made there")
    p.add_argument("--format", default="pipe", help="format of the files written "
                   "(default pipe; any writable format)")
    p.add_argument("--jsonl", metavar="FILE", help="one JSON object per puzzle (puzzle, "
                   "rating, seed, solution); '-' streams to standard output")
    p.add_argument("--symmetry", choices=SYMMETRIES, default="rot180",
                   help="of the black squares (default rot180)")
    p.add_argument("--density", type=float, default=None, metavar="F",
                   help="share of black squares inside the grid (default 0.27, the median "
                        "of janko's puzzles)")
    p.add_argument("--needs", metavar="RULE", help="the walkthrough must use this rule "
                   "(technique practice; see 'deducer rules')")
    p.add_argument("--max-chain", type=int, metavar="N",
                   help="longest chain a step may use, where the rating measures chains")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="stop the whole run after this long, keeping what was made")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p.add_argument("--resume", action="store_true",
                   help="go on with an interrupted run (the same --seed, --count and outputs): "
                        "the puzzles already in --out and --jsonl are kept, the rest made")
    from ..batch import add_engine_args

    add_engine_args(p, "generate")


@dataclass
class Failed:
    """A puzzle the batch engine gave up on: ``kind`` is "timeout" (its worker overran
    --timeout and was killed), "died" (it kept killing its worker) or "error"."""

    index: int
    seed: str
    kind: str
    message: str


@dataclass
class Refused:
    """A request a worker found no puzzle can meet (a DeducerError: no layout fits the size
    and symmetry, say): the same for every puzzle, so the run stops with its one line."""

    message: str


#: seconds between a worker's notes on how a puzzle's search goes (the progress line)
NOTE_EVERY = 0.5
_LADDER: list = []


def ladder():
    """The core ladder, loaded once per process (the batch's ``init`` loads it in each
    worker before its first puzzle; a puzzle used to load it again, 50 ms each)."""
    if not _LADDER:
        from ...engine import registry

        _LADDER.append(registry.load())
    return _LADDER[0]


def make(req, index: int):
    """Puzzle ``index`` (runs in a worker): its Result, or :class:`Refused`. A DeducerError
    comes back as a value, since the engines report an exception as a failed puzzle. How
    the search goes is sent to the command now and then (:func:`progress_text`)."""
    import time

    from ...errors import DeducerError
    from ...generator import core
    from ..batch.notes import note

    last = [time.monotonic()]

    def progress(p) -> None:
        now = time.monotonic()
        if now - last[0] >= NOTE_EVERY:
            last[0] = now
            note((p.attempts, p.level, p.low, p.high))

    try:
        return core.generate_one(req, index, ladder(), progress)
    except DeducerError as e:
        return Refused(str(e))


def progress_text(index: int, what, score) -> str:
    """``puzzle 2, attempt 7 (Medium; scores 6.8-7.9, asked 3-6)``: the progress line's
    words for a worker's note (the scores its drafts got so far, when a range is asked)."""
    attempts, level, low, high = what
    inside = [level] if level else []
    if score is not None:
        lo, hi = score
        asked = f"{'' if lo is None else f'{lo:g}'}-{'' if hi is None else f'{hi:g}'}"
        seen = "none yet" if low is None else f"{low:g}" if low == high else f"{low:g}-{high:g}"
        inside.append(f"scores {seen}, asked {asked}")
    return f"puzzle {index + 1}, attempt {attempts}" + (f" ({'; '.join(inside)})"
                                                        if inside else "")


def failed(seed: int, index: int, kind: str, message: str) -> Failed:
    """The batch engine's ``on_fail`` (runs in the parent)."""
    return Failed(index, f"{seed}:{index}", kind, message)


def results(req, count: int, settings, tick=None, start: int = 0, note=None):
    """The results of puzzles start..count-1, in order, from the batch engine (a generator:
    closing it stops the workers); ``note(index, what)`` hears how a puzzle's search goes."""
    from functools import partial

    from ..batch import run as batch_run

    yield from batch_run(partial(make, req), range(start, count), settings,
                         partial(failed, req.seed), tick=tick, init=ladder, note=note)


def _jsonl_done(path: str) -> int:
    """Complete lines of an interrupted ``--jsonl`` file (a half-written last line is cut)."""
    from ...errors import DeducerError

    try:
        with open(path, "r+b") as fh:
            data = fh.read()
            keep = data.rfind(b"\n") + 1
            if keep < len(data):
                fh.truncate(keep)
    except FileNotFoundError:
        return 0
    except OSError as e:
        raise DeducerError(f"cannot resume: {e.strerror or e}", path=path) from None
    return data[:keep].count(b"\n")


def plan_outputs(args, ext: str) -> int:
    """Check every output before anything is made, and return the index to start from
    (``--resume``: the puzzles already written in order). One-line errors: a folder that
    cannot be made, a name too long, an existing file without --force, two outputs that are
    one file."""
    import os
    from pathlib import Path

    from ...errors import DeducerError
    from ...puzzle.fileio import check_name, check_output

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
    start = args.count
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
            start = next((k for k, n in enumerate(names) if n not in have), args.count)
        clash = [n for n in (names[start:] if args.resume else names) if n in have]
        if clash and not args.force and not args.resume:
            shown = ", ".join(clash[:3]) + (f" and {len(clash) - 3} more" if len(clash) > 3
                                            else "")
            taken = [int(n.split(".")[0]) for n in have
                     if n.endswith(f".{ext}") and n.split(".")[0].isdigit()]
            after = max(taken, default=0) + 1
            raise DeducerError(f"already holds {shown}; pass --first {after} to add the new "
                               "puzzles after them, --resume to go on where a run stopped, "
                               "or --force to overwrite", path=args.out)
    if args.jsonl not in (None, "-"):
        if args.out and os.path.realpath(os.path.dirname(os.path.abspath(args.jsonl))) == \
                os.path.realpath(args.out) and os.path.basename(args.jsonl) in names:
            raise DeducerError("--jsonl names one of the puzzle files --out writes; give it "
                               "its own name", path=args.jsonl)
        if args.resume:
            check_output(args.jsonl, force=True)
            start = min(start, _jsonl_done(args.jsonl))
        else:
            check_output(args.jsonl, force=args.force)
    if not args.resume:
        return 0
    return start


def run(args) -> int:
    import random
    from pathlib import Path

    from ...errors import DeducerError
    from ...generator.request import check_request, make_request, parse_score
    from ...puzzle import formats
    from ...puzzle.fileio import write_output
    from ...render.jsonout import dumps as json_dumps
    from ..batch import settings_from
    from ..batch.progress import Bar

    if not 1 <= args.count <= MAX_COUNT:
        raise DeducerError(f"--count must be 1..{MAX_COUNT}")
    # --timeout is the whole run's (the shared deadline in the request); given to the engine
    # too, it is also each puzzle's backstop: a worker still busy a second past it is killed
    settings = settings_from(args)
    if args.format not in formats.writable():
        raise DeducerError(f"--format {args.format}: not a writable format; writable: "
                           f"{', '.join(formats.writable())}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    req = make_request(args.size, args.level, seed=seed, symmetry=args.symmetry,
                       density=args.density, needs=args.needs, max_chain=args.max_chain,
                       timeout=args.timeout, score=parse_score(args.score))
    check_request(req)
    ext = EXTENSIONS.get(args.format, "txt")
    start = plan_outputs(args, ext)  # every output checked before anything is made
    out_dir = Path(args.out) if args.out else None
    jsonl = None
    where = args.out
    try:
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
        where = args.jsonl
        if args.jsonl not in (None, "-"):
            jsonl = open(args.jsonl, "a" if args.resume else "w",  # noqa: SIM115 (streamed to)
                         encoding="utf-8")
            if args.resume:  # the lines past the start are made again
                _cut_lines(jsonl, args.jsonl, start)
    except OSError as e:
        raise DeducerError(f"cannot write: {e.strerror or e}", path=where) from None
    if args.seed is None:
        print(f"deducer: seed {seed}", file=sys.stderr)
    if start:
        print(f"deducer: {start} of {args.count} puzzles were made before; making the rest",
              file=sys.stderr)
    # on a terminal: puzzles made, and how the puzzle in hand goes (a score range far from
    # what a level gives at a size takes many attempts: the scores seen say why)
    bar = Bar(args.count - start, sys.stderr.isatty() and not args.no_progress, "generating")
    made = lost = 0
    levels: dict[str, int] = {}
    written: list[Path] = []
    stopped = False
    # --first N goes on with the run's numbering: puzzle N of the seed is the one a longer
    # run makes there, so a second batch with the same seed adds new puzzles
    offset = args.first - 1
    batch = results(req, offset + args.count, settings, tick=bar, start=offset + start,
                    note=lambda idx, what: bar.describe(progress_text(idx, what, req.score)))
    try:
        for res in _until_stopped(batch):
            if isinstance(res, Refused):
                raise DeducerError(res.message)
            if isinstance(res, Failed) and res.kind != "timeout":
                # one puzzle lost, the rest still made: its line now, exit code 3 at the end
                lost += 1
                bar.say(f"deducer: puzzle {res.index + 1} (seed {res.seed}) failed: "
                        f"{res.message}")
                continue
            if isinstance(res, Failed) or res.puzzle is None:
                stopped = True  # the shared deadline: the later puzzles meet it too
                break
            made += 1
            level = getattr(res.rating, "level", None)
            levels[level or "unrated"] = levels.get(level or "unrated", 0) + 1
            text = formats.dumps(res.puzzle, args.format)
            if out_dir is not None:
                target = out_dir / f"{res.index + 1:04d}.{ext}"
                written.append(target)
                if not (args.resume and target.exists()):  # made before: the same puzzle
                    write_output(target, text, force=args.force)
            line = json_dumps(res.to_json()).replace("\n", "") + "\n" \
                if args.jsonl else ""
            if jsonl is not None:
                jsonl.write(line)
                jsonl.flush()
            elif args.jsonl == "-":
                sys.stdout.write(line)
                sys.stdout.flush()
            if out_dir is None and args.jsonl != "-":
                sys.stdout.write(("\n" if made > 1 else "") + text)
                sys.stdout.flush()
        else:
            stopped = start + made + lost < args.count  # the backstop (cli.TimeLimit) ended it
    finally:
        batch.close()  # stops the workers now, not when the generator is collected
        bar.close()
        if jsonl is not None:
            jsonl.close()
    if made:
        print(_made_line(made, levels, req, args, written), file=sys.stderr)
    if stopped:
        print(f"deducer: --timeout stopped the run after {start + made} of {args.count} "
              "puzzles (--resume goes on from there)", file=sys.stderr)
    if lost:
        print(f"deducer: {lost} of {args.count} puzzles failed", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_UNDECIDED if stopped else EXIT_OK


def _cut_lines(fh, path: str, keep: int) -> None:
    """Keep the first ``keep`` lines of the file open (for appending) as ``fh``."""
    with open(path, "rb") as src:
        size = sum(len(src.readline()) for _ in range(keep))
    fh.truncate(size)
    fh.seek(size)


def _until_stopped(items):
    """``items`` until the command's --timeout backstop (cli.TimeLimit) interrupts them:
    a layout or a fill does not look at the clock, so the backstop can fire first; the
    puzzles made so far are kept and reported the same way as a stop at the deadline."""
    from ..cli import TimeLimit

    try:
        yield from items
    except TimeLimit:
        return


def _made_line(made: int, levels: dict[str, int], req, args, written: list) -> str:
    """``deducer: made 5 puzzles, 12x12, Hard 5: new/0001.txt .. new/0005.txt``."""
    from ...engine.rating import LEVELS

    order = {name: k for k, name in enumerate(LEVELS)}
    mix = ", ".join(f"{name} {n}" for name, n in
                    sorted(levels.items(), key=lambda kv: order.get(kv[0], len(order))))
    size = f"{req.rows}x{req.cols}"
    if written:
        where = str(written[0]) if len(written) == 1 else f"{written[0]} .. {written[-1]}"
    elif args.jsonl == "-":
        where = "printed as JSON lines"
    elif args.jsonl:
        where = f"{args.jsonl} (one JSON line each)"
    else:
        where = "printed above"
    return f"deducer: made {made} puzzle{'s' if made != 1 else ''}, {size}, {mix}: {where}"
