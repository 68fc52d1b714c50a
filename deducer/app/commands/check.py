"""``deducer check``: which of the player's entries (and pencil marks) fit no solution."""

from __future__ import annotations

from ...api import MAX_SOLUTIONS_CAP, CheckStatus, check
from ...errors import DeducerError
from ...render import get
from ..backstop import answer_in_hand, time_left
from ..cli import add_puzzle_args, emit, number, read_puzzle, whole
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED


def add_parser(sub) -> None:
    p = sub.add_parser(
        "check", help="check a player's entries against every solution",
        description="Report the entries that agree with no solution of the puzzle (an entry "
                    "that matches any one solution is fine), and pencil marks that leave out "
                    "every digit a solution puts in their cell. Exit code 0 when everything "
                    "fits, 1 when something is wrong (or the entries follow different "
                    "solutions, or the puzzle has no solution), 2 on bad input, 4 when the "
                    "time limit left something unchecked.")
    add_puzzle_args(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--max-solutions", type=whole, default=50, metavar="N",
                   help="enumerate at most N solutions (default 50); entries no solution "
                        "found agrees with are then checked one by one, so the verdict is "
                        "exact either way")
    p.add_argument("--no-pencil", action="store_true", help="check entries only")
    p.add_argument("--timeout", type=number, metavar="SECONDS",
                   help="give up after this long (the report says what is unchecked)")


def run(args) -> int:
    if not 1 <= args.max_solutions <= MAX_SOLUTIONS_CAP:
        raise DeducerError(f"--max-solutions must be 1..{MAX_SOLUTIONS_CAP}")
    if args.timeout is not None and not args.timeout > 0:
        raise DeducerError("--timeout must be a positive number of seconds")
    puzzle = read_puzzle(args)
    res = check(puzzle, max_solutions=args.max_solutions, timeout=time_left(),
                pencil=not args.no_pencil)
    answer_in_hand()
    emit(get("json" if args.json else "text").check(puzzle, res))
    if res.status == CheckStatus.OK:
        return EXIT_OK
    if res.status == CheckStatus.UNKNOWN:
        return EXIT_UNDECIDED
    return EXIT_NO_SOLUTION
