"""Combo reference (seed 002 §1.2.5): rule out combinations the cells cannot hold."""

from __future__ import annotations

from itertools import combinations

from ..explain.state import Deduction
from ..puzzle.combos import POP
from . import rule


def matchable(digits: int, masks) -> bool:
    """Can each cell get its own digit of ``digits``, every digit used exactly once?

    (A perfect matching of cells to digits; ``len(masks)`` must equal the digit count.)
    """
    ms = sorted((m & digits for m in masks), key=lambda m: POP[m])
    if len(ms) != POP[digits]:
        return False
    states = {0}
    for m in ms:
        nxt = set()
        for s in states:
            avail = m & ~s
            while avail:
                b = avail & -avail
                avail ^= b
                nxt.add(s | b)
        if not nxt:
            return False
        states = nxt
    return digits in states


def hall_witness(digits: int, cells, masks) -> tuple[tuple[int, ...], int] | None:
    """The smallest group of cells that can only hold fewer of ``digits`` than it has
    cells (Hall's condition), as (cells, the digits they can hold); None if every group
    has room."""
    cells = list(cells)
    for k in range(1, len(cells) + 1):
        for group in combinations(range(len(cells)), k):
            u = 0
            for g in group:
                u |= masks[g] & digits
            if POP[u] < k:
                return tuple(cells[g] for g in group), u
    return None


def why_not(view, combo: int, placed: int, open_: list[int], masks: list[int]) -> str | None:
    """Why the open cells (with candidate ``masks``) cannot hold ``combo``; None if they can."""
    if combo & placed != placed:
        missing = placed & ~combo
        return (f"{view.combo(combo)} has no {view.digits(missing)}, which is already "
                f"written in")
    rest = combo & ~placed
    if POP[rest] != len(open_):
        return f"{view.combo(combo)} does not fit the cells written in"
    union = 0
    for m in masks:
        union |= m
    homeless = rest & ~union
    if homeless:
        return (f"{view.combo(combo)} needs {view.digits(homeless)}, which no empty cell "
                f"can hold")
    for i, m in zip(open_, masks, strict=True):
        if not m & rest:
            return (f"{view.combo(combo)} leaves {view.cell_name(i)} (candidates "
                    f"{view.digits(m)}) nothing")
    if matchable(rest, masks):
        return None
    found = hall_witness(rest, open_, masks)
    if found is None:  # cannot happen (Hall's theorem); say it plainly all the same
        return f"{view.combo(combo)} cannot be arranged in the empty cells"
    group, u = found
    if u:
        return (f"{view.combo(combo)} would need {len(group)} different digits in "
                f"{view.cells_name(group)}, which can only take {view.digits(u)} of it")
    return f"{view.combo(combo)} has nothing for {view.cells_name(group)}"


@rule(values=("combos", "left", "why"))
def combination_elimination(view, rid):
    """Drop every live combination of the run that its cells cannot hold: one missing a
    digit written in, one with a digit no empty cell takes, one that leaves an empty cell
    without a digit, one whose digits cannot all be given their own cell."""
    open_, placed, live = view.open_cells(rid), view.placed_mask(rid), view.live(rid)
    if not live:
        return
    masks = [view.mask(i) & ~placed for i in open_]
    dropped = []
    reasons = []
    for c in live:
        why = why_not(view, c, placed, open_, masks)
        if why is not None:
            dropped.append(c)
            reasons.append(why)
    if not dropped:
        return
    yield Deduction(drop_combos={rid: tuple(dropped)},
                    cells=tuple(view.layout.run_cells[rid]), runs=(rid,),
                    values={"combos": view.combos_text(live), "why": "; ".join(reasons),
                            "left": view.combos_text(c for c in live if c not in dropped)
                            or "nothing"})
