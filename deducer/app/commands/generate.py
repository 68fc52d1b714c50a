"""``deducer generate``: new puzzles with one solution, at an exact level."""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ...api import LEVELS, RATER_VERSION, SYMMETRIES, generate_one, generate_request
from ...api import ladder as load
from ...errors import DeducerError
from ...puzzle import formats
from ...puzzle.fileio import write_output
from ...render import get
from ...render.jsonout import dumps as json_dumps
from ..backstop import TimeLimit
from ..batch import add_engine_args, settings_from
from ..batch import run as batch_run
from ..batch.notes import note
from ..batch.output import LineFile
from ..batch.progress import Bar
from ..cli import number, whole
from ..exits import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNDECIDED
from .genfiles import plan_outputs, run_options, sort_jsonl, write_manifest

EXTENSIONS = {"json": "json", "puzzlink": "url"}
#: the most puzzles one run makes (a file name has four digits or more; beyond this
#: the run is a mistake, not a plan)
MAX_COUNT = 1_000_000


def add_parser(sub) -> None:
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
    p.add_argument("--count", type=whole, default=1, metavar="N", help="how many (default 1)")
    p.add_argument("--seed", type=whole, help="random seed (default: a random one, printed)")
    p.add_argument("--out", metavar="DIR", help="write DIR/0001.txt, DIR/0002.txt, ...")
    p.add_argument("--first", type=whole, default=1, metavar="N",
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
    p.add_argument("--density", type=number, default=None, metavar="F",
                   help="share of black squares inside the grid (default 0.27, the median "
                        "of janko's puzzles)")
    p.add_argument("--needs", metavar="RULE", help="the walkthrough must use this rule "
                   "(technique practice; see 'deducer rules')")
    p.add_argument("--max-chain", type=whole, metavar="N",
                   help="longest chain a step may use, where the rating measures chains")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="a YAML file of extra rules the walkthroughs use (repeatable); "
                        "--needs may name one of them")
    p.add_argument("--disable", action="append", default=[], metavar="ID",
                   help="leave the rule with this id out of the ladder (repeatable)")
    p.add_argument("--timeout", type=number, metavar="SECONDS",
                   help="stop the whole run after this long, keeping what was made")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p.add_argument("--resume", action="store_true",
                   help="go on with an interrupted run (the same --seed, --count and outputs): "
                        "the puzzles already in --out and --jsonl are kept, the rest made; "
                        "other options than the run's are refused")

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
_LADDER: dict = {}


def ladder(files: tuple[str, ...] = (), disable: tuple[str, ...] = ()):
    """The ladder (the core one, with ``--rules`` files and ``--disable`` ids), loaded once
    per process (the batch's ``init`` loads it in each worker before its first puzzle; a
    puzzle used to load it again, 50 ms each)."""
    key = (tuple(files), tuple(disable))
    if key not in _LADDER:
        _LADDER[key] = load(list(files), list(disable))
    return _LADDER[key]


def make(req, index: int, files: tuple[str, ...] = (), disable: tuple[str, ...] = ()):
    """Puzzle ``index`` (runs in a worker): its Result, or :class:`Refused`. A DeducerError
    comes back as a value, since the engines report an exception as a failed puzzle. How
    the search goes is sent to the command now and then (:func:`progress_text`)."""

    last = [time.monotonic()]

    def progress(p) -> None:
        now = time.monotonic()
        if now - last[0] >= NOTE_EVERY:
            last[0] = now
            note((p.attempts, p.level, p.low, p.high))

    try:
        return generate_one(req, index, rules=ladder(files, disable), progress=progress)
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


def results(req, indices, settings, tick=None, note=None,
            files: tuple[str, ...] = (), disable: tuple[str, ...] = ()):
    """The results of the puzzles ``indices``, as each is made (not in index order: a
    puzzle finished ahead of a slower earlier one is written at once), from the batch
    engine (a generator: closing it stops the workers); ``note(index, what)`` hears how a
    puzzle's search goes;
    ``files`` and ``disable``: the ``--rules`` files (absolute paths) and ``--disable`` ids
    each worker's ladder is loaded with."""

    items = list(indices)
    for pair in batch_run(partial(make, req, files=files, disable=disable), items,
                          settings, partial(failed, req.seed), tick=tick,
                          init=partial(ladder, files, disable), note=note, in_order=False):
        if pair is not None:  # None: a heartbeat (the bar is redrawn by tick)
            yield pair[1]


