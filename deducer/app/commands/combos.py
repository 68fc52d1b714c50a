"""``deducer combos``: the combinations of a run's sum and length, with players' filters."""

from __future__ import annotations

import argparse
import json

from ...api import combinations
from ...errors import DeducerError, printable
from ...puzzle.combos import ALL
from ...render.player import combos_text
from ..cli import emit, whole
from ..exits import EXIT_NO_SOLUTION, EXIT_OK

HELP = """\
Print every combination of LEN distinct digits 1-9 that sums to SUM, one a line (23 in 3:
6+8+9), then the digits every one of them has and the digits none has.

--allow DIGITS keeps the combinations using only those digits (the digits a run's cells
may still hold); --need DIGITS those holding every one of them (digits already placed).
Digits are written together (689) or with commas.

Exit code 0 when at least one combination is printed, 1 when none is left, 2 on bad input
(a sum no LEN digits can make, a digit that is not 1-9)."""


def add_parser(sub) -> None:
    p = sub.add_parser("combos", help="the combinations of a run's sum and length",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("total", metavar="SUM", type=whole, help="the run's sum (its clue)")
    p.add_argument("length", metavar="LEN", type=whole, help="how many cells the run has")
    p.add_argument("--allow", metavar="DIGITS", default=None,
                   help="only combinations using these digits alone (e.g. 12345)")
    p.add_argument("--need", metavar="DIGITS", default=None,
                   help="only combinations holding all of these digits (e.g. 9)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def run(args) -> int:
    allow = ALL if args.allow is None else digit_mask(args.allow, "--allow")
    need = 0 if args.need is None else digit_mask(args.need, "--need")
    res = combinations(args.total, args.length, allow=allow, need=need)
    if args.json:
        emit(json.dumps(res.to_json()) + "\n")
    else:
        emit(combos_text(res, allow=allow, need=need))
    return EXIT_OK if res.combos else EXIT_NO_SOLUTION


def digit_mask(text: str, what: str) -> int:
    """The mask of digits written as ``689``, ``6,8,9`` or ``6 8 9``."""

    m = 0
    for ch in text:
        if ch in ", ":
            continue
        if not "1" <= ch <= "9":
            raise DeducerError(f"{what} takes digits 1-9 (like 689), not "
                               f"{printable(text)[:20]!r}")
        m |= 1 << (int(ch) - 1)
    return m
