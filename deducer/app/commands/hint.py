"""``deducer hint``: the next simplest deduction for a partly filled grid, in three tiers."""

from __future__ import annotations

import argparse

from ...api import all_steps, hint
from ...render import get
from ..backstop import answer_in_hand, time_left
from ..cli import add_puzzle_args, emit, read_puzzle
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED
from .explain import add_rule_args, check_timeout, load_rules

HELP = """\
Give the next simplest deduction for a partly filled grid (entries and pencil marks, e.g.
the | format: '7' an entry, '(1,2,4)' pencil marks, '!7' a given).

Tiers: vague names the technique to look for; concrete adds where (the runs and cells);
full gives the whole step.

Mistakes come first: an entry that no solution of the puzzle has in its cell, or pencil
marks that leave out every digit a solution puts there, is reported instead of a hint
(on a puzzle with several solutions an entry is wrong only if no solution agrees). An
entry that repeats a digit of its run, or fills a run to the wrong sum, is named by that
rule. On a puzzle with several solutions, every hint says so first.

Pencil marks are not used as candidates: the hint reasons from the clues, givens and
entries only, so it never rests on a mark set by mistake or by guess. They decide what
the hint is about: the next thing you can do on the grid, write a digit or rub out a
pencil mark. Without pencil marks, that is the next digit you can write, with the steps
that lead to it, and only those (numbered, at the full tier). A step your marks already
show in full is skipped, and the hint says how many were. A cell holding one pencil mark
is still empty: writing that digit is a hint of its own.

--all lists every deduction the ladder finds at the position instead, simplest first (the
first is the step a walkthrough from here makes), each with its sentence, what it does and
what its proof rests on; trial and guessing are left out, and so is a deduction that one
listed before it already makes in full.

Exit code 0 for a hint (or a complete grid), 1 when something is wrong (a mistake, entries
from different solutions, no solution), 2 on bad input, 4 when --timeout ran out before a
hint was found (with --all: before every step was found; the steps found so far are
listed)."""


def add_parser(sub) -> None:
    p = sub.add_parser("hint", help="the next simplest deduction (vague, concrete or full)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_args(p)
    # the tiers of api.HINT_LEVELS, written out: --help must not load the hint module
    p.add_argument("--level", choices=("vague", "concrete", "full"), default="vague",
                   help="how much to give away (default vague)")
    p.add_argument("--json", action="store_true", help="print the hint as JSON")
    p.add_argument("--all", action="store_true", help="list every deduction open here, "
                   "simplest first, each with its sentence, effect and proof (--json: "
                   '{"steps": [...]}, each as explain --json gives a step)')
    add_rule_args(p)


def run(args) -> int:
    check_timeout(args)
    puzzle = read_puzzle(args)
    rules = load_rules(args)
    if args.all:
        found = all_steps(puzzle, rules, timeout=time_left())
        answer_in_hand()
        emit(get("json" if args.json else "text").all_steps(puzzle, found))
        if not found.complete:  # the steps found so far, said to be cut short
            return EXIT_UNDECIDED
        return {"mistake": EXIT_NO_SOLUTION, "conflict": EXIT_NO_SOLUTION,
                "unsolvable": EXIT_NO_SOLUTION, "timeout": EXIT_UNDECIDED}.get(found.kind,
                                                                              EXIT_OK)
    h = hint(puzzle, args.level, rules, timeout=time_left())
    answer_in_hand()
    emit(get("json" if args.json else "text").hint(puzzle, h))
    if h.kind in ("mistake", "conflict", "unsolvable"):
        return EXIT_NO_SOLUTION
    if h.kind == "timeout":
        return EXIT_UNDECIDED
    return EXIT_OK
