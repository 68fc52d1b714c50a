"""``deducer replay``: step through a solving record, set beside the walkthrough."""

from __future__ import annotations

import argparse
import json
import sys

from ...api import replay
from ...errors import DeducerError
from ...puzzle import formats
from ...puzzle.fileio import decompressed, read_input, read_limited
from ...render import player
from ..backstop import answer_in_hand, time_left
from ..cli import emit, emit_lines, whole
from ..exits import EXIT_OK
from .explain import add_rule_args, check_timeout, load_rules

HELP = """\
Step through a solving record move by move: a solve saved by the play page ("Save my
solve": the puzzle and its moves, each with its time) or a janko.at test-solver's record
(an x-janko file or page, or a line of the janko.at scrapes' JSON records: --name picks
one of several). Each move is printed with its time (janko.at's records have none) and
marked when its digit is wrong or when it parts from the walkthrough's order (the cell is
not among the walkthrough's next five cells still empty, counted from its start or from
the solver's previous cell); then how many of the solver's cells kept to that order and
the cells the solver took longest over (without times: the cells with the most moves).

--at N prints the board as it was after move N instead (digits, then the pencil marks);
--boards prints the board after every move. The walkthrough is deducer explain's."""


def add_parser(sub) -> None:
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
    if path == "-":
        return formats.decode(decompressed(read_limited(sys.stdin.buffer, "<stdin>"),
                                           "<stdin>"), "<stdin>"), "<stdin>"
    return formats.decode(read_input(path, path), path), path


def run(args) -> int:
    check_timeout(args)
    text, label = _text(args.record)
    rep = replay(text, label, name=args.name, rules=load_rules(args), timeout=time_left())
    answer_in_hand()
    record = rep.record
    n = len(record.moves)
    if args.at is not None and not 0 <= args.at <= n:
        raise DeducerError(f"--at {args.at}: the record has moves 1..{n} (0: before the "
                           "first)", path=label)
    if args.json:
        emit(json.dumps(rep.to_json()) + "\n")
    elif args.at is not None:
        mv = record.moves[args.at - 1] if args.at else None
        head = f"after move {args.at} of {n}" + (
            f" ({player.move_text(mv)}" + (f", {player.clock(mv.ms)}" if mv.ms is not None
                                          else "") + ")" if mv else "")
        emit(head + "\n" + player.replay_board(rep, args.at))
    elif args.boards:
        def lines():
            for k, mv in enumerate(record.moves, start=1):
                when = f" at {player.clock(mv.ms)}" if mv.ms is not None else ""
                yield f"move {k}: {player.move_text(mv)}{when}\n"
                yield player.replay_board(rep, k) + "\n"
            yield from player.summary_lines(rep)
        emit_lines(lines())
    else:
        emit_lines(player.replay_lines(rep))
    return EXIT_OK
