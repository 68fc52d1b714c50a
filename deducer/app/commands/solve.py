"""``deducer solve``: every solution up to a cap, a uniqueness proof, or a clear no."""

from __future__ import annotations

from ..cli import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNDECIDED,
    add_color_arg,
    add_puzzle_args,
    emit,
    read_puzzle,
    screen_renderer,
)


def add_parser(sub) -> None:
    p = sub.add_parser("solve", help="solve a puzzle: unique / N solutions / no solution",
                       description="Solve a puzzle completely and say whether its solution "
                                   "is unique. Player entries in the file are kept.")
    add_puzzle_args(p)
    p.add_argument("--max-solutions", type=int, default=2, metavar="N",
                   help="stop after N solutions (default 2: enough to prove uniqueness)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (the contract: docs/json-contract.md)")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="stop searching after this long and report what was found")
    p.add_argument("--ignore-entries", action="store_true",
                   help="solve the bare puzzle, ignoring the player's entries")
    add_color_arg(p)


#: above this many solutions asked, they are spooled (a byte a cell) and written one by one
STREAM_FROM = 1000


def _spooled(puzzle, args):
    """Solve with the solutions streamed into a :class:`SolutionSpool` (bounded memory)."""
    from ...solver.search import SolveResult, iter_solutions
    from ...solver.spool import SolutionSpool

    stream = iter_solutions(puzzle, max_solutions=args.max_solutions, timeout=args.timeout,
                            use_entries=not args.ignore_entries)
    spool = SolutionSpool(len(puzzle.whites))
    for values in stream:
        spool.append(values)
    return SolveResult(stream.status, spool,  # type: ignore[arg-type]  # reads as the list
                       stream.complete, nodes=stream.nodes,
                       reason=stream.reason, timed_out=stream.timed_out, stats=stream.stats)


def run(args) -> int:
    import time

    from ...api import solve
    from ...errors import DeducerError
    from ...render import get
    from ...solver.search import ENTRY_BLAME, MAX_SOLUTIONS_CAP, NONE, UNDECIDED, entries_to_blame

    if not 1 <= args.max_solutions <= MAX_SOLUTIONS_CAP:
        raise DeducerError(f"--max-solutions must be 1..{MAX_SOLUTIONS_CAP}")
    if args.timeout is not None and not args.timeout > 0:  # also refuses nan
        raise DeducerError("--timeout must be a positive number of seconds")
    puzzle = read_puzzle(args)
    start = time.perf_counter()
    kind = "json" if args.json else screen_renderer(args)
    streamed = args.max_solutions > STREAM_FROM and kind in ("json", "text")
    if streamed:
        result = _spooled(puzzle, args)
    else:
        result = solve(puzzle, max_solutions=args.max_solutions, timeout=args.timeout,
                       use_entries=not args.ignore_entries)
    # the second look (are the entries to blame?) gets what is left of the time limit
    left = None if args.timeout is None else \
        max(0.05, args.timeout - (time.perf_counter() - start))
    if (result.status == NONE and not args.ignore_entries
            and entries_to_blame(puzzle, left)):
        result.reason = f"{result.reason}{ENTRY_BLAME}"
    if streamed:
        import sys

        from ...render import jsonout, text

        (jsonout if kind == "json" else text).write_solve(puzzle, result, sys.stdout.write)
        sys.stdout.flush()
        result.solutions.close()
    else:
        emit(get(kind).solve(puzzle, result))
    if result.status == UNDECIDED:
        return EXIT_UNDECIDED  # a time limit that found nothing has not shown there is none
    if result.status == NONE:
        return EXIT_NO_SOLUTION
    return EXIT_OK
