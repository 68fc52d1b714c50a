"""When every rule stalls: level-1 trial, then backtracking (logged as a guess)."""

from __future__ import annotations

from ..explain.state import Deduction
from ..puzzle.combos import BIT, DIGITS, POP, SINGLE
from ..solve.propagate import Contradiction, propagate
from . import rule


def _by_constraint(view):
    """Open cells, most constrained first (fewest candidates, then reading order)."""
    cells = [i for i in range(len(view.puzzle.whites))
             if not view.is_placed(i) and POP[view.mask(i)] > 1]
    cells.sort(key=lambda i: (POP[view.mask(i)], i))
    return cells


@rule(values=("digit",))
def trial(view, max_chain: int = 4):
    """Assume a candidate, propagate; a contradiction eliminates it."""
    layout = view.layout
    base = list(view.masks)
    for i in _by_constraint(view):
        left = view.context.time_left()
        if left is not None and left <= 0:
            return  # the engine reports the time-out
        for d in DIGITS[base[i]]:
            masks = base.copy()
            masks[i] = BIT[d]
            order: list[int] = []
            try:
                propagate(layout, masks, layout.cell_runs[i], trace=order)
            except Contradiction as c:
                # the first consequences, in the order propagation found them
                chain = [j for j in dict.fromkeys(order)
                         if j != i and POP[base[j]] > 1 and SINGLE[masks[j]]][:max_chain]
                then = ", ".join(f"{view.cell_name(j)} = {SINGLE[masks[j]]}" for j in chain)
                broken = view.run_name(c.run)
                text = (f"If {view.cell_name(i)} were {d} then "
                        + (f"{then} … and " if then else "")
                        + f"{broken} would have no combination left; so {d} leaves "
                        f"{view.cell_name(i)}.")
                yield Deduction(eliminations={i: BIT[d]}, cells=(i,) + tuple(chain),
                                runs=(c.run,), text=text,
                                values={"digit": d, "cell": view.cell_name(i)})
                return


@rule(values=("digit",))
def backtracking(view):
    """Search from here; with one solution left, the most constrained cell's digit is known."""
    from ..solve.search import solve

    left = view.context.time_left()
    if left is not None and left <= 0:
        return
    res = solve(view.puzzle, max_solutions=2, masks=list(view.masks), timeout=left)
    if len(res.solutions) != 1 or not res.complete:
        return  # several solutions (or none): a guess would not be a deduction
    cells = _by_constraint(view)
    if not cells:
        return
    i = cells[0]
    d = res.solutions[0][i]
    others = view.mask(i) & ~BIT[d]
    text = (f"No rule applies. Guessing: backtracking search (trying candidates in turn, "
            f"fewest first) finds that only {d} in {view.cell_name(i)} leads to a solution; "
            f"{view.digits(others)} each end in a contradiction. So {view.cell_name(i)} = {d}.")
    yield Deduction(placements={i: d}, cells=(i,), text=text,
                    values={"digit": d, "cell": view.cell_name(i)})