def run(args) -> int:
    req, settings, seed, files, disable = _request(args)
    ext = EXTENSIONS.get(args.format, "txt")
    options = run_options(req, args)
    # every output checked before anything is made; --resume: what each already holds
    in_out, in_jsonl = plan_outputs(args, ext, options)
    jsonl_file = args.jsonl not in (None, "-")
    have = _made_before(args, in_out, in_jsonl, jsonl_file)
    todo = [k for k in range(args.count) if k not in have]
    start = len(have)
    out_dir, jsonl = _open_outputs(args, jsonl_file, len(in_jsonl))
    if args.seed is None:
        print(f"deducer: seed {seed}", file=sys.stderr)
    if start:
        print(f"deducer: {start} of {args.count} puzzles were made before; making the rest",
              file=sys.stderr)
    # on a terminal: puzzles made, and how the puzzle in hand goes (a score range far from
    # what a level gives at a size takes many attempts: the scores seen say why)
    bar = Bar(len(todo), sys.stderr.isatty() and not args.no_progress, "generating")
    made = lost = 0
    levels: dict[str, int] = {}
    scores: list[float] = []
    written: list[Path] = []
    stopped = False
    # --first N goes on with the run's numbering: puzzle N of the seed is the one a longer
    # run makes there, so a second batch with the same seed adds new puzzles
    offset = args.first - 1
    batch = results(req, [offset + k for k in todo], settings, tick=bar,
                    note=lambda idx, what: bar.describe(progress_text(idx, what, req.score)),
                    files=files, disable=disable)
    # the files take each puzzle the moment it is made; standard output gets them in
    # index order (held back behind a slower earlier one)
    held: dict[int, tuple[str, str]] = {}
    shown = 0
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
            _tally(res.rating, levels, scores)
            text = get("text").generated(res, format=args.format)
            k = res.index - offset
            if out_dir is not None:
                _to_folder(out_dir, f"{res.index + 1:04d}.{ext}", text, args, options,
                           written, again=bool(args.resume and k in in_out),
                           kept=start + made - 1)
            line = json_dumps({**res.to_json(), "run": options}).replace("\n", "") + "\n" \
                if args.jsonl else ""
            if jsonl is not None and k not in in_jsonl:
                jsonl.write(line)
            if args.jsonl == "-" or (out_dir is None and jsonl is None):
                held[k] = (line, text)
                shown = _show_held(held, todo, shown, lines=args.jsonl == "-")
        else:
            stopped = start + made + lost < args.count  # backstop.TimeLimit ended it
    except KeyboardInterrupt:  # Ctrl-C: what was made is kept, and said
        batch.close()
        resume = " (--resume goes on from there)" if args.out or jsonl_file else ""
        print(f"deducer: interrupted: {start + made} of {args.count} puzzles made and "
              f"kept{resume}", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        batch.close()  # stops the workers now, not when the generator is collected
        bar.close()
        if jsonl is not None:
            jsonl.close()
    if jsonl_file:
        sort_jsonl(args.jsonl)  # the index order an uninterrupted run's file has
    if made:
        print(_made_line(made, levels, req, args, sorted(written), scores), file=sys.stderr)
    return _ending(args, start + made, lost, stopped)


def _made_before(args, in_out: set[int], in_jsonl: set[int], jsonl_file: bool) -> set[int]:
    """With ``--resume``: the puzzles every output already holds (none without a file)."""
    if not (args.out or jsonl_file):
        return set()
    every = set(range(args.count))
    return (in_out if args.out else every) & (in_jsonl if jsonl_file else every)


def _show_held(held: dict[int, tuple[str, str]], todo: list[int], shown: int, *,
               lines: bool) -> int:
    """Standard output gets the puzzles in index order: those ``held`` that come next
    (JSON lines when ``lines``, else the texts); returns how many are shown now."""
    while shown < len(todo) and todo[shown] in held:
        line, text = held.pop(todo[shown])
        shown += 1
        sys.stdout.write(line if lines else ("\n" if shown > 1 else "") + text)
        sys.stdout.flush()
    return shown


def _tally(rating, levels: dict[str, int], scores: list[float]) -> None:
    """A made puzzle's level counted, its score kept (for the closing line)."""
    level = getattr(rating, "level", None)
    levels[level or "unrated"] = levels.get(level or "unrated", 0) + 1
    if getattr(rating, "score", None) is not None:
        scores.append(rating.score)


def _ending(args, kept: int, lost: int, stopped: bool) -> int:
    """The closing lines of a run that ended (not interrupted), and its exit code."""
    if stopped:
        print(f"deducer: --timeout stopped the run after {kept} of {args.count} "
              "puzzles (--resume goes on from there)", file=sys.stderr)
    if lost:
        print(f"deducer: {lost} of {args.count} puzzles failed", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_UNDECIDED if stopped else EXIT_OK


def _request(args):
    """The request the command line makes (usage errors as DeducerError), with the batch
    settings, the seed and the rule files the workers load."""
    if not 1 <= args.count <= MAX_COUNT:
        raise DeducerError(f"--count must be 1..{MAX_COUNT}")
    # --timeout is the whole run's (the shared deadline in the request); given to the engine
    # too, it is also each puzzle's backstop: a worker still busy a second past it is killed
    settings = settings_from(args)
    if args.format not in formats.writable():
        raise DeducerError(f"--format {args.format}: not a writable format; writable: "
                           f"{', '.join(formats.writable())}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    # --rules: the workers load the same files (by absolute path: a worker's folder may
    # differ) and --needs may name one of their rules
    files = tuple(str(Path(f).resolve()) for f in args.rules)
    disable = tuple(args.disable)
    rules = ladder(files, disable) if files or disable else None
    req = generate_request(args.size, args.level, seed=seed, symmetry=args.symmetry,
                           density=args.density, needs=args.needs, max_chain=args.max_chain,
                           timeout=args.timeout, score=args.score, rules=rules)
    return req, settings, seed, files, disable


def _open_outputs(args, jsonl_file: bool, lines: int):
    """The ``--out`` folder (made) and the ``--jsonl`` file (opened), each None if not
    asked for."""
    out_dir = Path(args.out) if args.out else None
    jsonl = None
    where = args.out
    try:
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
        where = args.jsonl
        if jsonl_file:
            # unbuffered whole lines, each the moment its puzzle is made: a full disk
            # takes the cut line back off and says so
            jsonl = LineFile(args.jsonl, append=bool(args.resume), lines=lines,
                             what="puzzle")
    except OSError as e:
        raise DeducerError(f"cannot write: {e.strerror or e}", path=where) from None
    return out_dir, jsonl


def _to_folder(out_dir: Path, name: str, text: str, args, options: dict,
               written: list[Path], *, again: bool, kept: int) -> None:
    """One puzzle's file in ``--out`` (the manifest with the first); ``again``: made by an
    earlier run, left as it is; ``kept``: puzzles kept so far, for a full disk's message."""
    if not written:  # with the first file: a run that made none leaves none
        write_manifest(out_dir, options)
    target = out_dir / name
    written.append(target)
    if again:  # made before: the same puzzle
        return
    try:
        write_output(target, text, force=args.force or args.resume)
    except DeducerError as e:
        if e.message.startswith("cannot write"):  # a full disk, say
            e.message += (f"; {kept} puzzle{'' if kept == 1 else 's'} kept, "
                          "--resume goes on")
        raise


def _until_stopped(items):
    """``items`` until the command's --timeout backstop (backstop.TimeLimit) interrupts them:
    a layout or a fill does not look at the clock, so the backstop can fire first; the
    puzzles made so far are kept and reported the same way as a stop at the deadline."""

    try:
        yield from items
    except TimeLimit:
        return


def _made_line(made: int, levels: dict[str, int], req, args, written: list,
               scores: list[float] | None = None) -> str:
    """``deducer: made 5 puzzles, 12x12, Hard 5, scores 4.1-5.3 (rater 7): new/0001.txt ..
    new/0005.txt`` (each file carries its own level, score and rater)."""

    order = {name: k for k, name in enumerate(LEVELS)}
    mix = ", ".join(f"{name} {n}" for name, n in
                    sorted(levels.items(), key=lambda kv: order.get(kv[0], len(order))))
    size = f"{req.rows}x{req.cols}"
    if scores:
        low, high = min(scores), max(scores)
        mix += (f", score {low:g}" if low == high else f", scores {low:g}-{high:g}") + \
            f" (rater {RATER_VERSION})"
    if written:
        where = str(written[0]) if len(written) == 1 else f"{written[0]} .. {written[-1]}"
    elif args.jsonl == "-":
        where = "printed as JSON lines"
    elif args.jsonl:
        where = f"{args.jsonl} (one JSON line each)"
    else:
        where = "printed above"
    return f"deducer: made {made} puzzle{'s' if made != 1 else ''}, {size}, {mix}: {where}"
