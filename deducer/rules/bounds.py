"""Largest and smallest possible numbers (seed 002 §1.2.3, the "minimax" method)."""

from __future__ import annotations

from ..explain.state import Deduction
from ..puzzle.combos import BIT, DIGITS, HIGH, LOW
from . import rule


def _extremes(masks: list[int], avail: int) -> tuple[int, int]:
    """Valid lower and upper bounds on the sum of distinct digits, one from each mask.

    Two bounds each way, the tighter kept: each cell on its own (its smallest/largest
    candidate) and the distinct-digits bound (the smallest/largest ``k`` digits any of
    the cells can take).
    """
    k = len(masks)
    lo_cells = sum(LOW[m] for m in masks)
    hi_cells = sum(HIGH[m] for m in masks)
    ds = DIGITS[avail]
    lo_set = sum(ds[:k]) if len(ds) >= k else 99
    hi_set = sum(ds[-k:]) if len(ds) >= k else -99
    return max(lo_cells, lo_set), min(hi_cells, hi_set)


@rule(values=("bounds", "count", "high", "low", "need", "others"))
def sum_bounds(view, rid):
    """Each empty cell is at least the remaining sum minus the most the other empty cells
    can make, and at most the remaining sum minus the least they can make."""
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) < 2:
        return
    placed = view.placed_mask(rid)
    masks = {i: view.mask(i) & ~placed for i in open_}
    if any(m == 0 for m in masks.values()):
        return  # a broken cell: other rules report it
    for i in open_:
        others = [masks[j] for j in open_ if j != i]
        avail = 0
        for m in others:
            avail |= m
        if len(DIGITS[avail]) < len(others):
            continue  # the other cells cannot all be filled: other rules report it
        least, most = _extremes(others, avail)
        lo, hi = need - most, need - least
        too_small = [d for d in DIGITS[masks[i]] if d < lo]
        too_big = [d for d in DIGITS[masks[i]] if d > hi]
        if not (too_small or too_big):
            continue
        gone = 0
        for d in too_small + too_big:
            gone |= BIT[d]
        name = view.cell_name(i)
        parts = []
        if too_big:
            parts.append(f"they make at least {least}, so {name} is at most "
                         f"{need} - {least} = {hi}")
        if too_small:
            parts.append(f"they make at most {most}, so {name} is at least "
                         f"{need} - {most} = {lo}")
        yield Deduction(eliminations={i: gone}, cells=tuple(open_), runs=(rid,),
                        values={"need": need, "cell": name,
                                "others": view.cells_name(j for j in open_ if j != i),
                                "count": len(open_), "bounds": "; ".join(parts),
                                "low": lo, "high": hi})
