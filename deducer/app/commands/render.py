"""``deducer render``: draw a puzzle as SVG (or PNG), its walkthrough as one HTML file, or
a printable PDF booklet of many puzzles (puzzles, solutions, walkthroughs)."""

from __future__ import annotations

import sys

from ..cli import (
    EXIT_OK,
    EXIT_UNDECIDED,
    MIN_LEFT,
    TimeLimit,
    add_puzzle_args,
    answer_in_hand,
    emit,
    not_over_a_puzzle,
    number,
    read_puzzle,
    shielded,
    stretch,
    time_left,
    whole,
)

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


def run(args) -> int:

    from ...errors import DeducerError
    from ...render import svg

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
    from ...puzzle.fileio import check_outputs

    drawn = {"--svg": args.svg, "--png": args.png, "--html": args.html, "--pdf": args.pdf}
    check_outputs(drawn, force=args.force, inputs=args.puzzles, guard=not_over_a_puzzle)
    if args.step is not None and args.step < 0:
        raise DeducerError("--step must be 0 (the start) or more")

    if args.pdf is not None:
        from ...puzzle.fileio import write_output
        from ...render import get

        entries = _book_entries(args)
        with shielded():  # cairo must not be stopped inside a callback
            data = get("pdf").book(entries, walkthroughs=args.walkthroughs)  # before writing
        write_output(args.pdf, data, force=args.force)
        if outputs == [args.pdf]:
            return EXIT_OK

    puzzle = read_puzzle(args, args.puzzles[0])
    explanation = None
    if args.html is not None or args.step is not None:
        from ...api import explain

        # the time left after reading, less the drawing's (scaled to the machine's load: the
        # limit counts wall time): a walkthrough cut short by --timeout is still drawn (its
        # steps so far), and the command says so and exits 4
        left = time_left()
        if left is not None:
            left = max(min(left, MIN_LEFT), left - draw_reserve(len(puzzle.whites), stretch()))
        explanation = explain(puzzle, timeout=left)
        answer_in_hand()

    if args.svg is not None or args.png is not None:
        kw = {"labels": not args.no_labels}
        if args.solution:
            from ...api import solve

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
        with shielded():  # cairo must not be stopped inside a callback
            png = svg.to_png(text) if args.png is not None else None  # fail before writing
        if args.svg is not None:
            emit(text, args.svg, force=args.force)
        if png is not None:
            from ...puzzle.fileio import write_output

            write_output(args.png, png, force=args.force)

    if args.html is not None:
        from ...render import get

        emit(get("html").walkthrough(puzzle, explanation), args.html, force=args.force)
    if explanation is not None and explanation.status == "timeout":
        what = "Ctrl-C" if explanation.message.startswith("interrupted") else \
            "the time limit (--timeout)"
        print(f"deducer: {what} stopped the walkthrough after "
              f"{len(explanation.steps)} steps; the drawing shows them", file=sys.stderr)
        return EXIT_UNDECIDED
    return EXIT_OK


def _book_entries(args) -> list:
    """Every puzzle the booklet holds, solved and rated; one with no solution is refused."""
    from pathlib import Path

    from ...api import explain, solve
    from ...errors import DeducerError
    from ...puzzle import formats
    from ...render.pdf import Entry

    entries = []
    # a file is named by its name, or by the path given when two files share a name
    # (lib/med/0001.txt and lib/hard/0001.txt were both "0001.txt")
    names = [Path(path).name for path in args.puzzles]
    for path in args.puzzles:
        if path == "-":
            raise DeducerError("--pdf reads puzzle files, not standard input")
        puzzles = ([formats.load(path, args.format, name=args.name)] if args.name
                   else formats.load_all(path, args.format))
        shown = Path(path).name if names.count(Path(path).name) == 1 else str(path)
        for p in puzzles:
            label = shown + (f": {p.name}" if p.name and len(puzzles) > 1 else "")
            res = solve(p.without_progress(), max_solutions=2)
            if not res.solutions:
                raise DeducerError(f"no solution to print: {res.reason or 'none found'}",
                                   path=path)
            exp = explain(p.without_progress())
            note = f"Level {exp.rating.level}" if exp.status == "solved" else ""
            if len(res.solutions) > 1:
                note = "several solutions (one shown)"
            entries.append(Entry(label, p, res.solutions[0], note, exp))
    return entries

