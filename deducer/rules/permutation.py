"""The full-strength per-run check: a digit stays only if some arrangement puts it there.

Shares ``run_filter`` with the solver's bulk propagation, so explain and solve agree.
"""

from __future__ import annotations

from ..explain.state import Deduction
from ..puzzle.combos import DIGITS
from ..solve.propagate import run_filter
from . import rule


@rule(values=("arrangements", "open", "what"))
def permutation_check(view, rid, max_open: int | None = None):
    open_ = view.open_cells(rid)
    if not open_ or (max_open is not None and len(open_) > max_open):
        return
    cells = view.layout.run_cells[rid]
    old = tuple(view.mask(i) for i in cells)
    new = run_filter(view.layout.run_total[rid], old)
    if new is None:
        yield Deduction(eliminations={i: view.mask(i) for i in open_}, cells=tuple(cells),
                        runs=(rid,), values={"what": "any digit anywhere",
                                             "arrangements": "no arrangement at all"})
        return
    elim = {i: a & ~b for i, a, b in zip(cells, old, new, strict=True) if a & ~b}
    if not elim:
        return
    what = " or ".join(f"{'/'.join(map(str, DIGITS[m]))} in {view.cell_name(i)}"
                       for i, m in elim.items())
    run = view.run(rid)
    fitting = {c for c in view.live(rid)}
    yield Deduction(eliminations=elim, cells=tuple(cells), runs=(rid,),
                    values={"what": what, "open": len(open_),
                            "arrangements": view.combos_text(sorted(fitting)) or "none",
                            "length": run.length})
