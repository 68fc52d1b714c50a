"""``deducer replay``: step through a solving record, set beside the walkthrough."""

from __future__ import annotations

from ..cli import EXIT_OK, emit, emit_lines, whole

HELP = """\
Step through a solving record move by move: a solve saved by the play page ("Save my
solve": the puzzle and its moves, each with its time) or a janko.at test-solver's record
(an x-janko file or page, or a line of the janko.at scrapes' JSON records: --name picks
one of several). Each move is printed with its time (janko.at's records have none) and
marked when its digit is wrong or when it parts from the walkthrough's order (the cell is
not among the walkthrough's next five cells still empty); then how many of the solver's
cells kept to that order and the cells the solver took longest over.

--at N prints the board as it was after move N instead (digits, then the pencil marks);
--boards prints the board after every move. The walkthrough is deducer explain's."""


def add_parser(sub) -> None:
    import argparse

    from .explain import add_rule_args

    p = sub.add_parser("replay", help="step through a solving record (Save my solve, "
                                      "janko.at's records) beside the walkthrough",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", metavar="RECORD",
                   help="an x-janko file with moves, a janko.at page or JSON records, or '-'")
    p.add_argument("--name", help="which record of a file holding several (e.g. 2 or 002)")
    p.add_argument("--at", type=whole, metavar="N",
                   help="print the board as it was after move N (0: before the first)")
    p.add_argument("--boards", action="store_true",
                   help="print the board after every move")
    p.add_argument("--json", action="store_true", help="print the replay as JSON")
    add_rule_args(p)


def _text(path: str) -> tuple[str, str]:
    import sys

    from ...puzzle import formats
    from ...puzzle.fileio import decompressed, read_input, read_limited

    if path == "-":
        return formats.decode(decompressed(read_limited(sys.stdin.buffer, "<stdin>"),
                                           "<stdin>"), "<stdin>"), "<stdin>"
    return formats.decode(read_input(path, path), path), path


def board_text(rep, upto: int) -> str:
    """The board after ``upto`` moves: the grid with its digits, then each marked cell."""
    from ...assist.replay import board_after
    from ...puzzle.combos import fmt_mask
    from ...puzzle.model import cell_name
    from ...render.text import draw_grid

    p = board_after(rep, upto)
    out = draw_grid(p, fixed=p.entries) + "\n"
    marked = [f"{cell_name(rc)} {fmt_mask(m)}" for rc, m in sorted(p.pencil.items())
              if rc not in p.entries]
    if marked:
        out += "marks: " + ", ".join(marked) + "\n"
    return out


def run(args) -> int:
    import json

    from ...api import explain
    from ...assist import replay
    from ...errors import DeducerError
    from ..cli import answer_in_hand, time_left
    from .explain import check_timeout, load_rules

    check_timeout(args)
    text, label = _text(args.record)
    puzzle, record, solver = replay.read(text, label, name=args.name)
    n = len(record.moves)
    if args.at is not None and not 0 <= args.at <= n:
        raise DeducerError(f"--at {args.at}: the record has moves 1..{n} (0: before the "
                           "first)", path=label)
    walk = explain(puzzle, load_rules(args), timeout=time_left())
    rep = replay.compare(puzzle, record, walk, solver)
    answer_in_hand()
    if args.json:
        emit(json.dumps(rep.to_json()) + "\n")
    elif args.at is not None:
        mv = record.moves[args.at - 1] if args.at else None
        head = f"after move {args.at} of {n}" + (
            f" ({replay.move_text(mv)}" + (f", {replay.clock(mv.ms)}" if mv.ms is not None
                                          else "") + ")" if mv else "")
        emit(head + "\n" + board_text(rep, args.at))
    elif args.boards:
        def lines():
            for k, mv in enumerate(record.moves, start=1):
                when = f" at {replay.clock(mv.ms)}" if mv.ms is not None else ""
                yield f"move {k}: {replay.move_text(mv)}{when}\n"
                yield board_text(rep, k) + "\n"
            yield from replay.summary_lines(rep)
        emit_lines(lines())
    else:
        emit_lines(replay.text_lines(rep))
    return EXIT_OK
