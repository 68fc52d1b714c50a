"""``deducer convert``: read any format, write a writable one."""

from __future__ import annotations

import sys

from ..cli import EXIT_OK, add_puzzle_args, emit, read_puzzle


def add_parser(sub) -> None:
    p = sub.add_parser("convert", help="convert a puzzle to another format",
                       description="Read a puzzle in any format and write it in another.")
    add_puzzle_args(p)
    p.add_argument("--to", required=True, metavar="FORMAT",
                   help="target format: a writable one (pipe, backslash, json, puzzlink, "
                        "janko, dzn, fib)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")


def run(args) -> int:
    from ...puzzle.fileio import check_outputs
    from ...puzzle.formats import dumps

    check_outputs({"--output": args.output}, force=args.force, inputs=[args.puzzle])
    puzzle = read_puzzle(args)
    text = dumps(puzzle, args.to)
    lost = _left_out(puzzle, text, args.to)
    if lost:
        print(f"deducer: warning: the {args.to} format leaves out {lost}; the pipe and json "
              "formats keep them", file=sys.stderr)
    emit(text if text.endswith("\n") else text + "\n", args.output, args.force)
    return EXIT_OK


def _left_out(puzzle, text: str, fmt: str) -> str:
    """What of the player's progress the written text lost ("the player's 2 entries and 5
    pencil marks"), found by reading it back; "" when nothing was."""
    from ...errors import PuzzleError
    from ...puzzle.formats import loads

    if not puzzle.entries and not puzzle.pencil:
        return ""
    try:
        back = loads(text, fmt)
    except PuzzleError:
        back = puzzle.without_progress()
    parts = []
    entries = sum(back.entries.get(rc) != d for rc, d in puzzle.entries.items())
    marks = sum(back.pencil.get(rc) != m for rc, m in puzzle.pencil.items())
    if entries:
        parts.append(f"{entries} entr{'y' if entries == 1 else 'ies'}")
    if marks:
        parts.append(f"{marks} cell{'' if marks == 1 else 's'} of pencil marks")
    return f"the player's {' and '.join(parts)}" if parts else ""
