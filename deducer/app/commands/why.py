"""``deducer why``: why a digit cannot go in a cell (or, with ``--must``, why it must)."""

from __future__ import annotations

import argparse
import re
import shlex

from ...api import why
from ...errors import DeducerError, PuzzleError, printable
from ...render import get
from ..backstop import answer_in_hand, time_left
from ..cli import add_puzzle_args, emit, read_puzzle
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED
from .explain import add_rule_args, check_timeout, load_rules

HELP = """\
Explain why DIGIT cannot go in CELL (with --must: why CELL must be DIGIT), from the grid
as given (its givens and entries; pencil marks are never used as candidates, but steps
your marks already show are flagged). The ladder's walkthrough is followed to the step
that removes the digit, and only the steps that step depends on are kept, each with its
proof; of the answers found, the easiest is given (the lightest hardest step, then the
lightest in all, then the fewest steps): never harder, nor longer, than the walkthrough's
own way there. An answer of more than 20 steps says so and gives the command that plays
the walkthrough up to the step that removes the digit.

CELL is written like r3c4 (row 3, column 4, counted from 1 across the whole grid,
clue squares included), as in every walkthrough.

Exit code 0 for an explanation; 1 when there is none to give: DIGIT is the cell's
solution digit (with --must: it is not), the puzzle has several solutions that differ
there, the cell already holds a digit, the grid has no solution, or the rules do not
get there (they stall first); 2 on bad input; 4 when the time limit ran out first."""

# [0-9], not \d: only ASCII digits are digits (\d takes '٣', and int() reads it as 3)
_CELL = re.compile(r"\s*[rR]([0-9]{1,6})\s*[cC]([0-9]{1,6})\s*\Z")


def add_parser(sub) -> None:
    p = sub.add_parser("why", help="why a digit cannot go in a cell (or --must: why it must)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_args(p)
    p.add_argument("cell", metavar="CELL", help="the cell, like r3c4")
    p.add_argument("digit", metavar="DIGIT", help="a digit 1-9")
    p.add_argument("--must", action="store_true",
                   help="explain why CELL must be DIGIT instead")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    add_rule_args(p)


def parse_cell(text: str) -> tuple[int, int]:
    """``r3c4`` -> (2, 3), the 0-based coordinates the engine uses."""

    m = _CELL.match(text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise DeducerError(f"{printable(text)[:40]!r} is not a cell like r3c4")
    return int(m.group(1)) - 1, int(m.group(2)) - 1


def run(args) -> int:
    check_timeout(args)
    cell = parse_cell(args.cell)
    # str.isdigit() is true of '²' and '⑤' too (and int() then fails on them), and of '٣'
    # and '５', which int() reads as 3 and 5: only the ASCII digits are digits here
    if not (len(args.digit) == 1 and args.digit in "123456789"):
        raise DeducerError(f"{printable(args.digit)[:20]!r} is not a digit 1-9")
    puzzle = read_puzzle(args)
    rules = load_rules(args)

    try:
        answer = why(puzzle, cell, int(args.digit), must=args.must, rules=rules,
                     timeout=time_left())
    except PuzzleError as e:  # a cell of the grid that is not white: name the file
        raise e.located(args.puzzle) if args.puzzle != "-" else e from None
    answer_in_hand()
    emit(get("json" if args.json else "text").why(puzzle, answer))
    if answer.kind == "explained" and answer.long and not args.json:
        # the walkthrough's own way there may be easier to follow than a long answer

        emit(f"Or follow the walkthrough up to its step {answer.path}, which removes it: "
             f"deducer explain {shlex.quote(args.puzzle)} --max-steps {answer.path}\n")
    if answer.kind == "explained":
        # an answer whose trimming the time limit stopped is true but maybe longer than
        # another run's: flagged, as a cut-short walkthrough is (answers do not depend on
        # the machine otherwise)
        return EXIT_OK if answer.complete else EXIT_UNDECIDED
    if answer.kind == "timeout":
        return EXIT_UNDECIDED
    return EXIT_NO_SOLUTION
