"""``deducer explain``: the walkthrough, step by step, simplest rule first, and its rating."""

from __future__ import annotations

import argparse
import dataclasses
import math
from pathlib import Path

from ...api import ExplainStatus, explain, ladder
from ...errors import DeducerError, printable
from ...puzzle.fileio import check_outputs
from ...puzzle.model import MAX_CELLS
from ...render import get
from ...render.terminal import RENDERER as TERMINAL
from ...render.text import RENDERER as TEXT
from ..backstop import answer_in_hand, time_left
from ..cli import (
    add_color_arg,
    add_puzzle_args,
    emit,
    emit_lines,
    is_url,
    not_over_a_puzzle,
    number,
    read_puzzle,
    screen_renderer,
    whole,
)
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED


def add_rule_args(p, *, timeout: bool = True) -> None:
    """``--rules``/``--disable``/``--timeout``, shared by explain, rate, hint and rules."""
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="a YAML file of extra rules (repeatable; a rule with an existing id "
                        "replaces it)")
    p.add_argument("--disable", action="append", default=[], metavar="ID",
                   help="leave the rule with this id out of the ladder (repeatable)")
    if timeout:
        p.add_argument("--timeout", type=number, metavar="SECONDS",
                       help="stop after this long and report how far it got")


def load_rules(args):
    """The ladder the command line asks for (with ``--priority ID=P`` where the command
    has it)."""

    return moved(ladder(args.rules, args.disable), getattr(args, "move", None) or [])


def priority_arg(text: str) -> tuple[str, float]:
    """``ID=P`` of ``--priority``: a rule id and a finite priority >= 0."""

    rid, eq, p = text.partition("=")
    try:
        value = float(p)
    except ValueError:
        value = -1.0
    if not eq or not rid or not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} is not ID=P (a rule id and a finite "
                                         "priority >= 0)")
    return rid, value


def moved(rules, moves):
    """``rules`` with each ``(id, priority)`` of ``moves`` at its new place on the ladder
    (``rules test --priority`` moves its file's rules so, and its replay line says it)."""

    if not moves:
        return rules
    by_id = {r.id: r for r in rules}
    for rid, p in moves:
        if rid not in by_id:
            raise DeducerError(f"--priority {rid}={p:g}: no active rule has that id")
        by_id[rid].priority = p
    rules.sort(key=lambda r: (r.priority, r.id))
    return rules


def cap_chains(rules, max_chain: int | None):
    """The chain rungs (rules with a ``max_len`` parameter) set to chains of at most
    ``max_chain`` links (above the default cut-off too: such chains then rate Extreme)."""
    if max_chain is not None:
        for r in rules:
            if "max_len" in r.params:
                r.params = {**r.params, "max_len": max_chain}
    return rules


def check_timeout(args) -> None:
    t = getattr(args, "timeout", None)
    if t is not None and not t > 0:
        raise DeducerError("--timeout must be a positive number of seconds")


def written_line(files, exp) -> str:
    """The one line ``explain --html/--markdown`` prints: the files written and the rating."""

    names = " and ".join(f"{printable(f)} ({kind})" for f, kind in files)
    steps = len(exp.steps)
    line = f"wrote {names}: {steps} step{'s' if steps != 1 else ''}"
    rating = exp.rating
    if rating is not None and rating.level is not None and rating.score is not None:
        line += f", {rating.level} (score {rating.score:g})"
    return line + f", {exp.status.value}\n"


