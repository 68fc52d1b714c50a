"""``deducer render``: draw a puzzle as SVG (or PNG), its walkthrough as one HTML file, or
a printable PDF booklet of many puzzles (puzzles, solutions, walkthroughs)."""

from __future__ import annotations

import sys

from ...api import RATER_VERSION, explain, solve
from ...errors import DeducerError
from ...puzzle import formats
from ...puzzle.fileio import check_outputs, write_output
from ...render import get, svg
from ...render.pdf import Entry
from ..backstop import MIN_LEFT, TimeLimit, answer_in_hand, shielded, stretch, time_left
from ..batch.progress import Bar
from ..cli import add_puzzle_args, emit, not_over_a_puzzle, number, read_puzzle, whole
from ..exits import EXIT_OK, EXIT_UNDECIDED

#: the CPU seconds drawing and writing a walkthrough page costs a white cell, with room to
#: spare (measured: 0.7 s for a 200x200 grid's 32,400 cells, 1.0 s for 10,963 cells and
#: 15,028 steps): kept from the walk's share of --timeout, so that the page is written in
#: time
DRAW_SECONDS_PER_CELL = 4e-5


def draw_reserve(cells: int, slowdown: float = 1.0) -> float:
    """The wall seconds kept from ``--timeout`` for drawing the page of a puzzle of ``cells``
    white cells, on a machine where a CPU second takes ``slowdown`` wall seconds."""
    return DRAW_SECONDS_PER_CELL * cells * max(1.0, slowdown)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "render", help="draw a puzzle (SVG/PNG), its walkthrough (HTML), or a PDF booklet",
        description="Draw the board in the usual Kakuro look: clue squares split by a "
                    "diagonal, givens in bold, parity cells shaded. --html writes the whole "
                    "walkthrough as one self-contained page to step through in a browser. "
                    "--pdf writes a printable booklet of every puzzle named (every puzzle of "
                    "a file holding several, unless --name picks one): the puzzles with their "
                    "level, then the solutions, then with --walkthroughs every step.")
    add_puzzle_args(p, many=True)
    p.add_argument("--svg", metavar="FILE", help="write the board as SVG ('-': standard output)")
    p.add_argument("--png", metavar="FILE",
                   help="write the board as PNG (needs the optional package cairosvg)")
    p.add_argument("--html", metavar="FILE",
                   help="write the step-by-step walkthrough as a self-contained HTML page")
    p.add_argument("--pdf", metavar="FILE",
                   help="write a printable A4 booklet of all the puzzles named: puzzles, then "
                        "solutions (needs the optional package cairosvg, as --png does)")
    p.add_argument("--walkthroughs", action="store_true",
                   help="with --pdf: add every puzzle's walkthrough after the solutions")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--solution", action="store_true", help="draw the solved grid")
    what.add_argument("--step", type=whole, metavar="K",
                      help="draw the board after step K of the walkthrough, with K's marks")
    p.add_argument("--candidates", action="store_true",
                   help="draw candidates: the file's pencil marks, else every digit that fits "
                        "a combination of both runs (with --step: the walkthrough's)")
    p.add_argument("--no-labels", action="store_true", help="leave out row and column numbers")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.add_argument("--timeout", type=number, metavar="SECONDS",
                   help="stop after this long (exit code 4)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar for --pdf (it is drawn only on a terminal)")


def run(args) -> int:
    outputs = _outputs(args)

    drawn = {"--svg": args.svg, "--png": args.png, "--html": args.html, "--pdf": args.pdf}
    check_outputs(drawn, force=args.force, inputs=args.puzzles, guard=not_over_a_puzzle)
    if args.step is not None and args.step < 0:
        raise DeducerError("--step must be 0 (the start) or more")

    if args.pdf is not None:
        shown = sys.stderr.isatty() and not args.no_progress
        entries = _book_entries(args, shown)
        bar = _Bars(shown, "drawing pages")
        try:
            with shielded():  # cairo must not be stopped inside a callback
                data = get("pdf").book(entries, walkthroughs=args.walkthroughs,
                                       progress=bar)  # before writing
        finally:
            bar.close()
        write_output(args.pdf, data, force=args.force)
        if outputs == [args.pdf]:
            return EXIT_OK

    puzzle = read_puzzle(args, args.puzzles[0])
    explanation = None
    if args.html is not None or args.step is not None:
        # the time left after reading, less the drawing's (scaled to the machine's load: the
        # limit counts wall time): a walkthrough cut short by --timeout is still drawn (its
        # steps so far), and the command says so and exits 4
        left = time_left()
        if left is not None:
            left = max(min(left, MIN_LEFT), left - draw_reserve(len(puzzle.whites), stretch()))
        explanation = explain(puzzle, timeout=left)
        answer_in_hand()

    if args.svg is not None or args.png is not None:
        text = _board(args, puzzle, explanation)
        with shielded():  # cairo must not be stopped inside a callback
            png = svg.to_png(text) if args.png is not None else None  # fail before writing
        if args.svg is not None:
            emit(text, args.svg, force=args.force)
        if png is not None:
            write_output(args.png, png, force=args.force)

    if args.html is not None:
        emit(get("html").walkthrough(puzzle, explanation), args.html, force=args.force)
    if explanation is not None and explanation.status == "timeout":
        what = "Ctrl-C" if explanation.message.startswith("interrupted") else \
            "the time limit (--timeout)"
        print(f"deducer: {what} stopped the walkthrough after "
              f"{len(explanation.steps)} steps; the drawing shows them", file=sys.stderr)
        return EXIT_UNDECIDED
    return EXIT_OK


