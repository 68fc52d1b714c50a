"""The first rungs: isolated cells, unique combinations, cross reference, singles, filters."""

from __future__ import annotations

from ..explain.state import Deduction
from ..puzzle.combos import BIT, DIGITS, POP, SINGLE, combos
from . import rule


@rule(values=("digit", "placed"))
def lone_cell(view, rid):
    """One empty cell left in a clued run: it holds what the sum still needs (002 §1.2.2)."""
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) != 1:
        return
    i = open_[0]
    cells = view.layout.run_cells[rid]
    if 1 <= need <= 9 and view.mask(i) & BIT[need]:
        yield Deduction(placements={i: need}, cells=tuple(cells), runs=(rid,),
                        values={"cell": view.cell_name(i), "digit": need,
                                "placed": view.digits(view.placed_mask(rid), "+")})
    else:  # the sum cannot be met: the puzzle (as entered) has no solution
        yield Deduction(eliminations={i: view.mask(i)}, cells=tuple(cells), runs=(rid,),
                        values={"cell": view.cell_name(i), "digit": need,
                                "placed": view.digits(view.placed_mask(rid), "+")})


@rule(values=("combo",))
def unique_combination(view, rid):
    """The clue has exactly one combination: its cells hold only those digits (002 §1.2.1)."""
    run = view.run(rid)
    cs = combos(run.total, run.length)
    if run.total is None or len(cs) != 1:
        return
    only = cs[0]
    elim = {i: view.mask(i) & ~only for i in view.open_cells(rid) if view.mask(i) & ~only}
    if elim:
        yield Deduction(eliminations=elim, cells=tuple(run.cells), runs=(rid,),
                        values={"combo": view.combo(only)})


@rule(values=("digit", "mine", "other", "theirs"))
def unique_intersection(view, rid):
    """Cross reference (002 §1.2.4): the digits both runs allow at a cell are one digit."""
    mine = view.live_union(rid)
    for i in view.open_cells(rid):
        other = view.crossing(rid, i)
        theirs = view.live_union(other) if other is not None else 0x1FF
        both = view.mask(i) & mine & theirs
        if POP[both] == 1:
            runs = (rid,) if other is None else (rid, other)
            yield Deduction(placements={i: SINGLE[both]}, cells=(i,), runs=runs,
                            values={"digit": SINGLE[both], "mine": view.digits(mine),
                                    "theirs": view.digits(theirs),
                                    "other": "" if other is None else view.run_name(other)})


@rule(values=("digit",))
def naked_single(view, rid):
    """A cell down to one candidate gets that digit written in."""
    for i in view.open_cells(rid):
        d = SINGLE[view.mask(i)]
        if d:
            yield Deduction(placements={i: d}, cells=(i,), runs=(), values={"digit": d})


@rule(values=("combos", "digits"))
def combination_filter(view, rid):
    """A digit that is in no live combination of the run leaves its cells."""
    live = view.live(rid)
    union = view.live_union(rid)
    elim = {i: view.mask(i) & ~union for i in view.open_cells(rid) if view.mask(i) & ~union}
    if elim:
        gone = 0
        for m in elim.values():
            gone |= m
        yield Deduction(eliminations=elim, cells=tuple(view.layout.run_cells[rid]), runs=(rid,),
                        values={"combos": view.combos_text(live), "digits": view.digits(gone)})


@rule(values=("combos", "digit"))
def hidden_single(view, rid):
    """A digit every live combination needs fits only one cell of the run."""
    live = view.live(rid)
    need = view.live_common(rid) & ~view.placed_mask(rid)
    open_ = view.open_cells(rid)
    for d in DIGITS[need]:
        homes = [i for i in open_ if view.mask(i) & BIT[d]]
        if len(homes) == 1:
            yield Deduction(placements={homes[0]: d}, cells=tuple(open_), runs=(rid,),
                            values={"digit": d, "combos": view.combos_text(live),
                                    "cell": view.cell_name(homes[0])})
