"""When every rule stalls: level-1 trial, then backtracking (logged as a guess)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..clock import Limits
from ..engine.state import Deduction
from ..puzzle.combos import BIT, POP
from ..solver.search import solve
from . import rule
from .api import View
from .chains import find_braid, link_rules, to_deduction


def _by_constraint(view: View) -> list[int]:
    """Open cells, most constrained first (fewest candidates, then reading order)."""
    cells = [i for i in range(len(view.puzzle.whites))
             if not view.is_placed(i) and POP[view.mask(i)] > 1]
    cells.sort(key=lambda i: (POP[view.mask(i)], i))
    return cells


# The keyword defaults are the core ladder's params (tests/test_ladder_limits.py holds them
# equal): the ladder states every limit; a rule file written before these became
# parameters still runs as it did.
@rule(values=("digit", "length", "kind"))
def trial(view: View, work: int = 100_000, budgets: Sequence[int] = (6, 12, 24)
          ) -> Iterator[Deduction]:
    """Level-1 trial: assume a candidate and follow the ladder's link rules as far as they
    go (no cut-off); a contradiction eliminates it. The step shows the chain, only the
    links the contradiction rests on (:func:`deducer.rules.chains.find_braid`): ``work``
    links walked at most, each assumption followed for ``budgets`` links in turn, then
    without a bound."""

    found = find_braid(view, link_rules(view), max_len=10**9, work=work, budgets=budgets,
                       reach=1)
    if found is not None:
        i, d, links = found
        yield to_deduction(view, i, d, links)


@rule(values=("digit",))
def backtracking(view: View, node_work: int = 3) -> Iterator[Deduction]:
    """Search from here; with one solution left, the most constrained cell's digit is known.

    ``node_work``: units of a walk's work budget (Context.spend, where a chain link is one)
    that a node of the complete solver costs: a node takes about as long as three links
    (measured during generation: 4,400-6,300 nodes/s against 10,000-15,000 links/s). It
    decides where a walk with a budget (the generator's) stops."""

    context = view.context
    if context.stopped():
        return
    left = context.work_left()
    res = solve(view.puzzle, max_solutions=2, masks=list(view.masks),
                limits=Limits.within(context.time_left()).with_work(
                    None if left is None else max(0, left // node_work)))
    context.spend(res.work * node_work)
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
