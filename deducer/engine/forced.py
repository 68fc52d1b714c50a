"""One deduction, one step: the cells a step's eliminations leave one digit are written in
by the same step (not by a naked single after it that would tell the reader again what
the step just showed), and a simple proof gets the facts the checker needs to decide them.
"""

from __future__ import annotations

from ..puzzle.combos import ALL, BIT, SINGLE
from ..solver.propagate import run_filter
from .kernel import Effect
from .state import Proof, State


def with_forced(state: State, effect: Effect, proof: Proof | None
                ) -> tuple[Effect, dict[int, int]]:
    """One deduction, one step: a cell the step's eliminations leave with one digit is
    written in by the same step, not by a naked single after it that would tell the
    reader again what this step just showed. Returns the effect with those placements
    and the digits each such cell lost (for its sentence, "1 and 3 leave r3c3, so r3c3
    = 5"). A simple proof gets the cell's candidates as a fact where the local problem
    needs them to decide the cell (the digits it lost alone do not)."""
    masks, placed = state.masks, state.placed
    have = {i for i, _ in effect.place}
    forced: dict[int, int] = {}
    add = []
    if not effect.elim:
        return effect, forced
    # what the step's own eliminations and the digits it writes leave each cell
    left = {i: masks[i] & ~m for i, m in effect.elim}
    lay = state.layout
    for j, d in effect.place:
        for r in lay.cell_runs[j]:
            for k in lay.run_cells[r]:
                if k in left:
                    left[k] &= ~BIT[d]
    more = True
    while more:  # a cell written in so may leave another of the step's cells one digit
        more = False
        for i, _m in effect.elim:
            if i in have or placed[i] or i in forced:
                continue
            d = SINGLE[left[i]]
            if d:
                forced[i] = masks[i] & ~BIT[d]
                add.append((i, d))
                more = True
                for r in lay.cell_runs[i]:
                    for k in lay.run_cells[r]:
                        if k in left and k != i:
                            left[k] &= ~BIT[d]
    if not add:
        return effect, forced
    if proof is not None and proof.assume is None and not proof.cases:
        for i, d in add:
            if i in proof.cells:
                proof.cells[i] &= masks[i]
            elif not _decided(state, proof, i, d):
                proof.cells[i] = masks[i]
    place = tuple(sorted((*effect.place, *add)))
    return Effect(place, effect.elim, effect.drop), forced

def _decided(state: State, proof: Proof, i: int, d: int) -> bool:
    """Does one run of ``proof``, with its facts, leave cell ``i`` only ``d`` (so that
    writing it in needs no fact about the cell)?"""
    masks, placed, lay = state.masks, state.placed, state.layout
    for r in proof.runs:
        cells = lay.run_cells[r]
        if i not in cells:
            continue
        free = ALL
        for j in cells:
            if placed[j]:
                free &= ~masks[j]
        got = tuple([masks[j] if placed[j] else proof.cells.get(j, free) for j in cells])
        total = lay.run_total[r]
        reach = 0
        for c in proof.combos.get(r, (ALL,)):
            fit = run_filter(total, tuple([m & c for m in got]))
            if fit is not None:
                reach |= fit[cells.index(i)]
        if reach == BIT[d]:
            return True
    return False
