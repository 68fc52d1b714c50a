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


def run(args) -> int:
    import time

    from ...errors import DeducerError
    from ...render import get
    from ...solve.search import ENTRY_BLAME, MAX_SOLUTIONS_CAP, NONE, entries_to_blame, solve

    if not 1 <= args.max_solutions <= MAX_SOLUTIONS_CAP:
        raise DeducerError(f"--max-solutions must be 1..{MAX_SOLUTIONS_CAP}")
    if args.timeout is not None and not args.timeout > 0:  # also refuses nan
        raise DeducerError("--timeout must be a positive number of seconds")
    puzzle = read_puzzle(args)
    start = time.perf_counter()
    result = solve(puzzle, max_solutions=args.max_solutions, timeout=args.timeout,
                   use_entries=not args.ignore_entries)
    # the second look (are the entries to blame?) gets what is left of the time limit
    left = None if args.timeout is None else \
        max(0.05, args.timeout - (time.perf_counter() - start))
    if (result.status == NONE and not args.ignore_entries
            and entries_to_blame(puzzle, left)):
        result.reason = f"{result.reason}{ENTRY_BLAME}"
    emit(get("json" if args.json else screen_renderer(args)).solve(puzzle, result))
    if result.status == NONE:
        # a time limit that found nothing has not shown there is no solution
        return EXIT_NO_SOLUTION if result.complete else EXIT_UNDECIDED
    return EXIT_OK