def _outputs(args) -> list[str]:
    """The outputs asked for, checked against each other (usage errors as DeducerError)."""
    outputs = [o for o in (args.svg, args.png, args.html, args.pdf) if o is not None]
    if not outputs:
        raise DeducerError("name an output: --svg FILE, --png FILE, --html FILE or --pdf FILE")
    if args.png == "-" or args.pdf == "-":
        raise DeducerError(f"--{'png' if args.png == '-' else 'pdf'} needs a file name, not "
                           "standard output")
    if len(args.puzzles) > 1 and outputs != [args.pdf]:
        raise DeducerError("--svg, --png and --html draw one puzzle; only --pdf takes several "
                           "files")
    if args.walkthroughs and args.pdf is None:
        raise DeducerError("--walkthroughs goes with --pdf")
    if outputs.count("-") > 1:
        raise DeducerError("only one output can go to standard output")
    return outputs


def _board(args, puzzle, explanation) -> str:
    """The SVG of ``--svg``/``--png``: the solution, the board at ``--step``, or the puzzle."""
    kw = {"labels": not args.no_labels}
    if args.solution:
        result = solve(puzzle, max_solutions=2, timeout=time_left())
        answer_in_hand()
        if not result.solutions and result.timed_out:
            raise TimeLimit()  # nothing to draw: the command's one "stopped" line
        if not result.solutions:
            raise DeducerError(f"no solution to draw: {result.reason or 'none found'}")
        if len(result.solutions) > 1:
            print("deducer: warning: the puzzle has more than one solution; drawing one",
                  file=sys.stderr)
        text = svg.solution_svg(puzzle, result.solutions[0], **kw)
    elif args.step is not None:
        if (explanation is not None and explanation.status == "timeout"
                and args.step > len(explanation.steps)):
            raise TimeLimit()  # the walk did not get to step K in time
        text = svg.step_svg(puzzle, explanation, args.step, candidates=args.candidates, **kw)
    else:
        text = svg.puzzle_svg(puzzle, candidates=args.candidates, **kw)
    return text


class _Bars:
    """A progress bar on a terminal for one stage of the booklet, called with (done,
    total); nothing when not ``shown``."""

    def __init__(self, shown: bool, what: str):
        self.shown, self.what = shown, what
        self.bar: Bar | None = None

    def __call__(self, done: int, total: int) -> None:
        if not self.shown:
            return
        if self.bar is None:
            self.bar = Bar(total, True, self.what)
        self.bar(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _book_entries(args, shown: bool = False) -> list:
    """Every puzzle the booklet holds, solved and rated; one with no solution is refused.
    Each is titled by its level and score (a publisher's booklet shows no file names)."""

    found = []
    for path in args.puzzles:
        if path == "-":
            raise DeducerError("--pdf reads puzzle files, not standard input")
        puzzles = ([formats.load(path, args.format, name=args.name)] if args.name
                   else formats.load_all(path, args.format))
        found += [(path, p) for p in puzzles]
    entries = []
    bar = _Bars(shown, "rating")
    try:
        for k, (path, p) in enumerate(found, 1):
            res = solve(p.without_progress(), max_solutions=2)
            if not res.solutions:
                raise DeducerError(f"no solution to print: {res.reason or 'none found'}",
                                   path=path)
            grade = p.grade
            exp = None
            title = "not rated"
            if args.walkthroughs or grade is None or grade.rater != RATER_VERSION:
                # the file's own grade (generate --out writes it) saves the walk when
                # no walkthrough is printed and the rater is this one
                exp = explain(p.without_progress())
                rating = exp.rating if exp.status == "solved" else None
                if rating is not None and rating.level is not None \
                        and rating.score is not None:
                    title = f"{rating.level}, score {rating.score:g}"
            else:
                title = f"{grade.level}, score {grade.score:g}"
            note = "several solutions (one shown)" if len(res.solutions) > 1 else ""
            entries.append(Entry(title, p, res.solutions[0], note, exp))
            bar(k, len(found))
    finally:
        bar.close()
    return entries

