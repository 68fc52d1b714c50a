"""``deducer generate``: new puzzles with one solution, at an exact level."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..cli import EXIT_INTERNAL, EXIT_OK, EXIT_UNDECIDED

EXTENSIONS = {"json": "json", "puzzlink": "url"}


def add_parser(sub) -> None:
    from ...generate.layout import SYMMETRIES

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


def make(req, index: int):
    """Puzzle ``index`` (runs in a worker): its Result, or :class:`Refused`. A DeducerError
    comes back as a value, since the engines report an exception as a failed puzzle."""
    from ...errors import DeducerError
    from ...generate import core

    try:
        return core.generate_one(req, index)
    except DeducerError as e:
        return Refused(str(e))


def failed(seed: int, index: int, kind: str, message: str) -> Failed:
    """The batch engine's ``on_fail`` (runs in the parent)."""
    return Failed(index, f"{seed}:{index}", kind, message)


def results(req, count: int, settings, tick=None):
    """The results of puzzles 0..count-1, in order, from the batch engine (a generator:
    closing it stops the workers)."""
    from functools import partial

    from ..batch import run as batch_run

    yield from batch_run(partial(make, req), range(count), settings,
                         partial(failed, req.seed), tick=tick)


def run(args) -> int:
    import random
    import time
    from pathlib import Path

    from ...errors import DeducerError
    from ...generate.core import Request, check_request, level_name, parse_score, parse_size
    from ...puzzle import formats
    from ...puzzle.fileio import write_output
    from ...render.jsonout import dumps as json_dumps
    from ..batch import settings_from
    from ..batch.progress import Bar

    rows, cols = parse_size(args.size)
    if args.count < 1:
        raise DeducerError("--count must be at least 1")
    # --timeout is the whole run's (the shared deadline in the request); given to the engine
    # too, it is also each puzzle's backstop: a worker still busy a second past it is killed
    settings = settings_from(args)
    if args.format not in formats.writable():
        raise DeducerError(f"--format {args.format}: not a writable format; writable: "
                           f"{', '.join(formats.writable())}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    req = Request(rows, cols, level_name(args.level), seed, args.symmetry, args.density,
                  args.needs, args.max_chain, args.timeout,
                  None if args.timeout is None else time.time() + args.timeout,
                  parse_score(args.score))
    check_request(req)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        if out_dir.exists() and not out_dir.is_dir():
            raise DeducerError("--out must be a directory", path=str(out_dir))
        out_dir.mkdir(parents=True, exist_ok=True)
    ext = EXTENSIONS.get(args.format, "txt")
    jsonl = None
    if args.jsonl not in (None, "-"):
        if Path(args.jsonl).exists() and not args.force:
            raise DeducerError("already exists; pass --force to overwrite it", path=args.jsonl)
        jsonl = open(args.jsonl, "w", encoding="utf-8")  # noqa: SIM115 (streamed to)
    if args.seed is None:
        print(f"deducer: seed {seed}", file=sys.stderr)
    bar = Bar(args.count, sys.stderr.isatty() and not args.no_progress and args.count > 1,
              "generating")
    made = lost = 0
    stopped = False
    batch = results(req, args.count, settings, tick=bar)
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
            text = formats.dumps(res.puzzle, args.format)
            if out_dir is not None:
                write_output(out_dir / f"{res.index + 1:04d}.{ext}", text, force=args.force)
            line = json_dumps(res.to_json()).replace("\n", "") + "\n" \
                if args.jsonl else None
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
            stopped = made + lost < args.count  # the backstop (cli.TimeLimit) ended it
    finally:
        batch.close()  # stops the workers now, not when the generator is collected
        bar.close()
        if jsonl is not None:
            jsonl.close()
    if stopped:
        print(f"deducer: --timeout stopped the run after {made} of {args.count} puzzles",
              file=sys.stderr)
    if lost:
        print(f"deducer: {lost} of {args.count} puzzles failed", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_UNDECIDED if stopped else EXIT_OK


def _until_stopped(items):
    """``items`` until the command's --timeout backstop (cli.TimeLimit) interrupts them:
    a layout or a fill does not look at the clock, so the backstop can fire first; the
    puzzles made so far are kept and reported the same way as a stop at the deadline."""
    from ..cli import TimeLimit

    try:
        yield from items
    except TimeLimit:
        return
