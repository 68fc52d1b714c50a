"""``deducer solve``: every solution up to a cap, a uniqueness proof, or a clear no."""

from __future__ import annotations

import sys

from ...api import MAX_SOLUTIONS_CAP, SolveStatus, solve
from ...errors import DeducerError
from ...render import get
from ..backstop import answer_in_hand, time_left
from ..cli import add_color_arg, add_puzzle_args, emit, number, read_puzzle, screen_renderer, whole
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED


def add_parser(sub) -> None:
    p = sub.add_parser("solve", help="solve a puzzle: unique / N solutions / no solution",
                       description="Solve a puzzle completely and say whether its solution "
                                   "is unique. Player entries in the file are kept.")
    add_puzzle_args(p)
    p.add_argument("--max-solutions", type=whole, default=2, metavar="N",
                   help="stop after N solutions (default 2: enough to prove uniqueness)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (the contract: docs/json-contract.md)")
    p.add_argument("--timeout", type=number, metavar="SECONDS",
                   help="stop searching after this long and report what was found")
    p.add_argument("--ignore-entries", action="store_true",
                   help="solve the bare puzzle, ignoring the player's entries")
    add_color_arg(p)


#: above this many solutions asked, they are spooled (a byte a cell) and written one by one
STREAM_FROM = 1000


def run(args) -> int:
    if not 1 <= args.max_solutions <= MAX_SOLUTIONS_CAP:
        raise DeducerError(f"--max-solutions must be 1..{MAX_SOLUTIONS_CAP}")
    if args.timeout is not None and not args.timeout > 0:  # also refuses nan
        raise DeducerError("--timeout must be a positive number of seconds")
    puzzle = read_puzzle(args)
    renderer = get("json" if args.json else screen_renderer(args))
    # many solutions asked of a medium that writes them one at a time: spooled (a byte a
    # cell), never all in memory as lists, nor as one string
    streamed = args.max_solutions > STREAM_FROM and renderer.name in ("json", "text")
    result = solve(puzzle, max_solutions=args.max_solutions, timeout=time_left(),
                   use_entries=not args.ignore_entries, spool=streamed, blame_entries=True)
    answer_in_hand()
    if streamed:
        renderer.write_solve(puzzle, result, sys.stdout.write)
        sys.stdout.flush()
        result.solutions.close()  # type: ignore[attr-defined]  # spooled: a SolutionSpool
    else:
        emit(renderer.solve(puzzle, result))
    if result.status == SolveStatus.UNDECIDED:
        return EXIT_UNDECIDED  # a time limit that found nothing has not shown there is none
    if result.status == SolveStatus.NONE:
        return EXIT_NO_SOLUTION
    return EXIT_OK