def add_parser(sub) -> None:
    p = sub.add_parser(
        "explain", help="explain a solution step by step and rate it",
        description="Solve the puzzle the way a strong human does, one deduction at a time "
                    "(simplest rule first), print every step and the difficulty rating. "
                    "Exit code 0 when done (solved, several solutions, or stalled), 1 when "
                    "the puzzle has no solution, 2 on bad input, 4 when the time limit "
                    "stopped the walkthrough.")
    add_puzzle_args(p)
    p.add_argument("--json", action="store_true",
                   help="print JSON (docs/json-contract.md: status, steps, rating, "
                        "solution, plus rows, cols, message and, for several solutions, "
                        "solutions)")
    p.add_argument("--markdown", metavar="FILE",
                   help="also write a Markdown walkthrough to FILE ('-': print it instead of "
                        "the text walkthrough)")
    p.add_argument("--html", metavar="FILE",
                   help="also write a self-contained HTML walkthrough (board at every step)")
    p.add_argument("--force", action="store_true",
                   help="overwrite existing --markdown/--html files")
    p.add_argument("--print", action="store_true", dest="print_too",
                   help="with --markdown/--html files, print the walkthrough on the terminal "
                        "too (without it, one line names the files written)")
    add_rule_args(p)
    add_color_arg(p)
    p.add_argument("--priority", dest="move", type=priority_arg, action="append",
                   default=[], metavar="ID=P",
                   help="put rule ID at priority P on the ladder (repeatable; what 'rules "
                        "test --priority' does, and its replay lines say)")
    p.add_argument("--max-steps", type=whole, metavar="N", help="stop after N steps")
    p.add_argument("--max-chain", type=whole, metavar="N",
                   help="use chains of at most N links (the chain rules' max_len); a longer "
                        "argument is left to trial, which rates Extreme")
    p.add_argument("--ignore-entries", action="store_true",
                   help="explain the bare puzzle, ignoring the player's entries")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print each step's whole case analysis under its sentence (the "
                        "JSON's 'detail'; HTML and Markdown walkthroughs fold it out)")


def run(args) -> int:
    check_timeout(args)
    if args.max_steps is not None and args.max_steps < 0:
        raise DeducerError("--max-steps must be 0 or more")

    if args.max_chain is not None and not 1 <= args.max_chain <= MAX_CELLS:
        # a chain has at most a link per white cell; 10**20 once made the search run on
        raise DeducerError(f"--max-chain must be 1..{MAX_CELLS} (a link per white cell at "
                           "most)")
    puzzle = read_puzzle(args)
    rules = cap_chains(load_rules(args), args.max_chain)
    if args.ignore_entries:
        puzzle = puzzle.without_progress()
    md_to_stdout = args.markdown == "-"
    files = [(f, kind) for f, kind in ((args.markdown, "markdown"), (args.html, "html"))
             if f and f != "-"]
    if args.html == "-":
        raise DeducerError("--html needs a file name")

    # every output checked before the work, and before writing any
    outputs = {"--markdown": args.markdown, "--html": args.html}
    check_outputs(outputs, force=args.force, inputs=[args.puzzle], guard=not_over_a_puzzle)
    exp = explain(puzzle, rules, timeout=time_left(), max_steps=args.max_steps)
    answer_in_hand()
    titled = puzzle
    if puzzle.name is None and args.puzzle != "-" and not is_url(args.puzzle):
        titled = dataclasses.replace(puzzle, name=Path(args.puzzle).name)
    for f, kind in files:
        emit(get(kind).walkthrough(titled, exp), f, args.force)
    if md_to_stdout:
        markdown = get("markdown").walkthrough(titled, exp)
    if md_to_stdout and not args.json:
        emit(markdown)
    elif args.json:
        emit(get("json").walkthrough(puzzle, exp))
    elif files and not args.print_too:
        # a publisher asking for files wants the files, not hundreds of lines on the terminal
        emit(written_line(files, exp))
    elif screen_renderer(args) == "terminal":
        emit(TERMINAL.walkthrough(puzzle, exp, verbose=args.verbose))
    else:
        emit_lines(TEXT.walkthrough_lines(puzzle, exp, verbose=args.verbose))
    if exp.status == ExplainStatus.NONE:
        return EXIT_NO_SOLUTION
    return EXIT_UNDECIDED if exp.status == ExplainStatus.TIMEOUT else EXIT_OK
