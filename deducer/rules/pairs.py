"""Pair complement: two empty cells that must add up to a known amount."""

from __future__ import annotations

from ..explain.state import Deduction
from ..puzzle.combos import BIT, DIGITS
from . import rule


@rule(values=("need", "pair", "why"))
def pair_complement(view, rid):
    """A clued run with two empty cells: digit ``a`` stays in one of them only if the
    other can hold ``need - a`` and that is not ``a`` again (distinct digits).

    This covers the 2-cell runs of the ladder and, equally, any run down to its last
    two empty cells (their sum is the clue minus the digits written in).
    """
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) != 2:
        return
    placed = view.placed_mask(rid)
    x, y = open_
    elim: dict[int, int] = {}
    why: list[str] = []
    for me, other in ((x, y), (y, x)):
        theirs = view.mask(other) & ~placed
        bad = [(a, need - a) for a in DIGITS[view.mask(me) & ~placed]
               if not 1 <= need - a <= 9 or need - a == a or not theirs & BIT[need - a]]
        if bad:
            gone = 0
            for a, _ in bad:
                gone |= BIT[a]
            elim[me] = gone
            why.append(f"{view.cell_name(me)} cannot be {', '.join(str(a) for a, _ in bad)}, "
                       f"as {view.cell_name(other)} would need "
                       f"{', '.join(str(b) for _, b in bad)}")
    if not elim:
        return
    run = view.run(rid)
    pair = "its two cells" if run.length == 2 else "its two empty cells"
    yield Deduction(eliminations=elim, cells=(x, y), runs=(rid,),
                    values={"pair": pair, "cells": view.cells_name((x, y)), "need": need,
                            "why": "; ".join(why)})
