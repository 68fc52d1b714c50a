"""The full-strength per-run check: a digit stays only if some arrangement puts it there.

Shares ``run_filter`` with the solver's bulk propagation, so explain and solve agree.
"""

from __future__ import annotations

from ..explain.state import Deduction
from ..puzzle.combos import DIGITS
from ..solve.propagate import run_filter
from .facts import cell_facts, clue_combos, free_mask, holds, proof


def _removes(total, cells, masks, elim) -> bool:
    """Does the per-run check over ``masks`` still remove every digit of ``elim``?"""
    new = run_filter(total, tuple(masks[i] for i in cells))
    if new is None:
        return True
    return all(not new[cells.index(i)] & m for i, m in elim.items())


def permutation_check(view, rid, max_open: int | None = None):
    """Remove the digits of the run's empty cells that fit no arrangement of its
    combinations. The proof keeps the candidates of only those cells the removals rest
    on, and the run's arrangements are what a reader must try (the step's weight grows
    with them, see :mod:`deducer.explain.rating`)."""
    open_ = view.open_cells(rid)
    if not open_ or (max_open is not None and len(open_) > max_open):
        return
    cells = list(view.layout.run_cells[rid])
    total = view.layout.run_total[rid]
    old = {i: view.mask(i) for i in cells}
    new = run_filter(total, tuple(old[i] for i in cells))
    if new is None:
        facts = cell_facts(view, open_, (rid,))
        yield Deduction(eliminations={i: view.mask(i) for i in open_}, cells=tuple(cells),
                        runs=(rid,), values={"what": "any digit anywhere",
                                             "arrangements": "no arrangement at all",
                                             "open": len(open_),
                                             "facts": holds(view, facts) + "; " if facts
                                             else ""},
                        proof=proof(view, (rid,), facts, search=(rid,)))
        return
    elim = {i: old[i] & ~b for i, b in zip(cells, new, strict=True) if old[i] & ~b}
    if not elim:
        return
    facts = cell_facts(view, open_, (rid,))
    for j in list(facts):
        trial = dict(old)
        for k in open_:
            if k not in facts or k == j:
                trial[k] = free_mask(view, k, (rid,))
        if _removes(total, cells, trial, elim):
            del facts[j]
    what = " or ".join(f"{'/'.join(map(str, DIGITS[m]))} in {view.cell_name(i)}"
                       for i, m in elim.items())
    room = 0
    for i in open_:
        room |= facts.get(i, free_mask(view, i, (rid,)))
    placed = view.placed_mask(rid)
    fitting = [c for c in clue_combos(view, rid) if c & ~placed & ~room == 0]
    yield Deduction(eliminations=elim, cells=tuple(cells), runs=(rid,),
                    values={"what": what, "open": len(open_),
                            "arrangements": view.combos_text(fitting) or "none",
                            "facts": holds(view, facts) + "; " if facts else "",
                            "length": view.run(rid).length},
                    proof=proof(view, (rid,), facts, search=(rid,)))
