"""``deducer convert``: read any format, write a writable one."""

from __future__ import annotations

from ..cli import EXIT_OK, add_puzzle_args, emit, read_puzzle


def add_parser(sub) -> None:
    p = sub.add_parser("convert", help="convert a puzzle to another format",
                       description="Read a puzzle in any format and write it in another.")
    add_puzzle_args(p)
    p.add_argument("--to", required=True, metavar="FORMAT",
                   help="target format: a writable one (pipe, backslash, json, puzzlink, janko, dzn)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")


def run(args) -> int:
    from ...puzzle.fileio import check_output
    from ...puzzle.formats import dumps

    if args.output not in (None, "-"):
        check_output(args.output, force=args.force)
    puzzle = read_puzzle(args)
    text = dumps(puzzle, args.to)
    emit(text if text.endswith("\n") else text + "\n", args.output, args.force)
    return EXIT_OK
