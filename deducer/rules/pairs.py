"""Pair complement: two empty cells that must add up to a known amount."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.state import Deduction
from ..puzzle.combos import BIT, DIGITS
from . import rule
from .api import View
from .facts import alts, cell_facts, minus, proof


def _either(digits: Iterable[int]) -> str:
    """``8``; ``8 or 9``; ``4, 6 or 7``, in the order given (pairs stay aligned)."""
    ds = [str(d) for d in digits]
    return ds[0] if len(ds) == 1 else ", ".join(ds[:-1]) + " or " + ds[-1]


@rule(values=("need", "need_text", "pair", "why"))
def pair_complement(view: View, rid: int) -> Iterator[Deduction]:
    """A clued run with two empty cells: digit ``a`` stays in one of them only if the
    other can hold ``need - a`` and that is not ``a`` again (distinct digits).

    This covers the 2-cell runs of the ladder and, equally, any run down to its last
    two empty cells (their sum is the clue minus the digits written in). The proof names
    the candidates of a partner cell only when a removal rests on them.
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
    leaned: list[int] = []  # partners whose candidates a removal rests on
    for me, other in ((x, y), (y, x)):
        theirs = view.mask(other) & ~placed
        plain, absent = [], []
        for a in DIGITS[view.mask(me) & ~placed]:
            b = need - a
            if not 1 <= b <= 9 or b == a or placed & BIT[b]:
                plain.append((a, b))
            elif not theirs & BIT[b]:
                absent.append((a, b))
        if not (plain or absent):
            continue
        gone = 0
        for a, _ in plain + absent:
            gone |= BIT[a]
        elim[me] = gone
        me_name, other_name = view.cell_name(me), view.cell_name(other)
        for a, b in plain:
            if b == a:
                why.append(f"{me_name} cannot be {a}, as {other_name} would need another {a}")
            elif 1 <= b <= 9:
                why.append(f"{me_name} cannot be {a}, as {other_name} would need the {b} "
                           "already written in")
            else:
                why.append(f"{me_name} cannot be {a}, as {other_name} would need {b}")
        if absent:
            leaned.append(other)
            why.append(f"{other_name} can only hold {alts(theirs)}, so {me_name} cannot be "
                       f"{_either(a for a, _ in absent)} (it would need "
                       f"{_either(b for _, b in absent)})")
    if not elim:
        return
    run = view.run(rid)
    assert run.total is not None  # remaining() is None only for an unclued run
    pair = "its two cells" if run.length == 2 else "its two empty cells"
    facts = cell_facts(view, leaned, (rid,))
    yield Deduction(eliminations=elim, cells=(x, y), runs=(rid,),
                    values={"pair": pair, "cells": view.cells_name((x, y)), "need": need,
                            "need_text": minus(run.total, placed), "why": "; ".join(why)},
                    proof=proof(view, (rid,), facts))
